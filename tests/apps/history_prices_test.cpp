// The price history feeds the scenario commands: --db FILE (or $PAYBACK_DB, or with --as-of the
// default history) puts its prices before the catalogs', and --as-of picks the one in effect on the
// day by the catalogs' rule. A history is made here as a user makes one, by catalog import.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "support/input_errors.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using payback::test::check_bad_input;
using payback::test::quote;
using payback::test::read_file;
using payback::test::Result;
using payback::test::run_program;
using payback::test::TempDir;
using payback::test::write_file;

namespace {

const fs::path source = PAYBACK_SOURCE_DIR;

// <dir>/prices.sqlite: the shipped catalogs (aws:p3.2xlarge in us-east-1 at $3.06 on demand, as of
// 2026-11-29), then a SkyPilot file pricing it at $2.50 from 2026-12-15 (the us-east-1 row of
// tests/fixtures/market/import/skypilot_v7_aws_vms_gpu_excerpt.csv with its Price cut); and
// <dir>/rig.toml, 100 hours a month for 12 months against that instance. Today is fixed, and no
// history outside <dir> is read.
struct HistoryFixture {
    TempDir dir;
    std::string environment;
    std::string db = quote((dir.path() / "prices.sqlite").string());
    std::string rig = quote((dir.path() / "rig.toml").string());

    HistoryFixture() {
        environment = "unset PAYBACK_DB PAYBACK_PRICING_DIR && export PAYBACK_TODAY=2026-12-20 XDG_DATA_HOME=" +
                      quote((dir.path() / "xdg").string());
        const std::string excerpt = read_file(source / "tests/fixtures/market/import/skypilot_v7_aws_vms_gpu_excerpt.csv");
        const std::string header = excerpt.substr(0, excerpt.find('\n') + 1);
        write_file(dir.path() / "vms.csv",
                   header + "p3.2xlarge,V100,1.0,8.0,61.0,\"{'Gpus': [{'Name': 'V100', 'Manufacturer': 'NVIDIA', "
                            "'Count': 1, 'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 16384}\","
                            "2.50,0.519700,us-east-1,use1-az1\n");
        const Result imported = run("catalog import --format skypilot --provider aws --as-of 2026-12-15 " +
                                    quote((dir.path() / "vms.csv").string()) + " -o " +
                                    quote((dir.path() / "imported.csv").string()) + " --db " + db);
        INFO(imported.err);
        REQUIRE(imported.code == 0);
        write_file(dir.path() / "rig.toml",
                   "[scenario]\nname = \"history test\"\nhorizon_months = 12\n"
                   "[workload]\ngpu_hours_per_month = 100\n"
                   "[rig]\nname = \"Rig\"\n[[rig.parts]]\nkind = \"gpu\"\nname = \"card\"\nprice = 1000\n"
                   "load_watts = 300\n[electricity]\nprice_per_kwh = 0.2\n"
                   "[[cloud]]\ninstance = \"aws:p3.2xlarge\"\nregion = \"us-east-1\"\nspeedup = 1\n");
    }
    Result run(const std::string& args, const std::string& more_environment = "true") const {
        return run_program(PAYBACK_BINARY, args, environment + " && " + more_environment);
    }
};

nlohmann::json json_of(const Result& r) {
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    return nlohmann::json::parse(r.out);
}

// The cloud option's cost over the horizon in compare --json.
double cloud_total(const nlohmann::json& compare) {
    for (const auto& option : compare.at("options"))
        if (option.at("kind") != "diy") return option.at("total_cost").get<double>();
    FAIL("compare --json has no cloud option");
    return 0;
}

}  // namespace

TEST_CASE("a history named by --db: its price in effect on --as-of, on both sides of its change", "[cli][history][prices]") {
    const HistoryFixture f;
    // Before 2026-12-15 the snapshot's $3.06: 12 months x 100 h x $3.06 = $3,672.
    const auto before = json_of(f.run("compare --json " + f.rig + " --db " + f.db + " --as-of 2026-12-14"));
    CHECK(cloud_total(before) == Approx(12 * 100 * 3.06));
    CHECK(before.at("prices_as_of") == "2026-11-29");
    // From 2026-12-15 the imported $2.50: 12 x 100 x $2.50 = $3,000, dated by the history's row.
    const auto after = json_of(f.run("compare --json " + f.rig + " --db " + f.db + " --as-of 2026-12-15"));
    CHECK(cloud_total(after) == Approx(12 * 100 * 2.50));
    CHECK(after.at("prices_as_of") == "2026-12-15");
    // Without --as-of: the newest price, the history's.
    const auto newest = json_of(f.run("compare --json " + f.rig + " --db " + f.db));
    CHECK(cloud_total(newest) == Approx(3000.0));
    CHECK(newest.at("prices_as_of") == "2026-12-15");
    // The same through $PAYBACK_DB.
    CHECK(cloud_total(json_of(f.run("compare --json " + f.rig, "export PAYBACK_DB=" + f.db))) == Approx(3000.0));
    // check names where the price came from.
    const Result checked = f.run("check " + f.rig + " --db " + f.db);
    REQUIRE(checked.code == 0);
    CHECK_THAT(checked.out, Catch::Contains("prices.sqlite (price history), as of 2026-12-15"));
}

TEST_CASE("without --db the catalogs alone answer, unless --as-of asks for a date", "[cli][history][prices]") {
    const HistoryFixture f;
    // No history named: the catalog's $3.06 whatever history exists.
    const auto alone = json_of(f.run("compare --json " + f.rig));
    CHECK(cloud_total(alone) == Approx(3672.0));
    // A history at the default path ($XDG_DATA_HOME/payback/prices.sqlite) changes no answer without
    // --as-of, and is read with it.
    fs::create_directories(f.dir.path() / "xdg/payback");
    fs::copy_file(f.dir.path() / "prices.sqlite", f.dir.path() / "xdg/payback/prices.sqlite");
    CHECK(json_of(f.run("compare --json " + f.rig)).dump() == alone.dump());
    CHECK(cloud_total(json_of(f.run("compare --json " + f.rig + " --as-of 2026-12-16"))) == Approx(3000.0));
}

TEST_CASE("the scenario commands take --db; a missing history is an error naming it", "[cli][history][prices]") {
    const HistoryFixture f;
    for (const char* command : {"cashflow --json", "explain --json", "tornado --json",
                                "breakeven --json --for workload.gpu_hours_per_month",
                                "sweep --json --vary workload.gpu_hours_per_month=50:150:2"}) {
        INFO(command);
        CHECK(json_of(f.run(std::string(command) + " " + f.rig + " --db " + f.db)).at("prices_as_of") == "2026-12-15");
    }
    const Result missing = f.run("compare " + f.rig + " --db " + quote((f.dir.path() / "none.sqlite").string()));
    check_bad_input(missing);
    CHECK_THAT(missing.err, Catch::Contains("none.sqlite") && Catch::Contains("--db") &&
                                Catch::Contains("no price history here"));
}

TEST_CASE("compare --cloud lists each instance once, at its price in effect on --as-of", "[cli][history][prices]") {
    const HistoryFixture f;
    // --cloud needs the rig's GPU from the catalog to set each instance's speed.
    const std::string rig = quote((f.dir.path() / "rig-3090.toml").string());
    std::string text = read_file(f.dir.path() / "rig.toml");
    text.replace(text.find("name = \"card\""), 13, "name = \"card\"\ngpu = \"RTX 3090\"");
    write_file(f.dir.path() / "rig-3090.toml", text);
    const std::string filter = " --cloud \"provider==aws,instance==p3.2xlarge,region==us-east-1\"";
    // The history holds two rows of the instance (2026-11-29 and 2026-12-15): one option, not two.
    const auto before = json_of(f.run("compare --json " + rig + filter + " --db " + f.db + " --as-of 2026-12-14"));
    const auto after = json_of(f.run("compare --json " + rig + filter + " --db " + f.db + " --as-of 2026-12-15"));
    REQUIRE(before.at("options").size() == 2);
    REQUIRE(after.at("options").size() == 2);
    // The same hours at $3.06, then at $2.50 an hour.
    CHECK(cloud_total(before) / cloud_total(after) == Approx(3.06 / 2.50));
    CHECK(after.at("prices_as_of") == "2026-12-15");
    // A condition on the price reads the price in effect: $2.50 passes "<= 2.8" from 2026-12-15 on, and
    // $3.06 before it does not.
    const std::string cheap = " --cloud \"provider==aws,instance==p3.2xlarge,on_demand_per_hour<=2.8\"";
    CHECK(json_of(f.run("compare --json " + rig + cheap + " --db " + f.db)).at("options").size() == 2);
    const Result none = f.run("compare --json " + rig + cheap + " --db " + f.db + " --as-of 2026-12-14");
    check_bad_input(none);
    CHECK_THAT(none.err, Catch::Contains("no catalog instance matches"));
}
