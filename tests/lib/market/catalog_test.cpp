#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "payback/base/error.hpp"
#include "payback/market/catalog.hpp"

using namespace payback;
namespace fs = std::filesystem;

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
    for (const char* name : {"gpus.csv", "cloud-instances.csv", "parts.csv", "electricity-prices.csv",
                             "rental-markets.csv", "rental-discounts.csv"})
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
    expect_error("gpus.csv", "RTX 3090,NVIDIA,2020-09-01,1499,350,24,936,35.58,35.58,,,,,ampere,,2026-11-29,x",
                 "duplicate entry \"RTX 3090\"");
    expect_error("gpus.csv", "Made-up GPU,NVIDIA,2020-09-01,1499,5000,24,936,35.58,35.58,,,,,ampere,,2026-11-29,x",
                 "board_power_watts: must be between 30 and 1500, got 5000");
    expect_error("electricity-prices.csv", "US-ZZ,Nowhere,0.12,USD,2023,2026-11-29,", "source: must not be empty");
    expect_error("electricity-prices.csv", "US-ZZ,Nowhere,12,USD,2023,2026-11-29,x", "price_per_kwh");
    expect_error("cloud-instances.csv", "aws,x1,us-east-1,Made-up GPU,1,,,,1.0,,,,,,USD,2026-11-29,x",
                 "\"Made-up GPU\" is not in gpus.csv");
    expect_error("rental-discounts.csv", "vast,12,0.5,yesterday,x", "as_of: expected a date");
    fs::remove_all(dir);
}
