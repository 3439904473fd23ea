#include <catch2/catch.hpp>

#include "payback/model/comparison.hpp"
#include "payback/model/cost_breakdown.hpp"
#include "payback/report/verdict.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {
Scenario hand(const std::vector<Override>& overrides = {}) {
    return parse_scenario(test::hand_scenario(), "hand.toml", overrides);
}
}  // namespace

TEST_CASE("the verdict names the winner of the hand scenario", "[verdict]") {
    // 100 GPU-hours a month: the rig's 1929 over 24 months against the cloud's 2400 (comparison_test.cpp).
    const Scenario s = hand();
    CHECK(verdict(compare(s), s).rfind("Build: over 24 months the rig costs", 0) == 0);
    // At $0.01/h the cloud costs at most 87.60, below the rig's capex.
    const Scenario cheap = hand({{"cloud[0].price_per_hour", "0.01"}});
    CHECK(verdict(compare(cheap), cheap).rfind("Rent cloud: over 24 months it costs", 0) == 0);
}

TEST_CASE("without cloud options the verdict says so", "[verdict]") {
    Scenario s = hand();
    s.clouds.clear();
    CHECK(verdict(compare(s), s) == "No cloud options to compare the rig with.");
}

TEST_CASE("the reason gives each side's month, the months to recover the parts, and the resale", "[verdict]") {
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml");
    const Comparison c = compare(s);
    REQUIRE(headline_pair(c) == std::optional<std::size_t>(0));
    // The rig's month: 100 h at 400 W and 630 h at 50 W, DC through a 0.8 PSU: 50 + 39.375 kWh at
    // $0.20 = $17.875. The cloud's: 100 h at speedup 2 = 50 h at $2 = $100. The difference, $82.125
    // a month, recovers the $1,500 of parts in 1500 / 82.125 = 18.26 months, within 24. (Summed over
    // 24 months in floating point, 17.875 lands a hair below the half cent: 17.87.)
    CHECK(biggest_reason(s, c, c.versus[0]) ==
          "Running the rig costs 17.87 USD a month against 100 USD for cloud; the 82.13 USD saved a month "
          "recovers the 1,500 USD of parts in 18.3 months, within the 24-month horizon, and selling the parts "
          "gives nothing back.");

    // The GPU sold at two of four years on a straight line: 1000 / 2 = $500 back, so the capital net of
    // resale, $1,000, takes 1000 / 82.125 = 12.18 months.
    const Scenario resold =
        parse_scenario(test::hand_scenario(), "hand.toml",
                       {{"rig.parts[0].resale", "{ method = \"straight_line\", life_years = 4 }"}});
    const Comparison rc = compare(resold);
    CHECK_THAT(biggest_reason(resold, rc, rc.versus[0]),
               Catch::EndsWith("within the 24-month horizon. Selling the parts gives back 500 USD, so the capital "
                               "net of resale is recovered in 12.2 months."));

    // At 20 h a month: the rig 20 h × 500 W + 710 h × 62.5 W = 54.375 kWh at $0.20 = $10.875, the cloud
    // 20 / 2 × $2 = $20; $9.125 a month takes 1500 / 9.125 = 164.4 months, beyond the horizon.
    const Scenario light = parse_scenario(test::hand_scenario(), "hand.toml", {{"workload.gpu_hours_per_month", "20"}});
    const Comparison lc = compare(light);
    CHECK(biggest_reason(light, lc, lc.versus[0]) ==
          "Running the rig costs 10.87 USD a month against 20.00 USD for cloud; the 9.13 USD saved a month "
          "recovers the 1,500 USD of parts in 164.4 months, beyond the 24-month horizon, and selling the parts "
          "gives nothing back.");

    // At $0.10/h the cloud's month is 50 h × $0.10 = $5, below the rig's $17.875: nothing is saved.
    const Scenario cheap = parse_scenario(test::hand_scenario(), "hand.toml", {{"cloud[0].price_per_hour", "0.1"}});
    const Comparison cc = compare(cheap);
    CHECK(biggest_reason(cheap, cc, cc.versus[0]) ==
          "Running the rig costs 17.87 USD a month against 5.00 USD for cloud; at no saving a month, the 1,500 USD "
          "of parts is never recovered, and selling the parts gives nothing back.");
}
