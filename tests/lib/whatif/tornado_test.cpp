#include <catch2/catch.hpp>

#include <cmath>

#include "payback/base/error.hpp"
#include "payback/whatif/montecarlo.hpp"
#include "payback/whatif/sampling.hpp"
#include "payback/whatif/tornado.hpp"
#include "support/input_errors.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {

Scenario hand(const std::vector<Override>& overrides = {}) {
    return parse_scenario(test::hand_scenario(), "hand.toml", overrides);
}

// The hand scenario with two uncertain inputs and a point mass.
std::string uncertain_text() {
    return test::hand_scenario() + R"(
[uncertainty]
"workload.gpu_hours_per_month" = { dist = "uniform", low = 50, high = 150 }
"electricity.price_per_kwh" = { dist = "uniform", low = 0.1, high = 0.3 }
"rig.parts[1].price" = { dist = "discrete", values = [500] }
)";
}

void bar_is(const TornadoBar& b, const std::string& key, double low, double high, double at_low, double at_high) {
    INFO(b.key);
    CHECK(b.key == key);
    CHECK(b.low_value == Approx(low).epsilon(1e-12));
    CHECK(b.high_value == Approx(high).epsilon(1e-12));
    CHECK(b.metric_at_low == Approx(at_low).epsilon(1e-9).margin(1e-9));
    CHECK(b.metric_at_high == Approx(at_high).epsilon(1e-9).margin(1e-9));
    CHECK(b.swing == Approx(std::abs(at_high - at_low)).epsilon(1e-9).margin(1e-9));
}

}  // namespace

TEST_CASE("tornado of the hand scenario at +-20 %, by hand", "[tornado]") {
    // Savings at 0 % over 24 months (scenario_text.hpp): the cloud bills 24 × h/2 hours at c an
    // hour; the rig costs its parts g + q and 24 p × (0.5 h + 0.0625 (730 - h)) kWh:
    //   S = 12 h c - g - q - 24 p (0.4375 h + 45.625);  at h 100, c 2, g 1000, q 500, p 0.2: S = 471.
    // Each key ±20 %, the rest as they are:
    //   cloud price  1.6 / 2.4:    1200 c - 1929           = -9 / 951      swing 960
    //   hours        80 / 120:     21.9 h - 1719           = 33 / 909      swing 876
    //   GPU price    800 / 1200:   1471 - g                = 671 / 271     swing 400
    //   CPU price    400 / 600:    971 - q                 = 571 / 371     swing 200
    //   electricity  0.16 / 0.24:  900 - 24 × 89.375 p     = 556.8 / 385.2 swing 171.6
    // The discount rate is 0, which ±20 % cannot move, so it is left out; the parts have no resale.
    const TornadoResult r = tornado(hand());
    CHECK(r.metric == "npv_savings");
    CHECK(r.against == "cloud");
    CHECK(r.base == Approx(471.0).epsilon(1e-12));
    REQUIRE(r.bars.size() == 5);
    bar_is(r.bars[0], "cloud[0].price_per_hour", 1.6, 2.4, -9.0, 951.0);
    bar_is(r.bars[1], "workload.gpu_hours_per_month", 80.0, 120.0, 33.0, 909.0);
    bar_is(r.bars[2], "rig.parts[0].price", 800.0, 1200.0, 671.0, 271.0);
    bar_is(r.bars[3], "rig.parts[1].price", 400.0, 600.0, 571.0, 371.0);
    bar_is(r.bars[4], "electricity.price_per_kwh", 0.16, 0.24, 556.8, 385.2);
    for (const TornadoBar& b : r.bars) CHECK(b.source == "+-20%");
    CHECK(r.bars[1].current == 100.0);
    // No [uncertainty]: no global ranking.
    CHECK(r.global.empty());
    CHECK(r.samples == 0);
}

TEST_CASE("tornado: a named option, another swing, listed keys with their own ranges", "[tornado]") {
    TornadoOptions options;
    options.relative_swing = 0.5;
    options.inputs = {parse_tornado_input("rig.parts[0].price=900:1100"),
                      parse_tornado_input("electricity.price_per_kwh")};
    options.against = "cloud";
    const TornadoResult r = tornado(hand(), options);
    REQUIRE(r.bars.size() == 2);
    // Electricity ±50 %: 0.1 / 0.3 gives 900 - 214.5 = 685.5 and 900 - 643.5 = 256.5, swing 429;
    // the GPU at 900 / 1100 gives 571 / 371, swing 200.
    bar_is(r.bars[0], "electricity.price_per_kwh", 0.1, 0.3, 685.5, 256.5);
    CHECK(r.bars[0].source == "+-50%");
    bar_is(r.bars[1], "rig.parts[0].price", 900.0, 1100.0, 571.0, 371.0);
    CHECK(r.bars[1].source == "given");
}

TEST_CASE("tornado with [uncertainty]: P10 and P90, and the global ranking", "[tornado][montecarlo]") {
    const Scenario s = parse_scenario(uncertain_text(), "uncertain.toml");
    TornadoOptions options;
    options.samples = 2000;
    options.seed = 7;
    const TornadoResult r = tornado(s, options);
    // Uniform hours on [50, 150]: P10 60, P90 140, savings 21.9 h - 1719 = -405 / 1347.
    // Uniform price on [0.1, 0.3]: P10 0.12, P90 0.28, savings 900 - 2145 p = 642.6 / 299.4.
    // The CPU's price is a point mass at its current 500: no swing, the base both ways.
    REQUIRE(r.bars.size() == 3);
    bar_is(r.bars[0], "workload.gpu_hours_per_month", 60.0, 140.0, -405.0, 1347.0);
    bar_is(r.bars[1], "electricity.price_per_kwh", 0.12, 0.28, 642.6, 299.4);
    bar_is(r.bars[2], "rig.parts[1].price", 500.0, 500.0, 471.0, 471.0);
    for (const TornadoBar& b : r.bars) CHECK(b.source == "P10/P90");

    // The global ranking is Spearman's rho of each input with the savings over the same draw.
    MonteCarloOptions mc;
    mc.samples = 2000;
    mc.seed = 7;
    const MonteCarloResult m = montecarlo(s, mc);
    REQUIRE(r.samples == 2000);
    REQUIRE(r.global.size() == 3);
    CHECK(r.global[0].key == "workload.gpu_hours_per_month");
    CHECK(r.global[0].rho == spearman(m.inputs.column(0), m.metrics.npv_savings[0]));
    CHECK(r.global[1].key == "electricity.price_per_kwh");
    CHECK(r.global[1].rho == spearman(m.inputs.column(1), m.metrics.npv_savings[0]));
    // Over their ranges the hours move the savings by about 21.9 × 100 = 2,190, the price by about
    // 2,145 × 0.2 = 429, the other way: the hours dominate, the price pulls weakly against.
    CHECK(r.global[0].rho > 0.9);
    CHECK(r.global[1].rho < 0.0);
    CHECK(r.global[1].rho > -0.5);
    // The constant input has no rank correlation: NaN, ranked last.
    CHECK(r.global[2].key == "rig.parts[1].price");
    CHECK(std::isnan(r.global[2].rho));

    options.samples = 0;
    CHECK(tornado(s, options).global.empty());
}

TEST_CASE("tornado cuts a relative swing at what the key admits", "[tornado]") {
    // 700 h a month + 20 % is 840, past the 730 hours of a month: cut there.
    TornadoOptions options;
    options.inputs = {parse_tornado_input("workload.gpu_hours_per_month")};
    const TornadoResult r = tornado(hand({{"workload.gpu_hours_per_month", "700"}}), options);
    REQUIRE(r.bars.size() == 1);
    CHECK(r.bars[0].low_value == Approx(560.0));
    CHECK(r.bars[0].high_value == Approx(730.0).epsilon(1e-9));
    CHECK(r.bars[0].high_value <= 730.0);
    CHECK(r.bars[0].source == "+-20%, cut to the allowed values");
    CHECK(r.bars[0].metric_at_high == Approx(21.9 * r.bars[0].high_value - 1719.0).epsilon(1e-9));
}

TEST_CASE("the default keys are the scenario's main figures that are not zero", "[tornado]") {
    CHECK(default_tornado_keys(hand()) ==
          std::vector<std::string>{"workload.gpu_hours_per_month", "electricity.price_per_kwh",
                                   "cloud[0].price_per_hour", "rig.parts[0].price", "rig.parts[1].price"});
    // With discounting and resale curves: each curve's parameters, and the rate.
    CHECK(default_tornado_keys(hand(test::everything_on())) ==
          std::vector<std::string>{"workload.gpu_hours_per_month", "electricity.price_per_kwh",
                                   "cloud[0].price_per_hour", "rig.parts[0].price", "rig.parts[0].resale.annual_rate",
                                   "rig.parts[1].price", "rig.parts[1].resale.half_life_years",
                                   "scenario.discount_rate"});
    const TornadoResult r = tornado(hand(test::everything_on()));
    CHECK(r.bars.size() == 8);
    for (std::size_t b = 1; b < r.bars.size(); ++b) CHECK(r.bars[b - 1].swing >= r.bars[b].swing);
}

TEST_CASE("tornado's bad input names --vary and the key", "[tornado][errors]") {
    using test::check_error;
    using test::input_error;
    check_error(input_error([] { parse_tornado_input("=1:2"); }), "tornado key", 0, "", "expected KEY or KEY=LO:HI");
    check_error(input_error([] { parse_tornado_input("x=1"); }), "tornado key", 0, "x",
                "expected LO:HI with two numbers, got \"1\"");
    check_error(input_error([] { parse_tornado_input("x=2:1"); }), "tornado key", 0, "x", "expected LO < HI, got 2:1");
    const auto with = [](std::vector<std::string> texts) {
        TornadoOptions options;
        for (const auto& text : texts) options.inputs.push_back(parse_tornado_input(text));
        return options;
    };
    check_error(input_error([&] { tornado(hand(), with({"scenario.discount_rate"})); }), "tornado key", 0,
                "scenario.discount_rate",
                "is 0, so +-20% moves it nowhere; give its range, scenario.discount_rate=LO:HI");
    check_error(input_error([&] { tornado(hand(), with({"electricity.price_per_kwh=0.1:5"})); }), "tornado key", 0,
                "electricity.price_per_kwh", "5 is not allowed: ");
    check_error(input_error([&] { tornado(hand(), with({"electricity.price_per_kwhh"})); }), "tornado key", 0,
                "electricity.price_per_kwhh", "did you mean electricity.price_per_kwh?");
    check_error(input_error([&] {
                    tornado(hand(), with({"rig.parts[0].price", "rig.parts[0].price=1:2"}));
                }),
                "tornado key", 0, "rig.parts[0].price", "is given twice");
    TornadoOptions unknown;
    unknown.against = "clod";
    check_error(input_error([&] { tornado(hand(), unknown); }), "cloud option", 0, "",
                "no cloud option named \"clod\"; did you mean \"cloud\"?");
}
