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

TEST_CASE("closest match ignores case and finds a name from part of its words", "[suggest]") {
    const std::vector<std::string> gpus = {"RTX 4090", "RTX 4080", "GB10 DGX Spark", "Apple M1 Max", "Apple M4 Max",
                                           "Apple M4 Max Binned", "H100 PCIe", "H100 SXM"};
    CHECK(closest_match("rtx 4090", gpus) == "RTX 4090");  // case only: no typo
    CHECK(closest_match("DGX Spark", gpus) == "GB10 DGX Spark");
    CHECK(closest_match("NVIDIA GB10", gpus) == "GB10 DGX Spark");  // "nvidia" is no word of any name
    CHECK(closest_match("m4 max", gpus) == "Apple M4 Max");         // two words shared; fewer of its own wins
    CHECK(closest_match("H100", gpus) == "H100 PCIe");              // a tie of equals: the first
    CHECK(closest_match("Radeon", gpus).empty());
    CHECK(closest_match("a something", {"a different thing"}).empty());  // one-letter words match nothing
}
