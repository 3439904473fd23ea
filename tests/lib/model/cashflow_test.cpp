#include <catch2/catch.hpp>

#include <cmath>
#include <optional>

#include "payback/model/comparison.hpp"
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
    const auto c = hand_comparison(test::everything_on());
    const double rate = 0.07;
    for (const CashFlows& t : c.cashflows) {
        double running = 0, running_discounted = 0;
        for (std::size_t r = 0; r < t.months(); ++r) {
            double sum = 0, discounted = 0;
            for (const auto& item : CashFlows::line_item_names()) {
                sum += t.value(item, r);
                const bool at_start = item == "capex" || item == "loan_proceeds";
                discounted += t.value(item, r) * std::pow(1 + rate, -(static_cast<double>(r) + (at_start ? 0 : 1)) / 12);
            }
            CHECK(t.net[r] == Approx(sum).epsilon(1e-12));
            CHECK(t.discounted[r] == Approx(discounted).epsilon(1e-12));
            running += t.net[r];
            running_discounted += t.discounted[r];
            CHECK(t.cumulative[r] == Approx(running).epsilon(1e-12));
            CHECK(t.cumulative_discounted[r] == Approx(running_discounted).epsilon(1e-12));
            double by_part = 0;
            for (const auto& part : t.capex_by_part) by_part += part.capex[r];
            if (t.kind == OptionKind::diy) CHECK(by_part == t.capex[r]);
        }
    }
    // Every line item is in use somewhere (rental income and fees wait for the markets work).
    for (const auto& item : CashFlows::line_item_names()) {
        if (item == "rental_income" || item == "rental_fees") continue;
        bool used = false;
        for (const CashFlows& t : c.cashflows)
            for (double v : t.column(item)) used = used || v != 0.0;
        INFO(item);
        CHECK(used);
    }
}

TEST_CASE("the table's totals equal the metrics", "[cashflow][metrics]") {
    const auto c = hand_comparison(test::everything_on());
    for (std::size_t i = 0; i < c.options.size(); ++i) {
        const CashFlows& t = c.cashflows[i];
        CHECK(-t.cumulative.back() == Approx(c.options[i].total_cost).epsilon(1e-12));
        CHECK(-t.cumulative_discounted.back() == Approx(c.options[i].npv_cost).epsilon(1e-12));
    }
    CHECK(c.versus[0].npv_savings ==
          Approx(c.cashflows[0].cumulative_discounted.back() - c.cashflows[1].cumulative_discounted.back())
              .epsilon(1e-12));

    const CashFlows& rig = c.cashflows[0];
    const CashFlows& cloud = c.cashflows[1];
    double capex = 0, work_pv = 0;
    for (std::size_t r = 0; r < rig.months(); ++r) {
        capex -= rig.capex[r];
        work_pv += rig.work_hours[r] * std::pow(1.07, -(r + 1.0) / 12);
    }
    REQUIRE(c.versus[0].roi);
    CHECK(*c.versus[0].roi == Approx((rig.cumulative.back() - cloud.cumulative.back()) / capex).epsilon(1e-12));
    REQUIRE(c.options[0].levelized_cost_per_gpu_hour);
    CHECK(*c.options[0].levelized_cost_per_gpu_hour == Approx(c.options[0].npv_cost / work_pv).epsilon(1e-12));

    // Payback from the columns alone: operating flows leave out debt, hardware sales and the tax
    // on both; the first month-end where the cumulative difference is >= 0, linear within it.
    std::optional<double> payback;
    double behind = 0;
    for (std::size_t r = 0; r < rig.months() && !payback; ++r) {
        auto operating_end = [r](const CashFlows& t) {
            return t.net[r] - t.capex[r] - t.loan_proceeds[r] - t.resale[r] - t.loan_interest[r] -
                   t.loan_principal[r] - t.tax_on_sale[r] - t.tax_on_interest[r];
        };
        const double start = behind - rig.capex[r] + cloud.capex[r];
        const double end = start - (operating_end(rig) - operating_end(cloud));
        if (end <= 0) payback = start <= 0 ? static_cast<double>(r) : r + start / (start - end);
        behind = end;
    }
    REQUIRE(payback);
    REQUIRE(c.versus[0].payback_months);
    CHECK(*c.versus[0].payback_months == Approx(*payback).epsilon(1e-12));
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
