// docs/cli.md is `payback docs`: the page is the program's own --help, and this test fails when
// the two drift apart. docs/keys.md is `payback docs --keys`, the key table, likewise.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "support/run_cli.hpp"

using payback::test::read_file;
using payback::test::Result;
using payback::test::run;

TEST_CASE("docs/cli.md is what payback docs prints", "[cli][docs]") {
    const Result r = run("docs");
    REQUIRE(r.code == 0);
    const std::string page = read_file(std::filesystem::path(PAYBACK_SOURCE_DIR) / "docs" / "cli.md");
    INFO("docs/cli.md is stale: run `build/bin/payback docs > docs/cli.md`");
    CHECK(page == r.out);
}

TEST_CASE("payback docs has every command's help, examples included", "[cli][docs]") {
    const std::string page = run("docs").out;
    for (const std::string command : {"compare", "explain", "init", "completion", "bench", "sweep"}) {
        INFO(command);
        CHECK_THAT(page, Catch::Contains("\n## payback " + command + "\n"));
        CHECK_THAT(page, Catch::Contains(run(command + " --help").out));
    }
}

TEST_CASE("docs/keys.md is what payback docs --keys prints", "[cli][docs][keys]") {
    const Result r = run("docs --keys");
    REQUIRE(r.code == 0);
    const std::string page = read_file(std::filesystem::path(PAYBACK_SOURCE_DIR) / "docs" / "keys.md");
    INFO("docs/keys.md is stale: run `build/bin/payback docs --keys > docs/keys.md`");
    CHECK(page == r.out);
    // A row as the table declares it (lib/src/scenario/keys.cpp).
    CHECK_THAT(r.out, Catch::Contains("| `rig.parts[].price` | number | currency | ≥ 0, at most 10^9 (more money than "
                                      "any part, price or bill in the model) | the catalog row's (USD scenarios) | "
                                      "rig | Price of one. |\n"));
}

TEST_CASE("docs/model.md's metric list is what payback docs --metrics prints", "[cli][docs][metric_table]") {
    const Result r = run("docs --metrics");
    REQUIRE(r.code == 0);
    // One row per metric of the table, e.g. the NPV savings of the rig against a cloud option.
    CHECK_THAT(r.out, Catch::Contains("\n| `npv_savings` | currency | `versus[]` | yes | NPV(building) - NPV(renting)"));
    CHECK_THAT(r.out, Catch::Contains("\n| `kwh_per_run` | kWh | `options[].job` | yes |"));
    CHECK_THAT(r.out, Catch::Contains("\n| `co2_kg_total` | kg | `options[]` | no |"));
    const std::string page = read_file(std::filesystem::path(PAYBACK_SOURCE_DIR) / "docs" / "model.md");
    INFO("docs/model.md's metric list is stale: put `build/bin/payback docs --metrics` in its place");
    CHECK_THAT(page, Catch::Contains(r.out));
}
