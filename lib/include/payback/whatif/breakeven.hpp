// Break-even solver: the value of any numeric scenario key at which building and renting cost the
// same in present value (npv_savings = 0). The key is changed exactly as `--set` would change it,
// so every trial value is validated like the file and every model input can be solved for.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "payback/scenario/scenario.hpp"

namespace payback {

struct BreakevenQuery {
    std::string key;  ///< a key path as for --set: "electricity.price_per_kwh", "rig.parts[0].price"
    /// The interval searched; by default from 0 to 10 × a positive current value, from 10 × to
    /// -10 × a negative one, from -1 to 1 for 0, each cut to the values the key admits;
    /// [0, 730] for workload.gpu_hours_per_month.
    std::optional<std::pair<double, double>> range;
    std::optional<std::string> against;  ///< the cloud option; by default the one closest to beating the rig
};

struct BreakevenResult {
    std::string key;
    double current = 0.0;            ///< the key's value in the scenario
    std::optional<double> value;     ///< the lowest value in the range where npv_savings = 0; none if none
    bool more_roots = false;         ///< npv_savings changes sign again above `value`
    std::pair<double, double> range;
    std::string metric = "npv_savings";
    std::string against;
    double savings_at_low = 0.0;     ///< npv_savings at the range's ends
    double savings_at_high = 0.0;
    std::string message;             ///< one sentence saying what the answer means
};

/// Solves for the key's break-even. Throws InputError for an unknown or non-numeric key, an
/// unknown cloud option or a range the key does not admit.
BreakevenResult breakeven(const Scenario& scenario, const BreakevenQuery& query);

}  // namespace payback
