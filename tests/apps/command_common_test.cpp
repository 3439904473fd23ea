// What every command shares (apps/command_common, terminal, text_table): --help with an example,
// --format with --json/--csv as shorthands, -o written whole or not at all, tables that fit 80
// columns, colour only on a terminal and never with NO_COLOR, progress bars only on a terminal.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "payback/base/format.hpp"
#include "support/run_cli.hpp"
#include "support/run_in_terminal.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using payback::test::check_bad_input;
using payback::test::lines_of;
using payback::test::quote;
using payback::test::read_file;
using payback::test::Result;
using payback::test::run;
using payback::test::run_in_terminal;
using payback::test::TempDir;

namespace {

// The commands `payback --help` lists: the first word of each line under "Subcommands:".
std::vector<std::string> commands() {
    const Result help = run("--help");
    REQUIRE(help.code == 0);
    std::vector<std::string> out;
    bool listing = false;
    for (const auto& line : lines_of(help.out)) {
        if (line == "Subcommands:") {
            listing = true;
        } else if (listing) {
            if (line.empty()) break;
            if (line.rfind("   ", 0) == 0) continue;  // a description's wrapped continuation
            std::istringstream words(line);
            std::string name;
            words >> name;
            out.push_back(name);
        }
    }
    return out;
}

// Columns on a terminal: UTF-8 code points.
std::size_t columns(const std::string& line) {
    std::size_t n = 0;
    for (char c : line) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
    return n;
}

const std::string venus = "scenarios/venus-2019.toml";
const std::string uncertain = "scenarios/venus-2019-uncertain.toml";

}  // namespace

TEST_CASE("every command's --help has its options and an example of it, in 80 columns", "[cli][help]") {
    const auto names = commands();
    REQUIRE(names.size() >= 13);  // compare .. docs: the list is read from --help, not kept here
    for (const auto& name : names) {
        INFO("payback " << name << " --help");
        const Result r = run(name + " --help");
        CHECK(r.code == 0);
        CHECK_THAT(r.out, Catch::Contains("Usage: payback " + name));
        CHECK_THAT(r.out, Catch::Contains("Example"));
        CHECK_THAT(r.out, Catch::Contains("\n  payback " + name + " "));
        for (const auto& line : lines_of(r.out)) {
            INFO(line);
            CHECK(columns(line) <= 80);
        }
    }
}

TEST_CASE("The format option: json and csv print what --json and --csv print; a wrong format exits 2", "[cli][format]") {
    const std::vector<std::string> runs = {
        "compare " + venus,
        "cashflow " + venus,
        "breakeven " + venus + " --for electricity.price_per_kwh",
        "catalog rates",
        "montecarlo " + uncertain + " --samples 300",
        "sweep " + venus + " --vary workload.gpu_hours_per_month=100:300:100",
        "tornado " + venus + " --samples 0",
    };
    for (const auto& args : runs) {
        INFO("payback " << args);
        for (const std::string format : {"json", "csv"}) {
            Result longhand = run(args + " --format " + format);
            Result shorthand = run(args + " --" + format);
            REQUIRE(longhand.code == 0);
            if (format == "json") {  // the same but for the time montecarlo took
                nlohmann::json a = nlohmann::json::parse(longhand.out), b = nlohmann::json::parse(shorthand.out);
                if (a.is_object()) a.erase("seconds");
                if (b.is_object()) b.erase("seconds");
                CHECK(a == b);
            } else {
                CHECK(longhand.out == shorthand.out);
            }
            CHECK(longhand.out != run(args).out);  // the table is something else
        }
        const Result table = run(args + " --format table");
        CHECK(table.code == 0);
        CHECK(table.out == run(args).out);
        check_bad_input(run(args + " --format xml"));
        check_bad_input(run(args + " --json --format csv"));
        check_bad_input(run(args + " --json --csv"));
    }
    // explain has sentences or JSON, no CSV
    CHECK(run("explain " + venus + " --format json").code == 0);
    check_bad_input(run("explain " + venus + " --format csv"));
}

TEST_CASE("The output option writes the whole result to the file; a failed run leaves the old file as it was", "[cli][output]") {
    TempDir dir;
    const fs::path out = dir.path() / "flows.csv";
    const Result written = run("cashflow " + venus + " --format csv -o " + quote(out.string()));
    REQUIRE(written.code == 0);
    CHECK(written.out.empty());
    CHECK(read_file(out) == run("cashflow " + venus + " --format csv").out);

    const Result failed =
        run("cashflow " + venus + " --format csv --set 'rig.parts[0].price=-1' -o " + quote(out.string()));
    check_bad_input(failed);
    CHECK(read_file(out) == run("cashflow " + venus + " --format csv").out);

    const fs::path nowhere = dir.path() / "no" / "such" / "dir.csv";
    const Result unwritable = run("compare " + venus + " -o " + quote(nowhere.string()));
    check_bad_input(unwritable);
    CHECK_THAT(unwritable.err, Catch::Contains(nowhere.string()));
    std::size_t files = 0;
    for (const auto& entry : fs::directory_iterator(dir.path())) {
        (void)entry;
        ++files;
    }
    CHECK(files == 1);  // no temporary file left behind
}

TEST_CASE("tables and text fit an 80-column terminal", "[cli][width]") {
    std::vector<std::string> runs = {
        "cashflow " + venus,
        "cashflow scenarios/lab-3090-2021.toml",
        "breakeven " + venus + " --for electricity.price_per_kwh",
        "montecarlo " + uncertain + " --samples 300",
        "sweep " + venus + " --vary workload.gpu_hours_per_month=100:700:100",
        "sweep " + venus + " --vary workload.gpu_hours_per_month=100:700:100 --vary electricity.price_per_kwh=0.1:0.5:0.05",
        "tornado " + uncertain + " --samples 300",
    };
    for (const std::string what : {"gpus", "instances", "parts", "rates", "rental"}) runs.push_back("catalog " + what);
    for (const auto& entry : fs::directory_iterator(fs::path(PAYBACK_SOURCE_DIR) / "scenarios")) {
        const std::string scenario = "scenarios/" + entry.path().filename().string();
        runs.push_back("compare " + scenario);
        runs.push_back("explain " + scenario);
    }
    for (const auto& args : runs) {
        INFO("payback " << args);
        const Result r = run(args);
        REQUIRE(r.code == 0);
        for (const auto& line : lines_of(r.out)) {
            INFO(line);
            CHECK(columns(line) <= 80);
        }
    }
}

TEST_CASE("compare lays each pair's metrics out as rows, the options across, no name cut", "[cli][width]") {
    // Two ways of building (the rig alone and renting it out) against one cloud option.
    const std::string rental = "scenarios/rtx3080-rental.toml";
    const Result r = run("compare " + rental);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, !Catch::Contains("~"));
    const nlohmann::json j = nlohmann::json::parse(run("compare " + rental + " --json").out);
    REQUIRE(j.at("versus").size() == 2);
    // One row of NPV savings per way of building, read in one pass: its cell is the JSON's figure.
    std::vector<std::string> npv_rows;
    for (const auto& line : lines_of(r.out))
        if (line.rfind("NPV savings", 0) == 0) npv_rows.push_back(line);
    REQUIRE(npv_rows.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
        const double npv = j.at("versus")[i].at("npv_savings").get<double>();
        INFO(npv_rows[i]);
        CHECK_THAT(npv_rows[i], Catch::EndsWith("  " + payback::format_amount(npv)));
    }
    // Each option's whole name is there, wrapped onto header lines where it is long.
    for (const auto& option : j.at("options")) {
        std::string words;
        for (const auto& line : lines_of(r.out)) words += line + " ";
        std::istringstream name(option.at("name").get<std::string>());
        for (std::string word; name >> word;) CHECK_THAT(words, Catch::Contains(word));
    }
}

TEST_CASE("compare's tables take a terminal's width, and --wide any width", "[cli][width]") {
    // Every AWS instance with 24 GB or more: more options than 80 columns hold.
    const std::string many = "compare scenarios/rtx3080-rental.toml --cloud \"gpu_memory_gb>=24,provider==aws\"";
    const auto widest = [](const std::string& text) {
        std::size_t most = 0;
        for (const auto& line : lines_of(text)) most = std::max(most, columns(line));
        return most;
    };
    const auto blocks = [](const std::string& text) {  // each block of the options table starts with its corner
        std::size_t n = 0;
        for (const auto& line : lines_of(text)) n += line.rfind("option", 0) == 0 ? 1 : 0;
        return n;
    };
    const Result narrow = run(many);
    REQUIRE(narrow.code == 0);
    CHECK(widest(narrow.out) <= 80);
    const Result wide = run(many + " --wide");
    REQUIRE(wide.code == 0);
    CHECK(widest(wide.out) > 80);
    CHECK(blocks(wide.out) == 1);
    CHECK(blocks(narrow.out) > 1);
    const Result terminal = run_in_terminal(many, "NO_COLOR=1 COLUMNS=160 ");
    REQUIRE(terminal.code == 0);
    CHECK(widest(terminal.out) <= 160);
    CHECK(widest(terminal.out) > 80);
    CHECK(blocks(terminal.out) < blocks(narrow.out));
}

TEST_CASE("colour only on a terminal, and not with NO_COLOR", "[cli][colour]") {
    const std::string args = "compare " + venus;
    const Result terminal = run_in_terminal(args);
    REQUIRE(terminal.code == 0);
    CHECK_THAT(terminal.out, Catch::Contains("\033[1m"));  // bold headers and verdict
    const Result no_colour = run_in_terminal(args, "NO_COLOR=1 ");
    REQUIRE(no_colour.code == 0);
    CHECK_THAT(no_colour.out, !Catch::Contains("\033["));
    CHECK_THAT(no_colour.out, Catch::Contains("Build: over 36 months"));
    CHECK_THAT(run(args).out, !Catch::Contains("\033["));  // a pipe
    CHECK_THAT(run_in_terminal(args + " --format json").out, !Catch::Contains("\033["));
}

TEST_CASE("progress bars on a terminal only", "[cli][progress]") {
    const Result terminal = run_in_terminal("montecarlo " + uncertain + " --samples 20000 --threads 1");
    REQUIRE(terminal.code == 0);
    CHECK_THAT(terminal.out, Catch::Contains("montecarlo [") && Catch::Contains(" %"));
    const Result piped = run("montecarlo " + uncertain + " --samples 20000 --threads 1");
    REQUIRE(piped.code == 0);
    CHECK_THAT(piped.err, !Catch::Contains("montecarlo ["));
    CHECK_THAT(piped.err, !Catch::Contains("\r"));

    const Result bench = run_in_terminal("bench --device cpu --workload mlp --batch 4 --repeats 2 --seconds 0.01");
    REQUIRE(bench.code == 0);
    CHECK_THAT(bench.out, Catch::Contains("bench [") && Catch::Contains("warming up"));
    const Result bench_piped = run("bench --device cpu --workload mlp --batch 4 --repeats 2 --seconds 0.01");
    REQUIRE(bench_piped.code == 0);
    CHECK_THAT(bench_piped.err, !Catch::Contains("warming up"));
}

