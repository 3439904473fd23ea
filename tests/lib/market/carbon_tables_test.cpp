// The carbon catalogs (payback/market/carbon_tables.hpp): pricing/grid-carbon.csv and
// pricing/cloud-regions.csv, their published values and every check of their loaders.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/csv_reader.hpp"
#include "payback/base/error.hpp"
#include "payback/market/carbon_tables.hpp"
#include "support/input_errors.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace payback;

namespace {

const std::string grid_carbon = PAYBACK_SOURCE_DIR "/pricing/grid-carbon.csv";
const std::string cloud_regions = PAYBACK_SOURCE_DIR "/pricing/cloud-regions.csv";

// 1 lb = 0.45359237 kg, so 1 lb/MWh = 0.00045359237 kg/kWh.
constexpr double kg_per_lb = 0.45359237;

using payback::test::TempDir;
using payback::test::check_error;
using payback::test::replaced;

// A small valid grid file: header on line 2 (after a comment), rows on lines 3-5.
const std::string grid_csv =
    "# a comment line\n"
    "region,name,kg_co2_per_kwh,year,as_of,source\n"
    "US-CA,California,0.178482,2023,2026-11-29,https://example.com/egrid\n"
    "DE,Germany,0.34414,2024,2026-11,https://example.com/ember\n"
    "CA-QC,Quebec,0.002565,2024,2026-11-29,https://example.com/eccc\n";

// A small valid cloud file: header on line 1, rows on lines 2-5.
const std::string cloud_csv =
    "provider,region,grid_region,kg_co2_per_kwh,pue,as_of,source\n"
    "aws,us-east-1,US-VA,0.243512,1.15,2026-11-29,https://example.com/aws\n"
    "aws,eu-central-1,DE,0.34414,1.15,2026-11-29,https://example.com/aws\n"
    "gcp,us-central1,US-IA,0.41272,1.09,2026-11-29,https://example.com/gcp\n"
    "azure,eastus,US-VA,0.243512,1.18,2026-11-29,https://example.com/azure\n";

// One row of a file, read and checked whole.
GridIntensity load_grid_intensity(const std::string& path, const std::string& region) {
    return GridCarbonTable::load(path).find(region);
}

CloudRegion load_cloud_region(const std::string& path, const std::string& provider, const std::string& region) {
    return CloudRegionTable::load(path).find(provider, region);
}

InputError grid_error(const std::string& path, const std::string& region) {
    return test::input_error([&] { load_grid_intensity(path, region); });
}

InputError cloud_error(const std::string& path, const std::string& provider, const std::string& region) {
    return test::input_error([&] { load_cloud_region(path, provider, region); });
}

}  // namespace

TEST_CASE("grid-carbon.csv: published values", "[carbon][data]") {
    // Ember yearly data, lifecycle g CO2e/kWh of generation, read in co2.js: Germany 344.14 g (2024).
    const GridIntensity de = load_grid_intensity(grid_carbon, "DE");
    CHECK(de.region == "DE");
    CHECK(de.name == "Germany");
    CHECK(de.kg_co2_per_kwh == Approx(344.14 / 1000.0).epsilon(1e-12));
    CHECK(de.year == 2024);
    CHECK(load_grid_intensity(grid_carbon, "FR").kg_co2_per_kwh == Approx(0.04418).epsilon(1e-12));
    CHECK(load_grid_intensity(grid_carbon, "PL").kg_co2_per_kwh == Approx(0.61498).epsilon(1e-12));
    CHECK(load_grid_intensity(grid_carbon, "EU").kg_co2_per_kwh == Approx(0.21331).epsilon(1e-12));
    const GridIntensity us = load_grid_intensity(grid_carbon, "US");
    CHECK(us.kg_co2_per_kwh == Approx(0.38355).epsilon(1e-12));
    CHECK(us.year == 2024);
    // Iceland's latest Ember year is 2023 (28.33 g).
    const GridIntensity is = load_grid_intensity(grid_carbon, "IS");
    CHECK(is.kg_co2_per_kwh == Approx(0.02833).epsilon(1e-12));
    CHECK(is.year == 2023);

    // EPA eGRID2023 state CO2 output rates, read in Eco2AI's kg/MWh conversion (x 0.45359237 per lb):
    // California 178.482 kg/MWh is 178.482 / 0.45359237 = 393.485 lb/MWh.
    const GridIntensity ca = load_grid_intensity(grid_carbon, "US-CA");
    CHECK(ca.name == "California");
    CHECK(ca.kg_co2_per_kwh == Approx(0.178482).epsilon(1e-12));
    CHECK(ca.kg_co2_per_kwh * 1000.0 / kg_per_lb == Approx(393.485).epsilon(1e-5));
    CHECK(ca.year == 2023);
    CHECK(load_grid_intensity(grid_carbon, "US-TX").kg_co2_per_kwh == Approx(0.348503).epsilon(1e-12));
    CHECK(load_grid_intensity(grid_carbon, "US-VA").kg_co2_per_kwh == Approx(0.243512).epsilon(1e-12));
    CHECK(load_grid_intensity(grid_carbon, "US-WV").kg_co2_per_kwh == Approx(0.886493).epsilon(1e-12));
    CHECK(load_grid_intensity(grid_carbon, "US-VT").kg_co2_per_kwh == Approx(0.019496).epsilon(1e-12));

    // ECCC National Inventory Report Annex 7, 2024 consumption intensity: Quebec 2.565 g CO2e/kWh.
    const GridIntensity qc = load_grid_intensity(grid_carbon, "CA-QC");
    CHECK(qc.name == "Quebec");
    CHECK(qc.kg_co2_per_kwh == Approx(0.002565).epsilon(1e-12));
    CHECK(qc.year == 2024);
}

TEST_CASE("cloud-regions.csv: published values", "[carbon][data]") {
    // Google's own 2024 grid carbon intensity of us-central1 (Iowa): 412.72 g/kWh; fleet PUE 1.09.
    const CloudRegion iowa = load_cloud_region(cloud_regions, "gcp", "us-central1");
    CHECK(iowa.provider == "gcp");
    CHECK(iowa.region == "us-central1");
    CHECK(iowa.kg_co2_per_kwh == Approx(0.41272).epsilon(1e-12));
    CHECK(iowa.pue == 1.09);
    CHECK(load_cloud_region(cloud_regions, "gcp", "europe-west4").kg_co2_per_kwh ==
          Approx(0.20881).epsilon(1e-12));
    CHECK(load_cloud_region(cloud_regions, "gcp", "northamerica-northeast1").kg_co2_per_kwh ==
          Approx(0.00548).epsilon(1e-12));

    // AWS, Azure, Lambda: the grid row of the state or country the region sits in, and the PUE the
    // provider publishes (AWS 1.15 for 2024, Microsoft 1.18) or the Uptime average (1.58).
    const CloudRegion virginia = load_cloud_region(cloud_regions, "aws", "us-east-1");
    CHECK(virginia.kg_co2_per_kwh == load_grid_intensity(grid_carbon, "US-VA").kg_co2_per_kwh);
    CHECK(virginia.pue == 1.15);
    const CloudRegion amsterdam = load_cloud_region(cloud_regions, "azure", "westeurope");
    CHECK(amsterdam.kg_co2_per_kwh == load_grid_intensity(grid_carbon, "NL").kg_co2_per_kwh);
    CHECK(amsterdam.pue == 1.18);
    const CloudRegion utah = load_cloud_region(cloud_regions, "lambda", "us-west-3");
    CHECK(utah.kg_co2_per_kwh == Approx(0.640935).epsilon(1e-12));
    CHECK(utah.pue == 1.58);
    CHECK(load_cloud_region(cloud_regions, "runpod", "CA-MTL-1").kg_co2_per_kwh ==
          load_grid_intensity(grid_carbon, "CA-QC").kg_co2_per_kwh);
}

TEST_CASE("the catalogs: every row loads and the two files agree", "[carbon][data]") {
    const auto grid = detail::CsvTable::load(grid_carbon);
    REQUIRE(grid.rows() >= 90);
    std::map<std::string, double> intensity_of;
    for (std::size_t row = 0; row < grid.rows(); ++row) {
        const std::string& code = grid.text(row, "region");
        INFO("grid-carbon.csv line " << grid.line_of(row) << ": " << code);
        const GridIntensity g = load_grid_intensity(grid_carbon, code);
        CHECK(g.region == code);
        CHECK(g.name == grid.text(row, "name"));
        // Quebec's hydro (2.6 g) is the cleanest row, West Virginia's coal (886 g) the dirtiest: a row
        // outside these bounds is more likely a unit slip than a grid.
        CHECK(g.kg_co2_per_kwh >= 0.002);
        CHECK(g.kg_co2_per_kwh <= 1.0);
        CHECK(g.year >= 2023);  // no stale figures: refresh a row rather than keep an old year
        CHECK(grid.text(row, "source").rfind("https://", 0) == 0);
        intensity_of[code] = g.kg_co2_per_kwh;
    }
    // What the model needs: the US, the states hosting the big cloud regions, the EU and its larger
    // members, the UK, Quebec, and the Asia-Pacific countries with GPU regions.
    for (const char* code : {"WORLD", "US",    "US-CA", "US-TX", "US-NY", "US-WA", "US-UT", "US-VA", "US-OR",
                             "US-OH", "US-IA", "US-IL", "US-AZ", "US-NV", "US-SC", "US-GA", "EU",    "DE",
                             "FR",    "IE",    "NL",    "SE",    "PL",    "IT",    "ES",    "DK",    "FI",
                             "BE",    "GB",    "CA-QC", "CA-ON", "JP",    "SG",    "IN",    "AU"}) {
        INFO(code);
        CHECK(intensity_of.count(code) == 1);
    }
    // All 50 states and DC.
    std::size_t states = 0;
    for (const auto& [code, kg] : intensity_of) states += code.rfind("US-", 0) == 0 ? 1 : 0;
    CHECK(states == 51);

    const auto cloud = detail::CsvTable::load(cloud_regions);
    REQUIRE(cloud.rows() >= 80);
    std::map<std::string, std::set<double>> pues_of;
    for (std::size_t row = 0; row < cloud.rows(); ++row) {
        const std::string& provider = cloud.text(row, "provider");
        const std::string& region = cloud.text(row, "region");
        const std::string& grid_region = cloud.text(row, "grid_region");
        INFO("cloud-regions.csv line " << cloud.line_of(row) << ": " << provider << " " << region);
        const CloudRegion r = load_cloud_region(cloud_regions, provider, region);
        CHECK(r.provider == provider);
        CHECK(r.region == region);
        CHECK(r.pue >= 1.0);
        CHECK(r.pue <= 1.6);
        CHECK(r.kg_co2_per_kwh >= 0.002);
        CHECK(r.kg_co2_per_kwh <= 1.0);
        pues_of[provider].insert(r.pue);
        // Every region names a grid the grid file has.
        REQUIRE(intensity_of.count(grid_region) == 1);
        if (provider == "gcp") {
            // Google publishes its own figure per region.
            CHECK_THAT(cloud.text(row, "source"),
                       Catch::StartsWith("https://github.com/GoogleCloudPlatform/"));
        } else {
            // The others are the grid row, copied: refreshing grid-carbon.csv means refreshing these.
            CHECK(r.kg_co2_per_kwh == intensity_of[grid_region]);
            CHECK_THAT(cloud.text(row, "source"),
                       Catch::Contains("intensity: grid-carbon.csv " + grid_region));
        }
    }
    // One fleet PUE per provider.
    CHECK(pues_of["gcp"] == std::set<double>{1.09});
    CHECK(pues_of["aws"] == std::set<double>{1.15});
    CHECK(pues_of["azure"] == std::set<double>{1.18});
    CHECK(pues_of["lambda"] == std::set<double>{1.58});
    CHECK(pues_of["runpod"] == std::set<double>{1.58});
    CHECK(pues_of.size() == 5);
}

TEST_CASE("a small grid file loads", "[carbon]") {
    TempDir dir;
    const std::string path = dir.write("grid.csv", grid_csv);
    const GridIntensity de = load_grid_intensity(path, "DE");  // as_of written YYYY-MM
    CHECK(de.name == "Germany");
    CHECK(de.kg_co2_per_kwh == 0.34414);
    CHECK(de.year == 2024);
    CHECK(load_grid_intensity(path, "CA-QC").kg_co2_per_kwh == 0.002565);
    // CRLF line endings and a quoted name read the same.
    std::string crlf = replaced(grid_csv, "Germany", "\"Germany, Federal Republic\"");
    for (std::size_t at = crlf.find('\n'); at != std::string::npos; at = crlf.find('\n', at + 2))
        crlf.replace(at, 1, "\r\n");
    const std::string crlf_path = dir.write("crlf.csv", crlf);
    CHECK(load_grid_intensity(crlf_path, "DE").name == "Germany, Federal Republic");
    CHECK(load_grid_intensity(crlf_path, "US-CA").year == 2023);
}

TEST_CASE("grid file errors name the file, line and column", "[carbon][errors]") {
    TempDir dir;
    const std::string path = dir.write("bad.csv", "");
    // The error from loading `region` out of `text`, written to `path`.
    const auto error_for = [&](const std::string& text, const std::string& region = "DE") {
        dir.write("bad.csv", text);
        return grid_error(path, region);
    };
    SECTION("an unknown region, with a hint") {
        check_error(grid_error(grid_carbon, "USCA"), grid_carbon, 0, "region",
                    "no row for region \"USCA\"; did you mean \"US-CA\"?");
        // The wrong case finds the region however far the edit distance.
        check_error(grid_error(grid_carbon, "us-ca"), grid_carbon, 0, "region", "did you mean \"US-CA\"?");
        check_error(error_for(grid_csv, "DK"), path, 0, "region", "did you mean \"DE\"?");
    }
    SECTION("an unknown region, far from any: the list of regions") {
        check_error(error_for(grid_csv, "Atlantis"), path, 0, "region",
                    "no row for region \"Atlantis\"; the file has: US-CA, DE, CA-QC");
        const std::string header_only = grid_csv.substr(0, grid_csv.find("US-CA,"));
        check_error(error_for(header_only), path, 0, "region", "the file has no data rows");
    }
    SECTION("a missing column, a malformed row, a missing file") {
        check_error(error_for(replaced(grid_csv, ",year,", ",yr,")), path, 0, "year", "missing column");
        check_error(error_for(replaced(grid_csv, "Germany,0.34414,", "Germany,")), path, 4, "",
                    "expected 6 fields");
        const std::string missing = path + ".missing";
        check_error(grid_error(missing, "DE"), missing, 0, "", "no such file");
    }
    SECTION("a region that is not an ISO 3166 style code, or is listed twice") {
        check_error(error_for(replaced(grid_csv, "US-CA,", "US_CA,")), path, 3, "region",
                    "expected an ISO 3166 style code such as US, US-CA, DE or EU, got \"US_CA\"");
        check_error(error_for(replaced(grid_csv, "US-CA,", "us-ca,")), path, 3, "region", "got \"us-ca\"");
        check_error(error_for(replaced(grid_csv, "DE,Germany", "D,Germany")), path, 4, "region", "got \"D\"");
        check_error(error_for(replaced(grid_csv, "CA-QC,", "CA-QUEB,")), path, 5, "region",
                    "got \"CA-QUEB\"");
        check_error(error_for(replaced(grid_csv, "CA-QC,", "CA-,")), path, 5, "region", "got \"CA-\"");
        check_error(error_for(replaced(grid_csv, "CA-QC,", ",")), path, 5, "region", "empty");
        check_error(error_for(grid_csv + "DE,Deutschland,0.3,2024,2026-11-29,https://example.com/x\n"), path,
                    6, "region", "\"DE\" is already listed on line 4");
    }
    SECTION("an empty name") {
        check_error(error_for(replaced(grid_csv, ",Germany,", ", ,")), path, 4, "name", "empty");
    }
    SECTION("a negative, non-numeric, non-finite or gram-sized intensity") {
        check_error(error_for(replaced(grid_csv, ",0.34414,", ",-0.1,")), path, 4, "kg_co2_per_kwh",
                    "expected an intensity >= 0, got -0.1");
        check_error(error_for(replaced(grid_csv, ",0.34414,", ",344.14,")), path, 4, "kg_co2_per_kwh",
                    "expected kg CO2 per kWh, at most 2, got 344.14: is it grams per kWh? Divide by 1000");
        check_error(error_for(replaced(grid_csv, ",0.34414,", ",nan,")), path, 4, "kg_co2_per_kwh",
                    "expected a finite number");
        check_error(error_for(replaced(grid_csv, ",0.34414,", ",0.34 kg,")), path, 4, "kg_co2_per_kwh",
                    "expected a number, got \"0.34 kg\"");
        check_error(error_for(replaced(grid_csv, ",0.34414,", ",,")), path, 4, "kg_co2_per_kwh",
                    "expected a number, got an empty field");
    }
    SECTION("a year that is not whole, too early, or after the figure was read") {
        check_error(error_for(replaced(grid_csv, ",2024,2026-11,", ",2024.5,2026-11,")), path, 4, "year",
                    "expected a whole year, got 2024.5");
        check_error(error_for(replaced(grid_csv, ",2024,2026-11,", ",1985,2026-11,")), path, 4, "year",
                    "expected a year from 1990 to the as_of year 2026, got 1985");
        check_error(error_for(replaced(grid_csv, ",2024,2026-11,", ",2027,2026-11,")), path, 4, "year",
                    "got 2027");
        check_error(error_for(replaced(grid_csv, ",2024,2026-11,", ",last year,2026-11,")), path, 4, "year",
                    "expected a number");
    }
    SECTION("an empty or malformed as_of, an empty source") {
        check_error(error_for(replaced(grid_csv, ",2026-11,", ",,")), path, 4, "as_of",
                    "empty: every row must say when its figure was read");
        check_error(error_for(replaced(grid_csv, ",2026-11,", ",2026-02-30,")), path, 4, "as_of",
                    "expected a date YYYY-MM-DD or YYYY-MM, got \"2026-02-30\"");
        check_error(error_for(replaced(grid_csv, ",2026-11,", ",Nov 2026,")), path, 4, "as_of",
                    "got \"Nov 2026\"");
        check_error(error_for(replaced(grid_csv, "https://example.com/ember", "")), path, 4, "source",
                    "empty: every row must say where its figure came from");
        check_error(error_for(replaced(grid_csv, "https://example.com/eccc", " ")), path, 5, "source",
                    "empty");
    }
    SECTION("a bad row after the one asked for still fails: the whole file is checked") {
        check_error(error_for(replaced(grid_csv, ",0.002565,", ",-1,"), "US-CA"), path, 5, "kg_co2_per_kwh",
                    "expected an intensity >= 0");
    }
}

TEST_CASE("a small cloud file loads", "[carbon]") {
    TempDir dir;
    const std::string path = dir.write("cloud.csv", cloud_csv);
    const CloudRegion r = load_cloud_region(path, "aws", "eu-central-1");
    CHECK(r.provider == "aws");
    CHECK(r.region == "eu-central-1");
    CHECK(r.kg_co2_per_kwh == 0.34414);
    CHECK(r.pue == 1.15);
    CHECK(load_cloud_region(path, "gcp", "us-central1").pue == 1.09);
    // PUE exactly 1 (no overhead at all) is allowed.
    const std::string ideal = dir.write("ideal.csv", replaced(cloud_csv, ",1.18,", ",1,"));
    CHECK(load_cloud_region(ideal, "azure", "eastus").pue == 1.0);
}

TEST_CASE("cloud file errors name the file, line and column", "[carbon][errors]") {
    TempDir dir;
    const std::string path = dir.write("bad.csv", "");
    const auto error_for = [&](const std::string& text, const std::string& provider = "aws",
                               const std::string& region = "us-east-1") {
        dir.write("bad.csv", text);
        return cloud_error(path, provider, region);
    };
    SECTION("an unknown provider, with a hint or the list") {
        check_error(error_for(cloud_csv, "awz"), path, 0, "provider",
                    "no provider \"awz\"; did you mean \"aws\"?");
        check_error(error_for(cloud_csv, "GCP", "us-central1"), path, 0, "provider", "did you mean \"gcp\"?");
        check_error(error_for(cloud_csv, "oracle"), path, 0, "provider",
                    "no provider \"oracle\"; the file has: aws, gcp, azure");
        check_error(cloud_error(cloud_regions, "lamda", "us-east-1"), cloud_regions, 0, "provider",
                    "did you mean \"lambda\"?");
    }
    SECTION("a region the provider does not have") {
        check_error(error_for(cloud_csv, "aws", "us-east1"), path, 0, "region",
                    "aws has no region \"us-east1\"; did you mean \"us-east-1\"?");
        check_error(error_for(cloud_csv, "aws", "eastus"), path, 0, "region",
                    "aws has no region \"eastus\" (\"eastus\" is a region of azure); aws has: us-east-1, "
                    "eu-central-1");
        check_error(cloud_error(cloud_regions, "gcp", "us-central-1"), cloud_regions, 0, "region",
                    "did you mean \"us-central1\"?");
    }
    SECTION("a missing column, a missing file") {
        check_error(error_for(replaced(cloud_csv, ",pue,", ",PUE,")), path, 0, "pue", "missing column");
        const std::string missing = path + ".missing";
        check_error(cloud_error(missing, "aws", "us-east-1"), missing, 0, "", "no such file");
    }
    SECTION("an empty provider or region, a bad grid region") {
        check_error(error_for(replaced(cloud_csv, "gcp,us-central1,", ",us-central1,")), path, 4, "provider",
                    "empty");
        check_error(error_for(replaced(cloud_csv, "gcp,us-central1,", "gcp,,")), path, 4, "region", "empty");
        check_error(error_for(replaced(cloud_csv, ",US-IA,", ",Iowa,")), path, 4, "grid_region",
                    "expected an ISO 3166 style code such as US, US-CA, DE or EU, got \"Iowa\"");
    }
    SECTION("a PUE below 1, above 3 or not a number") {
        check_error(error_for(replaced(cloud_csv, ",1.09,", ",0.9,")), path, 4, "pue",
                    "expected a PUE from 1 (no overhead) to 3, got 0.9");
        check_error(error_for(replaced(cloud_csv, ",1.09,", ",109,")), path, 4, "pue", "got 109");
        check_error(error_for(replaced(cloud_csv, ",1.09,", ",~1.1,")), path, 4, "pue", "expected a number");
    }
    SECTION("an intensity, as_of or source as in the grid file") {
        check_error(error_for(replaced(cloud_csv, ",0.41272,", ",412.72,")), path, 4, "kg_co2_per_kwh",
                    "is it grams per kWh?");
        check_error(error_for(replaced(cloud_csv, ",0.41272,", ",-0.41272,")), path, 4, "kg_co2_per_kwh",
                    "expected an intensity >= 0");
        check_error(error_for(replaced(cloud_csv, "1.18,2026-11-29,", "1.18,2026-13-01,")), path, 5, "as_of",
                    "expected a date YYYY-MM-DD or YYYY-MM, got \"2026-13-01\"");
        check_error(error_for(replaced(cloud_csv, "https://example.com/gcp", "")), path, 4, "source",
                    "empty");
    }
    SECTION("a (provider, region) listed twice; the same region name under two providers is fine") {
        check_error(error_for(cloud_csv + "aws,us-east-1,US-VA,0.25,1.15,2026-11-29,https://example.com/x\n"),
                    path, 6, "region", "aws \"us-east-1\" is already listed on line 2");
        const std::string shared =
            cloud_csv + "lambda,us-east-1,US-VA,0.243512,1.58,2026-11-29,https://x.com\n";
        dir.write("shared.csv", shared);
        CHECK(load_cloud_region(dir.write("shared.csv", shared), "lambda", "us-east-1").pue == 1.58);
        CHECK(load_cloud_region(dir.write("shared.csv", shared), "aws", "us-east-1").pue == 1.15);
    }
}
