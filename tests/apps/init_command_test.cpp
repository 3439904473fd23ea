// payback init: the scenario it writes loads and runs, takes its values from the catalog rows it
// names, and unknown names get the catalog's suggestion.
#include <catch2/catch.hpp>

#include <filesystem>
#include <regex>
#include <string>

#include <nlohmann/json.hpp>

#include "payback/market/catalog.hpp"
#include "support/run_cli.hpp"
#include "support/run_in_terminal.hpp"
#include "support/temp_dir.hpp"

using nlohmann::json;
using payback::test::check_bad_input;
using payback::test::quote;
using payback::test::read_file;
using payback::test::Result;
using payback::test::run;
using payback::test::run_in_terminal;
using payback::test::TempDir;

namespace {

// The number after "key = " in a resolved scenario.
double value_of(const std::string& text, const std::string& key) {
    std::smatch m;
    REQUIRE(std::regex_search(text, m, std::regex("\\n" + key + " = ([-0-9.e]+)")));
    return std::stod(m[1]);
}

double column_sum(const json& table, const std::string& column) {
    double sum = 0.0;
    for (const auto& month : table.at("months")) sum += month.at(column).get<double>();
    return sum;
}

}  // namespace

TEST_CASE("init writes a scenario that payback compare runs, with the catalog's values", "[cli][init]") {
    const Result init = run("init");
    INFO(init.err);
    REQUIRE(init.code == 0);
    CHECK_THAT(init.out, Catch::StartsWith("# RTX 4090 rig against renting aws:p5.4xlarge"));
    TempDir dir;
    const std::string path = dir.write("my.toml", init.out);

    const Result compare = run("compare " + quote(path) + " --format json");
    INFO(compare.err);
    REQUIRE(compare.code == 0);
    const json j = json::parse(compare.out);
    REQUIRE(j.at("options").size() == 2);
    CHECK(j.at("options")[0].at("name") == "RTX 4090 rig");
    CHECK(j.at("options")[1].at("name") == "aws:p5.4xlarge on-demand");

    // The rig's purchase: the catalog's launch price of the GPU and the 1,000 USD assumed for the rest.
    const payback::Catalog& catalog = payback::Catalog::shipped();
    const double gpu_price = catalog.gpu("RTX 4090").launch_price_usd.value();
    const Result flows = run("cashflow " + quote(path) + " --format json");
    REQUIRE(flows.code == 0);
    CHECK(column_sum(json::parse(flows.out), "capex") == Approx(-(gpu_price + 1000.0)));

    // The resolved scenario: the US electricity price and the instance's on-demand price, from their rows.
    const Result check = run("check " + quote(path));
    REQUIRE(check.code == 0);
    CHECK(value_of(check.out, "price_per_kwh") == catalog.rate("US").price_per_kwh);
    CHECK(value_of(check.out, "price_per_hour") == catalog.instance("aws:p5.4xlarge", "").on_demand_per_hour.value());
}

TEST_CASE("init --gpu --cloud --rate --hours -o choose the rows and the file", "[cli][init]") {
    TempDir dir;
    const std::string path = (dir.path() / "3090.toml").string();
    const Result init = run("init --gpu 'RTX 3090' --cloud aws:p3.2xlarge --rate 0.3 --hours 120 -o " + quote(path));
    INFO(init.err);
    REQUIRE(init.code == 0);
    CHECK(init.out.empty());
    const std::string text = read_file(path);
    CHECK_THAT(text, Catch::Contains("gpu = \"RTX 3090\""));
    CHECK_THAT(text, Catch::Contains("instance = \"aws:p3.2xlarge\""));
    CHECK_THAT(text, Catch::Contains("price_per_kwh = 0.3 "));
    CHECK_THAT(text, Catch::Contains("gpu_hours_per_month = 120 "));
    const Result compare = run("compare " + quote(path) + " --format json");
    INFO(compare.err);
    REQUIRE(compare.code == 0);
    CHECK(json::parse(compare.out).at("options")[0].at("name") == "RTX 3090 rig");
    // Every kWh the rig draws costs --rate.
    const Result flows = run("cashflow " + quote(path) + " --format json");
    REQUIRE(flows.code == 0);
    const json table = json::parse(flows.out);
    CHECK(column_sum(table, "energy_kwh") > 0.0);
    CHECK(column_sum(table, "energy") == Approx(-0.3 * column_sum(table, "energy_kwh")));
}

TEST_CASE("init names an unknown GPU or instance, with the nearest catalog name", "[cli][init][errors]") {
    const Result gpu = run("init --gpu 'RTX 4900'");
    check_bad_input(gpu);
    CHECK_THAT(gpu.err, Catch::Contains("--gpu") && Catch::Contains("did you mean \"RTX 4090\"?"));
    const Result cloud = run("init --cloud aws:p5.4xlarg");
    check_bad_input(cloud);
    CHECK_THAT(cloud.err, Catch::Contains("--cloud") && Catch::Contains("did you mean \"aws:p5.4xlarge\"?"));
    check_bad_input(run("init --rate -1"));
}

TEST_CASE("init on a terminal without flags asks, shows the catalog's values and writes the file", "[cli][init]") {
    TempDir dir;
    const std::string path = (dir.path() / "guided.toml").string();
    // A typo first (the catalog's suggestion, then the question again), a region, the hours, an instance, the file.
    const std::string typed = "RTX 309\nRTX 3090\nUS-CA\n150\naws:p3.2xlarge\n" + path + "\n";
    const Result guided = run_in_terminal("init", "", typed);
    INFO(guided.out);
    REQUIRE(guided.code == 0);
    CHECK_THAT(guided.out, Catch::Contains("GPU [RTX 4090]: "));
    CHECK_THAT(guided.out, Catch::Contains("did you mean \"RTX 3090\"?"));
    CHECK_THAT(guided.out, Catch::Contains("Price or region [US]: "));
    CHECK_THAT(guided.out, Catch::Contains("GPU-hours a month [200]: "));
    CHECK_THAT(guided.out, Catch::Contains("Instance [aws:p5.4xlarge]: "));
    // What the catalogs filled in, each with its row.
    const payback::Catalog& catalog = payback::Catalog::shipped();
    CHECK_THAT(guided.out, Catch::Contains("From the catalogs:") &&
                               Catch::Contains("RTX 3090: 1,499 USD at launch, 350 W (pricing/gpus.csv:") &&
                               Catch::Contains("electricity: 0.2951 USD/kWh, California 2023 (pricing/electricity-prices.csv:"));
    CHECK(catalog.rate("US-CA").price_per_kwh == 0.2951);  // EIA Electric Power Annual 2023, California
    CHECK_THAT(guided.out, Catch::Contains("Wrote " + path));
    // The file is the one the same choices give as flags, byte for byte.
    const Result flags = run("init --gpu 'RTX 3090' --region US-CA --hours 150 --cloud aws:p3.2xlarge");
    REQUIRE(flags.code == 0);
    CHECK(read_file(path) == flags.out);
    CHECK(run("check " + quote(path)).code == 0);
}

TEST_CASE("init with flags, or without a terminal, asks nothing", "[cli][init]") {
    // On a terminal but with a flag: the scenario on stdout and no question.
    const Result flagged = run_in_terminal("init --hours 100");
    REQUIRE(flagged.code == 0);
    CHECK_THAT(flagged.out, Catch::Contains("gpu_hours_per_month = 100 ") && !Catch::Contains("GPU [RTX 4090]"));
    // Not a terminal: as before, stderr empty.
    const Result piped = run("init");
    REQUIRE(piped.code == 0);
    CHECK(piped.err.empty());
    CHECK_THAT(piped.out, Catch::StartsWith("# RTX 4090 rig against renting aws:p5.4xlarge"));
    // Answers that end early: exit 2 with one line, no file.
    const Result cut = run_in_terminal("init", "", "RTX 3090\n");
    CHECK(cut.code == 2);
    CHECK_THAT(cut.out, Catch::Contains("the answers ended before the scenario was complete"));
}
