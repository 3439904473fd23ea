// Small scenarios written inline for tests, so each test shows every number it depends on.
#pragma once

#include <string>

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

}  // namespace payback::test
