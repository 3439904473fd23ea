// payback explain on Dettmers' scenario (scenarios/dettmers-3090.toml), whose arithmetic is done by
// hand: a 2,200 USD desktop drawing 0.45 kW for 109.5 h a month at 0.12 USD/kWh (5.913 USD a month),
// against an AWS V100 at 2.14 USD/h (234.33 USD a month), over 36 months, no discounting or resale.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"

using nlohmann::json;
using payback::test::check_bad_input;
using payback::test::Result;
using payback::test::run;

namespace {

const std::string dettmers = "scenarios/dettmers-3090.toml";

// The text with its line breaks as spaces: sentences are wrapped at 80 columns.
std::string unwrapped(std::string text) {
    std::replace(text.begin(), text.end(), '\n', ' ');
    return text;
}

}  // namespace

TEST_CASE("explain says which costs dominate, from the cash-flow line items", "[cli][explain]") {
    const Result r = run("explain " + dettmers);
    INFO(r.err);
    REQUIRE(r.code == 0);
    const std::string text = unwrapped(r.out);
    CHECK_THAT(text, Catch::StartsWith("Build: over 36 months"));
    // Rig: capex 2,200; energy 36 x 5.913 = 212.87; shares 2200 / 2412.87 = 91 % and 9 %.
    CHECK_THAT(text, Catch::Contains("the money for RTX 3090 desktop goes on buying the parts, 2,200 USD (91 % of its "
                                     "costs) and electricity, 213 USD (9 %)."));
    // Cloud: 36 x 234.33 = 8,435.88, all of it cloud hours.
    CHECK_THAT(text, Catch::Contains("AWS V100 on-demand (2020) goes on cloud hours, 8,436 USD (100 % of its costs)."));
    // No discounting: 8,435.88 - 2,412.87 = 6,023.01 saved.
    CHECK_THAT(text, Catch::Contains("building saves 6,023 USD in present value over 36 months."));
}

TEST_CASE("explain names the nearest break-evens, the inputs that would flip the answer", "[cli][explain]") {
    const Result r = run("explain " + dettmers + " --format json");
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    CHECK(j.at("against") == "AWS V100 on-demand (2020)");
    CHECK(j.at("npv_savings").get<double>() == Approx(36 * 2.14 * 109.5 - 2200 - 36 * 0.45 * 109.5 * 0.12));
    const json& flips = j.at("flips");
    REQUIRE(flips.size() == 3);
    // Nearest first, relatively. The cloud price where 36 x 109.5 x p = 2,412.87: p = 0.6121 (71 % less).
    CHECK(flips[0].at("key") == "cloud[0].price_per_hour");
    CHECK(flips[0].at("break_even").get<double>() == Approx(2412.868 / (36 * 109.5)).epsilon(1e-6));
    // The hours h where 2,200 + 36 x 0.054 h = 36 x 2.14 h: h = 2,200 / 75.096 = 29.30 (73 % less).
    CHECK(flips[1].at("key") == "workload.gpu_hours_per_month");
    CHECK(flips[1].at("break_even").get<double>() == Approx(2200.0 / (36 * (2.14 - 0.054))).epsilon(1e-6));
    // The desktop's price where the savings are gone: 2,200 + 6,023.01 = 8,223.01 (274 % more).
    CHECK(flips[2].at("key") == "rig.parts[0].price");
    CHECK(flips[2].at("break_even").get<double>() == Approx(8435.88 - 212.868).epsilon(1e-6));

    const std::string text = unwrapped(run("explain " + dettmers).out);
    CHECK_THAT(text, Catch::Contains("If AWS V100 on-demand (2020)'s price per hour fell from 2.14 to 0.6121, 71 % "
                                     "less, renting AWS V100 on-demand (2020) would win."));
    CHECK_THAT(text, Catch::Contains("If your training, in GPU-hours a month, fell from 109.5 to 29.3, 73 % less"));
    // The electricity price would have to reach (8,435.88 - 2,200) / (0.45 x 109.5 x 36) = 3.52 USD/kWh,
    // beyond the 0 to 10 x 0.12 searched.
    CHECK_THAT(text, Catch::Contains("Neither the electricity price per kWh between 0 and 1.2 nor"));
}

TEST_CASE("explain refuses an unknown --against, naming the option meant or listing them", "[cli][explain][errors]") {
    const Result partial = run("explain " + dettmers + " --against 'AWS V100'");
    check_bad_input(partial);
    CHECK(partial.err == "payback: --against: no cloud option named \"AWS V100\"; did you mean "
                         "\"AWS V100 on-demand (2020)\"?\n");
    const Result stranger = run("explain " + dettmers + " --against 'GCP A100'");
    check_bad_input(stranger);
    CHECK(stranger.err == "payback: --against: no cloud option named \"GCP A100\"; the cloud options are "
                          "\"AWS V100 on-demand (2020)\"\n");
}
