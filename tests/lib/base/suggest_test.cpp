#include <catch2/catch.hpp>

#include "payback/base/suggest.hpp"

using namespace payback::detail;

TEST_CASE("edit distance counts single-letter edits", "[suggest]") {
    CHECK(edit_distance("kitten", "sitting") == 3);
    CHECK(edit_distance("", "abc") == 3);
    CHECK(edit_distance("same", "same") == 0);
}

TEST_CASE("closest match finds typos and ignores strangers", "[suggest]") {
    const std::vector<std::string> keys = {"psu_efficiency", "when_not_training", "parts", "name"};
    CHECK(closest_match("psu_efficency", keys) == "psu_efficiency");
    CHECK(closest_match("part", keys) == "parts");
    CHECK(closest_match("electricity", keys).empty());
}
