// One validated, unit-typed scenario: the rig, the owner's workload, the tariff and the cloud
// alternatives. Produced only by load_scenario(), which rejects bad input with an InputError
// naming the file, line and key; nothing downstream re-validates.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "payback/base/units.hpp"
#include "payback/energy/circuit.hpp"
#include "payback/energy/power.hpp"
#include "payback/energy/tariff.hpp"
#include "payback/finance/depreciation.hpp"
#include "payback/finance/finance.hpp"
#include "payback/market/cloud_billing.hpp"
#include "payback/market/cloud_option.hpp"
#include "payback/market/price_schedule.hpp"
#include "payback/market/rental.hpp"
#include "payback/market/token_serving.hpp"
#include "payback/scenario/uncertainty.hpp"
#include "payback/workload/calibration.hpp"
#include "payback/workload/scaling.hpp"

namespace payback {

class Catalog;

/// Where a scenario's catalog prices come from, and as of when.
struct PriceChoice {
    /// "YYYY-MM-DD" (--as-of): each item's row with the latest as_of on or before it; none: the newest.
    std::optional<std::string> at;
    /// The catalogs with a price history's rows (Catalog::with_history); none: Catalog::shipped().
    std::shared_ptr<const Catalog> catalog;
    const Catalog& catalogs() const;  ///< `catalog`, else Catalog::shipped()
};

enum class PartKind { cpu, gpu, ram, storage, motherboard, psu, case_, cooler, network, other };

/// When the owner is not training, the rig either idles (drawing its idle watts) or is switched off.
enum class WhenNotTraining { idle, off };

struct Part {
    PartKind kind = PartKind::other;
    std::string name;
    units::Money price;  ///< per unit
    int count = 1;
    units::Power off_power;   ///< DC draw per unit when the rig is off (standby)
    units::Power idle_power;  ///< DC draw per unit when idle
    units::Power load_power;  ///< DC draw per unit when training
    std::optional<units::Power> rented_power;  ///< when rented out; none: as when training
    std::optional<units::Power> power_limit;   ///< a cap on training and rented draw (nvidia-smi -pl)
    // Wiring, for the multi-GPU checks (scaling.hpp): a CPU's lanes, a board's slots, a card's link.
    std::optional<int> pcie_lanes;
    std::vector<PcieSlot> pcie_slots;
    std::optional<GpuLink> pcie;
    double nvlink_gb_per_s = 0.0;  ///< a bridge between this part's cards, per direction; 0: none
    // Catalog rows this part was filled from (`gpu = "RTX 3090"`, `part = "..."`), and which keys they set.
    std::string catalog_gpu;
    std::string catalog_part;
    std::vector<std::pair<std::string, std::string>> from_catalog;
    int purchase_month = 1;   ///< bought at the start of this month
    std::optional<int> retire_month;  ///< sold at the end of this month; none: at the horizon
    ResaleCurve<double> resale;  ///< observed_fraction is filled by model_inputs, from observed_prices
    /// The observed method's schedule (per unit, in the scenario's currency) and where it came from.
    std::optional<PriceSchedule> observed_prices;
    std::string observed_file;  ///< as written in the scenario
};

struct Rig {
    std::string name = "rig";
    WhenNotTraining when_not_training = WhenNotTraining::idle;
    double psu_efficiency = 1.0;  ///< wall energy = DC energy / psu_efficiency, when there is no curve
    std::optional<PsuSpec> psu;   ///< an 80 PLUS curve at the actual load, instead of psu_efficiency
    std::vector<std::string> schedule;  ///< usage rules (usage.hpp); empty: training spread evenly
    Cooling cooling;
    std::optional<Circuit> circuit;  ///< none: the usual circuit for the mains voltage
    /// The rig as it would run without renting: hours a schedule offers for rent stay idle.
    bool rented_hours_idle = false;
    std::vector<Part> parts;
    /// Serving the [workload] tokens: the rig's aggregate rates at the workload's concurrency.
    std::optional<TokenRates> tokens_per_second;
};

/// Fixed costs of owning the rig.
struct RunningCosts {
    units::Money maintenance_per_year;  ///< in today's money; grows with inflation
    double repair_reserve = 0.0;        ///< fraction of the owned parts' price set aside per year
};

/// A loan for the parts bought in month 1, less the down payment, amortized monthly.
struct Financing {
    units::Money down_payment;
    double apr = 0.0;  ///< annual, compounded monthly
    int term_months = 12;
};

/// Renting out the hours the owner does not train, on a marketplace (rental.hpp).
struct Rental {
    std::string market;  ///< a pricing/rental-markets.csv market, or empty
    RentalTerms<double> terms;
    std::vector<ReservedBooking> bookings;
    std::vector<std::pair<std::string, std::string>> from_catalog;  ///< key -> catalog row
};

enum class Perspective { hobbyist, business };

/// Income taxes, for the business perspective.
struct TaxRules {
    double income_tax_rate = 0.0;
    finance::TaxDepreciation depreciation = finance::TaxDepreciation::macrs_5;
    int life_years = 5;                 ///< straight line, declining balance, sum of the years' digits
    std::vector<double> custom_schedule;  ///< fractions per year, for custom
    bool deduct_running_costs = true;
};

/// The owner's training as jobs (docs/benchmark.md): `runs_per_month` runs of `epochs` epochs of
/// `samples_per_epoch` samples of a benchmark model, timed by a calibration profile.
struct TrainingJob {
    std::string model;               ///< a benchmark workload: "cifar10-tutorial", "mlp"
    double samples_per_epoch = 0;
    double epochs = 1;
    double runs_per_month = 0;
    int batch = 0;                   ///< the batch whose measured throughput is used
    std::string calibration_file;    ///< as written; empty when samples_per_second was given
    std::optional<CalibrationProfile> profile;
    double gpu_samples_per_second = 0;  ///< one of the rig's GPUs, at stock power
    std::string gpu_origin;             ///< measured, mapped or given
    double scaling_efficiency = 1.0;    ///< the rig's GPUs training this model together
    int gpus = 1;

    double samples_per_run() const { return samples_per_epoch * epochs; }
    /// The whole rig's throughput: per GPU × GPUs × their data-parallel efficiency.
    double rig_samples_per_second() const { return gpu_samples_per_second * gpus * scaling_efficiency; }
    double rig_hours_per_run() const { return samples_per_run() / rig_samples_per_second() / 3600.0; }
};

/// Serving a model (docs/inference.md): which model at which quantization, and the tokens a month.
struct TokenWorkload {
    std::string model;
    std::string quant;
    TokenVolume volume;
    int concurrency = 1;
    int context = 4096;
    /// A `payback bench --workload llm-decode` profile of the rig's device, as written (relative to the
    /// scenario); empty: the rig's rates are given or predicted.
    std::string profile;
};

struct Scenario {
    std::string source;  ///< the file it came from, for messages
    std::string name;
    std::string currency = "USD";
    int horizon_months = 36;
    double discount_rate = 0.0;  ///< annual, nominal, as a fraction
    /// Set when the file gave real_discount_rate; discount_rate is then (1+real)(1+inflation)-1.
    std::optional<double> real_discount_rate;
    double inflation = 0.0;      ///< annual, general
    std::optional<std::string> start;  ///< "YYYY-MM": the calendar month that month 1 is
    Perspective perspective = Perspective::hobbyist;
    units::Duration training_per_month;  ///< the owner's training, in hours on the rig
    Rig rig;
    units::MoneyPerEnergy electricity_price;  ///< the flat price; for other tariffs, 0
    Tariff tariff;                  ///< flat, tiered or time-of-use; every tariff is one
    std::string tariff_kind = "flat";  ///< flat, region, tiered, urdb, tou (as written)
    std::string electricity_region;    ///< a pricing/electricity-prices.csv region, for "region"
    std::string electricity_origin;    ///< the catalog row its price came from
    std::string tariff_file;        ///< the URDB file, as written
    double electricity_escalation = 0.0;  ///< per year, nominal
    double grid_co2_kg_per_kwh = 0.0;     ///< the rig's grid; 0: not given
    std::string grid_region;              ///< when read from pricing/grid-carbon.csv
    bool deferrable_training = false;     ///< training may move to the cheapest hours
    std::optional<double> job_hours;      ///< the length of one job, for billing increments
    std::optional<TrainingJob> job;       ///< training described as jobs; training_per_month follows from it
    std::optional<TokenWorkload> tokens;  ///< a model served on the rig, beside (or instead of) training
    double serving_hours_per_month = 0.0; ///< the rig's hours serving `tokens` (at its tokens_per_second)
    RunningCosts running_costs;
    std::optional<Financing> financing;
    std::optional<TaxRules> tax;  ///< present exactly when the perspective is business
    std::optional<Rental> rental;  ///< compare shows the rig with and without it
    /// The [[cloud]] options, then the [[api]] options (CloudOption::api set), in the file's order.
    std::vector<CloudOption> clouds;
    Uncertainty uncertainty;  ///< distributions for Monte Carlo and tornado charts; empty: none
    /// The catalogs and the date its prices were read from (kept so that a changed copy reads the same).
    PriceChoice prices;
    /// The as_of of every catalog price row the scenario used (cloud instances, API prices, the rental
    /// market, a region's electricity price), in reading order; empty when every price is typed in.
    std::vector<std::string> price_dates;
};

/// A `--set key.path=value` override; `value` is TOML (a number, "string", true, { inline = 1 }).
struct Override {
    std::string key_path;
    std::string value;
};

/// Parses and validates a scenario file, applying overrides first. Throws InputError.
/// `prices` picks the catalogs and the date whose prices are read (Scenario::prices).
Scenario load_scenario(const std::string& path, const std::vector<Override>& overrides = {},
                       const PriceChoice& prices = {});

/// Parses and validates scenario text; `source` names it in messages.
Scenario parse_scenario(const std::string& toml_text, const std::string& source,
                        const std::vector<Override>& overrides = {},
                        const PriceChoice& prices = {});

/// Parses "key.path=value" as given on the command line. Throws InputError.
Override parse_override(const std::string& assignment);

/// The scenario as TOML text, every default filled in (what `payback check` prints).
std::string to_toml(const Scenario& scenario);

const char* to_string(PartKind kind);
const char* to_string(ResaleMethod method);
const char* to_string(WhenNotTraining mode);
const char* to_string(Perspective perspective);

}  // namespace payback
