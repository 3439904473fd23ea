// docs/errors.md lists every kind of bad input with the command that shows it, the exit code and the
// exact line payback prints. This test runs each row of that table, so the page and the program
// cannot drift apart: a changed message fails here until the page says the same.
#include <catch2/catch.hpp>

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace payback;
namespace fs = std::filesystem;

namespace {

struct Row {
    std::string kind;
    std::string command;  ///< as on the page: optional VAR=value words, then `payback ...`
    int exit_code;
    std::string message;
};

std::string without_backticks(std::string cell) {
    const auto first = cell.find_first_not_of(' ');
    const auto last = cell.find_last_not_of(' ');
    cell = first == std::string::npos ? "" : cell.substr(first, last - first + 1);
    if (cell.size() >= 2 && cell.front() == '`' && cell.back() == '`') cell = cell.substr(1, cell.size() - 2);
    return cell;
}

// The table after the marker line: | kind | `command` | exit | `message` |.
std::vector<Row> table_rows() {
    std::ifstream page(PAYBACK_SOURCE_DIR "/docs/errors.md");
    REQUIRE(page.good());
    std::vector<Row> rows;
    bool in_table = false;
    for (std::string line; std::getline(page, line);) {
        if (line.find("<!-- checked by tests/apps/bad_input_table_test.cpp -->") != std::string::npos) {
            in_table = true;
            continue;
        }
        if (!in_table) continue;
        if (line.empty() || line[0] != '|') {
            if (!rows.empty()) break;
            continue;
        }
        if (line.rfind("|---", 0) == 0) continue;  // the rule under the header
        std::vector<std::string> cells;
        std::size_t start = 1;
        for (std::size_t bar; (bar = line.find(" | ", start)) != std::string::npos; start = bar + 3)
            cells.push_back(line.substr(start, bar - start));
        cells.push_back(line.substr(start, line.rfind('|') - start));
        REQUIRE(cells.size() == 4);
        if (cells[1].find('`') == std::string::npos) continue;  // the header and its rule
        rows.push_back({without_backticks(cells[0]), without_backticks(cells[1]), std::stoi(without_backticks(cells[2])),
                        without_backticks(cells[3])});
    }
    return rows;
}

// What the page's $BAD directory holds (docs/errors.md says the same).
void make_bad_files(const fs::path& bad) {
    // A 10 GiB scenario: sparse, so it takes no disk.
    { std::ofstream(bad / "huge.toml"); }
    fs::resize_file(bad / "huge.toml", std::uintmax_t{10} << 30);
    // The valid base scenario with 1001 parts.
    std::string text = test::read_file(PAYBACK_SOURCE_DIR "/tests/fixtures/bad-input/base.toml");
    const std::string part = "\n[[rig.parts]]\nkind = \"other\"\nname = \"fan\"\nprice = 5\n";
    const auto electricity = text.find("[electricity]");
    REQUIRE(electricity != std::string::npos);
    std::string parts;
    for (int i = 0; i < 999; ++i) parts += part;  // the base has 2
    text.insert(electricity, parts + "\n");
    test::write_file(bad / "1001-parts.toml", text);
    // pricing/ with gpus.csv cut to its header and one row without a source.
    fs::copy(PAYBACK_SOURCE_DIR "/pricing", bad / "pricing", fs::copy_options::recursive);
    std::istringstream gpus(test::read_file(bad / "pricing/gpus.csv"));
    std::string header;
    std::getline(gpus, header);  // the shipped files start with their header
    std::string row;
    std::istringstream columns(header);
    bool first = true;
    for (std::string column; std::getline(columns, column, ',');) {
        if (!first) row += ',';
        first = false;
        if (column == "name") row += "Made-up GPU";
        if (column == "as_of") row += "2026-11-29";
        if (column == "architecture") row += "ampere";  // required too: only the source is missing
    }
    if (header.back() == ',') row += ',';
    test::write_file(bad / "pricing/gpus.csv", fmt::format("{}\n{}\n", header, row));
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
    for (std::size_t at = 0; (at = text.find(from, at)) != std::string::npos; at += to.size()) text.replace(at, from.size(), to);
    return text;
}

}  // namespace

TEST_CASE("docs/errors.md: every bad input gets the documented exit code and message", "[cli][errors]") {
    const auto rows = table_rows();
    REQUIRE(rows.size() >= 25);
    test::TempDir dir;
    const fs::path bad = dir.path() / "bad";
    fs::create_directory(bad);
    make_bad_files(bad);
    for (const Row& row : rows) {
        INFO(row.kind << ": " << row.command);
        // VAR=value words before `payback` go to the environment; $BAD is the directory made above.
        std::string command = replace_all(row.command, "$BAD", bad.string());
        std::vector<std::string> variables;
        while (command.rfind("payback ", 0) != 0) {
            const auto space = command.find(' ');
            REQUIRE(space != std::string::npos);
            variables.push_back(command.substr(0, space));
            command = command.substr(space + 1);
        }
        for (const auto& v : variables) {
            const auto eq = v.find('=');
            REQUIRE(eq != std::string::npos);
            setenv(v.substr(0, eq).c_str(), v.substr(eq + 1).c_str(), 1);
        }
        const test::Result r = test::run(command.substr(8));
        for (const auto& v : variables) unsetenv(v.substr(0, v.find('=')).c_str());
        CHECK(r.code == row.exit_code);
        CHECK(r.out.empty());
        CHECK(replace_all(r.err, bad.string(), "$BAD") == row.message + "\n");
    }
}
