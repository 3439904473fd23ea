// payback catalog --where, and the program finding its data wherever it is put: beside it at
// ../share/payback/ (an installed prefix; the build tree links its share/payback to the source
// tree), else $PAYBACK_PRICING_DIR, else one line naming every place tried (exit 2).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

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
