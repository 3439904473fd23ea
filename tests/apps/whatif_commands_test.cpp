// payback sweep and payback tornado from the command line: their three outputs, their help, and
// bad --vary texts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/scenario_text.hpp"
#include "support/temp_dir.hpp"

using nlohmann::json;
using payback::test::lines_of;
using payback::test::quote;
using payback::test::Result;
using payback::test::run;
using payback::test::TempDir;
using payback::test::check_bad_input;

namespace {

// The hand scenario (support/scenario_text.hpp) as a file; with [uncertainty] when asked.
struct HandFile {
    TempDir dir;
    std::string path;
    explicit HandFile(const std::string& extra = "")
        : path(quote(dir.write("hand.toml", payback::test::hand_scenario() + extra))) {}
};

const std::string uncertainty = R"(
[uncertainty]
"workload.gpu_hours_per_month" = { dist = "uniform", low = 50, high = 150 }
"electricity.price_per_kwh" = { dist = "uniform", low = 0.1, high = 0.3 }
)";

}  // namespace

TEST_CASE("sweep, 1-D: a table, one CSV row per value, JSON with null where payback is never reached",
          "[cli][sweep]") {
    const HandFile hand;
    // savings(h) = 21.9 h - 1719 at 0 %: -1,719, -624, 471, 1,566, 2,661.
    const Result text = run("sweep " + hand.path + " --vary workload.gpu_hours_per_month=0:200:50");
    INFO("stderr: " << text.err);
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Catch::Contains("workload.gpu_hours_per_month  NPV vs cloud  payback mo vs cloud"));
    CHECK_THAT(text.out, Catch::Contains("                           0        -1,719                    -\n"));
    CHECK_THAT(text.out, Catch::Contains("                         100           471                 18.3\n"));
    CHECK_THAT(text.out, Catch::Contains("                         200         2,661                  8.7\n"));

    const Result csv = run("sweep " + hand.path + " --vary workload.gpu_hours_per_month=0:200:50 --csv");
    REQUIRE(csv.code == 0);
    const auto rows = lines_of(csv.out);
    REQUIRE(rows.size() == 6);
    CHECK(rows[0] ==
          "workload.gpu_hours_per_month,rig_total_cost,rig_npv_cost,total_cost:cloud,npv_savings:cloud,"
          "payback_months:cloud,discounted_payback_months:cloud");
    CHECK(rows[1] == "0,1719,1719,0,-1719,,");  // payback never reached: empty cells
    CHECK_THAT(rows[3], Catch::StartsWith("100,1929,1929,2400,471,"));

    const Result js = run("sweep " + hand.path + " --vary workload.gpu_hours_per_month=0:200:50 --json");
    REQUIRE(js.code == 0);
    const json j = json::parse(js.out);
    CHECK(j.at("axes").size() == 1);
    CHECK(j.at("axes")[0].at("key") == "workload.gpu_hours_per_month");
    CHECK(j.at("axes")[0].at("values") == json::array({0.0, 50.0, 100.0, 150.0, 200.0}));
    CHECK(j.at("clouds") == json::array({"cloud"}));
    CHECK(j.at("against") == "cloud");
    REQUIRE(j.at("points").size() == 5);
    CHECK(j.at("points")[0].at("at") == json::array({0.0}));
    CHECK(j.at("points")[0].at("payback_months")[0].is_null());
    CHECK(j.at("points")[2].at("npv_savings")[0].get<double>() == Approx(471.0));
    CHECK(j.at("contours").empty());
    CHECK_THAT(j.at("path").get<std::string>(), Catch::StartsWith("fast"));

    // --vary takes one value each time, so the scenario may come after it.
    const Result after = run("sweep --vary workload.gpu_hours_per_month=0:200:50 " + hand.path);
    CHECK(after.code == 0);
    CHECK(after.out == text.out);
}

TEST_CASE("sweep, 2-D: a matrix and the break-even contour", "[cli][sweep]") {
    const HandFile hand;
    const std::string grid =
        " --vary workload.gpu_hours_per_month=0:400:50 --vary electricity.price_per_kwh=0.1:0.6:0.1";
    const Result text = run("sweep " + hand.path + grid);
    INFO("stderr: " << text.err);
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Catch::Contains("workload.gpu_hours_per_month     0.1     0.2     0.3     0.4     0.5     0.6\n"));
    // At 150 h: 24 (150 - 111.25 kWh × price) - 1500 = 1833, 1566, 1299, 1032, 765, 498, all whole
    // dollars. (At 100 h the first is 685.5, a tie that rounds either way in the last bit.)
    CHECK_THAT(text.out, Catch::Contains("                         150   1,833   1,566   1,299   1,032     765     498\n"));
    CHECK_THAT(text.out, Catch::Contains("Break-even against cloud (NPV savings = 0)"));
    // At 0.2 per kWh the break-even is 1719 / 21.9 = 78.4932 h.
    CHECK_THAT(text.out, Catch::Contains("                       78.4932  0.2\n"));

    const Result js = run("sweep " + hand.path + grid + " --json");
    REQUIRE(js.code == 0);
    const json j = json::parse(js.out);
    REQUIRE(j.at("axes").size() == 2);
    CHECK(j.at("points").size() == 9 * 6);
    CHECK(j.at("points")[7].at("at") == json::array({50.0, 0.2}));  // the first axis slowest
    REQUIRE(j.at("contours").size() == 1);
    CHECK(j.at("contours")[0].at("cloud") == "cloud");
    const json& line = j.at("contours")[0].at("polylines").at(0);
    bool found = false;
    for (const json& point : line)
        if (point[1].get<double>() == Approx(0.2)) {
            CHECK(point[0].get<double>() == Approx(1719.0 / 21.9).epsilon(1e-9));
            found = true;
        }
    CHECK(found);

    const Result csv = run("sweep " + hand.path + grid + " --csv");
    REQUIRE(csv.code == 0);
    const auto rows = lines_of(csv.out);
    REQUIRE(rows.size() == 1 + 9 * 6);
    CHECK_THAT(rows[0], Catch::StartsWith("workload.gpu_hours_per_month,electricity.price_per_kwh,rig_total_cost,"));
    CHECK_THAT(rows[8], Catch::StartsWith("50,0.2,"));
}

TEST_CASE("sweep: bad --vary texts exit 2 with one line naming --vary", "[cli][sweep][errors]") {
    const HandFile hand;
    const auto bad = [&](const std::string& args, const std::string& message) {
        const Result r = run("sweep " + hand.path + " " + args);
        check_bad_input(r);
        CHECK(r.err == "payback: " + message + "\n");
    };
    bad("--vary workload.gpu_hours_per_month", "--vary: expected KEY=LO:HI:STEP, got \"workload.gpu_hours_per_month\"");
    bad("--vary workload.gpu_hours_per_month=0:100",
        "--vary: workload.gpu_hours_per_month: expected LO:HI:STEP with three numbers, got \"0:100\"");
    bad("--vary workload.gpu_hours_per_month=0:1x0:10",
        "--vary: workload.gpu_hours_per_month: expected LO:HI:STEP with three numbers, got \"0:1x0:10\"");
    bad("--vary workload.gpu_hours_per_month=100:0:10", "--vary: workload.gpu_hours_per_month: expected LO < HI, got 100:0");
    bad("--vary workload.gpu_hours_per_month=0:100:0", "--vary: workload.gpu_hours_per_month: expected STEP > 0, got 0");
    bad("--vary workload.gpu_hours_per_month=0:700:0.01",
        "--vary: workload.gpu_hours_per_month: 0:700:0.01 has more than 10000 points; take a larger STEP");
    bad("--vary scenario.discount_rate=0:0.1:0.05 --vary electricity.price_per_kwh=0.1:0.2:0.1 "
        "--vary cloud[0].price_per_hour=1:2:1",
        "--vary: at most two keys (a 2-D grid), got 3");
    const Result unknown = run("sweep " + hand.path + " --vary electricity.price_per_kwhh=0.1:0.2:0.1");
    check_bad_input(unknown);
    CHECK_THAT(unknown.err, Catch::Contains("did you mean electricity.price_per_kwh?"));
    const Result refused = run("sweep " + hand.path + " --vary workload.gpu_hours_per_month=0:800:100");
    check_bad_input(refused);
    CHECK_THAT(refused.err, Catch::StartsWith("payback: --vary: workload.gpu_hours_per_month: 800 is not allowed: "));
    check_bad_input(run("sweep " + hand.path));  // --vary is required
    check_bad_input(run("sweep " + hand.path + " --vary scenario.discount_rate=0:0.1:0.05 --against clod"));
}

TEST_CASE("tornado: a chart within 80 columns, ranked, and JSON", "[cli][tornado]") {
    const HandFile hand;
    const Result text = run("tornado " + hand.path);
    INFO("stderr: " << text.err);
    REQUIRE(text.code == 0);
    const auto lines = lines_of(text.out);
    for (const auto& line : lines) {
        INFO(line);
        CHECK(line.size() <= 80);
    }
    // Ranked by swing (tornado_test.cpp has the arithmetic): cloud price 960, hours 876, GPU 400,
    // CPU 200, electricity 171.6. The cloud price's bar runs the whole width both ways.
    CHECK_THAT(text.out, Catch::Contains("cloud[0].price_per_hour      ============|############         -9        951\n"
                                         "workload.gpu_hours_per_month  ===========|###########          33        909\n"
                                         "rig.parts[0].price                  #####|=====               671        271\n"
                                         "rig.parts[1].price                    ###|===                 571        371\n"
                                         "electricity.price_per_kwh              ##|==                  557        385\n"));
    CHECK_THAT(text.out, Catch::Contains("No global ranking"));

    const Result js = run("tornado " + hand.path + " --json");
    REQUIRE(js.code == 0);
    const json j = json::parse(js.out);
    CHECK(j.at("metric") == "npv_savings");
    CHECK(j.at("against") == "cloud");
    CHECK(j.at("base").get<double>() == Approx(471.0));
    REQUIRE(j.at("bars").size() == 5);
    CHECK(j.at("bars")[0].at("key") == "cloud[0].price_per_hour");
    CHECK(j.at("bars")[0].at("swing").get<double>() == Approx(960.0));
    CHECK(j.at("bars")[4].at("key") == "electricity.price_per_kwh");
    CHECK(j.at("bars")[4].at("from") == "+-20%");
    CHECK(j.at("global").is_null());

    // Listed keys, each with its own range or the --swing.
    const Result listed = run("tornado " + hand.path + " --vary rig.parts[0].price=900:1100 --vary " +
                              "electricity.price_per_kwh --swing 0.5 --json");
    REQUIRE(listed.code == 0);
    const json l = json::parse(listed.out);
    REQUIRE(l.at("bars").size() == 2);
    CHECK(l.at("bars")[0].at("key") == "electricity.price_per_kwh");
    CHECK(l.at("bars")[0].at("low").get<double>() == Approx(0.1));
    CHECK(l.at("bars")[1].at("from") == "given");
}

TEST_CASE("tornado with [uncertainty]: P10/P90 bars and the global ranking", "[cli][tornado]") {
    const HandFile hand(uncertainty);
    const Result js = run("tornado " + hand.path + " --samples 500 --seed 3 --json");
    INFO("stderr: " << js.err);
    REQUIRE(js.code == 0);
    const json j = json::parse(js.out);
    REQUIRE(j.at("bars").size() == 2);
    CHECK(j.at("bars")[0].at("key") == "workload.gpu_hours_per_month");
    CHECK(j.at("bars")[0].at("low").get<double>() == Approx(60.0));
    CHECK(j.at("bars")[0].at("high").get<double>() == Approx(140.0));
    CHECK(j.at("bars")[0].at("from") == "P10/P90");
    const json& global = j.at("global");
    REQUIRE(global.is_object());
    CHECK(global.at("samples") == 500);
    CHECK(global.at("seed") == 3);
    REQUIRE(global.at("ranking").size() == 2);
    CHECK(global.at("ranking")[0].at("key") == "workload.gpu_hours_per_month");
    CHECK(global.at("ranking")[0].at("rho").get<double>() > 0.9);

    const Result text = run("tornado " + hand.path + " --samples 500");
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Catch::Contains("Global ranking: Spearman rank correlation"));
    for (const auto& line : lines_of(text.out)) CHECK(line.size() <= 80);
}

TEST_CASE("tornado's bad input exits 2 with one line", "[cli][tornado][errors]") {
    const HandFile hand;
    const auto bad = [&](const std::string& args, const std::string& message) {
        const Result r = run("tornado " + hand.path + " " + args);
        check_bad_input(r);
        CHECK(r.err == "payback: " + message + "\n");
    };
    bad("--vary rig.parts[0].price=5", "--vary: rig.parts[0].price: expected LO:HI with two numbers, got \"5\"");
    bad("--vary rig.parts[0].price=5:1", "--vary: rig.parts[0].price: expected LO < HI, got 5:1");
    bad("--vary scenario.discount_rate",
        "--vary: scenario.discount_rate: is 0, so +-20% moves it nowhere; give its range, scenario.discount_rate=LO:HI");
    bad("--against clod", "--against: no cloud option named \"clod\"; did you mean \"cloud\"?");
    check_bad_input(run("tornado " + hand.path + " --swing 2"));
}

TEST_CASE("sweep and tornado --help show an example", "[cli][sweep][tornado]") {
    for (const std::string command : {"sweep", "tornado"}) {
        const Result r = run(command + " --help");
        INFO(r.out << r.err);
        CHECK(r.code == 0);
        CHECK_THAT(r.out, Catch::Contains("Examples:\n  payback " + command + " "));
        CHECK_THAT(r.out, Catch::Contains("--vary"));
    }
}

TEST_CASE("errors about an argument name its option as typed", "[cli][errors]") {
    // The library names each argument by what it is ("breakeven key", payback/base/arguments.hpp);
    // the program by its option (payback/report/option_names.hpp, which the Python package shares). --samples and --swing
    // are checked by the option parser before the library sees them.
    HandFile hand(uncertainty);
    const auto first_line = [&](const std::string& args) {
        const Result r = run(args);
        check_bad_input(r);
        return r.err.substr(0, r.err.find(':', std::string("payback: ").size()) + 1);
    };
    CHECK(first_line("breakeven " + hand.path + " --for electricity.price_per_kwhh") == "payback: --for:");
    CHECK(first_line("breakeven " + hand.path + " --for rig.psu_efficiency --range 0.5:1.5") == "payback: --range:");
    CHECK(first_line("breakeven " + hand.path + " --for electricity.price_per_kwh --against clod") ==
          "payback: --against:");
}
