// The scenario schema is read in parts, one file each: scenario_parse.cpp (the root, the workload,
// money over time), parse_rig.cpp (the rig, its parts and their power) and parse_electricity.cpp
// (tariffs and the grid's carbon). This header is what they share.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "payback/market/catalog.hpp"
#include "payback/scenario/scenario.hpp"
#include "payback/workload/rig_scaling.hpp"
#include "scenario/toml_reader.hpp"

namespace payback::detail {

/// What the rig and electricity readers need to know of the scenario read so far.
struct ReadContext {
    std::filesystem::path scenario_dir;  ///< file names in a scenario are relative to it
    std::string currency;
    std::optional<std::string> start;
    int horizon_months = 36;
    std::optional<std::string> prices_at;  ///< PriceChoice::at
    /// PriceChoice::catalogs(): whose prices (instances, API prices, rental markets, electricity) the readers take.
    const Catalog* prices_catalog = nullptr;
    const Catalog& catalog() const { return *prices_catalog; }
    /// Where each reader adds the as_of of a catalog price row it used (Scenario::price_dates).
    std::vector<std::string>* price_dates = nullptr;
    void used_price_of(const std::string& as_of) const {
        if (price_dates) price_dates->push_back(as_of);
    }
};

/// A price per kWh, with the cents check: in a major currency (keys.hpp) a kWh costs well under 2.
double read_kwh_price(const TomlReader& in, std::string_view key, const std::string& currency);

Rig read_rig(const TomlReader& in, const ReadContext& context);

/// [electricity]: the tariff, its escalation and the grid's carbon intensity, into `s`.
void read_electricity(const TomlReader& in, const ReadContext& context, Scenario& s);

/// [[cloud]]: each option, typed in or filled from the instance catalog; with a job, each GPU's
/// throughput on it (calibrate_cloud).
std::vector<CloudOption> read_clouds(const TomlReader& root, const ReadContext& context, const Rig& rig,
                                     const TrainingJob* job, const TokenWorkload* tokens);

// Serving tokens (parse_tokens.cpp).
/// `tokens_per_second = { prefill, decode }` of the table `in` ([rig] or a [[cloud]]); none when absent.
std::optional<TokenRates> read_token_rates(const TomlReader& in);
/// workload.tokens.
TokenWorkload read_tokens(const TomlReader& workload);
/// The rig's hours a month serving s.tokens at its rates (given or predicted); InputError when it has a
/// schedule, when serving and training take more than the month, or when the model does not fit it.
double rig_serving_hours(const TomlReader& root, const Scenario& s);
/// Without rig.tokens_per_second: the rates measured by workload.tokens.profile and scaled to the served
/// model (measured_serving.hpp), else the predictor's for the rig's catalog GPUs, split by layers over
/// links of `link_gb_per_s` when the model fits none alone (serving_prediction.hpp).
void predict_rig_rates(const TomlReader& root, const ReadContext& context, Scenario& s, double link_gb_per_s);
/// A [[cloud]] option's tokens_per_second and always_on, checked against workload.tokens.
void read_cloud_serving(const TomlReader& in, const TokenWorkload* tokens, CloudOption& cloud);
/// [[api]]: per-token options, typed in or from pricing/api-prices.csv; `s` has the rig, the
/// workload and the [[cloud]] options read.
std::vector<CloudOption> read_apis(const TomlReader& root, const ReadContext& context, const Scenario& s);

/// workload.job and workload.calibration (parse_workload.cpp): the job, timed on the rig's GPUs.
TrainingJob read_job(const TomlReader& workload, const ReadContext& context, const Rig& rig,
                     const RigScaling& scaling);

/// A cloud option's per-GPU speed from the job's calibration, unless it gives speedup itself.
void calibrate_cloud(const TomlReader& in, const TrainingJob* job, CloudOption& cloud);

/// [uncertainty] (parse_uncertainty.cpp); its keys are checked once the whole scenario is read.
Uncertainty read_uncertainty(const TomlReader& root);

/// What the scaling model needs of a job: its gradient bytes and compute time per step.
ScalingWorkload job_scaling_workload(const TrainingJob& job);

/// Checks across tables once everything is read: the PSU's capacity, the wiring, the schedule
/// against the workload.
void check_rig(const TomlReader& root, const Scenario& s);

/// A number the scenario may give and a catalog row may fill: the file's value when it has `key` (or
/// the row has none; then `fallback`, or the key is required), else the row's, recorded in `sources`
/// as (key, `origin`) for the assumptions table.
double number_or_catalog(const TomlReader& in, std::string_view key, const std::optional<double>& from_catalog,
                         const std::string& origin, std::vector<std::pair<std::string, std::string>>& sources,
                         std::optional<double> fallback = std::nullopt);

}  // namespace payback::detail
