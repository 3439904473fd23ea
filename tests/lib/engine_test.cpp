#include <catch2/catch.hpp>

#include "payback/metrics.hpp"
#include "payback/scenario.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {
ModelInputs<double> hand_inputs(const std::vector<Override>& overrides = {}) {
    return model_inputs(parse_scenario(test::hand_scenario(), "hand.toml", overrides));
}
}  // namespace

TEST_CASE("model_inputs sums the parts' power and cost", "[engine]") {
    const auto in = hand_inputs({{"rig.parts[0].count", "2"}});
    CHECK(in.parts[0].load_watts == 2 * 300);
    CHECK(in.parts[1].load_watts == 100);
    CHECK(in.parts[0].idle_watts == 2 * 20);
    CHECK(in.parts[1].idle_watts == 30);
    CHECK(in.parts[0].cost == 2000);
    CHECK(in.parts[1].cost == 500);
    CHECK(in.training_hours == Approx(100).epsilon(1e-15));
    CHECK(in.price_per_kwh == Approx(0.2).epsilon(1e-15));
    CHECK(in.clouds[0].price_per_hour == Approx(2.0).epsilon(1e-15));
}

TEST_CASE("one month of the hand scenario", "[engine]") {
    std::vector<MonthFlows<double>> months;
    simulate(hand_inputs(), [&](const MonthFlows<double>& f) { months.push_back(f); });
    REQUIRE(months.size() == 24);
    // DC: 400 W x 100 h + 50 W x 630 h = 71,500 Wh; at the wall 71.5 / 0.8 = 89.375 kWh.
    CHECK(months[0].energy_kwh == Approx(89.375));
    // 89.375 kWh x $0.20 = $17.875, a cost: negative.
    CHECK(months[0].rig.energy == Approx(-17.875));
    // Cloud: 100 h / speedup 2 = 50 h at $2 = $100.
    CHECK(months[0].clouds[0].cloud == Approx(-100.0));
    CHECK(months[0].rig.capex == -1500);
    CHECK(months[0].rig_capex_by_part[0] == -1000);
    CHECK(months[0].rig_capex_by_part[1] == -500);
    CHECK(months[1].rig.capex == 0);
    // No resale method: the parts sell for nothing.
    CHECK(months[23].rig.resale == 0);
}

TEST_CASE("a rig switched off outside training draws only its load hours", "[engine]") {
    std::vector<MonthFlows<double>> months;
    simulate(hand_inputs({{"rig.when_not_training", "\"off\""}}),
             [&](const MonthFlows<double>& f) { months.push_back(f); });
    // 400 W x 100 h = 40 kWh DC; / 0.8 = 50 kWh at the wall.
    CHECK(months[0].energy_kwh == Approx(50.0));
}

TEST_CASE("metrics of the hand scenario, by hand", "[engine][metrics]") {
    const auto m = evaluate(hand_inputs());
    // The gap starts at the capex, 1500, and closes by 100 - 17.875 = 82.125 a month:
    // 1500 / 82.125 = 18.2648 months.
    CHECK(m.versus[0].payback_months == Approx(1500.0 / 82.125).epsilon(1e-12));
    // Nothing resells, so selling changes nothing.
    CHECK(m.versus[0].payback_months_if_sold == Approx(1500.0 / 82.125).epsilon(1e-12));
    // At 0 %: 24 x 100 - (1500 + 24 x 17.875) = 2400 - 1929 = 471.
    CHECK(m.versus[0].npv_savings == Approx(471.0).epsilon(1e-12));
    CHECK(m.rig.total_cost == Approx(1929.0).epsilon(1e-12));
    CHECK(m.clouds[0].total_cost == Approx(2400.0).epsilon(1e-12));
    CHECK(m.rig_energy_kwh == Approx(24 * 89.375).epsilon(1e-12));
}

TEST_CASE("payback is NaN when the horizon is too short", "[engine][metrics]") {
    // 18.26 months are needed; 12 are given.
    const auto m = evaluate(hand_inputs({{"scenario.horizon_months", "12"}}));
    CHECK(std::isnan(m.versus[0].payback_months));
}

TEST_CASE("discounting: monthly at (1+r)^(1/12), capex undiscounted", "[engine][metrics]") {
    const auto m = evaluate(hand_inputs({{"scenario.discount_rate", "0.12"}}));
    double pv_cloud = 0, pv_rig = 1500;
    for (int month = 1; month <= 24; ++month) {
        const double factor = std::pow(1.12, -month / 12.0);
        pv_cloud += 100.0 * factor;
        pv_rig += 17.875 * factor;
    }
    CHECK(m.clouds[0].npv_cost == Approx(pv_cloud).epsilon(1e-12));
    CHECK(m.rig.npv_cost == Approx(pv_rig).epsilon(1e-12));
    CHECK(m.versus[0].npv_savings == Approx(pv_cloud - pv_rig).epsilon(1e-12));
    // Discounted payback: the first month whose end has PV(rig outlay) <= PV(cloud spend), then
    // linear within it. With the gap g(m) = 1500 + 17.875 S(m) - 100 S(m), S(m) = sum of factors:
    // g(m) = 1500 - 82.125 S(m).
    auto annuity = [](int months) {
        double sum = 0;
        for (int k = 1; k <= months; ++k) sum += std::pow(1.12, -k / 12.0);
        return sum;
    };
    int m_cross = 1;
    while (1500.0 - 82.125 * annuity(m_cross) > 0) ++m_cross;
    const double g0 = 1500.0 - 82.125 * annuity(m_cross - 1), g1 = 1500.0 - 82.125 * annuity(m_cross);
    // v = 1.12^(-1/12) = 0.990600; S(m) = v (1 - v^m) / (1 - v) reaches 1500 / 82.125 = 18.265
    // when v^m = 1 - 18.265 x 0.0094 / 0.9906 = 0.8267: m = ln 0.8267 / ln v = 20.15, in month 21.
    CHECK(m_cross == 21);
    CHECK(m.versus[0].discounted_payback_months == Approx(20.15).margin(0.01));
    CHECK(m.versus[0].discounted_payback_months == Approx(m_cross - 1 + g0 / (g0 - g1)).epsilon(1e-12));
    // A year-end flow of 1 is worth 1/1.12 today.
    CHECK(discount_factor(0.12, 12.0) == Approx(1.0 / 1.12).epsilon(1e-15));
}

TEST_CASE("payback if sold counts what the parts would fetch", "[engine][metrics]") {
    // One part of 1200 that falls 75 a month to a 25 % floor (300) at month 12; energy 80 a month
    // (500 W x 730 h / 1000 / 1.0 x $0.2191780821...); cloud 150 a month.
    // Gap if sold: months 1-12: 1200 + 80m - (1200 - 75m) - 150m = 5m > 0;
    // after: 1200 + 80m - 300 - 150m = 900 - 70m, so 60 at m = 12 and -10 at m = 13:
    // 12 + 60 / 70 = 12.857 months. Without the sale: 1200 / 70 = 17.143 months.
    ModelInputs<double> in;
    in.horizon_months = 24;
    in.discount_rate = 0.0;
    in.training_hours = 730.0;
    in.idle_when_not_training = 1.0;
    in.psu_efficiency = 1.0;
    in.price_per_kwh = 80.0 / (0.5 * 730.0);
    PartInputs<double> part;
    part.cost = 1200.0;
    part.load_watts = 500.0;
    part.sell_month = 24;
    part.resale.method = ResaleMethod::straight_line;
    part.resale.life_years = 1.0;
    part.resale.salvage_fraction = 0.25;
    in.parts.push_back(part);
    CloudInputs<double> cloud;
    cloud.price_per_hour = 150.0 / 730.0;
    cloud.speedup = 1.0;
    in.clouds.push_back(cloud);
    const auto m = evaluate(in);
    CHECK(m.versus[0].payback_months_if_sold == Approx(12.0 + 60.0 / 70.0).epsilon(1e-12));
    CHECK(m.versus[0].payback_months == Approx(1200.0 / 70.0).epsilon(1e-12));
    // Sold at the horizon for the 300 floor: 1200 + 24 x 80 - 300.
    CHECK(m.rig.total_cost == Approx(1200.0 + 24 * 80.0 - 300.0).epsilon(1e-12));
}

TEST_CASE("more expensive electricity never makes the rig cheaper", "[engine][metrics][property]") {
    double previous_cost = -1.0, previous_savings = 1e300;
    for (double price = 0.0; price <= 1.0; price += 0.05) {
        auto in = hand_inputs();
        in.price_per_kwh = price;
        const auto m = evaluate(in);
        CHECK(m.rig.total_cost >= previous_cost);
        CHECK(m.versus[0].npv_savings <= previous_savings);
        previous_cost = m.rig.total_cost;
        previous_savings = m.versus[0].npv_savings;
    }
}
