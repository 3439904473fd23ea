#include <catch2/catch.hpp>

#include <limits>

#include "payback/base/format.hpp"

using payback::format_amount;

TEST_CASE("amounts are grouped by thousands with fixed decimals", "[format]") {
    CHECK(format_amount(0.0) == "0");
    CHECK(format_amount(999.4) == "999");
    CHECK(format_amount(1234.5, 1) == "1,234.5");
    CHECK(format_amount(1234567.891, 2) == "1,234,567.89");
    CHECK(format_amount(-10293.2) == "-10,293");
    CHECK(format_amount(-0.004, 2) == "0.00");  // rounds to zero: no sign
    CHECK(format_amount(std::numeric_limits<double>::quiet_NaN()) == "-");
}
