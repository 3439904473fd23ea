#include <catch2/catch.hpp>

#include <cmath>

#include <fmt/format.h>

#include "payback/model/metrics.hpp"
#include "payback/model/model_inputs.hpp"
#include "payback/scenario/scenario.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {
ModelInputs<double> hand_inputs(const std::vector<Override>& overrides = {}) {
    return model_inputs(parse_scenario(test::hand_scenario(), "hand.toml", overrides));
}
}  // namespace

TEST_CASE("model_inputs sums the parts' power and cost", "[engine]") {
    const auto in = hand_inputs({{"rig.parts[0].count", "2"}});
    CHECK(in.parts[0].cost == 2000);
    CHECK(in.parts[1].cost == 500);
    CHECK(in.training_hours == Approx(100).epsilon(1e-15));
    // DC: (2 x 300 + 100) W x 100 h + (2 x 20 + 30) W x 630 h = 70 + 44.1 = 114.1 kWh; / 0.8 = 142.625
    // kWh at the wall, x $0.20 = $28.525.
    REQUIRE(in.energy_kwh.size() == 24);
    CHECK(in.energy_kwh[0] == Approx(142.625).epsilon(1e-12));
    CHECK(in.energy_cost[0] == Approx(28.525).epsilon(1e-12));
    CHECK(in.clouds[0].spend_per_month == Approx(100.0).epsilon(1e-15));  // 100 h / speedup 2 x $2
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
    in.energy_kwh.assign(24, 0.5 * 730.0);
    in.energy_cost.assign(24, 80.0);
    PartInputs<double> part;
    part.cost = 1200.0;
    part.sell_month = 24;
    part.resale.method = ResaleMethod::straight_line;
    part.resale.life_years = 1.0;
    part.resale.salvage_fraction = 0.25;
    in.parts.push_back(part);
    CloudInputs<double> cloud;
    cloud.spend_per_month = 150.0;
    in.clouds.push_back(cloud);
    const auto m = evaluate(in);
    CHECK(m.versus[0].payback_months_if_sold == Approx(12.0 + 60.0 / 70.0).epsilon(1e-12));
    CHECK(m.versus[0].payback_months == Approx(1200.0 / 70.0).epsilon(1e-12));
    // Sold at the horizon for the 300 floor: 1200 + 24 x 80 - 300.
    CHECK(m.rig.total_cost == Approx(1200.0 + 24 * 80.0 - 300.0).epsilon(1e-12));
}

TEST_CASE("the sale the model books is sale_value's, to the last bit", "[engine][parts]") {
    // Two parts sold between whole years (months 30 and 19 of their age), on the exponential curves
    // that the model steps a month at a time: the same number as the one-off sale_value.
    ModelInputs<double> in;
    in.horizon_months = 30;
    in.energy_kwh.assign(30, 0.0);
    in.energy_cost.assign(30, 0.0);
    PartInputs<double> gpu;
    gpu.cost = 1190.0;
    gpu.sell_month = 30;
    gpu.resale = {ResaleMethod::declining_balance, 0.35, 0.0, 0.0, 0.0, {}};
    PartInputs<double> cpu;
    cpu.cost = 330.0;
    cpu.purchase_month = 4;
    cpu.sell_month = 22;
    cpu.resale = {ResaleMethod::price_performance, 0.0, 0.0, 0.0, 2.5, {}};
    in.parts = {gpu, cpu};
    std::vector<double> resale(31, 0.0);
    simulate(in, [&](const MonthFlows<double>& f) { resale[static_cast<std::size_t>(f.month)] = f.rig.resale; });
    CHECK(resale[30] == sale_value(in.parts[0]));
    CHECK(resale[22] == sale_value(in.parts[1]));
    // 1190 x 0.65^2.5 = 404.6...; 330 x 0.5^(19 / 30) = 213.1...
    CHECK(resale[30] == Approx(1190.0 * std::pow(0.65, 2.5)).epsilon(1e-14));
    CHECK(resale[22] == Approx(330.0 * std::pow(0.5, 19.0 / 30.0)).epsilon(1e-14));
}

TEST_CASE("more expensive electricity never makes the rig cheaper", "[engine][metrics][property]") {
    double previous_cost = -1.0, previous_savings = 1e300;
    for (double price = 0.0; price <= 1.0; price += 0.05) {
        const auto m = evaluate(hand_inputs({{"electricity.price_per_kwh", fmt::format("{}", price)}}));
        CHECK(m.rig.total_cost >= previous_cost);
        CHECK(m.versus[0].npv_savings <= previous_savings);
        previous_cost = m.rig.total_cost;
        previous_savings = m.versus[0].npv_savings;
    }
}

// ---------------------------------------------------------------------------------------------
// Line items beyond capex and energy. The hand scenario: GPU 1000 + CPU 500, energy $17.875 a
// month, cloud $100 a month, 24 months at 0 %.

namespace {
std::vector<MonthFlows<double>> hand_months(const std::vector<Override>& overrides) {
    std::vector<MonthFlows<double>> months;
    simulate(hand_inputs(overrides), [&](const MonthFlows<double>& f) { months.push_back(f); });
    return months;
}
}  // namespace

TEST_CASE("maintenance grows with inflation; the repair reserve is a share of the parts' cost", "[engine]") {
    const auto months = hand_months({{"running_costs", "{ maintenance_per_year = 120, repair_reserve = 0.04 }"},
                                     {"scenario.inflation", "0.1"}});
    CHECK(months[0].rig.maintenance == Approx(-10.0));  // 120 / 12
    CHECK(months[11].rig.maintenance == Approx(-10.0));
    CHECK(months[12].rig.maintenance == Approx(-11.0));  // year 2: x 1.1
    CHECK(months[0].rig.repair == Approx(-5.0));         // 1500 x 0.04 / 12
    CHECK(months[23].rig.repair == Approx(-5.0));        // a share of the price paid: no inflation
    CHECK(months[0].clouds[0].maintenance == 0.0);
}

TEST_CASE("electricity and cloud prices escalate in annual steps", "[engine]") {
    const auto months = hand_months({{"electricity.escalation", "0.1"}, {"cloud[0].escalation", "-0.5"},
                                     {"cloud[0].storage_per_month", "20"}, {"scenario.inflation", "0.05"}});
    CHECK(months[11].rig.energy == Approx(-17.875));
    CHECK(months[12].rig.energy == Approx(-17.875 * 1.1));  // -19.6625
    CHECK(months[12].energy_kwh == Approx(89.375));         // the kWh do not change
    CHECK(months[11].clouds[0].cloud == Approx(-100.0));
    CHECK(months[12].clouds[0].cloud == Approx(-50.0));     // halved in year 2
    CHECK(months[0].clouds[0].storage == Approx(-20.0));
    CHECK(months[12].clouds[0].storage == Approx(-21.0));   // storage grows with inflation
}

TEST_CASE("a loan: proceeds in month 1, level payments split into interest and principal", "[engine][loan]") {
    // Financed: 1500 - 300 down = 1200 at 12 % APR (1 % a month) over 12 months.
    // Payment = 1200 x 0.01 / (1 - 1.01^-12) = 106.6185464.
    const auto months = hand_months({{"financing", "{ down_payment = 300, apr = 0.12, term_months = 12 }"}});
    const double payment = 1200 * 0.01 / (1 - std::pow(1.01, -12));
    CHECK(payment == Approx(106.6185464));
    CHECK(months[0].rig.loan_proceeds == Approx(1200.0));
    CHECK(months[0].rig.loan_interest == Approx(-12.0));  // 1 % of 1200
    CHECK(months[0].rig.loan_principal == Approx(-(payment - 12.0)));
    double interest = 0, principal = 0;
    for (const auto& m : months) {
        interest += m.rig.loan_interest;
        principal += m.rig.loan_principal;
        if (m.month <= 12) CHECK(m.rig.loan_interest + m.rig.loan_principal == Approx(-payment));
    }
    CHECK(principal == Approx(-1200.0));
    CHECK(interest == Approx(-(12 * payment - 1200)));  // 79.4226 of interest
    CHECK(months[12].rig.loan_interest == 0.0);
}

TEST_CASE("a loan outlasting the horizon is paid off at its end", "[engine][loan]") {
    const auto months = hand_months({{"financing", "{ apr = 0.0, term_months = 48 }"}});
    // 1500 over 48 months at 0 %: 31.25 a month; the last month pays the other 24 x 31.25 too.
    CHECK(months[0].rig.loan_principal == Approx(-31.25));
    CHECK(months[23].rig.loan_principal == Approx(-31.25 * 25));
    CHECK(months[23].rig.loan_interest == 0.0);
}

TEST_CASE("the loan's level payment is finance::annuity_payment's", "[engine][loan]") {
    // 1500 of parts, 300 down, 9 % APR over 36 months: the first month pays interest 1200 x 0.0075
    // and the rest of annuity_payment(1200, 0.0075, 36) = 1200 x 0.0075 / (1 - 1.0075^-36) = 38.1597 as principal.
    const auto months = hand_months({{"financing", "{ down_payment = 300, apr = 0.09, term_months = 36 }"}});
    const double payment = finance::annuity_payment(1200.0, 0.09 / 12.0, 36);
    CHECK(payment == Approx(38.15967919192854).epsilon(1e-12));
    CHECK(months[0].rig.loan_interest == -(1200.0 * (0.09 / 12.0)));
    CHECK(months[0].rig.loan_principal == -(payment - 1200.0 * (0.09 / 12.0)));
}

TEST_CASE("payback leaves debt out; NPV pays the interest", "[engine][loan][metrics]") {
    const auto plain = evaluate(hand_inputs());
    const auto financed = evaluate(hand_inputs({{"financing", "{ down_payment = 300, apr = 0.12, term_months = 12 }"}}));
    CHECK(financed.versus[0].payback_months == plain.versus[0].payback_months);
    CHECK(financed.versus[0].discounted_payback_months == plain.versus[0].discounted_payback_months);
    const double interest = 12 * (1200 * 0.01 / (1 - std::pow(1.01, -12))) - 1200;
    CHECK(financed.versus[0].npv_savings == Approx(471.0 - interest).epsilon(1e-12));
}

TEST_CASE("business taxes: deductions, depreciation and the gain on sale", "[engine][tax]") {
    // 25 % tax; straight-line depreciation over 2 years: 1500 x 0.5 / 12 = 62.5 a month.
    // GPU resale: straight line to 0 over 4 years, so it sells for 500 at month 24, when its tax
    // basis is 0: a gain of 500.
    const auto months = hand_months({{"scenario.perspective", "business"},
                                     {"tax", "{ income_tax_rate = 0.25, depreciation = \"straight_line\", life_years = 2 }"},
                                     {"rig.parts[0].resale", "{ method = \"straight_line\", life_years = 4 }"}});
    // Month 1: 0.25 x (17.875 energy + 62.5 depreciation) = 20.09375 saved.
    CHECK(months[0].rig.tax == Approx(20.09375));
    // Month 24 also owes 0.25 x 500 on the gain: 20.09375 - 125.
    CHECK(months[23].rig.resale == Approx(500.0));
    CHECK(months[23].rig.tax == Approx(20.09375 - 125.0));
    // Renting is deductible too: 0.25 x 100.
    CHECK(months[0].clouds[0].tax == Approx(25.0));
}

TEST_CASE("MACRS 5-year depreciation spreads each tax year's share over its 12 months", "[engine][tax]") {
    const auto months = hand_months({{"scenario.perspective", "business"},
                                     {"scenario.horizon_months", "72"},
                                     {"tax", "{ income_tax_rate = 0.5, deduct_running_costs = false }"}});
    // Year 1: 20 % of 1500 / 12 = 25 a month, x 0.5 = 12.5; year 2: 32 %: 40 x 0.5 = 20;
    // year 6: 5.76 %: 7.2 x 0.5 = 3.6. Running costs are not deducted.
    CHECK(months[0].rig.tax == Approx(12.5));
    CHECK(months[12].rig.tax == Approx(20.0));
    CHECK(months[60].rig.tax == Approx(3.6));
    double total = 0;
    for (const auto& m : months) total += m.rig.tax;
    // The whole basis is deducted over 6 years, and nothing resells: 0.5 x 1500. The sale at
    // the horizon has no gain (basis 0, price 0).
    CHECK(total == Approx(750.0));
    CHECK(months[0].clouds[0].tax == 0.0);
}

TEST_CASE("a part bought later costs and draws power from its purchase month", "[engine][parts]") {
    const auto months = hand_months({{"rig.parts[0].purchase_month", "13"}});
    CHECK(months[0].rig.capex == -500);
    CHECK(months[12].rig.capex == -1000);
    CHECK(months[12].rig_capex_by_part[0] == -1000);
    // Months 1-12 only the CPU: 100 W x 100 h + 30 W x 630 h = 28.9 kWh DC; / 0.8 = 36.125 kWh.
    CHECK(months[0].energy_kwh == Approx(36.125));
    CHECK(months[12].energy_kwh == Approx(89.375));
}

TEST_CASE("a part retired early is sold then and stops drawing power", "[engine][parts]") {
    const auto months = hand_months({{"rig.parts[0].retire_month", "12"},
                                     {"rig.parts[0].resale", "{ method = \"straight_line\", life_years = 4 }"}});
    // 1000 x (1 - 12 / 48) = 750 at the end of month 12.
    CHECK(months[11].rig.resale == Approx(750.0));
    CHECK(months[11].asset_value_end == Approx(750.0));  // before that month's sale
    CHECK(months[12].asset_value_start == 0.0);          // the CPU resells for nothing
    CHECK(months[12].energy_kwh == Approx(36.125));
    CHECK(months[23].rig.resale == 0.0);
}

TEST_CASE("a replacement: retire one GPU and buy another in the next month", "[engine][parts]") {
    const auto s = parse_scenario(test::hand_scenario() + R"(
[[rig.parts]]
kind = "gpu"
name = "replacement GPU"
price = 800
idle_watts = 20
load_watts = 300
purchase_month = 13
)", "hand.toml", {{"rig.parts[0].retire_month", "12"}});
    std::vector<MonthFlows<double>> months;
    simulate(model_inputs(s), [&](const MonthFlows<double>& f) { months.push_back(f); });
    CHECK(months[12].rig.capex == -800);
    CHECK(months[12].energy_kwh == Approx(89.375));  // one GPU at a time
    CHECK(months[0].energy_kwh == Approx(89.375));
}

TEST_CASE("truncated() is selling at that month and renting after", "[engine]") {
    const auto in = truncated(hand_inputs({{"rig.parts[0].purchase_month", "13"}}), 12);
    CHECK(in.horizon_months == 12);
    REQUIRE(in.parts.size() == 1);  // the GPU bought in month 13 is never bought
    CHECK(in.parts[0].sell_month == 12);
}

TEST_CASE("levelized cost: NPV of cost per discounted hour of work", "[engine][metrics]") {
    const auto m = evaluate(hand_inputs({{"scenario.discount_rate", "0.1"}}));
    double hours_pv = 0;
    for (int month = 1; month <= 24; ++month) hours_pv += 100.0 * std::pow(1.1, -month / 12.0);
    CHECK(m.rig.levelized_cost_per_gpu_hour == Approx(m.rig.npv_cost / hours_pv).epsilon(1e-12));
    // The cloud's levelized cost is its price per hour of work: $2 at speedup 2 = $1.
    CHECK(m.clouds[0].levelized_cost_per_gpu_hour == Approx(1.0).epsilon(1e-12));
    // No work: no levelized cost, and no ROI without capex either.
    const auto idle = evaluate(hand_inputs({{"workload.gpu_hours_per_month", "0"}}));
    CHECK(std::isnan(idle.rig.levelized_cost_per_gpu_hour));
}

TEST_CASE("ROI: undiscounted savings over capex", "[engine][metrics]") {
    // (2400 - 1929) / 1500 = 0.314.
    CHECK(evaluate(hand_inputs()).versus[0].roi == Approx(471.0 / 1500.0).epsilon(1e-12));
    const auto free_rig = evaluate(hand_inputs({{"rig.parts[0].price", "0"}, {"rig.parts[1].price", "0"}}));
    CHECK(std::isnan(free_rig.versus[0].roi));
}
