// The importers on real files (tests/fixtures/market/import/, README there names each one's origin):
// how many rows, a few values worked by hand from the file's own lines, which records are skipped
// and why, and the errors a malformed file gets (file, line, field).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/csv_reader.hpp"
#include "payback/market/catalog.hpp"
#include "payback/market/price_import.hpp"
#include "support/input_errors.hpp"
#include "support/run_cli.hpp"

using namespace payback;
using payback::test::check_error;
using payback::test::replaced;

namespace {

const std::string fixtures = PAYBACK_SOURCE_DIR "/tests/fixtures/market/import/";

const GpuAliases& aliases() {
    static const GpuAliases table = [] {
        const Catalog catalog = Catalog::load(PAYBACK_SOURCE_DIR "/pricing");
        std::vector<std::string> names;
        for (const GpuSpec& gpu : catalog.gpus()) names.push_back(gpu.name);
        return GpuAliases::load(PAYBACK_SOURCE_DIR "/pricing/gpu-aliases.csv", names);
    }();
    return table;
}

PriceFile fixture(const std::string& name) { return {name, test::read_file(fixtures + name)}; }

ImportResult import(const std::string& format, const std::vector<std::string>& names, const ImportOptions& options = {}) {
    std::vector<PriceFile> files;
    for (const std::string& name : names) files.push_back(fixture(name));
    return import_prices(format, files, options, aliases());
}

// The row whose first cells are `key`, as a map column -> cell.
std::map<std::string, std::string> row(const ImportResult& result, const std::vector<std::string>& key) {
    const auto& columns = catalog_columns(result.catalog);
    for (const auto& cells : result.rows)
        if (std::equal(key.begin(), key.end(), cells.begin())) {
            std::map<std::string, std::string> out;
            for (std::size_t i = 0; i < columns.size(); ++i) out[columns[i]] = cells[i];
            return out;
        }
    FAIL("no row starting with " << key.front());
    return {};
}

bool skipped(const ImportResult& result, int line, const std::string& fragment) {
    return std::any_of(result.skipped.begin(), result.skipped.end(), [&](const SkippedRecord& s) {
        return s.line == line && s.reason.find(fragment) != std::string::npos;
    });
}

}  // namespace

TEST_CASE("skypilot: one row per instance and region, spot the lowest of the zones", "[import]") {
    const ImportResult r = import("skypilot", {"skypilot_v7_aws_vms_gpu_excerpt.csv"}, {"aws", "2026-11-29", ""});
    CHECK(r.catalog == PriceCatalog::instances);
    // 26 rows in 20 (instance, region) pairs; p5e.48xlarge in ap-southeast-2 (line 24) has no price.
    CHECK(r.rows.size() == 19);
    REQUIRE(r.skipped.size() == 1);
    CHECK(skipped(r, 24, "p5e.48xlarge in ap-southeast-2: no price"));
    // p5.48xlarge us-east-1, lines 21-22: Price 98.32 in both zones; SpotPrice 30.3260 and 27.6948.
    const auto p5 = row(r, {"aws", "p5.48xlarge", "us-east-1"});
    CHECK(p5.at("gpu") == "H100 SXM");
    CHECK(p5.at("gpu_count") == "8");
    CHECK(p5.at("vcpus") == "192");
    CHECK(p5.at("ram_gb") == "2048");
    CHECK(p5.at("on_demand_per_hour") == "98.32");
    CHECK(p5.at("spot_per_hour") == "27.6948");
    CHECK(p5.at("as_of") == "2026-11-29");
    CHECK(p5.at("source") == "skypilot file skypilot_v7_aws_vms_gpu_excerpt.csv");
    // p3.16xlarge eu-west-2: one zone without a spot price, one at 28.712 (the on-demand price).
    CHECK(row(r, {"aws", "p3.16xlarge", "eu-west-2"}).at("spot_per_hour") == "28.712");
    // p3dn's V100-32GB and p4de's A100-80GB map to their own cards.
    CHECK(row(r, {"aws", "p3dn.24xlarge"}).at("gpu") == "V100 32GB");
    CHECK(row(r, {"aws", "p4de.24xlarge"}).at("gpu") == "A100 80GB SXM4");
    // p5e us-east-2 has a spot price only.
    const auto p5e = row(r, {"aws", "p5e.48xlarge", "us-east-2"});
    CHECK(p5e.at("on_demand_per_hour").empty());
    CHECK(p5e.at("spot_per_hour") == "16.3895");
    CHECK(r.as_of == "2026-11-29");
}

TEST_CASE("skypilot: other clouds' column orders, unmapped GPUs reported, vast's zero spot price dropped", "[import]") {
    const ImportResult gcp = import("skypilot", {"skypilot_v7_gcp_vms_gpu_excerpt.csv"}, {"gcp", "2026-11-29", ""});
    // 8 VM rows (a2/a3 types, all in gpu-aliases.csv) and 14 accelerator rows without an instance type.
    CHECK(gcp.rows.size() == 8);
    CHECK(gcp.skipped.size() == 14);
    CHECK(skipped(gcp, 10, "accelerator H100 priced without an instance type"));
    const auto a2 = row(gcp, {"gcp", "a2-highgpu-8g", "us-central1"});
    CHECK(a2.at("gpu") == "A100 40GB SXM4");
    CHECK(a2.at("gpu_count") == "8");  // from the alias: the row's accelerator columns are empty
    CHECK(a2.at("on_demand_per_hour") == "5.91582");
    CHECK(a2.at("spot_per_hour") == "2.36604");

    const ImportResult runpod = import("skypilot", {"skypilot_v7_runpod_vms_gpu_excerpt.csv"}, {"runpod", "2026-11-29", ""});
    // SpotPrice comes before Price in this file: 1x A100-80GB in CA is 1.64 on demand, 1.19 spot.
    const auto a100 = row(runpod, {"runpod", "1x_A100-80GB_SECURE", "CA"});
    CHECK(a100.at("gpu") == "A100 80GB PCIe");
    CHECK(a100.at("on_demand_per_hour") == "1.64");
    CHECK(a100.at("spot_per_hour") == "1.19");

    const ImportResult vast = import("skypilot", {"skypilot_v7_vast_vms.csv"}, {"vast", "2026-11-29", ""});
    // RTX 3060 and RTX 4080S are not in gpus.csv; A100_SXM4 and Tesla_V100 do not say their memory.
    const auto h100 = row(vast, {"vast", "1x-H100_SXM-32-65536", "Czechia, CZ, EU"});
    CHECK(h100.at("gpu") == "H100 SXM");
    CHECK(h100.at("on_demand_per_hour") == "1.8");
    CHECK(h100.at("spot_per_hour").empty());  // SpotPrice 0.00: no spot price, not a free GPU
    CHECK(row(vast, {"vast", "2x-H100_NVL-32-65536"}).at("gpu") == "H100 NVL");
    CHECK(std::any_of(vast.skipped.begin(), vast.skipped.end(),
                      [](const SkippedRecord& s) { return s.reason == "GPU \"RTX3060\" (1x-RTX_3060-32-65536) has no alias to a gpus.csv name"; }));
    CHECK(vast.rows.size() + vast.skipped.size() <= 61);
}

TEST_CASE("skypilot: without --provider or --as-of the import stops and says which", "[import]") {
    check_error(test::input_error([] { import("skypilot", {"skypilot_v7_aws_vms_gpu_excerpt.csv"}, {"", "2026-11-29", ""}); }),
                "skypilot_v7_aws_vms_gpu_excerpt.csv", 0, "--provider", "one cloud each");
    check_error(test::input_error([] { import("skypilot", {"skypilot_v7_aws_vms_gpu_excerpt.csv"}, {"aws", "", ""}); }),
                "skypilot_v7_aws_vms_gpu_excerpt.csv", 0, "--as-of", "give --as-of");
    PriceFile bad = fixture("skypilot_v7_aws_vms_gpu_excerpt.csv");
    bad.text = replaced(bad.text, ",3.06,0.519700,", ",3.06,cheap,");
    check_error(test::input_error([&] { import_prices("skypilot", {bad}, {"aws", "2026-11-29", ""}, aliases()); }),
                bad.path, 5, "SpotPrice", "");
}

TEST_CASE("aws-ec2: ec2instances.info's 2017 records, Linux prices per region", "[import]") {
    const ImportResult r = import("aws-ec2", {"ec2instances_info_instances_2017-11-12_p3_excerpt.json",
                                              "ec2instances_info_mock_ec2_single_instance_trimmed.json"},
                                  {"", "2017-11-12", ""});
    // 2 p3 types x 4 regions with Linux prices; the current-format mock (x2iedn.32xlarge) has no GPU.
    CHECK(r.rows.size() == 8);
    REQUIRE(r.skipped.size() == 1);
    CHECK(r.skipped[0].reason == "x2iedn.32xlarge has no GPU");
    CHECK(r.skipped[0].line == 1);
    // p3.16xlarge us-east-1: ondemand "24.48", reserved yrTerm1Standard.noUpfront and yrTerm3Standard.noUpfront.
    const auto p3 = row(r, {"aws", "p3.16xlarge", "us-east-1"});
    CHECK(p3.at("gpu") == "V100 16GB");
    CHECK(p3.at("gpu_count") == "8");
    CHECK(p3.at("on_demand_per_hour") == "24.48");
    CHECK(p3.at("vcpus") == "64");
    CHECK(p3.at("ram_gb") == "488");
    CHECK(row(r, {"aws", "p3.2xlarge", "ap-northeast-1"}).at("reserved_1y_per_hour") == "3.672");
    CHECK(row(r, {"aws", "p3.2xlarge", "ap-northeast-1"}).at("reserved_3y_per_hour") == "2.384");
}

TEST_CASE("azure-retail: a real page without GPU sizes: every item skipped with its reason", "[import]") {
    const ImportResult r = import("azure-retail", {"azure_retail_prices_page_excerpt_2022-06-06.json"});
    CHECK(r.rows.empty());
    CHECK(r.skipped.size() == 13);
    // Items start on lines 6, 28, 50, ...: a Windows Spot meter, a disk, a Linux D-series size, Low Priority.
    CHECK(skipped(r, 6, "Standard_D14 southindia: a Windows price"));
    CHECK(skipped(r, 50, "not a virtual machine's hourly price (Storage, 1/Month)"));
    CHECK(skipped(r, 72, "Standard_E2bds_v5 westus: no alias to a gpus.csv GPU"));
    CHECK(skipped(r, 206, "a Low Priority meter"));
    CHECK(r.as_of.empty());
}

TEST_CASE("azure-retail: GPU meters of one size and region merge into one row", "[import]") {
    // Items in the API's own shape (the stored real page has no GPU size); prices from the
    // Standard_NC24ads_A100_v4 row of pricing/cloud-instances.csv.
    const std::string item = R"({"armSkuName": "Standard_NC24ads_A100_v4", "armRegionName": "eastus", "serviceName": "Virtual Machines",
        "unitOfMeasure": "1 Hour", "productName": "NC A100 v4 Series", "effectiveStartDate": "START", "type": "TYPE",
        "meterName": "METER", "unitPrice": PRICE TERM})";
    const auto make = [&](const std::string& type, const std::string& meter, const std::string& price, const std::string& start,
                          const std::string& term = "") {
        return replaced(replaced(replaced(replaced(replaced(item, "TYPE", type), "METER", meter), "PRICE", price), "START", start),
                        "TERM", term.empty() ? "" : ", \"reservationTerm\": \"" + term + "\"");
    };
    const std::string page = "{\"Items\": [\n" + make("Consumption", "NC24ads A100 v4", "3.673", "2023-01-01T00:00:00Z") + ",\n" +
                             make("Consumption", "NC24ads A100 v4 Spot", "0.4444", "2023-06-01T00:00:00Z") + ",\n" +
                             make("Reservation", "NC24ads A100 v4", "17520", "2023-01-01T00:00:00Z", "1 Year") + "\n]}";
    const ImportResult r = import_prices("azure-retail", {{"page.json", page}}, {}, aliases());
    REQUIRE(r.rows.size() == 1);
    const auto nc = row(r, {"azure", "Standard_NC24ads_A100_v4", "eastus"});
    CHECK(nc.at("gpu") == "A100 80GB PCIe");
    CHECK(nc.at("on_demand_per_hour") == "3.673");
    CHECK(nc.at("spot_per_hour") == "0.4444");
    CHECK(nc.at("reserved_1y_per_hour") == "2");  // 17,520 USD for the year / 8,760 h
    CHECK(nc.at("as_of") == "2023-06-01");        // the newest meter's start: all three held then
}

TEST_CASE("vast-offers: P10, median and P90 per GPU-hour, per GPU model", "[import]") {
    const ImportResult r = import("vast-offers", {"vastai_search_offers_raw_excerpt_2024-11.json"}, {"", "2024-11-05", ""});
    CHECK(r.catalog == PriceCatalog::rental_markets);
    // 12 offers: A100 SXM4, A100 PCIE and Tesla V100 name no memory size, so they are not mapped.
    CHECK(r.skipped.size() == 3);
    CHECK(std::any_of(r.skipped.begin(), r.skipped.end(), [](const SkippedRecord& s) { return s.reason == "GPU \"A100 SXM4\" has no alias to a gpus.csv name"; }));
    // RTX 4090: dph_base 0.16666... for 1 GPU and 2.02666... for 8: 0.16667 and 0.25333 per GPU-hour;
    // P10 = 0.16667 + 0.1 x 0.08667 = 0.175333, median 0.21, P90 = 0.16667 + 0.9 x 0.08667 = 0.244667.
    const auto rtx = row(r, {"vast", "RTX 4090"});
    CHECK(std::stod(rtx.at("host_price_p10_per_hour")) == Approx(0.175333).epsilon(1e-5));
    CHECK(std::stod(rtx.at("host_price_per_hour")) == Approx(0.21).epsilon(1e-9));
    CHECK(std::stod(rtx.at("host_price_p90_per_hour")) == Approx(0.244667).epsilon(1e-5));
    CHECK(rtx.at("as_of") == "2024-11-05");
    // A40: one offer of 5 GPUs at 1.99999... an hour: 0.4 per GPU-hour.
    CHECK(row(r, {"vast", "A40"}).at("host_price_per_hour") == "0.4");
    CHECK(r.rows.size() == 8);
}

TEST_CASE("litellm: USD per token into USD per million tokens", "[import]") {
    const ImportResult r = import("litellm", {"litellm_v1.110.2_model_prices_excerpt.json"}, {"", "2025-10-01", ""});
    CHECK(r.catalog == PriceCatalog::api_prices);
    CHECK(skipped(r, 2, "sample_spec"));
    // claude-haiku-4-5: 1e-06 in, 5e-06 out, 1e-07 cache read a token; 200,000 input tokens.
    const auto haiku = row(r, {"anthropic", "claude-haiku-4-5"});
    CHECK(haiku.at("input") == "1");
    CHECK(haiku.at("output") == "5");
    CHECK(haiku.at("cached_input") == "0.1");
    CHECK(haiku.at("context") == "200000");
    CHECK(haiku.at("as_of") == "2025-10-01");
    CHECK_THAT(haiku.at("source"), Catch::StartsWith("https://platform.claude.com/docs/en/about-claude/pricing via litellm file"));
    // cerebras/llama-3.3-70b: 8.5e-07 and 1.2e-06 a token; the provider prefix leaves the model name.
    const auto llama = row(r, {"cerebras", "llama-3.3-70b"});
    CHECK(llama.at("input") == "0.85");
    CHECK(llama.at("output") == "1.2");
    CHECK(r.rows.size() + r.skipped.size() == 35);
}

TEST_CASE("llm-prices: every price of the history, dated when it held", "[import]") {
    const ImportResult r = import("llm-prices", {"llm-prices_simonw_deepseek.json"}, {"", "2026-08-05", ""});
    // 4 models, 5 prices; deepseek-chat has two: from 2025-02-08 and before it.
    CHECK(r.rows.size() == 5);
    const auto& columns = catalog_columns(r.catalog);
    const auto col = [&](const std::string& name) { return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin()); };
    std::vector<std::vector<std::string>> chat;
    for (const auto& cells : r.rows)
        if (cells[col("model")] == "deepseek-chat") chat.push_back(cells);
    REQUIRE(chat.size() == 2);
    CHECK(chat[0][col("input")] == "0.27");
    CHECK(chat[0][col("as_of")] == "2025-02-08");
    CHECK(chat[1][col("input")] == "0.14");
    CHECK(chat[1][col("as_of")] == "2025-02-07");  // to_date 2025-02-08 is exclusive: it last held the day before
    CHECK(row(r, {"deepseek", "deepseek-v4-flash"}).at("as_of") == "2026-08-05");  // undated: --as-of
    CHECK(row(r, {"deepseek", "deepseek-v4-flash"}).at("cached_input") == "0.028");
    check_error(test::input_error([] { import("llm-prices", {"llm-prices_simonw_deepseek.json"}); }),
                "llm-prices_simonw_deepseek.json", 0, "--as-of", "");
}

TEST_CASE("silybench: API offers and GPU-hour offers, each dated by its own check", "[import]") {
    const ImportResult api = import("silybench", {"silybench-data_prices_api.yaml"});
    CHECK(api.catalog == PriceCatalog::api_prices);
    // Line 4: Qwen/Qwen3-14B at Fireworks, 0.2 in and out, fetched 2026-09-25.
    const auto fireworks = row(api, {"Fireworks", "Qwen/Qwen3-14B"});
    CHECK(fireworks.at("input") == "0.2");
    CHECK(fireworks.at("as_of") == "2026-09-25");
    CHECK(fireworks.at("source") == "https://docs.fireworks.ai/serverless/pricing");
    CHECK(row(api, {"NextBit", "Qwen/Qwen3-14B"}).at("context") == "40960");
    CHECK(api.skipped.empty());

    const ImportResult gpu = import("silybench", {"silybench-data_prices_gpu_hourly.yaml"});
    CHECK(gpu.catalog == PriceCatalog::instances);
    // runpod "H100 SXM, Community Cloud": 2.69 a GPU-hour on demand, checked 2026-09-25.
    const auto community = row(gpu, {"runpod", "H100 SXM, Community Cloud"});
    CHECK(community.at("gpu") == "H100 SXM");
    CHECK(community.at("region") == "any");
    CHECK(community.at("on_demand_per_hour") == "2.69");
    CHECK(community.at("as_of") == "2026-09-25");
    CHECK(std::any_of(gpu.skipped.begin(), gpu.skipped.end(), [](const SkippedRecord& s) { return s.reason == "GPU \"B200-180GB\" has no alias to a gpus.csv name"; }));

    check_error(test::input_error([] {
                    import_prices("silybench", {{"bad.yaml", "offers:\n- provider: x\n  nested:\n    deeper: 1\n"}}, {}, aliases());
                }),
                "bad.yaml", 4, "", "nested or misaligned");
    // A bad value is reported on its own line, not the record's.
    check_error(test::input_error([] {
                    import_prices("silybench",
                                  {{"bad.yaml", "offers:\n- provider: a\n  gpu_type: H100-80GB\n  provisioning: on-demand\n"
                                                "  usd_per_gpu_hour: abc\n"}},
                                  {"", "2026-01-01", ""}, aliases());
                }),
                "bad.yaml", 5, "usd_per_gpu_hour", "expected a number of zero or more, got \"abc\"");
}

TEST_CASE("the CSV written reads back whole when a row opens with '#'", "[import]") {
    // A provider named "#runpod" (found by the silybench fuzzer) opened a line with '#', which a reader takes for a
    // comment: that row vanished on reading. Such a cell is quoted now.
    const ImportResult r = import_prices(
        "silybench",
        {{"hash.yaml", "offers:\n- provider: '#runpod'\n  gpu_type: H100-80GB\n  provisioning: on-demand\n"
                       "  usd_per_gpu_hour: 2.5\n  product: H100 SXM\n  checked_at: 2026-09-25\n"}},
        {}, aliases());
    REQUIRE(r.rows.size() == 1);
    const std::string csv = to_csv(r);
    CHECK_THAT(csv, Catch::Contains("\n\"#runpod\","));
    CHECK(detail::CsvTable::parse(csv, "written.csv").rows() == 1);
}

TEST_CASE("epoch: purchase prices into the dated price series, rentals skipped", "[import]") {
    const ImportResult r = import("epoch", {"epoch_hardware_prices_excerpt.csv"});
    CHECK(r.catalog == PriceCatalog::price_series);
    // Line 2: the K80's 2014 release price, a GPU gpus.csv does not have.
    CHECK(skipped(r, 2, "NVIDIA Tesla K80: no alias"));
    CHECK(skipped(r, 3, "a cloud rental price (Amazon Web Services)"));
    // The 2017 V100 price: a DGX-1's 149,000 USD / 8 = 18,625 a GPU.
    const auto v100 = row(r, {"2017-07-01", "V100 16GB"});
    CHECK(v100.at("price") == "18625");
    CHECK(v100.at("currency") == "USD");
    CHECK(v100.at("as_of") == "2017-07-01");
    CHECK(row(r, {"2025-03-03", "RTX 4090"}).at("price") == "1417.2");
    CHECK(r.as_of == "2025-03-03");
}

TEST_CASE("the alias table maps only to gpus.csv names and never twice in one scope", "[import]") {
    const std::vector<std::string> names = {"T4"};
    check_error(test::input_error([&] { GpuAliases::parse("scope,alias,gpu,gpu_count,source\n*,K80,K80,,x\n", "a.csv", names); }),
                "a.csv", 2, "gpu", "expected a gpus.csv name");
    check_error(test::input_error([&] { GpuAliases::parse("scope,alias,gpu,gpu_count,source\n*,T4,T4,,x\n*,T4,T4,,y\n", "a.csv", names); }),
                "a.csv", 3, "alias", "already mapped");
    const GpuAliases table = GpuAliases::parse("scope,alias,gpu,gpu_count,source\n*,T4,T4,,x\naws,g4,T4,1,y\n", "a.csv", names);
    CHECK(table.find("aws", {"g4"})->gpu_count == 1);
    CHECK(table.find("gcp", {"T4"})->scope == "*");
    CHECK(table.find("gcp", {"g4"}) == nullptr);
}

TEST_CASE("catalog import: OUT.csv only when every file was read, and the --json summary", "[import][cli]") {
    test::TempDir dir;
    const std::string out = (dir.path() / "out.csv").string();
    const std::string db = " --db " + test::quote((dir.path() / "prices.sqlite").string());
    const std::string good = test::quote(fixtures + "llm-prices_simonw_deepseek.json");
    const std::string bad = dir.write("bad.json", "{\"vendor\": \"x\", \"models\": [\n  {\"id\": \"m\", \"price_history\": [\n"
                                                  "    {\"input\": \"cheap\", \"output\": 1}]}\n]}\n");
    const auto failed = test::run("catalog import --format llm-prices --as-of 2026-08-05 " + good + " " + test::quote(bad) +
                                  " -o " + test::quote(out) + db);
    test::check_bad_input(failed);
    CHECK_THAT(failed.err, Catch::Contains("bad.json:2: input: expected a number"));
    CHECK(!std::filesystem::exists(out));
    CHECK(!std::filesystem::exists(dir.path() / "prices.sqlite"));  // the history is not touched either

    const auto ok = test::run("catalog import --format llm-prices --as-of 2026-08-05 " + good + " -o " + test::quote(out) + db + " --json");
    INFO(ok.err);
    REQUIRE(ok.code == 0);
    const auto json = nlohmann::json::parse(ok.out);
    CHECK(json["format"] == "llm-prices");
    CHECK(json["rows"] == 5);
    CHECK(json["skipped"].empty());
    CHECK(json["as_of"] == "2026-08-05");
    const auto written = test::lines_of(test::read_file(out));
    REQUIRE(written.size() == 6);
    CHECK(written[0] == "provider,model,input,output,cached_input,context,as_of,source");

    const auto epoch = test::run("catalog import --format epoch " + test::quote(fixtures + "epoch_hardware_prices_excerpt.csv") +
                                 " -o " + test::quote(out) + db + " --json");
    REQUIRE(epoch.code == 0);
    const auto summary = nlohmann::json::parse(epoch.out);
    REQUIRE(!summary["skipped"].empty());
    CHECK(summary["skipped"][0]["line"] == 2);
    CHECK(summary["skipped"][0]["reason"] == "NVIDIA Tesla K80: no alias to a gpus.csv name");
}

TEST_CASE("catalog import refuses a file over 16 MiB before reading it", "[import][cli]") {
    test::TempDir dir;
    const std::string big = (dir.path() / "huge.json").string();
    std::filesystem::resize_file(dir.write("huge.json", "["), (std::uintmax_t{16} << 20) + 1);  // sparse: nothing written
    const std::string out = (dir.path() / "out.csv").string();
    const auto r = test::run("catalog import --format vast-offers --as-of 2024-11-05 " + test::quote(big) + " -o " + test::quote(out) +
                             " --db " + test::quote((dir.path() / "prices.sqlite").string()));
    test::check_bad_input(r);
    CHECK_THAT(r.err, Catch::Contains("huge.json: the price file is 16.0 MiB, more than the 16 MiB"));
    CHECK(!std::filesystem::exists(out));
    // Handed over in memory (as the fuzzers and the Python package do), the same limit holds.
    const std::string text((std::size_t{16} << 20) + 1, ' ');
    check_error(test::input_error([&] { import_prices("epoch", {{"big.csv", text}}, {}, aliases()); }), "big.csv", 0, "",
                "over the 16 MiB");
}
