// Which inputs matter: one-at-a-time swings of the NPV savings (a tornado chart, `payback tornado`)
// and, with an [uncertainty] table, a global ranking by rank correlation over a Monte Carlo run.
//
// Each input is set to a low and a high value with every other key at its current value, as
// `--set` would set it:
//   - a key with a distribution in [uncertainty]: its P10 and P90 (quantile at 0.1 and 0.9);
//   - any other key: the current value × (1 ∓ relative_swing), 20 % by default, or the LO:HI
//     given with it ("KEY=LO:HI").
//   A relative swing past what the key admits (700 h a month + 20 %) is cut where the key stops
//   admitting it; a given range or a P10/P90 the key does not admit is an error.
// Which keys: those listed in TornadoOptions::inputs; else every key of [uncertainty]; else the
// scenario's main keys (default_tornado_keys). The metric is the NPV savings of building instead
// of renting one cloud option: the named one, or the one closest to beating the rig.
//
// The bars are few (two runs per input), so each run is exact: the scenario parsed again with the
// key set, then the scalar engine, as SampleModel::evaluate_exactly runs a sample. The global
// ranking is a Monte Carlo run (montecarlo.hpp) over [uncertainty], all inputs varying together:
// each input's Spearman rank correlation with the savings, which also sees interactions and the
// inputs' whole distributions, not just their P10 and P90.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "payback/scenario/scenario.hpp"

namespace payback {

/// One input to swing: a key, and optionally its own low and high.
struct TornadoInput {
    std::string key;
    std::optional<std::pair<double, double>> range;
};

/// Parses "KEY" or "KEY=LO:HI" (LO < HI). Throws InputError("--vary", 0, key, message).
TornadoInput parse_tornado_input(const std::string& text);

struct TornadoOptions {
    std::vector<TornadoInput> inputs;    ///< empty: [uncertainty]'s keys, else default_tornado_keys
    std::optional<std::string> against;  ///< the cloud option; by default the closest to beating the rig
    double relative_swing = 0.2;         ///< for keys without a distribution or a range: ±20 %
    int samples = 2000;                  ///< Monte Carlo samples for the global ranking; 0: none
    std::uint64_t seed = 1;
};

struct TornadoBar {
    std::string key;
    double current = 0.0;  ///< the key's value in the scenario
    double low_value = 0.0;
    double high_value = 0.0;
    double metric_at_low = 0.0;  ///< NPV savings with the key at low_value, the rest current
    double metric_at_high = 0.0;
    double swing = 0.0;  ///< |metric_at_high - metric_at_low|
    /// Where low and high came from: "P10/P90", "+-20%", "given", or "+-20%, cut to the allowed
    /// values" when a relative swing went past what the key admits (cut where it stops admitting).
    std::string source;
};

/// One input's Spearman rank correlation with the metric over the Monte Carlo samples.
struct GlobalRank {
    std::string key;
    double rho = 0.0;  ///< NaN when the input or the metric did not vary
};

struct TornadoResult {
    std::string metric = "npv_savings";
    std::string against;
    double base = 0.0;             ///< the metric at the current values
    std::vector<TornadoBar> bars;  ///< by swing, largest first (ties in input order)
    /// With [uncertainty] and samples > 0: every uncertain input, by |rho|, largest first (NaN last).
    std::vector<GlobalRank> global;
    int samples = 0;  ///< of the global ranking; 0 when there is none
    std::uint64_t seed = 0;
    std::string path_note;         ///< how the bars were evaluated (exactly, one run per value)
    std::string global_path_note;  ///< ... and for the Monte Carlo run
};

/// The keys swung by default, those of the scenario's main figures that exist and are not zero:
/// workload.gpu_hours_per_month (unless a [workload] job or a usage schedule sets the hours),
/// electricity.price_per_kwh (a flat tariff), cloud[i].price_per_hour, rig.parts[i].price,
/// the resale parameters of each part's method (rig.parts[i].resale.annual_rate, .life_years,
/// .salvage_fraction, .half_life_years), and scenario.discount_rate (or real_discount_rate).
std::vector<std::string> default_tornado_keys(const Scenario& scenario);

/// Throws InputError for an unknown key, an unknown cloud option, a range or distribution value
/// the key does not admit, a key at 0 with neither a range nor a distribution (a relative swing
/// of 0 is none), or a key given twice.
TornadoResult tornado(const Scenario& scenario, const TornadoOptions& options = {});

}  // namespace payback
