// payback backtest on a two-price history, worked by hand: a rig against an instance whose price fell.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/shipped_catalogs.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using payback::test::check_bad_input;
using payback::test::quote;
using payback::test::Result;
using payback::test::run_program;
using payback::test::TempDir;
using payback::test::write_file;

namespace {

// The shipped catalogs in <dir>/pricing with AWS p3.2xlarge in us-east-1 at $3.00 an hour from
// 2024-01-01 and $2.00 from 2024-07-01; <dir>/rig.toml: a $2,000 card against it for 12 months.
void write_history(const TempDir& dir) {
    const fs::path pricing = payback::test::copy_shipped_catalogs(dir.path());
    payback::test::replace_catalog_row(
        pricing / "cloud-instances.csv", "aws,p3.2xlarge,us-east-1,",
        "aws,p3.2xlarge,us-east-1,V100 16GB,1,16,8,61,3.00,,,,1,60,USD,2024-01-01,test: before the cut\n"
        "aws,p3.2xlarge,us-east-1,V100 16GB,1,16,8,61,2.00,,,,1,60,USD,2024-07-01,test: after the cut\n");
    write_file(dir.path() / "rig.toml",
               "[scenario]\nname = \"backtest\"\nhorizon_months = 12\nstart = \"2024-01\"\n"
               "[workload]\ngpu_hours_per_month = 100\n"
               "[rig]\nname = \"Rig\"\n[[rig.parts]]\nkind = \"gpu\"\nname = \"card\"\nprice = 2000\n"
               "load_watts = 300\n"
               "[electricity]\nprice_per_kwh = 0.2\n"
               "[[cloud]]\ninstance = \"aws:p3.2xlarge\"\nregion = \"us-east-1\"\nspeedup = 1\n");
}

Result run_with(const TempDir& dir, const std::string& args) {
    return run_program(PAYBACK_BINARY, args,
                       "export PAYBACK_PRICING_DIR=" + quote((dir.path() / "pricing").string()));
}

}  // namespace

TEST_CASE("backtest: predicted with the price known on the day, realized with the cut", "[cli][backtest]") {
    const TempDir dir;
    write_history(dir);
    const Result r = run_with(dir, "backtest --json " + quote((dir.path() / "rig.toml").string()) +
                                       " --decided 2024-01-15 --until 2024-12-31");
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const auto out = nlohmann::json::parse(r.out);
    CHECK(out.at("decided") == "2024-01-15");
    CHECK(out.at("until") == "2024-12-31");
    REQUIRE(out.at("options").size() == 1);
    const auto& option = out.at("options")[0];
    // No discounting. The rig: $2,000, then 100 h x 300 W = 30 kWh x $0.20 = $6 a month, $72 a year.
    // Predicted: the cloud at $3.00 (the price on 2024-01-15): 12 x 100 h x $3.00 = $3,600, so NPV
    // savings 3,600 - 2,000 - 72 = 1,528, and payback after 2,000 / (300 - 6) = 6.80 months.
    // Realized: January-June at $3.00 and July-December at $2.00, a mean of $2.50: 12 x 100 x 2.50 =
    // $3,000, NPV savings 3,000 - 2,072 = 928, payback 2,000 / (250 - 6) = 8.20 months.
    CHECK(option.at("predicted").at("npv_savings").get<double>() == Approx(1528.0).epsilon(1e-9));
    CHECK(option.at("realized").at("npv_savings").get<double>() == Approx(928.0).epsilon(1e-9));
    CHECK(option.at("predicted").at("payback_months").get<double>() == Approx(2000.0 / 294.0).epsilon(1e-9));
    CHECK(option.at("realized").at("payback_months").get<double>() == Approx(2000.0 / 244.0).epsilon(1e-9));
    CHECK(option.at("npv_savings_change").get<double>() == Approx(-600.0).epsilon(1e-9));
    // The cloud's price made all of the difference; the card has no observed resale.
    CHECK(option.at("attribution")[0].at("input") == "cloud prices");
    CHECK(option.at("attribution")[0].at("npv_savings_change").get<double>() == Approx(-600.0).epsilon(1e-9));
    CHECK(option.at("attribution")[1].at("input") == "used GPU prices");
    CHECK(option.at("attribution")[1].at("npv_savings_change").get<double>() == 0.0);
}

TEST_CASE("backtest: bad dates are one-line errors", "[cli][backtest][errors]") {
    const TempDir dir;
    write_history(dir);
    const std::string rig = quote((dir.path() / "rig.toml").string());
    const Result early = run_with(dir, "backtest " + rig + " --decided 2023-06-01");
    check_bad_input(early);
    CHECK_THAT(early.err, Catch::Contains("no price for aws:p3.2xlarge in effect on 2023-06-01"));
    const Result reversed = run_with(dir, "backtest " + rig + " --decided 2024-06-01 --until 2024-01-01");
    check_bad_input(reversed);
    CHECK_THAT(reversed.err, Catch::Contains("--until"));
}
