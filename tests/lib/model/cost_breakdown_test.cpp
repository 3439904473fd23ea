#include <catch2/catch.hpp>

#include <numeric>

#include "payback/model/cost_breakdown.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {

const CostGroup* group(const std::vector<CostGroup>& list, const std::string& name) {
    for (const CostGroup& g : list)
        if (g.name == name) return &g;
    return nullptr;
}

}  // namespace

// The hand scenario (tests/support/scenario_text.hpp): parts 1,500, no resale; 100 h at 500 W at the
// wall and 630 h idle at 62.5 W: 50 + 39.375 = 89.375 kWh a month at $0.20 = $17.875, over 24 months
// $429. The cloud: 100 h / speedup 2 = 50 h at $2 = $100 a month, $2,400.
TEST_CASE("the cost groups of each option add up to its total cost", "[report]") {
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml");
    const Comparison c = compare(s);
    const auto list = cost_breakdown(c);
    REQUIRE(list.size() == 3);  // hardware, electricity, cloud instances; the rest are zero
    CHECK(group(list, "hardware less resale")->per_option == std::vector<double>{1500.0, 0.0});
    CHECK(group(list, "electricity")->per_option[0] == Approx(429.0));
    CHECK(group(list, "cloud instances")->per_option[1] == Approx(2400.0));
    for (std::size_t i = 0; i < c.options.size(); ++i) {
        double sum = 0.0;
        for (const CostGroup& g : list) sum += g.per_option[i];
        CHECK(sum == Approx(c.options[i].total_cost));
    }
}

TEST_CASE("every line item lands in a group: the groups add up with everything switched on", "[report]") {
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml", test::everything_on());
    const Comparison c = compare(s);
    const auto list = cost_breakdown(c);
    CHECK(group(list, "loan interest") != nullptr);
    CHECK(group(list, "income tax") != nullptr);
    CHECK(group(list, "cloud storage") != nullptr);
    for (std::size_t i = 0; i < c.options.size(); ++i) {
        double sum = 0.0;
        for (const CostGroup& g : list) sum += g.per_option[i];
        CHECK(sum == Approx(c.options[i].total_cost));
    }
}

TEST_CASE("the headline pair is the cloud option closest to beating the rig", "[report]") {
    // A second, cheaper cloud option ($1/h at speedup 2: $1,200) is the one the answer is about.
    const Scenario s = parse_scenario(test::hand_scenario() + R"(
[[cloud]]
name = "cheap cloud"
price_per_hour = 1.0
speedup = 2.0
)", "hand.toml");
    const Comparison c = compare(s);
    const auto pair = headline_pair(c);
    REQUIRE(pair);
    CHECK(c.versus[*pair].cloud == "cheap cloud");
    CHECK(c.versus[*pair].npv_savings < 0.0);  // 1,200 against 1,929: renting wins
}
