#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "payback/base/calendar.hpp"
#include "payback/base/error.hpp"
#include "payback/market/catalog.hpp"
#include "support/input_errors.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace payback;
namespace fs = std::filesystem;

namespace {

const fs::path pricing = fs::path(PAYBACK_SOURCE_DIR) / "pricing";

// Every file Catalog::load reads.
const char* const catalog_files[] = {"gpus.csv",           "cloud-instances.csv", "parts.csv",
                                     "electricity-prices.csv", "rental-markets.csv", "rental-discounts.csv",
                                     "grid-carbon.csv",    "cloud-regions.csv",   "used-gpu-prices.csv",
                                     "api-prices.csv"};

// The shipped catalogs copied into a fresh directory, `file` with its first `from` replaced by `to`.
void write_catalog(const test::TempDir& dir, const std::string& file, const std::string& from, const std::string& to) {
    for (const char* name : catalog_files) fs::copy_file(pricing / name, dir.path() / name);
    const std::string text = test::read_file(pricing / file);
    dir.write(file, test::replaced(text, from, to));
}

// The 1-based line on which `fragment` first appears in the shipped `file`.
int line_of(const std::string& file, const std::string& fragment) {
    const std::string text = test::read_file(pricing / file);
    const auto at = text.find(fragment);
    REQUIRE(at != std::string::npos);
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

}  // namespace

TEST_CASE("every shipped catalog loads and passes its checks", "[catalog]") {
    const Catalog c = Catalog::load(PAYBACK_SOURCE_DIR "/pricing");
    CHECK(c.gpus().size() >= 25);
    CHECK(c.instances().size() >= 100);
    CHECK(c.parts().size() >= 20);
    CHECK(c.rates().size() >= 50);
    CHECK(c.rental_markets().size() >= 3);
    CHECK(c.rental_discounts().size() == 3);
    // Every provider the issue names is there, and the data-centre GPUs it lists.
    for (const char* provider : {"aws", "gcp", "azure", "lambda", "runpod", "vast"}) {
        INFO(provider);
        CHECK(std::any_of(c.instances().begin(), c.instances().end(),
                          [&](const CloudInstance& i) { return i.provider == provider; }));
    }
    for (const char* gpu : {"V100 16GB", "T4", "A10G", "L4", "L40S", "H100 SXM", "RTX 3090", "RTX 4090", "GTX 1080 Ti",
                            "RTX 5090"}) {
        INFO(gpu);
        CHECK_NOTHROW(c.gpu(gpu));
    }
}

TEST_CASE("catalog lookups return the cited figures", "[catalog]") {
    const Catalog& c = Catalog::shipped();
    // pricing-facts.md §1.1: p3.2xlarge on demand $3.06/h in us-east-1, one V100; per second, 60 s minimum.
    const CloudInstance& p3 = c.instance("aws:p3.2xlarge", "us-east-1");
    CHECK(p3.on_demand_per_hour == Approx(3.06));
    CHECK(p3.gpu_count == 1);
    CHECK(p3.billing_increment_seconds == Approx(1.0));
    CHECK(p3.billing_minimum_seconds == Approx(60.0));
    // §2: RTX 3090 launched at $1,499 with 350 W board power; Lambda ResNet-50 AMP 801 img/s (2022).
    const GpuSpec& g = c.gpu("RTX 3090");
    CHECK(g.launch_price_usd == Approx(1499.0));
    CHECK(g.board_power_watts == Approx(350.0));
    CHECK(g.resnet50_amp_img_s == Approx(801.0));
    // GA102 whitepaper: the RTX 3090's FP16 tensor math with FP32 accumulate runs at half its FP16-accumulate rate
    // (71 against 142 dense TFLOPS); the RTX A6000's, on the same chip, at full rate. The GTX 1080 Ti has no
    // tensor cores.
    CHECK(g.tensor_fp32_accumulate == "half");
    CHECK(c.gpu("RTX A6000").tensor_fp32_accumulate == "full");
    CHECK(c.gpu("GTX 1080 Ti").tensor_fp32_accumulate.empty());
    // §4.1: the US average 15.45 cents/kWh in January 2024.
    CHECK(c.rate("US").price_per_kwh == Approx(0.1545));
    // vast.ai reserved rentals: 20/30/40 % for 1/3/6 months.
    for (const auto& d : c.rental_discounts()) {
        if (d.months == 1) CHECK(d.discount == Approx(0.2));
        if (d.months == 3) CHECK(d.discount == Approx(0.3));
        if (d.months == 6) CHECK(d.discount == Approx(0.4));
    }
    CHECK_THAT(g.origin.describe(), Catch::StartsWith("pricing/gpus.csv:"));
}

TEST_CASE("a miss names the catalog and suggests the closest", "[catalog][errors]") {
    const Catalog& c = Catalog::shipped();
    CHECK_THROWS_WITH(c.gpu("RTX 3090x"), Catch::Contains("did you mean \"RTX 3090\""));
    CHECK_THROWS_WITH(c.instance("aws:p3.2xlarge", "mars-1"), Catch::Contains("no price row for region \"mars-1\""));
    CHECK_THROWS_WITH(c.instance("aws:p3.2xlargee", ""), Catch::Contains("did you mean \"aws:p3.2xlarge\""));
    // A marketplace's "any" row serves every region.
    CHECK(c.instance("lambda:gpu_1x_a100", "us-west-1").region == "any");
}

TEST_CASE("a bad catalog row is reported with its file, line and column", "[catalog][errors]") {
    const fs::path dir = fs::temp_directory_path() / "payback-catalog-test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    for (const char* name : catalog_files)
        fs::copy_file(fs::path(PAYBACK_SOURCE_DIR "/pricing") / name, dir / name);
    auto expect_error = [&](const char* file, const std::string& row, const std::string& fragment) {
        std::ofstream(dir / file, std::ios::app) << row << "\n";
        try {
            Catalog::load(dir.string());
            FAIL("accepted " << row);
        } catch (const InputError& e) {
            CHECK_THAT(std::string(e.what()), Catch::Contains(fragment));
        }
        fs::copy_file(fs::path(PAYBACK_SOURCE_DIR "/pricing") / file, dir / file, fs::copy_options::overwrite_existing);
    };
    expect_error("gpus.csv", "RTX 3090,NVIDIA,2020-09-01,1499,350,24,936,35.58,35.58,,half,,,,ampere,,2026-11-29,x",
                 "duplicate entry \"RTX 3090\"");
    expect_error("gpus.csv", "Made-up GPU,NVIDIA,2020-09-01,1499,5000,24,936,35.58,35.58,,,,,,ampere,,2026-11-29,x",
                 "board_power_watts: must be between 30 and 1500, got 5000");
    expect_error("gpus.csv", "Made-up GPU,NVIDIA,2020-09-01,1499,350,24,936,35.58,35.58,,quarter,,,,ampere,,2026-11-29,x",
                 "tensor_fp32_accumulate: expected full, half or nothing, got \"quarter\"");
    expect_error("electricity-prices.csv", "US-ZZ,Nowhere,0.12,USD,2023,2026-11-29,", "source: must not be empty");
    expect_error("electricity-prices.csv", "US-ZZ,Nowhere,12,USD,2023,2026-11-29,x", "price_per_kwh");
    expect_error("cloud-instances.csv", "aws,x1,us-east-1,Made-up GPU,1,,,,1.0,,,,,,USD,2026-11-29,x",
                 "\"Made-up GPU\" is not in gpus.csv");
    expect_error("rental-discounts.csv", "vast,12,0.5,yesterday,x", "as_of: expected a date");
    fs::remove_all(dir);
}

TEST_CASE("the grid, cloud-region and used-price rows are read from the catalog's directory", "[catalog]") {
    const Catalog& shipped = Catalog::shipped();
    // The shipped figures: Germany 344.14 g/kWh (Ember 2024), AWS us-east-1 PUE 1.15 (AWS 2024), an RTX
    // 3090 sold for $2,737 on average in October 2021 (Tom's Hardware).
    CHECK(shipped.grid_carbon().find("DE").kg_co2_per_kwh == 0.34414);
    CHECK(shipped.cloud_regions().find("aws", "us-east-1").pue == 1.15);
    const double october_2021 = calendar_month(2021, 10, 15);
    CHECK(price_at(shipped.used_prices().schedule("RTX 3090"), october_2021) == 2737.0);

    // A directory of its own with one row changed gives the changed figure, and its errors name its files.
    SECTION("grid-carbon.csv") {
        const test::TempDir dir;
        write_catalog(dir, "grid-carbon.csv", "DE,Germany,0.34414,", "DE,Germany,0.5,");
        const Catalog c = Catalog::load(dir.path().string());
        CHECK(c.grid_carbon().find("DE").kg_co2_per_kwh == 0.5);
        CHECK(c.grid_carbon().find("FR").kg_co2_per_kwh == shipped.grid_carbon().find("FR").kg_co2_per_kwh);
        test::check_error(test::input_error([&] { c.grid_carbon().find("Atlantis"); }),
                          (dir.path() / "grid-carbon.csv").string(), 0, "region", "no row for region \"Atlantis\"");
    }
    SECTION("cloud-regions.csv") {
        const test::TempDir dir;
        write_catalog(dir, "cloud-regions.csv", "aws,us-east-1,US-VA,0.243512,1.15,", "aws,us-east-1,US-VA,0.243512,1.4,");
        const Catalog c = Catalog::load(dir.path().string());
        CHECK(c.cloud_regions().find("aws", "us-east-1").pue == 1.4);
        CHECK(c.cloud_regions().find("aws", "us-east-1").kg_co2_per_kwh == 0.243512);
        test::check_error(test::input_error([&] { c.cloud_regions().find("awz", "us-east-1"); }),
                          (dir.path() / "cloud-regions.csv").string(), 0, "provider", "did you mean \"aws\"?");
    }
    SECTION("used-gpu-prices.csv") {
        const test::TempDir dir;
        write_catalog(dir, "used-gpu-prices.csv", "2021-10-15,RTX 3090,2737,", "2021-10-15,RTX 3090,2500,");
        const Catalog c = Catalog::load(dir.path().string());
        const PriceSchedule& rtx3090 = c.used_prices().schedule("RTX 3090");
        CHECK(price_at(rtx3090, october_2021) == 2500.0);
        // Halfway from October 15 to November 15 (31 days), 15.5 days on: (2500 + 2936) / 2 = 2718.
        CHECK(price_at(rtx3090, calendar_month(2021, 10, 15) + 0.5 * (calendar_month(2021, 11, 15) - october_2021)) ==
              Approx(2718.0).epsilon(1e-12));
        CHECK(c.used_prices().path() == (dir.path() / "used-gpu-prices.csv").string());
    }
}

TEST_CASE("a bad row in the grid, cloud-region or used-price file stops the catalog, naming file, line and column",
          "[catalog][errors]") {
    const auto error_for = [](const std::string& file, const std::string& from, const std::string& to) {
        const test::TempDir dir;
        write_catalog(dir, file, from, to);
        InputError e = test::input_error([&] { Catalog::load(dir.path().string()); });
        CHECK(e.source() == (dir.path() / file).string());
        return e;
    };
    SECTION("grid-carbon.csv: an intensity in grams") {
        const InputError e = error_for("grid-carbon.csv", "DE,Germany,0.34414,", "DE,Germany,344.14,");
        CHECK(e.line() == line_of("grid-carbon.csv", "DE,Germany,"));
        CHECK(e.key_path() == "kg_co2_per_kwh");
        CHECK(e.message() == "expected kg CO2 per kWh, at most 2, got 344.14: is it grams per kWh? Divide by 1000");
    }
    SECTION("cloud-regions.csv: a PUE below 1") {
        const InputError e =
            error_for("cloud-regions.csv", "aws,us-east-1,US-VA,0.243512,1.15,", "aws,us-east-1,US-VA,0.243512,0.9,");
        CHECK(e.line() == line_of("cloud-regions.csv", "aws,us-east-1,"));
        CHECK(e.key_path() == "pue");
        CHECK(e.message() == "expected a PUE from 1 (no overhead) to 3, got 0.9");
    }
    SECTION("used-gpu-prices.csv: a negative price") {
        const InputError e = error_for("used-gpu-prices.csv", "2021-10-15,RTX 3090,2737,", "2021-10-15,RTX 3090,-1,");
        CHECK(e.line() == line_of("used-gpu-prices.csv", "2021-10-15,RTX 3090,"));
        CHECK(e.key_path() == "price");
        CHECK(e.message() == "expected a price >= 0, got -1");
    }
}

TEST_CASE("api-prices.csv is read from the catalog's directory, and a bad row names file, line and column",
          "[catalog][api]") {
    const test::TempDir dir;
    write_catalog(dir, "api-prices.csv", "together,llama-3.1-8b,0.18,0.18,", "together,llama-3.1-8b,0.25,0.18,");
    const Catalog c = Catalog::load(dir.path().string());
    CHECK(c.api_price("together:llama-3.1-8b").input_per_million == 0.25);
    CHECK(c.api_price("together:llama-3.1-8b").origin.line == line_of("api-prices.csv", "together,llama-3.1-8b,"));
    const test::TempDir bad;
    write_catalog(bad, "api-prices.csv", "together,llama-3.1-8b,0.18,0.18,", "together,llama-3.1-8b,-1,0.18,");
    const InputError e = test::input_error([&] { Catalog::load(bad.path().string()); });
    test::check_error(e, (bad.path() / "api-prices.csv").string(), line_of("api-prices.csv", "together,llama-3.1-8b,"),
                      "input", "must be between 0 and 10000, got -1");
}

TEST_CASE("an item's dated rows: the newest by default, the one in effect at a date on request",
          "[catalog][price_dates]") {
    const test::TempDir dir;
    // vast's RTX 4090 priced twice more: $0.40 from 2025-01-01, $0.45 from 2026-01-01 (and the
    // shipped $0.5083 of 2026-09-21).
    write_catalog(dir, "rental-markets.csv", "\nvast,RTX 4090,",
                  "\nvast,RTX 4090,0.40,,0.7,true,USD,2025-01-01,test\n"
                  "vast,RTX 4090,0.45,,0.7,true,USD,2026-01-01,test\nvast,RTX 4090,");
    const Catalog c = Catalog::load(dir.path().string());
    CHECK(*c.rental_market("vast", "RTX 4090").host_price_per_hour == 0.5083);
    CHECK(*c.rental_market("vast", "RTX 4090", "2025-06-30").host_price_per_hour == 0.40);
    CHECK(*c.rental_market("vast", "RTX 4090", "2026-01-01").host_price_per_hour == 0.45);
    CHECK(*c.rental_market("vast", "RTX 4090", "2026-09-21").host_price_per_hour == 0.5083);
    CHECK_THROWS_WITH(c.rental_market("vast", "RTX 4090", "2024-12-31"),
                      Catch::Contains("no price for vast:RTX 4090 in effect on 2024-12-31 (--as-of): the catalog's "
                                      "earliest is as of 2025-01-01"));
    // The same item and date twice is still a duplicate.
    const test::TempDir twice;
    write_catalog(twice, "rental-markets.csv", "\nvast,RTX 4090,",
                  "\nvast,RTX 4090,0.40,,0.7,true,USD,2026-09-21,test\nvast,RTX 4090,");
    CHECK_THROWS_WITH(Catalog::load(twice.path().string()),
                      Catch::Contains("duplicate entry \"vast:RTX 4090 as of 2026-09-21\""));
}

TEST_CASE("API prices and electricity rates by date: the row in effect at --as-of, else the newest",
          "[catalog][price_dates]") {
    const test::TempDir dir;
    // together's Llama 3.1 8B priced once more before the shipped row: $0.10 in, $0.12 out from 2025-01-01.
    write_catalog(dir, "api-prices.csv", "\ntogether,llama-3.1-8b,",
                  "\ntogether,llama-3.1-8b,0.10,0.12,,131072,2025-01-01,test\ntogether,llama-3.1-8b,");
    const Catalog c = Catalog::load(dir.path().string());
    const ApiPriceRow& shipped = c.api_price("together:llama-3.1-8b");
    CHECK(shipped.input_per_million == 0.18);  // the newest: the shipped row
    CHECK(c.api_price("together:llama-3.1-8b", "2025-01-01").input_per_million == 0.10);
    CHECK(c.api_price("together:llama-3.1-8b", "2025-01-01").output_per_million == 0.12);
    CHECK(c.api_price("together:llama-3.1-8b", shipped.origin.as_of).input_per_million == 0.18);
    CHECK_THROWS_WITH(c.api_price("together:llama-3.1-8b", "2024-12-31"),
                      Catch::Contains("no price for together:llama-3.1-8b in effect on 2024-12-31 (--as-of)"));
    // The shipped US rows: $0.16 for 2023 (as of 2023-12-31), $0.1545 for 2024 (as of 2024-01-31).
    const Catalog& catalog = Catalog::shipped();
    CHECK(catalog.rate("US").price_per_kwh == 0.1545);
    CHECK(catalog.rate("US", "2024-01-30").price_per_kwh == 0.16);
    CHECK(catalog.rate("US", "2024-01-31").price_per_kwh == 0.1545);
    CHECK_THROWS_WITH(catalog.rate("US", "2023-12-30"),
                      Catch::Contains("no price for US in effect on 2023-12-30 (--as-of): the catalog's earliest is as "
                                      "of 2023-12-31"));
}
