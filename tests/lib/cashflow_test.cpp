#include <catch2/catch.hpp>

#include "payback/comparison.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {
Comparison hand_comparison(const std::vector<Override>& overrides = {}) {
    return compare(parse_scenario(test::hand_scenario(), "hand.toml", overrides));
}
}  // namespace

TEST_CASE("the rig's table holds capex, energy and the sale, signed as cash", "[cashflow]") {
    const auto c = hand_comparison({{"rig.parts[0].resale", "{ method = \"straight_line\", life_years = 4 }"}});
    const CashFlows& rig = c.cashflows.at(0);
    REQUIRE(rig.months() == 24);
    CHECK(rig.kind == OptionKind::diy);
    CHECK(rig.capex[0] == -1500);
    CHECK(rig.capex[1] == 0);
    CHECK(rig.energy[0] == Approx(-17.875));
    // The GPU (1000) at two of four years on a straight line to 0: 500, sold at month 24.
    CHECK(rig.resale[23] == Approx(500.0));
    CHECK(rig.resale[22] == 0);
    CHECK(rig.asset_value[11] == Approx(750.0));
    CHECK(rig.energy_kwh[5] == Approx(89.375));
}

TEST_CASE("every row's net is the sum of its items; cumulative columns add up", "[cashflow][property]") {
    const auto c = hand_comparison({{"scenario.discount_rate", "0.07"},
                                    {"rig.parts[1].resale", "{ method = \"declining_balance\", annual_rate = 0.3 }"}});
    for (const CashFlows& t : c.cashflows) {
        double running = 0, running_discounted = 0;
        for (std::size_t r = 0; r < t.months(); ++r) {
            CHECK(t.net[r] == Approx(t.capex[r] + t.energy[r] + t.cloud[r] + t.resale[r]).epsilon(1e-14));
            running += t.net[r];
            running_discounted += t.discounted[r];
            CHECK(t.cumulative[r] == Approx(running).epsilon(1e-14));
            CHECK(t.cumulative_discounted[r] == Approx(running_discounted).epsilon(1e-14));
        }
    }
}

TEST_CASE("the table's totals equal the metrics", "[cashflow][metrics]") {
    const auto c = hand_comparison({{"scenario.discount_rate", "0.07"},
                                    {"rig.parts[0].resale", "{ method = \"declining_balance\", annual_rate = 0.25 }"}});
    for (std::size_t i = 0; i < c.options.size(); ++i) {
        const CashFlows& t = c.cashflows[i];
        CHECK(-t.cumulative.back() == Approx(c.options[i].total_cost).epsilon(1e-12));
        CHECK(-t.cumulative_discounted.back() == Approx(c.options[i].npv_cost).epsilon(1e-12));
    }
    CHECK(c.versus[0].npv_savings ==
          Approx(c.cashflows[0].cumulative_discounted.back() - c.cashflows[1].cumulative_discounted.back())
              .epsilon(1e-12));
}

TEST_CASE("columns can be read by name", "[cashflow]") {
    const auto c = hand_comparison();
    const CashFlows& cloud = c.cashflows.at(1);
    CHECK(cloud.value("cloud", 0) == Approx(-100.0));
    CHECK(cloud.value("month", 3) == 4);
    CHECK_THROWS_AS(cloud.value("nonsense", 0), std::out_of_range);
    CHECK(CashFlows::column_names().front() == "month");
}

TEST_CASE("cash_flows gives the same tables as compare", "[cashflow]") {
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml", {{"scenario.discount_rate", "0.07"}});
    const auto alone = cash_flows(s);
    const auto with_metrics = compare(s).cashflows;
    REQUIRE(alone.size() == with_metrics.size());
    for (std::size_t t = 0; t < alone.size(); ++t) {
        CHECK(alone[t].option == with_metrics[t].option);
        CHECK(alone[t].net == with_metrics[t].net);
        CHECK(alone[t].discounted == with_metrics[t].discounted);
        CHECK(alone[t].asset_value == with_metrics[t].asset_value);
    }
}
