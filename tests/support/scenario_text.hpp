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

/// The hand scenario serving a model instead of training (docs/inference.md): 36 M input tokens a
/// month, half of them cached, and 7.2 M output tokens; the rig reads 2,000 and writes 100 tokens a
/// second (5 h + 20 h = 25 h a month), the cloud 4,000 and 200 (12.5 h); an API at $0.2 input, $0.1
/// cached and $6 output per million, a sixth off its price (half off for the third of the week
/// from 16:00 to 24:00); a grid of 0.4 kg CO2 per kWh.
inline std::string token_scenario() {
    std::string text = hand_scenario();
    const auto swap = [&](const std::string& from, const std::string& to) { text.replace(text.find(from), from.size(), to); };
    swap("gpu_hours_per_month = 100",
         "tokens = { model = \"llama-3.1-8b\", quant = \"q4_0\", input_tokens_per_month = 36e6, "
         "output_tokens_per_month = 7.2e6, cached_input_share = 0.5 }");
    swap("psu_efficiency = 0.8", "psu_efficiency = 0.8\ntokens_per_second = { prefill = 2000, decode = 100 }");
    swap("price_per_kwh = 0.2", "price_per_kwh = 0.2\nco2_kg_per_kwh = 0.4");
    swap("speedup = 2.0", "speedup = 2.0\ntokens_per_second = { prefill = 4000, decode = 200 }");
    return text + R"(
[[api]]
name = "api"
price_per_million_input = 0.2
price_per_million_output = 6.0
price_per_million_cached_input = 0.1
off_peak = { schedule = "daily 16-24", discount = 0.5 }
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
