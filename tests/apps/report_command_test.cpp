#include <catch2/catch.hpp>

#include <filesystem>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using payback::test::check_bad_input;
using payback::test::quote;
using payback::test::read_file;
using payback::test::run;
using payback::test::TempDir;
using payback::test::write_file;

TEST_CASE("payback report writes the page to a file, and the same page to stdout with -o -", "[cli][report]") {
    TempDir dir;
    const fs::path out = dir.path() / "report.html";
    const auto written = run("report scenarios/venus-2019.toml -o " + quote(out.string()));
    INFO(written.err);
    REQUIRE(written.code == 0);
    CHECK(written.out.empty());
    const std::string page = read_file(out);
    CHECK(page.rfind("<!DOCTYPE html>\n", 0) == 0);
    CHECK(page.find("</html>") != std::string::npos);
    // Only the page is left: the temporary file it was written through is renamed, not copied.
    CHECK(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()) == 1);

    const auto printed = run("report scenarios/venus-2019.toml -o -");
    REQUIRE(printed.code == 0);
    CHECK(printed.out == page);  // the same scenario gives the same page, byte for byte
}

TEST_CASE("payback report on bad input: exit 2, one line, an existing page left as it was", "[cli][report]") {
    TempDir dir;
    const fs::path out = dir.path() / "report.html";
    write_file(out, "the old page");

    check_bad_input(run("report no-such-scenario.toml -o " + quote(out.string())));
    const auto bad_value = run("report scenarios/venus-2019.toml --set scenario.horizon_months=-3 -o " + quote(out.string()));
    check_bad_input(bad_value);
    CHECK_THAT(bad_value.err, Catch::Contains("scenario.horizon_months"));
    CHECK(read_file(out) == "the old page");

    const auto nowhere = run("report scenarios/venus-2019.toml -o " + quote((dir.path() / "missing" / "r.html").string()));
    check_bad_input(nowhere);
    CHECK_FALSE(fs::exists(dir.path() / "missing"));

    const auto no_output = run("report scenarios/venus-2019.toml");
    CHECK(no_output.code == 2);
    CHECK_THAT(no_output.err, Catch::Contains("--output"));
}
