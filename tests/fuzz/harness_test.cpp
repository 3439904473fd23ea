// Replays what the fuzzers start from and what they found (fuzz/harness.hpp): every seed and every
// saved crash goes through the same harness as under libFuzzer, and must end in an InputError or
// pass the harness's checks. A crash the fuzzer finds is saved under tests/fuzz/crashes/<target>/.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "harness.hpp"
#include "payback/scenario/keys.hpp"
#include "support/run_cli.hpp"

using namespace payback;
namespace fs = std::filesystem;

namespace {

struct Input {
    std::string name;
    std::string bytes;
};

void add_files(std::vector<Input>& inputs, const fs::path& dir, const std::string& extension = "",
               const std::string& prefix = "") {
    if (!fs::is_directory(dir)) return;
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.is_regular_file() && (extension.empty() || entry.path().extension() == extension))
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
        std::string bytes = prefix;  // appended, not `prefix + ...`: gcc 12 misreads that (-Wrestrict)
        bytes += test::read_file(file);
        inputs.push_back({file.string(), std::move(bytes)});
    }
}

// The seeds ./dev fuzz starts each fuzzer from, then the target's own corpus and saved crashes.
std::vector<Input> inputs_of(const std::string& target) {
    const fs::path root = PAYBACK_SOURCE_DIR;
    std::vector<Input> inputs;
    if (target == "scenario") add_files(inputs, root / "scenarios", ".toml");
    if (target == "urdb") {
        add_files(inputs, root / "pricing/tariffs", ".json");
        add_files(inputs, root / "tests/fixtures/tariffs", ".json");
    }
    if (target == "catalog") {  // the first byte picks the file (harness.hpp)
        const char* files[] = {"gpus.csv",        "cloud-instances.csv", "parts.csv",          "electricity-prices.csv",
                               "rental-markets.csv", "rental-discounts.csv", "grid-carbon.csv", "cloud-regions.csv",
                               "used-gpu-prices.csv", "api-prices.csv"};
        const auto bare_table = static_cast<char>(std::size(files));  // past the catalog files: a bare CSV table
        for (char pick = 0; pick < bare_table; ++pick) {
            std::string bytes(1, pick);
            bytes += test::read_file(root / "pricing" / files[static_cast<int>(pick)]);
            inputs.push_back({files[static_cast<int>(pick)], std::move(bytes)});
        }
        add_files(inputs, root / "pricing", ".csv", std::string(1, bare_table));  // every CSV as a bare table
    }
    if (const std::string prefix = fuzz::import_seed_prefix(target); !prefix.empty()) {
        std::vector<Input> fixtures;
        add_files(fixtures, root / "tests/fixtures/market/import");
        for (Input& input : fixtures)
            if (fs::path(input.name).filename().string().rfind(prefix, 0) == 0) inputs.push_back(std::move(input));
    }
    add_files(inputs, root / "tests/fuzz/corpus" / target);
    add_files(inputs, root / "tests/fuzz/crashes" / target);
    return inputs;
}

}  // namespace

TEST_CASE("fuzz seeds and saved crashes replay through the harnesses", "[fuzz]") {
    for (const fuzz::Target& target : fuzz::targets()) {
        const auto inputs = inputs_of(target.name);
        INFO("target " << target.name);
        CHECK(!inputs.empty());
        for (const Input& input : inputs) {
            INFO(input.name);
            CHECK_NOTHROW(target.run(input.bytes));
        }
    }
}

TEST_CASE("the harnesses absorb bad input: each parser rejects it with an InputError", "[fuzz]") {
    for (const fuzz::Target& target : fuzz::targets()) {
        INFO("target " << target.name);
        CHECK_NOTHROW(target.run(""));
        CHECK_NOTHROW(target.run("\x01{[\"garbage"));
    }
}

TEST_CASE("the scenario fuzzer's dictionary has every key of the key table", "[fuzz][keys]") {
    // fuzz/scenario.dict gives libFuzzer the schema's tokens: each key the table declares
    // (payback/scenario/keys.hpp) must be one, as "name = ", so a new key is fuzzed from the start.
    const std::string dict = test::read_file(fs::path(PAYBACK_SOURCE_DIR) / "fuzz" / "scenario.dict");
    for (const ScenarioKey& key : scenario_keys()) {
        std::string name = key.path.substr(key.path.rfind('.') == std::string::npos ? 0 : key.path.rfind('.') + 1);
        if (name.size() > 2 && name.compare(name.size() - 2, 2, "[]") == 0) name.resize(name.size() - 2);
        if (name == "<key>") continue;
        INFO(key.path);
        CHECK_THAT(dict, Catch::Contains("\"" + name + " = \""));
    }
}
