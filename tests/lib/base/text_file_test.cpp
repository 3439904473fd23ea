#include <catch2/catch.hpp>

#include <string>

#include "payback/base/text_file.hpp"

using payback::detail::line_of_offset;

TEST_CASE("line_of_offset counts the newlines before the byte", "[base][text_file]") {
    const std::string text = "ab\ncd\n\nef";  // bytes 0-1 line 1, '\n' at 2; 3-4 line 2; 6 line 3; 7-8 line 4
    CHECK(line_of_offset(text, 0) == 1);
    CHECK(line_of_offset(text, 2) == 1);  // the newline ends line 1
    CHECK(line_of_offset(text, 3) == 2);
    CHECK(line_of_offset(text, 6) == 3);
    CHECK(line_of_offset(text, 8) == 4);
    CHECK(line_of_offset(text, 500) == 4);  // past the end: the last line (parsers report the end of input)
    CHECK(line_of_offset("", 0) == 1);
}
