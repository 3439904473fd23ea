#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/csv_reader.hpp"
#include "support/input_errors.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using payback::InputError;
using payback::detail::CsvTable;

namespace {

using payback::test::TempDir;
using payback::test::check_error;

// The InputError that loading `path` throws.
InputError load_error(const std::string& path) {
    return payback::test::input_error([&] { CsvTable::load(path); });
}

// The InputError that `read` throws when applied to the table.
template <class Read>
InputError cell_error(const CsvTable& table, Read read) {
    return payback::test::input_error([&] { read(table); });
}

}  // namespace

TEST_CASE("csv: quoted fields hold commas, doubled quotes and line breaks", "[csv]") {
    TempDir dir;
    const std::string path = dir.write("quoted.csv",
                                       "name,note,price\n"
                                       "\"RTX 3090, used\",\"the \"\"FE\"\" model\",700\n"
                                       "plain,\"two\nlines\",\"\"\n"
                                       "last,x,5\n");
    const CsvTable t = CsvTable::load(path);
    CHECK(t.path() == path);
    REQUIRE(t.rows() == 3);
    CHECK(t.text(0, "name") == "RTX 3090, used");
    CHECK(t.text(0, "note") == "the \"FE\" model");
    CHECK(t.number(0, "price") == 700.0);
    CHECK(t.text(1, "note") == "two\nlines");
    CHECK(t.text(1, "price").empty());
    // Row 1 starts on line 3 and spans lines 3-4, so row 2 is on line 5.
    CHECK(t.line_of(0) == 2);
    CHECK(t.line_of(1) == 3);
    CHECK(t.line_of(2) == 5);
}

TEST_CASE("csv: comment and blank lines are skipped but counted", "[csv]") {
    TempDir dir;
    const std::string path = dir.write("comments.csv",
                                       "# a catalog\n"              // 1
                                       "\n"                         // 2
                                       "a,b\n"                      // 3 header
                                       "# between rows\n"           // 4
                                       "1,2\n"                      // 5
                                       "   \n"                      // 6 (spaces only)
                                       "\n"                         // 7
                                       "3,\"# not a comment\"\n");  // 8
    const CsvTable t = CsvTable::load(path);
    REQUIRE(t.rows() == 2);
    CHECK(t.columns() == std::vector<std::string>{"a", "b"});
    CHECK(t.line_of(0) == 5);
    CHECK(t.line_of(1) == 8);
    CHECK(t.number(1, "a") == 3.0);
    CHECK(t.text(1, "b") == "# not a comment");  // '#' only starts a comment at the start of a line
}

TEST_CASE("csv: CRLF line endings, a missing final newline and a byte order mark", "[csv]") {
    TempDir dir;
    const std::string path = dir.write("crlf.csv",
                                       "\xEF\xBB\xBF"
                                       "item,price\r\n"
                                       "\r\n"
                                       "\"A\r\nB\",12.5\r\n"
                                       "C,-3");
    const CsvTable t = CsvTable::load(path);
    REQUIRE(t.rows() == 2);
    CHECK(t.has_column("item"));  // the BOM is not part of the first column's name
    CHECK(t.text(0, "item") == "A\nB");
    CHECK(t.number(0, "price") == 12.5);  // no '\r' left on the last field
    CHECK(t.text(1, "price") == "-3");
    CHECK(t.number(1, "price") == -3.0);
    CHECK(t.line_of(0) == 3);
    CHECK(t.line_of(1) == 5);
}

TEST_CASE("csv: has_column and require_columns", "[csv]") {
    TempDir dir;
    const std::string path = dir.write("cols.csv", "date,price\n2022-01-15,5\n");
    const CsvTable t = CsvTable::load(path);
    CHECK(t.has_column("date"));
    CHECK_FALSE(t.has_column("Date"));
    CHECK_NOTHROW(t.require_columns({"price", "date"}));
    try {
        t.require_columns({"date", "currency", "source"});
        FAIL("a missing column was accepted");
    } catch (const InputError& e) {
        check_error(e, path, 0, "currency", "missing column; the header has: date,price");
    }
    check_error(cell_error(t, [](const CsvTable& table) { table.text(0, "source"); }), path, 0, "source",
                "missing column");
}

TEST_CASE("csv: numbers must be whole, finite and nothing else", "[csv]") {
    TempDir dir;
    const std::string path = dir.write("numbers.csv",
                                       "label,value\n"
                                       "ok,1e3\n"
                                       "suffix,12abc\n"
                                       "space, 12\n"
                                       "empty,\n"
                                       "infinite,inf\n"
                                       "nan,nan\n"
                                       "huge,1e999\n");
    const CsvTable t = CsvTable::load(path);
    CHECK(t.number(0, "value") == 1000.0);
    const auto number_at = [](std::size_t row) {
        return [row](const CsvTable& table) { table.number(row, "value"); };
    };
    // Row r is on line r + 2.
    check_error(cell_error(t, number_at(1)), path, 3, "value", "expected a number, got \"12abc\"");
    check_error(cell_error(t, number_at(2)), path, 4, "value", "expected a number, got \" 12\"");
    check_error(cell_error(t, number_at(3)), path, 5, "value", "expected a number, got an empty field");
    check_error(cell_error(t, number_at(4)), path, 6, "value", "expected a finite number, got \"inf\"");
    check_error(cell_error(t, number_at(5)), path, 7, "value", "expected a finite number, got \"nan\"");
    check_error(cell_error(t, number_at(6)), path, 8, "value", "got \"1e999\"");
    CHECK_THROWS_AS(t.text(7, "value"), std::out_of_range);
}

TEST_CASE("csv: a missing file, a directory and an empty file", "[csv][errors]") {
    TempDir dir;
    const std::string missing = (dir.path() / "nope.csv").string();
    check_error(load_error(missing), missing, 0, "", "no such file");
    check_error(load_error(dir.path().string()), dir.path().string(), 0, "", "not a regular file");
    const std::string empty = dir.write("empty.csv", "");
    check_error(load_error(empty), empty, 0, "", "empty file");
    const std::string only_comments = dir.write("comments.csv", "# nothing here\n\n");
    check_error(load_error(only_comments), only_comments, 0, "", "empty file");
}

TEST_CASE("csv: a header with no rows is a table of no rows", "[csv]") {
    TempDir dir;
    const CsvTable t = CsvTable::load(dir.write("header.csv", "a,b\n"));
    CHECK(t.rows() == 0);
    CHECK(t.columns().size() == 2);
}

TEST_CASE("csv: syntax errors name their line and column", "[csv][errors]") {
    TempDir dir;
    SECTION("unterminated quote: the line where the quote opened") {
        const std::string path = dir.write("a.csv", "a,b\n1,2\n3,\"open\nstill open\n");
        check_error(load_error(path), path, 3, "b", "unterminated quoted field");
    }
    SECTION("a row with too few fields") {
        const std::string path = dir.write("b.csv", "a,b,c\n1,2,3\n# note\n4,5\n");
        check_error(load_error(path), path, 4, "", "expected 3 fields (a,b,c), got 2");
    }
    SECTION("a row with too many fields") {
        const std::string path = dir.write("c.csv", "a,b\r\n1,2,3\r\n");
        check_error(load_error(path), path, 2, "", "expected 2 fields (a,b), got 3");
    }
    SECTION("a quote inside an unquoted field") {
        const std::string path = dir.write("d.csv", "a,b\n1,2\n3,say \"hi\"\n");
        check_error(load_error(path), path, 3, "b", "a quote inside an unquoted field");
    }
    SECTION("text after a closing quote") {
        const std::string path = dir.write("e.csv", "a,b\n\"x\"y,2\n");
        check_error(load_error(path), path, 2, "a", "unexpected 'y' after a closing quote");
    }
    SECTION("a repeated column name") {
        const std::string path = dir.write("f.csv", "# header next\ndate,price,date\n");
        check_error(load_error(path), path, 2, "date", "column named twice");
    }
    SECTION("an empty column name") {
        const std::string path = dir.write("g.csv", "date,,price\n");
        check_error(load_error(path), path, 1, "", "column 2 of the header has no name");
    }
    SECTION("a lone carriage return") {
        const std::string path = dir.write("h.csv", "a,b\n1,2\r3\n");
        check_error(load_error(path), path, 2, "b", "a stray carriage return");
    }
}
