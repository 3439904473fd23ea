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

TEST_CASE("the biggest reason names the group that differs most between the pair", "[verdict]") {
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml");
    const Comparison c = compare(s);
    REQUIRE(headline_pair(c) == std::optional<std::size_t>(0));
    // Cloud instances differ by 2,400, hardware by 1,500, electricity by 429.
    CHECK(biggest_reason(s, c, c.versus[0]) ==
          "The largest difference is cloud instances: 0 USD for rig against 2,400 USD for cloud over 24 months.");

    // At 10 h a month the cloud costs 10 / 2 × $2 × 24 = $240: now the parts differ most.
    const Scenario light = parse_scenario(test::hand_scenario(), "hand.toml", {{"workload.gpu_hours_per_month", "10"}});
    const Comparison lc = compare(light);
    CHECK(biggest_reason(light, lc, lc.versus[0]) ==
          "The largest difference is hardware less resale: 1,500 USD for rig against 0 USD for cloud over 24 months.");
}
