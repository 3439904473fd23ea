// The catalog prices a scenario used, by date: --as-of picks each item's row in effect on a date, and
// every JSON answer says how old its prices are (prices_as_of, stale against --max-age and
// $PAYBACK_TODAY); text output warns on stderr when they are stale.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "support/input_errors.hpp"
#include "support/run_cli.hpp"
#include "support/shipped_catalogs.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using payback::test::check_bad_input;
using payback::test::quote;
using payback::test::read_file;
using payback::test::replaced;
using payback::test::Result;
using payback::test::run_program;
using payback::test::TempDir;
using payback::test::write_file;

namespace {

// The shipped catalogs in <dir>/pricing, with AWS p3.2xlarge in us-east-1 priced twice: $3.00 an hour
// from 2024-01-01, $2.00 from 2025-01-01; and <dir>/rig.toml, a rig against that instance.
void write_catalog_and_scenario(const TempDir& dir) {
    payback::test::replace_catalog_row(
        payback::test::copy_shipped_catalogs(dir.path()) / "cloud-instances.csv", "aws,p3.2xlarge,us-east-1,",
        "aws,p3.2xlarge,us-east-1,V100 16GB,1,16,8,61,3.00,,,,1,60,USD,2024-01-01,test: the price until 2024-12-31\n"
        "aws,p3.2xlarge,us-east-1,V100 16GB,1,16,8,61,2.00,,,,1,60,USD,2025-01-01,test: the price from 2025-01-01\n");
    write_file(dir.path() / "rig.toml",
               "[scenario]\nname = \"as-of test\"\nhorizon_months = 12\n"
               "[workload]\ngpu_hours_per_month = 100\n"
               "[rig]\nname = \"Rig\"\n[[rig.parts]]\nkind = \"gpu\"\nname = \"card\"\nprice = 1000\nload_watts = 300\n"
               "[electricity]\nprice_per_kwh = 0.2\n"
               "[[cloud]]\ninstance = \"aws:p3.2xlarge\"\nregion = \"us-east-1\"\nspeedup = 1\n");
}

// `payback ARGS` with the catalogs of <dir>/pricing and today fixed.
Result run_with(const TempDir& dir, const std::string& args, const std::string& today = "2025-03-01") {
    return run_program(PAYBACK_BINARY, args,
                       "export PAYBACK_PRICING_DIR=" + quote((dir.path() / "pricing").string()) +
                           " PAYBACK_TODAY=" + today);
}

std::string rig(const TempDir& dir) { return quote((dir.path() / "rig.toml").string()); }

// The cloud option's hourly price as `check --json` resolves it.
double cloud_price(const Result& r) {
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const auto json = nlohmann::json::parse(r.out);  // kept: a range-for over a temporary's member dangles
    for (const auto& value : json.at("values"))
        if (value.at("key") == "cloud[0].price_per_hour") return std::stod(value.at("value").get<std::string>());
    FAIL("check --json resolves no cloud[0].price_per_hour");
    return 0;
}

nlohmann::json json_of(const Result& r) {
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    return nlohmann::json::parse(r.out);
}

}  // namespace

TEST_CASE("as of a date: the price in effect then, on both sides of a change", "[cli][prices]") {
    const TempDir dir;
    write_catalog_and_scenario(dir);
    CHECK(cloud_price(run_with(dir, "check --json " + rig(dir) + " --as-of 2024-01-01")) == 3.00);
    CHECK(cloud_price(run_with(dir, "check --json " + rig(dir) + " --as-of 2024-12-31")) == 3.00);
    CHECK(cloud_price(run_with(dir, "check --json " + rig(dir) + " --as-of 2025-01-01")) == 2.00);
    CHECK(cloud_price(run_with(dir, "check --json " + rig(dir))) == 2.00);  // without --as-of: the newest
    // The answer follows the price: compare on each side of the change.
    const auto before = json_of(run_with(dir, "compare --json " + rig(dir) + " --as-of 2024-06-30"));
    const auto after = json_of(run_with(dir, "compare --json " + rig(dir) + " --as-of 2025-06-30"));
    CHECK(before.at("prices_as_of") == "2024-01-01");
    CHECK(after.at("prices_as_of") == "2025-01-01");
    CHECK(before.dump() != after.dump());
}

TEST_CASE("as of a date before the first price: an error naming the item and its earliest date", "[cli][prices]") {
    const TempDir dir;
    write_catalog_and_scenario(dir);
    for (const char* command : {"compare", "montecarlo", "check"}) {
        INFO(command);
        const Result r = run_with(dir, std::string(command) + " " + rig(dir) + " --as-of 2023-12-31");
        check_bad_input(r);
        CHECK_THAT(r.err, Catch::Contains("no price for aws:p3.2xlarge in effect on 2023-12-31 (--as-of): the "
                                          "catalog's earliest is as of 2024-01-01"));
    }
    const Result bad_date = run_with(dir, "compare " + rig(dir) + " --as-of 2025-02-30");
    check_bad_input(bad_date);
    CHECK_THAT(bad_date.err, Catch::Contains("--as-of"));
}

TEST_CASE("every JSON answer says how old its prices are; text warns when they are stale", "[cli][prices]") {
    const TempDir dir;
    write_catalog_and_scenario(dir);
    SECTION("90 days after 2025-01-01 is 2025-04-01: at the limit, not stale; a day later, stale") {
        const auto fresh = json_of(run_with(dir, "compare --json " + rig(dir), "2025-04-01"));
        CHECK(fresh.at("prices_as_of") == "2025-01-01");
        CHECK(fresh.at("stale") == false);
        const auto stale = json_of(run_with(dir, "compare --json " + rig(dir), "2025-04-02"));
        CHECK(stale.at("stale") == true);
        CHECK(json_of(run_with(dir, "compare --json --max-age 91 " + rig(dir), "2025-04-02")).at("stale") == false);
    }
    SECTION("each command that prints JSON from a scenario") {
        for (const char* command : {"compare --json", "cashflow --json", "explain --json", "tornado --json",
                                    "breakeven --json --for workload.gpu_hours_per_month",
                                    "sweep --json --vary workload.gpu_hours_per_month=50:150:2"}) {
            INFO(command);
            const auto out = json_of(run_with(dir, std::string(command) + " " + rig(dir), "2026-01-01"));
            CHECK(out.at("prices_as_of") == "2025-01-01");
            CHECK(out.at("stale") == true);
        }
    }
    SECTION("the text output's warning line, on stderr, and none when fresh") {
        const Result stale = run_with(dir, "compare " + rig(dir), "2026-01-01");
        REQUIRE(stale.code == 0);
        // 2025-01-01 to 2026-01-01 is 365 days.
        CHECK(stale.err == "warning: prices as of 2025-01-01 are 365 days old (--max-age 90); run payback catalog "
                           "import to refresh them\n");
        const Result fresh = run_with(dir, "compare " + rig(dir), "2025-01-02");
        CHECK(fresh.err.empty());
    }
    SECTION("prices typed into the scenario: no date, never stale") {
        const auto out = json_of(run_with(
            dir, "compare --json " + rig(dir) + " --set cloud[0].price_per_hour=2.5", "2030-01-01"));
        CHECK(out.at("prices_as_of").is_null());
        CHECK(out.at("stale") == false);
    }
    SECTION("--as-of measures the age at that date") {
        // On 2024-06-30 the row in effect (2024-01-01) was 181 days old: stale at 90, fresh at 200.
        CHECK(json_of(run_with(dir, "compare --json --as-of 2024-06-30 " + rig(dir), "2030-01-01")).at("stale") ==
              true);
        CHECK(json_of(run_with(dir, "compare --json --max-age 200 --as-of 2024-06-30 " + rig(dir), "2030-01-01"))
                  .at("stale") == false);
    }
}

TEST_CASE("as of a date: a region's electricity price in effect then", "[cli][prices]") {
    const TempDir dir;
    write_catalog_and_scenario(dir);
    const std::string text = read_file(dir.path() / "rig.toml");
    write_file(dir.path() / "rig.toml", replaced(text, "price_per_kwh = 0.2", "region = \"US\""));
    // The shipped US rows: $0.16 a kWh for 2023 (as of 2023-12-31), $0.1545 for 2024 (as of 2024-01-31).
    const auto before = json_of(run_with(dir, "compare --json " + rig(dir) + " --as-of 2024-01-30"));
    const auto after = json_of(run_with(dir, "compare --json " + rig(dir) + " --as-of 2024-01-31"));
    CHECK(before.at("prices_as_of") == "2023-12-31");  // older than the instance's 2024-01-01
    CHECK(after.at("prices_as_of") == "2024-01-01");
    const auto& rig_before = before.at("options").at(0);
    const auto& rig_after = after.at("options").at(0);
    // 300 W for 100 h a month is 30 kWh; over 12 months $0.16 - $0.1545 a kWh is 12 x 30 x 0.0055 = $1.98.
    CHECK(rig_before.at("energy_kwh_per_month").get<double>() == Approx(30.0));
    CHECK(rig_before.at("total_cost").get<double>() - rig_after.at("total_cost").get<double>() ==
          Approx(12 * 30 * (0.16 - 0.1545)));
}

TEST_CASE("an observed resale's used-GPU sales count toward prices_as_of", "[cli][prices]") {
    const auto shipped = [](const std::string& args) {
        return json_of(run_program(PAYBACK_BINARY, args, "unset PAYBACK_PRICING_DIR && export PAYBACK_TODAY=2026-12-01"));
    };
    // lab-3090-2021 types its cloud and electricity prices in; its resale reads the RTX 3090's eBay
    // sales from October 2021 (month 1 starts 2021-10-01, before the first sale of 2021-10-15).
    CHECK(shipped("compare --json scenarios/lab-3090-2021.toml").at("prices_as_of") == "2021-10-15");
    // Started in June 2023: 2023-06-01 lies between the sales of 2023-05-15 and 2023-06-15, the oldest read.
    CHECK(shipped("compare --json scenarios/lab-3090-2021.toml --set scenario.start=\\\"2023-06\\\"")
              .at("prices_as_of") == "2023-05-15");
}
