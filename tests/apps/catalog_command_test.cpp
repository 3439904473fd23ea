// payback catalog --where, and the program finding its data wherever it is put: beside it at
// ../share/payback/ (an installed prefix; the build tree links its share/payback to the source
// tree), else $PAYBACK_PRICING_DIR, else one line naming every place tried (exit 2).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using payback::test::check_bad_input;
using payback::test::lines_of;
using payback::test::quote;
using payback::test::Result;
using payback::test::run_program;
using payback::test::TempDir;

namespace {

const std::string unset_variable = "unset PAYBACK_PRICING_DIR";

// A copy of this build's program at <prefix>/bin/payback, as an install would put it.
fs::path install_program(const fs::path& prefix) {
    fs::create_directories(prefix / "bin");
    fs::copy_file(PAYBACK_BINARY, prefix / "bin" / "payback");
    return prefix / "bin" / "payback";
}

}  // namespace

TEST_CASE("catalog --where names the source tree's pricing/, linked from the build tree", "[cli][catalog]") {
    const Result r = run_program(PAYBACK_BINARY, "catalog --where", unset_variable);
    REQUIRE(r.code == 0);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0] == fs::canonical(fs::path(PAYBACK_SOURCE_DIR) / "pricing").string());
    CHECK(lines[1] == "beside " + fs::canonical(PAYBACK_BINARY).string() + ": a developer build, linked to the source tree");
}

TEST_CASE("catalog --where --json: $PAYBACK_PRICING_DIR comes first", "[cli][catalog]") {
    const std::string dir = std::string(PAYBACK_SOURCE_DIR) + "/tests/fixtures";
    const Result r = run_program(PAYBACK_BINARY, "catalog --where --json", "export PAYBACK_PRICING_DIR=" + quote(dir));
    REQUIRE(r.code == 0);
    const auto json = nlohmann::json::parse(r.out);
    CHECK(json.at("directory") == dir);
    CHECK(json.at("reason") == "$PAYBACK_PRICING_DIR");
}

TEST_CASE("catalog needs a catalog's name or --where", "[cli][catalog]") {
    check_bad_input(run_program(PAYBACK_BINARY, "catalog", "true"));
}

TEST_CASE("a program moved away from its data says every place it looked, and the variable to set", "[cli][catalog]") {
    const TempDir dir;
    const fs::path program = install_program(dir.path() / "prefix");
    const fs::path beside = fs::canonical(dir.path()) / "prefix" / "share" / "payback" / "pricing";
    const Result r = run_program(program.string(), "catalog gpus", unset_variable);
    check_bad_input(r);
    CHECK(r.err == "payback: PAYBACK_PRICING_DIR: no pricing directory found; tried $PAYBACK_PRICING_DIR (not set), " +
                       beside.string() + " (beside " + fs::canonical(program).string() +
                       "), the Python package's data (not imported); set PAYBACK_PRICING_DIR to a directory of price "
                       "catalogs\n");
    // The variable rescues it.
    const Result rescued = run_program(program.string(), "catalog --where",
                                       "export PAYBACK_PRICING_DIR=" + quote(std::string(PAYBACK_SOURCE_DIR) + "/pricing"));
    CHECK(rescued.code == 0);
}

TEST_CASE("an installed layout: the program finds share/payback/ beside it, with no path compiled in", "[cli][catalog]") {
    const TempDir dir;
    const fs::path prefix = fs::canonical(dir.path()) / "prefix";
    const fs::path program = install_program(prefix);
    fs::create_directories(prefix / "share" / "payback");
    for (const char* data : {"pricing", "scenarios"})
        fs::copy(fs::path(PAYBACK_SOURCE_DIR) / data, prefix / "share" / "payback" / data, fs::copy_options::recursive);

    const Result where = run_program(program.string(), "catalog --where", unset_variable);
    REQUIRE(where.code == 0);
    CHECK(where.out == (prefix / "share" / "payback" / "pricing").string() + "\nbeside " + program.string() + "\n");
    // The default scenario comes from share/payback/scenarios, and the run gives what this build
    // gives, but for the scenario's path.
    const Result installed = run_program(program.string(), "compare --json", unset_variable);
    const Result built = run_program(PAYBACK_BINARY, "compare --json", unset_variable);
    REQUIRE(installed.code == 0);
    auto installed_json = nlohmann::json::parse(installed.out);
    auto built_json = nlohmann::json::parse(built.out);
    CHECK(installed_json.at("source") == (prefix / "share" / "payback" / "scenarios" / "venus-2019.toml").string());
    installed_json.erase("source");
    built_json.erase("source");
    CHECK(installed_json == built_json);
}

namespace {

// pricing/api-prices.csv's rows as (provider, model, output price): the first columns hold no commas.
std::vector<std::tuple<std::string, std::string, double>> api_price_rows() {
    std::ifstream file(std::string(PAYBACK_SOURCE_DIR) + "/pricing/api-prices.csv");
    std::vector<std::tuple<std::string, std::string, double>> rows;
    std::string line;
    std::getline(file, line);  // the header
    while (std::getline(file, line)) {
        std::vector<std::string> cells;
        std::stringstream in(line);
        for (std::string cell; cells.size() < 4 && std::getline(in, cell, ',');) cells.push_back(cell);
        rows.emplace_back(cells[0], cells[1], std::stod(cells[3]));
    }
    return rows;
}

}  // namespace

TEST_CASE("catalog api-prices lists pricing/api-prices.csv, filtered by provider, model and output price",
          "[cli][catalog][api]") {
    const auto rows = api_price_rows();
    const Result by_model = payback::test::run("catalog api-prices --model llama-3.1-8b --json");
    REQUIRE(by_model.code == 0);
    const auto json = nlohmann::json::parse(by_model.out);
    CHECK(json.size() == static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const auto& r) {
              return std::get<1>(r) == "llama-3.1-8b";
          })));
    bool together = false;
    for (const auto& row : json) {
        CHECK(row.at("model") == "llama-3.1-8b");
        if (row.at("provider") != "together") continue;
        together = true;  // together,llama-3.1-8b,0.18,0.18,,131072,2026-12-01 in the file
        CHECK(row.at("input") == 0.18);
        CHECK(row.at("output") == 0.18);
        CHECK(row.at("cached_input").is_null());
        CHECK(row.at("context") == 131072);
        CHECK(row.at("as_of") == "2026-12-01");
    }
    CHECK(together);
    // deepseek,deepseek-chat,0.28,0.42,0.028: a cached-input price.
    const auto deepseek = nlohmann::json::parse(payback::test::run("catalog api-prices --provider deepseek --model deepseek-chat --json").out);
    REQUIRE(deepseek.size() == 1);
    CHECK(deepseek[0].at("cached_input") == 0.028);

    const Result csv = payback::test::run("catalog api-prices --provider together --max-price 1 --format csv");
    REQUIRE(csv.code == 0);
    const auto lines = lines_of(csv.out);
    REQUIRE_FALSE(lines.empty());
    CHECK(lines[0] == "provider,model,input,output,cached_input,context,as_of,source");
    CHECK(lines.size() - 1 == static_cast<std::size_t>(std::count_if(rows.begin(), rows.end(), [](const auto& r) {
              return std::get<0>(r) == "together" && std::get<2>(r) <= 1.0;
          })));
    for (std::size_t i = 1; i < lines.size(); ++i) CHECK(lines[i].starts_with("together,"));
    // The file's own cells, the context a whole number.
    CHECK(std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
        return line.starts_with("together,llama-3.1-8b,0.18,0.18,,131072,2026-12-01,");
    }));

    const Result table = payback::test::run("catalog api-prices --provider together");
    REQUIRE(table.code == 0);
    CHECK_THAT(table.out, Catch::Contains("together:llama-3.1-8b"));
    CHECK_THAT(table.out, Catch::Contains("out $/M"));
}

TEST_CASE("catalog models lists pricing/models.csv: what payback predict --workload takes", "[cli][catalog]") {
    // The CSV is the file's own columns in its order, one line a model.
    std::ifstream file(std::string(PAYBACK_SOURCE_DIR) + "/pricing/models.csv");
    std::string header;
    std::getline(file, header);
    std::size_t models = 0;
    for (std::string line; std::getline(file, line);) models += !line.empty();
    const Result csv = payback::test::run("catalog models --format csv");
    REQUIRE(csv.code == 0);
    const auto lines = lines_of(csv.out);
    REQUIRE_FALSE(lines.empty());
    CHECK(lines[0] == header);
    CHECK(lines.size() - 1 == models);
    // Counts as the file writes them, the embedding untied (empty in the file: false)
    CHECK(std::any_of(lines.begin(), lines.end(), [](const std::string& line) {
        return line.starts_with("llama-3-8b,llm,8030261248,,,,,32,4096,32,8,128,14336,128256,false,8192,,,,,15009849344,"
                                "2026-12-01,");
    }));

    const auto oss = nlohmann::json::parse(payback::test::run("catalog models --model gpt-oss-20b --json").out);
    REQUIRE(oss.size() == 1);
    CHECK(oss[0].at("active_parameters") == 3610000000LL);
    CHECK(oss[0].at("expert_parameters") == 19116933120LL);
    CHECK(oss[0].at("flops_per_sample").is_null());

    // The table in model-card sizes, with the weight formats under it
    const Result table = payback::test::run("catalog models");
    REQUIRE(table.code == 0);
    CHECK_THAT(table.out, Catch::Contains("8.03 B"));   // Llama 3 8B's 8,030,261,248 weights
    CHECK_THAT(table.out, Catch::Contains("3.61 B"));   // gpt-oss-20b's active ones
    CHECK_THAT(table.out, Catch::Contains("62,006"));   // the tutorial CNN's
    CHECK_THAT(table.out, Catch::Contains("q4_k_m 4.84"));
    CHECK_THAT(table.out, Catch::Contains("mxfp4 4.25 (experts; other weights 8.5)"));
}
