#include <catch2/catch.hpp>

#include <cmath>

#include <fmt/format.h>

#include "payback/model/comparison.hpp"
#include "payback/model/metrics.hpp"
#include "payback/model/model_inputs.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {
Scenario hand(const std::vector<Override>& overrides = {}) {
    return parse_scenario(test::hand_scenario(), "hand.toml", overrides);
}
}  // namespace

TEST_CASE("break-even workload of the hand scenario, by hand", "[comparison][breakeven]") {
    // Savings over 24 months at 0 %: cloud 24 x w (w / 2 h at $2), rig 1500 + 24 x energy(w),
    // energy(w) = (400 w + 50 (730 - w)) / 1000 / 0.8 x 0.2 = 0.0875 w + 9.125.
    // 24 w - 1500 - 2.1 w - 219 = 0  =>  w = 1719 / 21.9 = 78.4932 h a month.
    const auto w = breakeven_training_hours(hand(), 0);
    REQUIRE(w);
    CHECK(*w == Approx(1719.0 / 21.9).epsilon(1e-9));
    const auto c = compare(hand());
    REQUIRE(c.versus[0].breakeven_gpu_hours_per_month);
    CHECK(*c.versus[0].breakeven_gpu_hours_per_month == Approx(1719.0 / 21.9).epsilon(1e-9));
}

TEST_CASE("at the break-even workload NPV savings are zero", "[comparison][breakeven][property]") {
    const auto s = hand({{"scenario.discount_rate", "0.09"},
                         {"rig.parts[0].resale", "{ method = \"declining_balance\", annual_rate = 0.3 }"}});
    const auto w = breakeven_training_hours(s, 0);
    REQUIRE(w);
    Scenario at = s;
    at.training_per_month = units::hours(*w);
    CHECK(std::fabs(evaluate(model_inputs(at)).versus[0].npv_savings) < 1e-6);
}

TEST_CASE("no break-even when the cloud is cheaper at every workload", "[comparison][breakeven]") {
    // At $0.01/h the cloud costs at most 730 / 2 x 0.01 x 24 = $87.60, below the rig's capex.
    const auto c = compare(hand({{"cloud[0].price_per_hour", "0.01"}}));
    CHECK_FALSE(c.versus[0].breakeven_gpu_hours_per_month);
    CHECK_FALSE(c.versus[0].payback_months);
    CHECK(c.versus[0].npv_savings < 0);
}

TEST_CASE("options, totals and cost per GPU-hour", "[comparison]") {
    const auto c = compare(hand());
    REQUIRE(c.options.size() == 2);
    CHECK(c.options[0].kind == OptionKind::diy);
    CHECK(c.options[0].name == "rig");
    CHECK(c.options[1].kind == OptionKind::cloud);
    // 1929 over 24 x 100 hours of work = 0.80375 per GPU-hour; the cloud's 2400 / 2400 = 1.
    CHECK(*c.options[0].cost_per_gpu_hour == Approx(1929.0 / 2400.0));
    CHECK(*c.options[1].cost_per_gpu_hour == Approx(1.0));
    // No training, no cost per hour of it.
    const auto idle = compare(hand({{"workload.gpu_hours_per_month", "0"}}));
    CHECK_FALSE(idle.options[0].cost_per_gpu_hour);
}

TEST_CASE("Dettmers' published example comes out near 300 days", "[comparison][published]") {
    // timdettmers.com/2020/09/07/which-gpu-for-deep-learning/: "about 300 days" for a $2,200
    // RTX 3090 desktop at 15 % utilization against a $2.14/h V100. By hand:
    // 2200 / (2.14 x 109.5 - 0.45 x 109.5 x 0.12) = 9.6316 months x 730 / 24 = 292.96 days.
    const auto c = compare(load_scenario(PAYBACK_SOURCE_DIR "/scenarios/dettmers-3090.toml"));
    REQUIRE(c.versus[0].payback_months);
    const double days = *c.versus[0].payback_months * 730.0 / 24.0;
    CHECK(days == Approx(292.96).margin(0.01));
    CHECK(std::fabs(days - 300.0) / 300.0 < 0.05);
    // Published: (350 W + 100 W) x 0.15 x 24 h x 365 d = 591 kWh a year. Here 0.45 kW x 109.5 h x 12.
    CHECK(c.options[0].energy_kwh / 3.0 == Approx(591.3).epsilon(1e-12));
}

// ---------------------------------------------------------------------------------------------
// IRR, ROI and the best month to sell.

TEST_CASE("IRR of building: discounting at it makes the NPV savings zero", "[comparison][irr][property]") {
    for (const char* resale : {"{ method = \"none\" }", "{ method = \"declining_balance\", annual_rate = 0.3 }"}) {
        const auto c = compare(hand({{"rig.parts[0].resale", resale}}));
        REQUIRE(c.versus[0].irr_status == "ok");
        REQUIRE(c.versus[0].irr);
        REQUIRE(c.versus[0].irr_roots.size() == 1);
        const std::string rate = fmt::format("{}", *c.versus[0].irr);
        const auto at_irr = compare(hand({{"rig.parts[0].resale", resale}, {"scenario.discount_rate", rate}}));
        CHECK(at_irr.versus[0].npv_savings == Approx(0.0).margin(1e-6));
    }
}

TEST_CASE("IRR of the hand scenario against the annuity formula", "[comparison][irr]") {
    // -1500 now, then +82.125 at the end of each of 24 months: the monthly rate r solves
    // 1500 = 82.125 (1 - (1+r)^-24) / r. Check the annual rate the other way: at the monthly rate
    // (1 + irr)^(1/12) - 1 the annuity is worth 1500.
    const auto c = compare(hand());
    REQUIRE(c.versus[0].irr);
    const double r = std::pow(1.0 + *c.versus[0].irr, 1.0 / 12.0) - 1.0;
    CHECK(82.125 * (1.0 - std::pow(1.0 + r, -24)) / r == Approx(1500.0).epsilon(1e-10));
    // 1500 / 82.125 = 18.265; at r = 2.311 %, (1 - 1.02311^-24) / 0.02311 = 18.265 as well:
    // 1.02311^12 - 1 = 31.5 % a year.
    CHECK(*c.versus[0].irr == Approx(0.3154).margin(0.0005));
}

TEST_CASE("IRR without a sign change: no rate, never NaN", "[comparison][irr]") {
    // No work: the rig only costs and renting costs nothing, so every incremental flow is negative.
    const auto idle = compare(hand({{"workload.gpu_hours_per_month", "0"}}));
    CHECK(idle.versus[0].irr_status == "no_sign_change");
    CHECK_FALSE(idle.versus[0].irr);
    CHECK(idle.versus[0].irr_roots.empty());
    CHECK_FALSE(idle.versus[0].payback_months);
}

TEST_CASE("ROI over the horizon", "[comparison]") {
    // (2400 - 1929) / 1500.
    const auto c = compare(hand());
    REQUIRE(c.versus[0].roi);
    CHECK(*c.versus[0].roi == Approx(471.0 / 1500.0).epsilon(1e-12));
}

TEST_CASE("optimal sale month: keep a rig that keeps saving", "[comparison][sale]") {
    // Each month saves 82.125 and nothing resells: savings(s) = 82.125 s - 1500, largest at 24.
    const auto c = compare(hand());
    CHECK(c.versus[0].optimal_sale_month == 24);
    CHECK(c.versus[0].optimal_sale_npv_savings == Approx(471.0).epsilon(1e-12));
}

TEST_CASE("optimal sale month: sell a losing rig at once", "[comparison][sale]") {
    // Cloud at $0.30/h: 50 h x 0.3 = 15 a month against 17.875 of energy, a loss of 2.875 a month;
    // both parts lose half their value a year. Selling at the end of month s (then renting):
    // savings(s) = -1500 + 1500 x 0.5^(s/12) - 2.875 s, largest at s = 1.
    const auto c = compare(hand({{"cloud[0].price_per_hour", "0.3"},
                                 {"rig.parts[0].resale", "{ method = \"price_performance\", half_life_years = 1 }"},
                                 {"rig.parts[1].resale", "{ method = \"price_performance\", half_life_years = 1 }"}}));
    CHECK(c.versus[0].optimal_sale_month == 1);
    CHECK(c.versus[0].optimal_sale_npv_savings == Approx(-1500.0 + 1500.0 * std::pow(0.5, 1.0 / 12.0) - 2.875));
}

TEST_CASE("optimal sale month: sell into a shortage", "[comparison][sale]") {
    // The RTX 2080 Ti's used price peaked at $1,186 in December 2021 (Tom's Hardware eBay series,
    // pricing/used-gpu-prices.csv). Bought for $1,199 in October 2021, it is worth most around
    // the end of month 2 (2021-12-01 lies between the November and December observations), and
    // it lost about $850 by October 2023. With little work to do, selling near the peak wins.
    const Scenario s = parse_scenario(R"(
[scenario]
horizon_months = 24
start = "2021-10"
[workload]
gpu_hours_per_month = 10
[rig]
[[rig.parts]]
kind = "gpu"
name = "RTX 2080 Ti"
price = 1199
load_watts = 250
resale = { method = "observed", file = "pricing/used-gpu-prices.csv", item = "RTX 2080 Ti" }
[electricity]
price_per_kwh = 0.15
[[cloud]]
name = "cloud"
price_per_hour = 1.0
)", PAYBACK_SOURCE_DIR "/shortage.toml");
    const auto c = compare(s);
    // Dates are fractional months (day - 1) / days in the month: November 15 is 14/30 into
    // November, December 15 is 14/31 into December, so 2021-12-01, the end of month 2, lies
    // (1 - 14/30) / (1 + 14/31 - 14/30) = 0.5415 of the way from 1137 to 1186: 1163.53.
    const double share = (1.0 - 14.0 / 30.0) / (1.0 + 14.0 / 31.0 - 14.0 / 30.0);
    CHECK(c.cashflows[0].asset_value[1] == Approx(1137.0 + 49.0 * share));
    CHECK(c.versus[0].optimal_sale_month == 2);
    // Sold at the horizon, 2023-10-01: September 15 (335) to October 15 (309), the same share.
    CHECK(c.cashflows[0].resale[23] == Approx(335.0 - 26.0 * share));
}

// ---------------------------------------------------------------------------------------------
// Edge cases, each with its defined answer.

TEST_CASE("edge: a one-month horizon", "[comparison][edge]") {
    // Month 1: rig 1500 + 17.875, cloud 100; payback not reached; one sale month.
    const auto c = compare(hand({{"scenario.horizon_months", "1"}}));
    CHECK(c.options[0].total_cost == Approx(1517.875));
    CHECK_FALSE(c.versus[0].payback_months);
    CHECK(c.versus[0].npv_savings == Approx(100.0 - 1517.875));
    CHECK(c.versus[0].optimal_sale_month == 1);
    CHECK(c.versus[0].irr_status == "ok");  // -1500 now, +82.125 in a month: -94.5 % a month
    REQUIRE(c.versus[0].irr);
    CHECK(*c.versus[0].irr == Approx(std::pow(82.125 / 1500.0, 12) - 1.0).epsilon(1e-9));
}

TEST_CASE("edge: zero and negative discount rates", "[comparison][edge]") {
    const auto zero = compare(hand({{"scenario.discount_rate", "0"}}));
    CHECK(zero.options[0].npv_cost == zero.options[0].total_cost);  // nothing discounted
    CHECK(zero.versus[0].discounted_payback_months == zero.versus[0].payback_months);
    // At -5 % a future dollar is worth more than today's: PV of the cloud's 24 x 100 exceeds 2400.
    const auto negative = compare(hand({{"scenario.discount_rate", "-0.05"}}));
    CHECK(negative.options[1].npv_cost > 2400.0);
    double pv = 0;
    for (int m = 1; m <= 24; ++m) pv += 100.0 * std::pow(0.95, -m / 12.0);
    CHECK(negative.options[1].npv_cost == Approx(pv).epsilon(1e-12));
    REQUIRE(negative.versus[0].discounted_payback_months);
    CHECK(*negative.versus[0].discounted_payback_months < *negative.versus[0].payback_months);
}

TEST_CASE("edge: all flows zero", "[comparison][edge]") {
    // Free parts, free power, no work: nothing happens. Payback is immediate (0: nothing to pay
    // back), savings and costs are 0, the IRR does not exist and ROI has no capex to divide by.
    const auto c = compare(hand({{"rig.parts[0].price", "0"}, {"rig.parts[1].price", "0"},
                                 {"electricity.price_per_kwh", "0"}, {"workload.gpu_hours_per_month", "0"}}));
    CHECK(c.options[0].total_cost == 0.0);
    CHECK(c.versus[0].npv_savings == 0.0);
    REQUIRE(c.versus[0].payback_months);
    CHECK(*c.versus[0].payback_months == 0.0);
    CHECK(c.versus[0].irr_status == "no_sign_change");
    CHECK_FALSE(c.versus[0].roi);
    CHECK_FALSE(c.options[0].levelized_cost_per_gpu_hour);
}

TEST_CASE("edge: huge values stay finite and exact in ratio", "[comparison][edge]") {
    // Every price x 1e9: the payback, ROI and IRR do not change; the money scales.
    const auto base = compare(hand());
    const auto huge = compare(hand({{"rig.parts[0].price", "1e12"}, {"rig.parts[1].price", "5e11"},
                                    {"electricity.price_per_kwh", "0.2"}, {"scenario.currency", "\"JPY\""},
                                    {"cloud[0].price_per_hour", "2e9"}}));
    // Energy stays 17.875 (not scaled), so compare only what scales cleanly: the cloud's total.
    CHECK(huge.options[1].total_cost == Approx(2.4e12).epsilon(1e-12));
    REQUIRE(huge.versus[0].payback_months);
    CHECK(std::isfinite(*huge.versus[0].payback_months));
    CHECK(*huge.versus[0].payback_months == Approx(1.5e12 / (1e11 - 17.875)).epsilon(1e-12));
    CHECK(huge.versus[0].irr_status == "ok");
    CHECK(base.versus[0].irr_status == "ok");
}
