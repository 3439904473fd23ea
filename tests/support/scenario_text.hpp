// Small scenarios written inline for tests, so each test shows every number it depends on.
#pragma once

#include <string>
#include <vector>

#include "payback/scenario/scenario.hpp"

namespace payback::test {

/// A two-part rig against one cloud option, with figures chosen for hand arithmetic:
/// capex 1500; load 400 W, idle 50 W (DC); PSU 0.8; 100 training hours a month; $0.20/kWh;
/// cloud $2/h at speedup 2; 24 months at a 0 % discount rate.
inline std::string hand_scenario() {
    return R"(
[scenario]
name = "hand"
horizon_months = 24
discount_rate = 0.0

[workload]
gpu_hours_per_month = 100

[rig]
when_not_training = "idle"
psu_efficiency = 0.8

[[rig.parts]]
kind = "gpu"
name = "GPU"
price = 1000
idle_watts = 20
load_watts = 300

[[rig.parts]]
kind = "cpu"
name = "CPU"
price = 500
idle_watts = 30
load_watts = 100

[electricity]
price_per_kwh = 0.2

[[cloud]]
name = "cloud"
price_per_hour = 2.0
speedup = 2.0
)";
}

/// Overrides that switch every line item of the hand scenario on: discounting, inflation,
/// escalation, maintenance, a repair reserve, storage, a loan, business taxes, a part bought
/// late, a part retired early, and resale.
inline std::vector<Override> everything_on() {
    return {{"scenario.discount_rate", "0.07"},
            {"scenario.inflation", "0.03"},
            {"scenario.perspective", "business"},
            {"tax", "{ income_tax_rate = 0.3, depreciation = \"macrs_5\" }"},
            {"financing", "{ down_payment = 200, apr = 0.09, term_months = 18 }"},
            {"running_costs", "{ maintenance_per_year = 60, repair_reserve = 0.02 }"},
            {"electricity.escalation", "0.04"},
            {"cloud[0].escalation", "-0.2"},
            {"cloud[0].storage_per_month", "15"},
            {"rig.parts[0].retire_month", "14"},
            {"rig.parts[0].resale", "{ method = \"declining_balance\", annual_rate = 0.3 }"},
            {"rig.parts[1].purchase_month", "3"},
            {"rig.parts[1].resale", "{ method = \"price_performance\", half_life_years = 2.5 }"}};
}

}  // namespace payback::test
