// A scenario's grid region, cloud region and observed used prices come from the catalogs the program
// runs with ($PAYBACK_PRICING_DIR here), read once with the others: a copy with one row changed
// changes the answer, and a bad row in it stops every command with the file, line and column (exit 2).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/input_errors.hpp"
#include "support/run_cli.hpp"
#include "support/shipped_catalogs.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using payback::test::check_bad_input;
using payback::test::lines_of;
using payback::test::quote;
using payback::test::read_file;
using payback::test::replaced;
using payback::test::Result;
using payback::test::run_program;
using payback::test::TempDir;
using payback::test::write_file;

namespace {

const fs::path source = PAYBACK_SOURCE_DIR;

// <dir>/pricing, a copy of the shipped catalogs with `file`'s first `from` replaced by `to`, and
// <dir>/scenarios/lab-3090-2021.toml, whose observed resale names ../pricing/used-gpu-prices.csv.
void copy_catalogs(const TempDir& dir, const std::string& file, const std::string& from, const std::string& to) {
    const fs::path pricing = payback::test::copy_shipped_catalogs(dir.path());
    fs::create_directories(dir.path() / "scenarios");
    write_file(pricing / file, replaced(read_file(pricing / file), from, to));
    fs::copy_file(source / "scenarios/lab-3090-2021.toml", dir.path() / "scenarios/lab-3090-2021.toml");
}

// `payback ARGS` with the catalogs of <dir>/pricing.
Result run_with(const TempDir& dir, const std::string& args) {
    return run_program(PAYBACK_BINARY, args, "export PAYBACK_PRICING_DIR=" + quote((dir.path() / "pricing").string()));
}

// The lab scenario copied into <dir> (the program runs in the source tree, so the path is absolute).
std::string lab(const TempDir& dir) { return quote((dir.path() / "scenarios/lab-3090-2021.toml").string()); }

// The same with its grid in Germany and its cloud option's facility in AWS us-east-1.
std::string lab_with_regions(const TempDir& dir) {
    return lab(dir) + " --set 'electricity.grid_region=\"DE\"' --set 'cloud[0].region=\"aws:us-east-1\"'";
}

// The value `check --json` resolves for `key`.
std::string resolved(const Result& r, const std::string& key) {
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const auto json = nlohmann::json::parse(r.out);
    for (const auto& value : json.at("values"))
        if (value.at("key") == key) return value.at("value");
    FAIL("check --json resolves no " << key);
    return "";
}

// A column of `cashflow --csv` in month 1.
double month_1(const Result& r, const std::string& column) {
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() > 1);
    const auto cells = [](const std::string& line) {
        std::vector<std::string> out;
        std::stringstream in(line);
        for (std::string cell; std::getline(in, cell, ',');) out.push_back(cell);
        return out;
    };
    const auto header = cells(lines[0]);
    const auto at = std::find(header.begin(), header.end(), column);
    REQUIRE(at != header.end());
    return std::stod(cells(lines[1]).at(static_cast<std::size_t>(at - header.begin())));
}

}  // namespace

TEST_CASE("a scenario's grid, cloud-region and used-price rows come from the catalogs in use", "[cli][catalog]") {
    SECTION("grid-carbon.csv: Germany at 0.5 kg/kWh instead of 0.34414") {
        const TempDir dir;
        copy_catalogs(dir, "grid-carbon.csv", "DE,Germany,0.34414,", "DE,Germany,0.5,");
        const Result r = run_with(dir, "check --json " + lab_with_regions(dir));
        CHECK(resolved(r, "electricity.co2_kg_per_kwh") == "0.5");
        CHECK(resolved(r, "cloud[0].pue") == "1.15");
    }
    SECTION("cloud-regions.csv: AWS us-east-1 at PUE 1.4 instead of 1.15") {
        const TempDir dir;
        copy_catalogs(dir, "cloud-regions.csv", "aws,us-east-1,US-VA,0.243512,1.15,", "aws,us-east-1,US-VA,0.243512,1.4,");
        const Result r = run_with(dir, "check --json " + lab_with_regions(dir));
        CHECK(resolved(r, "cloud[0].pue") == "1.4");
        CHECK(resolved(r, "electricity.co2_kg_per_kwh") == "0.34414");
    }
    SECTION("used-gpu-prices.csv: an RTX 3090 at $3,936 in November 2021 instead of $2,936") {
        // The value at the end of month 1 (2021-11-01) lies between the October 15 and November 15
        // prices, a fraction (17/31) / (1 + 14/30 - 14/31) = 0.540254 of the way in calendar months:
        // shipped 2737 + 0.540254 x (2936 - 2737) = 2844.51 (tests/golden/lab-3090-2021.cashflow.csv);
        // changed 2737 + 0.540254 x (3936 - 2737) = 3384.76.
        const double way = (17.0 / 31.0) / (1.0 + 14.0 / 30.0 - 14.0 / 31.0);
        const TempDir dir;
        copy_catalogs(dir, "used-gpu-prices.csv", "2021-11-15,RTX 3090,2936,", "2021-11-15,RTX 3090,3936,");
        CHECK(month_1(run_with(dir, "cashflow --csv " + lab(dir)), "asset_value") ==
              Approx(2737.0 + way * 1199.0).epsilon(1e-12));
        const Result shipped =
            run_program(PAYBACK_BINARY, "cashflow --csv scenarios/lab-3090-2021.toml", "unset PAYBACK_PRICING_DIR");
        CHECK(month_1(shipped, "asset_value") == Approx(2737.0 + way * 199.0).epsilon(1e-12));
    }
}

TEST_CASE("a bad grid, cloud-region or used-price row stops the program with its file, line and column",
          "[cli][catalog][errors]") {
    struct Case {
        std::string file, from, to, where;
    };
    // The rows' lines in the shipped files: DE on 17, AWS us-east-1 on 28, RTX 3090 October 2021 on 73.
    const Case cases[] = {
        {"grid-carbon.csv", "DE,Germany,0.34414,", "DE,Germany,344.14,",
         "grid-carbon.csv:17: kg_co2_per_kwh: expected kg CO2 per kWh, at most 2, got 344.14"},
        {"cloud-regions.csv", "aws,us-east-1,US-VA,0.243512,1.15,", "aws,us-east-1,US-VA,0.243512,0.9,",
         "cloud-regions.csv:28: pue: expected a PUE from 1 (no overhead) to 3, got 0.9"},
        {"used-gpu-prices.csv", "2021-10-15,RTX 3090,2737,", "2021-10-15,RTX 3090,-1,",
         "used-gpu-prices.csv:73: price: expected a price >= 0, got -1"},
    };
    for (const Case& c : cases) {
        INFO(c.file);
        const TempDir dir;
        copy_catalogs(dir, c.file, c.from, c.to);
        const Result r = run_with(dir, "compare " + lab_with_regions(dir));
        check_bad_input(r);
        CHECK_THAT(r.err, Catch::Contains((dir.path() / "pricing" / c.where).string()));
    }
}
