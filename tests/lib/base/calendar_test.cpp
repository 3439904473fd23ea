// The calendar (payback/base/calendar.hpp): months, leap years and dates as catalogs and scenarios
// write them.
#include <catch2/catch.hpp>

#include <stdexcept>

#include "payback/base/calendar.hpp"

using namespace payback;

TEST_CASE("calendar_month counts months since year 0", "[calendar]") {
    // 2024 x 12 = 24288.
    CHECK(calendar_month(2024, 1) == 24288.0);
    CHECK(calendar_month(2024, 1, 1) == 24288.0);
    // December: 24288 + 11 = 24299; the 16th of March: 24288 + 2 + 15/31 = 24290.483871.
    CHECK(calendar_month(2024, 12) == 24299.0);
    CHECK(calendar_month(2024, 3, 16) == Approx(24290.0 + 15.0 / 31.0).epsilon(1e-15));
    // 2021-10-15: 2021 x 12 + 9 + 14/31 = 24252 + 9.4516129 = 24261.4516129.
    CHECK(calendar_month(2021, 10, 15) == Approx(24261.451612903226).epsilon(1e-15));
    // Leap day 2024-02-29: 24288 + 1 + 28/29 = 24289.965517; February 2023 has 28 days: 2023-02-28
    // is 24276 + 1 + 27/28 = 24277.964286.
    CHECK(calendar_month(2024, 2, 29) == Approx(24289.0 + 28.0 / 29.0).epsilon(1e-15));
    CHECK(calendar_month(2023, 2, 28) == Approx(24277.0 + 27.0 / 28.0).epsilon(1e-15));
    CHECK_THROWS_AS(calendar_month(2023, 2, 29), std::invalid_argument);
    CHECK_THROWS_AS(calendar_month(2023, 13, 1), std::invalid_argument);
    CHECK_THROWS_AS(calendar_month(2023, 4, 31), std::invalid_argument);
}

TEST_CASE("days_in_month follows the Gregorian leap years", "[calendar]") {
    CHECK(is_leap_year(2024));
    CHECK_FALSE(is_leap_year(1900));  // divisible by 100, not by 400
    CHECK(is_leap_year(2000));
    CHECK_FALSE(is_leap_year(2023));
    CHECK(days_in_month(2024, 2) == 29);
    CHECK(days_in_month(2023, 2) == 28);
    CHECK(days_in_month(1900, 2) == 28);  // divisible by 100, not by 400
    CHECK(days_in_month(2000, 2) == 29);  // divisible by 400
    CHECK(days_in_month(2023, 4) == 30);
    CHECK(days_in_month(2023, 12) == 31);
    CHECK(days_in_month(2023, 0) == 0);
}

TEST_CASE("parse_calendar_date reads real dates only", "[calendar]") {
    CHECK(parse_calendar_date("2024-02-29") == calendar_month(2024, 2, 29));
    CHECK(parse_calendar_date("2000-02-29") == calendar_month(2000, 2, 29));
    CHECK(parse_calendar_date("2021-10-15") == calendar_month(2021, 10, 15));
    // "YYYY-MM" is the first of the month: 2024 x 12 + 1 = 24289.
    CHECK(parse_calendar_date("2024-02") == 24289.0);
    for (const char* bad :
         {"2023-02-29", "1900-02-29", "2024-04-31", "2024-13-01", "2024-00-10", "2024-01-00", "2024-2-01",
          "24-02-01", "2024-02-01x", "2024/02/01", "2024-02-1", "2024-0a-01", "", "2024", "+024-02-01"}) {
        INFO(bad);
        CHECK_FALSE(parse_calendar_date(bad).has_value());
    }
}

TEST_CASE("parse_date and is_year_month: the forms scenarios and catalogs write", "[calendar]") {
    const auto leap_day = parse_date("2024-02-29");
    REQUIRE(leap_day);
    CHECK((leap_day->year == 2024 && leap_day->month == 2 && leap_day->day == 29));
    CHECK(parse_date("2019-11")->day == 1);
    CHECK_FALSE(parse_date("2019-13"));
    CHECK(is_year_month("2019-11"));
    CHECK_FALSE(is_year_month("2019-11-01"));  // scenario.start is a month, not a day
    CHECK_FALSE(is_year_month("2019-00"));
    CHECK_FALSE(is_year_month("19-11"));
}

TEST_CASE("month_of_year: the calendar month a horizon month falls in", "[calendar]") {
    // Starting in November 2019: month 1 is November, 3 is January, 14 is December.
    const auto november = parse_date("2019-11");
    CHECK(month_of_year(november, 1) == 11);
    CHECK(month_of_year(november, 3) == 1);
    CHECK(month_of_year(november, 14) == 12);
    // Without a start the horizon begins in January.
    CHECK(month_of_year(std::nullopt, 1) == 1);
    CHECK(month_of_year(std::nullopt, 13) == 1);
}
