#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "payback/base/error.hpp"
#include "payback/model/comparison.hpp"
#include "payback/whatif/breakeven.hpp"
#include "payback/whatif/sweep.hpp"
#include "support/input_errors.hpp"
#include "support/scenario_text.hpp"

using namespace payback;
using Point = std::pair<double, double>;

namespace {

Scenario hand(const std::vector<Override>& overrides = {}) {
    return parse_scenario(test::hand_scenario(), "hand.toml", overrides);
}

// A sweep's metric against compare()'s: 1e-9 relative, or a millionth of a dollar near zero.
void same(double got, double want) { CHECK(got == Approx(want).epsilon(1e-9).margin(1e-6)); }
void same(double got, const std::optional<double>& want) {
    if (!want) {
        CHECK(std::isnan(got));
        return;
    }
    same(got, *want);
}

void near(const Point& p, double x, double y) {
    CHECK(p.first == Approx(x).margin(1e-15));
    CHECK(p.second == Approx(y).margin(1e-15));
}

}  // namespace

TEST_CASE("parse_axis reads KEY=LO:HI:STEP", "[sweep]") {
    const SweepAxis a = parse_axis("electricity.price_per_kwh=0.1:0.5:0.05");
    CHECK(a.key == "electricity.price_per_kwh");
    CHECK(a.low == 0.1);
    CHECK(a.high == 0.5);
    CHECK(a.step == 0.05);
    const SweepAxis b = parse_axis("cloud[0].escalation=-0.4:+0.1:1e-1");
    CHECK(b.key == "cloud[0].escalation");
    CHECK(b.low == -0.4);
    CHECK(b.high == 0.1);
    CHECK(b.step == 0.1);
}

TEST_CASE("parse_axis rejects bad text, LO >= HI, STEP <= 0 and too many points", "[sweep][errors]") {
    using test::check_error;
    using test::input_error;
    check_error(input_error([] { parse_axis("electricity.price_per_kwh"); }), "sweep axis", 0, "",
                "expected KEY=LO:HI:STEP, got \"electricity.price_per_kwh\"");
    check_error(input_error([] { parse_axis("=0:1:0.1"); }), "sweep axis", 0, "", "expected KEY=LO:HI:STEP");
    check_error(input_error([] { parse_axis("x=0:1"); }), "sweep axis", 0, "x",
                "expected LO:HI:STEP with three numbers, got \"0:1\"");
    check_error(input_error([] { parse_axis("x=0:1:0.1:2"); }), "sweep axis", 0, "x", "three numbers");
    check_error(input_error([] { parse_axis("x=a:1:0.1"); }), "sweep axis", 0, "x", "three numbers");
    check_error(input_error([] { parse_axis("x=0:inf:0.1"); }), "sweep axis", 0, "x", "three numbers");
    check_error(input_error([] { parse_axis("x=5:3:1"); }), "sweep axis", 0, "x", "expected LO < HI, got 5:3");
    check_error(input_error([] { parse_axis("x=3:3:1"); }), "sweep axis", 0, "x", "expected LO < HI, got 3:3");
    check_error(input_error([] { parse_axis("x=0:1:0"); }), "sweep axis", 0, "x", "expected STEP > 0, got 0");
    check_error(input_error([] { parse_axis("x=0:1:-0.5"); }), "sweep axis", 0, "x", "expected STEP > 0, got -0.5");
    // 0:10000:1 is 10,001 values; 0:9999:1 is the most, 10,000.
    check_error(input_error([] { parse_axis("x=0:10000:1"); }), "sweep axis", 0, "x", "more than 10000 points");
    CHECK(axis_values(parse_axis("x=0:9999:1")).size() == 10000);
}

TEST_CASE("axis values: LO + k STEP, and HI always", "[sweep]") {
    CHECK(axis_values({"x", 0.0, 1.0, 0.25}) == std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0});
    // 0.3 / 0.1 is 2.9999999999999996 in doubles: still four values, the last exactly HI.
    CHECK(axis_values({"x", 0.0, 0.3, 0.1}) == std::vector<double>{0.0, 0.1, 0.2, 0.3});
    // A step that does not divide the range: HI appended after a shorter interval.
    CHECK(axis_values({"x", 0.0, 1.0, 0.3}) == std::vector<double>{0.0, 0.3, 0.6, 0.8999999999999999, 1.0});
    CHECK(axis_values({"x", 2.0, 3.0, 5.0}) == std::vector<double>{2.0, 3.0});
}

TEST_CASE("a 1-D sweep of the workload equals compare() with each value set", "[sweep]") {
    for (const auto& overrides : {std::vector<Override>{}, test::everything_on()}) {
        const Scenario s = hand(overrides);
        const SweepResult r = sweep(s, {{"workload.gpu_hours_per_month", 0.0, 700.0, 50.0}});
        REQUIRE(r.values.size() == 1);
        REQUIRE(r.values[0].size() == 15);
        REQUIRE(r.points() == 15);
        REQUIRE(r.clouds == std::vector<std::string>{"cloud"});
        CHECK(r.contours.empty());
        INFO(r.path_note);
        for (std::size_t p = 0; p < r.points(); ++p) {
            const double hours = r.values[0][p];
            INFO("hours " << hours);
            const Comparison c = compare(hand([&] {
                auto with = overrides;
                with.push_back({"workload.gpu_hours_per_month", fmt::format("{:.17g}", hours)});
                return with;
            }()));
            same(r.metrics.rig_total_cost[p], c.options[0].total_cost);
            same(r.metrics.rig_npv_cost[p], c.options[0].npv_cost);
            same(r.metrics.cloud_total_cost[0][p], c.options[1].total_cost);
            same(r.metrics.npv_savings[0][p], c.versus[0].npv_savings);
            same(r.metrics.payback_months[0][p], c.versus[0].payback_months);
            same(r.metrics.discounted_payback_months[0][p], c.versus[0].discounted_payback_months);
        }
    }
    // By hand at 0 %: savings(h) = 24 h - 1500 - 24 (0.0875 h + 9.125) = 21.9 h - 1719.
    const SweepResult r = sweep(hand(), {{"workload.gpu_hours_per_month", 0.0, 700.0, 50.0}});
    for (std::size_t p = 0; p < r.points(); ++p)
        CHECK(r.metrics.npv_savings[0][p] == Approx(21.9 * r.values[0][p] - 1719.0).epsilon(1e-12).margin(1e-9));
}

TEST_CASE("a 2-D grid is row-major, the first axis slowest", "[sweep]") {
    const SweepResult r = sweep(
        hand(), {{"workload.gpu_hours_per_month", 50.0, 150.0, 50.0}, {"electricity.price_per_kwh", 0.1, 0.3, 0.1}});
    REQUIRE(r.values[0] == std::vector<double>{50.0, 100.0, 150.0});
    REQUIRE(r.values[1] == std::vector<double>{0.1, 0.2, 0.3});
    REQUIRE(r.points() == 9);
    // savings(h, p) = 24 h - 1500 - 24 p (0.4375 h + 45.625) at 0 % (kWh a month: 0.5 h + 0.0625 (730 - h)).
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 3; ++j) {
            const double h = r.values[0][i], p = r.values[1][j];
            CHECK(r.metrics.npv_savings[0][i * 3 + j] ==
                  Approx(24 * h - 1500 - 24 * p * (0.4375 * h + 45.625)).epsilon(1e-12).margin(1e-9));
        }
    REQUIRE(r.contours.size() == 1);
    CHECK(r.contours[0].cloud == "cloud");
}

TEST_CASE("the 2-D break-even contour agrees with the break-even solver", "[sweep][breakeven]") {
    // Hours × electricity price on the hand scenario. Its savings are bilinear in the two:
    // 24 h - 1500 - 24 p (0.4375 h + 45.625), so along every cell edge (one key fixed) they are
    // linear, marching squares' linear interpolation on the edge is exact, and every contour
    // point lies on the true break-even curve. The grid's interpolation error is then zero, and
    // the tolerance, 1e-6 h against steps of 25 h, covers rounding only (the solver stops within
    // 2^-47 relative).
    const Scenario s = hand();
    const SweepResult r =
        sweep(s, {{"workload.gpu_hours_per_month", 0.0, 400.0, 25.0}, {"electricity.price_per_kwh", 0.1, 0.6, 0.05}});
    REQUIRE(r.contours.size() == 1);
    const auto& lines = r.contours[0].polylines;
    REQUIRE(lines.size() == 1);  // one curve, from the lowest price to the highest
    const auto& line = lines[0];
    REQUIRE(line.size() >= 11);  // at least one crossing on each of the 11 price rows
    const auto [low_y, high_y] = std::minmax(line.front().second, line.back().second);
    CHECK(low_y == Approx(0.1));
    CHECK(high_y == Approx(0.6));
    for (const auto& [hours, price] : line) {
        INFO("contour point (" << hours << " h, " << price << " per kWh)");
        const BreakevenResult b = breakeven(hand({{"electricity.price_per_kwh", fmt::format("{:.17g}", price)}}),
                                            {"workload.gpu_hours_per_month", std::nullopt, std::nullopt});
        REQUIRE(b.value);
        CHECK(std::abs(*b.value - hours) < 1e-6);
        // And by hand: h = (1500 + 1095 p) / (24 - 10.5 p).
        CHECK(hours == Approx((1500 + 1095 * price) / (24 - 10.5 * price)).epsilon(1e-9));
    }
}

TEST_CASE("a curved break-even contour is within the grid's interpolation error", "[sweep][breakeven]") {
    // Hours × discount rate: the savings are linear in the hours but not in the rate (discount
    // factors (1 + r)^-t), so a contour point on an edge along the rate is off the true curve by
    // the linear interpolation's error, O(step²). Bound: the point lies in its cell, so the true
    // break-even hours at its rate differ from its hours by at most the break-even's change across
    // the cell's rate interval (the savings fall as the rate rises: the break-even is monotonic).
    // And halving both steps cuts the largest error about fourfold (at least 3× is asked). The hour
    // step is small enough that the contour crosses hour lines in every rate interval.
    const Scenario s = hand({{"rig.parts[0].resale", "{ method = \"declining_balance\", annual_rate = 0.3 }"}});
    std::map<double, double> solved;
    const auto solve = [&](double rate) {
        if (const auto known = solved.find(rate); known != solved.end()) return known->second;
        const auto b = breakeven(hand({{"rig.parts[0].resale", "{ method = \"declining_balance\", annual_rate = 0.3 }"},
                                       {"scenario.discount_rate", fmt::format("{:.17g}", rate)}}),
                                 {"workload.gpu_hours_per_month", std::nullopt, std::nullopt});
        REQUIRE(b.value);
        return solved[rate] = *b.value;
    };
    const auto largest_error = [&](double hour_step, double rate_step) {
        const SweepResult r = sweep(s, {{"workload.gpu_hours_per_month", 0.0, 300.0, hour_step},
                                        {"scenario.discount_rate", 0.0, 0.5, rate_step}});
        REQUIRE(r.contours.at(0).polylines.size() == 1);
        double worst = 0.0;
        for (const auto& [hours, rate] : r.contours[0].polylines[0]) {
            const double cell = std::floor(rate / rate_step + 1e-9) * rate_step;
            const double bound = std::abs(solve(std::min(cell + rate_step, 0.5)) - solve(cell)) + 1e-6;
            const double error = std::abs(solve(rate) - hours);
            INFO("contour point (" << hours << " h, rate " << rate << "): error " << error << ", bound " << bound);
            CHECK(error <= bound);
            worst = std::max(worst, error);
        }
        return worst;
    };
    const double coarse = largest_error(5.0, 0.125);
    const double fine = largest_error(2.5, 0.0625);
    INFO("largest error: coarse " << coarse << " h, fine " << fine << " h");
    CHECK(coarse > 1e-3);  // the curvature is visible at this grid
    CHECK(fine < coarse / 3.0);  // 0.0998 h against 0.403 h when written
}

TEST_CASE("zero_contour: a straight line, a closed loop, zero corners", "[sweep][contour]") {
    const std::vector<double> xs{0, 1, 2, 3}, ys{0, 1, 2};
    std::vector<double> plane;
    for (double x : xs)
        for (double y : ys) plane.push_back(x - 1.5 + 0.0 * y);  // zero at x = 1.5
    const auto lines = zero_contour(xs, ys, plane);
    REQUIRE(lines.size() == 1);
    REQUIRE(lines[0].size() == 3);
    for (const auto& [x, y] : lines[0]) CHECK(x == 1.5);

    // A bowl: x² + y² - 2 on [-2, 2]²: a closed loop, its first point repeated at its end.
    std::vector<double> grid{-2, -1, 0, 1, 2}, bowl;
    for (double x : grid)
        for (double y : grid) bowl.push_back(x * x + y * y - 2.0 + 0.1);
    const auto loop = zero_contour(grid, grid, bowl);
    REQUIRE(loop.size() == 1);
    CHECK(loop[0].front() == loop[0].back());
    // Inside: the plus of (0,0) and its four neighbours; each arm's tip has 3 edges crossed.
    CHECK(loop[0].size() == 13);

    // x + y - 1 on {0, 1, 2}²: zero at (1, 0) and (0, 1). A zero corner counts as not above, so
    // cells touching it give pieces of no length there; the line has each point once.
    const std::vector<double> three{0, 1, 2};
    std::vector<double> diagonal;
    for (double x : three)
        for (double y : three) diagonal.push_back(x + y - 1.0);
    const auto through = zero_contour(three, three, diagonal);
    REQUIRE(through.size() == 1);
    REQUIRE(through[0].size() == 2);
    CHECK(std::min(through[0][0], through[0][1]) == Point{0.0, 1.0});
    CHECK(std::max(through[0][0], through[0][1]) == Point{1.0, 0.0});
}

TEST_CASE("zero_contour: saddles follow the bilinear surface, NaN cells are skipped", "[sweep][contour]") {
    const std::vector<double> xs{0, 1}, ys{0, 1};
    // Corners a (0,0) = 2, b (1,0) = -1, c (1,1) = 2, d (0,1) = -1. The bilinear surface's saddle
    // value is (2·2 - 1)/(2 + 2 + 1 + 1) = 0.5 > 0: a and c are joined, b and d cut off.
    // Around b: bottom edge at x = 2/3, right edge at y = 1/3; around d: left at y = 2/3, top at x = 1/3.
    const auto joined = zero_contour(xs, ys, {2, -1, -1, 2});  // row-major: (0,0), (0,1), (1,0), (1,1)
    REQUIRE(joined.size() == 2);
    auto sorted = [](std::vector<Point> line) {
        std::sort(line.begin(), line.end());
        return line;
    };
    std::vector<std::vector<Point>> got{sorted(joined[0]), sorted(joined[1])};
    std::sort(got.begin(), got.end());
    near(got[0][0], 0.0, 2.0 / 3.0);
    near(got[0][1], 1.0 / 3.0, 1.0);
    near(got[1][0], 2.0 / 3.0, 0.0);
    near(got[1][1], 1.0, 1.0 / 3.0);

    // The opposite: a and c at 1, b and d at -2: saddle value (1 - 4)/(1 + 1 + 2 + 2) < 0, so b and
    // d are joined and a and c cut off: one piece around (0,0), one around (1,1).
    const auto cut = zero_contour(xs, ys, {1, -2, -2, 1});
    REQUIRE(cut.size() == 2);
    for (const auto& line : cut) {
        REQUIRE(line.size() == 2);
        const bool near_a = line[0].first + line[0].second < 1.0;
        for (const auto& [x, y] : line) CHECK((x + y < 1.0) == near_a);
    }

    // A NaN corner: its cell is left out, the others still contoured.
    const auto partial = zero_contour({0, 1, 2}, {0, 1}, {-1, -1, 1, 1, 1, NAN});
    REQUIRE(partial.size() == 1);
    CHECK(partial[0] == std::vector<Point>{{0.5, 0.0}, {0.5, 1.0}});
}

TEST_CASE("sweep rejects a bad grid, naming --vary and the key", "[sweep][errors]") {
    using test::check_error;
    using test::input_error;
    const Scenario s = hand();
    check_error(input_error([&] { sweep(s, {}); }), "sweep axis", 0, "", "expected one or two keys to vary, got 0");
    check_error(input_error([&] {
                    sweep(s, {{"scenario.discount_rate", 0, 0.1, 0.1},
                              {"electricity.price_per_kwh", 0.1, 0.2, 0.1},
                              {"cloud[0].price_per_hour", 1, 2, 1}});
                }),
                "sweep axis", 0, "", "got 3");
    check_error(
        input_error([&] {
            sweep(s, {{"electricity.price_per_kwh", 0.1, 0.2, 0.1}, {"electricity.price_per_kwh", 0.1, 0.2, 0.1}});
        }),
        "sweep axis", 0, "electricity.price_per_kwh", "is varied twice");
    check_error(input_error([&] {
                    sweep(s, {{"electricity.price_per_kwhh", 0.1, 0.2, 0.1}});
                }),
                "sweep axis", 0, "electricity.price_per_kwhh",
                "no such numeric scenario key; did you mean electricity.price_per_kwh?");
    check_error(input_error([&] {
                    sweep(s, {{"scenario.horizon_months", 12, 24, 12}});
                }),
                "sweep axis", 0, "scenario.horizon_months", "whole number");
    // A USD price of 2 or more per kWh is taken for cents and rejected.
    check_error(input_error([&] {
                    sweep(s, {{"electricity.price_per_kwh", 0.1, 5.0, 0.1}});
                }),
                "sweep axis", 0, "electricity.price_per_kwh", "5 is not allowed: ");
    check_error(input_error([&] {
                    sweep(s, {{"rig.psu_efficiency", -0.5, 0.9, 0.1}});
                }),
                "sweep axis", 0, "rig.psu_efficiency", "-0.5 is not allowed: ");
    check_error(
        input_error([&] {
            sweep(s, {{"electricity.price_per_kwh", 0.0, 1.5, 0.0005}, {"cloud[0].price_per_hour", 0.0, 1.0, 0.001}});
        }),
        "sweep axis", 0, "", "more than 1000000");
    check_error(input_error([&] {
                    sweep(s, {{"electricity.price_per_kwh", 0.1, 0.2, 0.0}});
                }),
                "sweep axis", 0, "electricity.price_per_kwh", "not a usable LO:HI:STEP");
}

TEST_CASE("against_index: the named option, else the one closest to beating the rig", "[sweep]") {
    // A second option at $3/h: the rig saves more against it, so the $2/h one is the closest to
    // beating the rig.
    const Scenario two = parse_scenario(test::hand_scenario() + R"(
[[cloud]]
name = "dear"
price_per_hour = 3.0
speedup = 2.0
)",
                                        "two.toml");
    CHECK(against_index(two, std::nullopt) == 0);
    CHECK(against_index(two, std::string("dear")) == 1);
    test::check_error(test::input_error([&] { against_index(two, std::string("deer")); }), "cloud option", 0, "",
                      "no cloud option named \"deer\"; did you mean \"dear\"?");
}
