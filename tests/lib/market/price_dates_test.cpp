// Which dated row is in effect at a date, and how old an answer's prices are.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "payback/base/error.hpp"
#include "payback/market/price_dates.hpp"

using namespace payback;

TEST_CASE("row_in_effect picks the latest as_of on or before the date", "[price_dates]") {
    // One instance's price over time, not in date order.
    const std::vector<std::string> dates = {"2025-01-01", "2024-01-01", "2025-07-01"};
    CHECK_FALSE(row_in_effect(dates, "2023-12-31"));         // before the first price
    CHECK(row_in_effect(dates, "2024-01-01") == std::size_t{1});  // on the day it took effect
    CHECK(row_in_effect(dates, "2024-12-31") == std::size_t{1});  // the day before the change
    CHECK(row_in_effect(dates, "2025-01-01") == std::size_t{0});  // the day of the change
    CHECK(row_in_effect(dates, "2025-06-30") == std::size_t{0});
    CHECK(row_in_effect(dates, "2030-01-01") == std::size_t{2});  // the newest, long after
    CHECK_FALSE(row_in_effect({}, "2025-01-01"));
    // Two rows of one date: the first listed.
    CHECK(row_in_effect({"2024-01-01", "2024-01-01"}, "2024-06-01") == std::size_t{0});
}

TEST_CASE("newest_row is the latest as_of", "[price_dates]") {
    CHECK(newest_row({"2025-01-01", "2024-01-01", "2025-07-01"}) == std::size_t{2});
    CHECK_FALSE(newest_row({}));
}

TEST_CASE("days_between counts calendar days, leap days included", "[price_dates]") {
    CHECK(days_between("2025-06-01", "2026-12-02") == 549);  // 213 to 2025-12-31, +1 to 2026-01-01, +335 to 2026-12-02
    CHECK(days_between("2024-02-28", "2024-03-01") == 2);    // 2024 is a leap year: the 29th lies between
    CHECK(days_between("2025-02-28", "2025-03-01") == 1);
    CHECK(days_between("2025-04-01", "2025-01-01") == -90);  // 31 + 28 + 31
    CHECK_THROWS_AS(days_between("2025-13-01", "2025-01-01"), std::invalid_argument);
    CHECK(days_between("2025-01", "2025-01-02") == 1);  // a catalog's month is its first day
    CHECK_THROWS_AS(days_between("January 2025", "2025-01-01"), std::invalid_argument);
}

TEST_CASE("price_age: the oldest row decides, stale only past --max-age", "[price_dates]") {
    const std::vector<std::string> used = {"2025-03-01", "2025-01-01", "2025-02-01"};
    // 2025-01-01 to 2025-04-01 is 31 + 28 + 31 = 90 days: at the limit, not past it.
    const PriceAge at_limit = price_age(used, "2025-04-01", 90);
    CHECK(at_limit.prices_as_of == "2025-01-01");
    CHECK(at_limit.age_days == 90);
    CHECK_FALSE(at_limit.stale);
    CHECK(at_limit.warning().empty());
    const PriceAge past = price_age(used, "2025-04-02", 90);
    CHECK(past.age_days == 91);
    CHECK(past.stale);
    CHECK(past.warning() == "warning: prices as of 2025-01-01 are 91 days old (--max-age 90); run payback catalog "
                            "import to refresh them");
    CHECK_FALSE(price_age(used, "2025-04-02", 91).stale);
    // No catalog prices: nothing to be stale.
    const PriceAge typed_in = price_age({}, "2030-01-01", 0);
    CHECK_FALSE(typed_in.prices_as_of);
    CHECK_FALSE(typed_in.stale);
}

TEST_CASE("today is $PAYBACK_TODAY when set", "[price_dates]") {
    const char* saved = std::getenv("PAYBACK_TODAY");
    const std::string restore = saved ? saved : "";
    ::setenv("PAYBACK_TODAY", "2025-06-01", 1);
    CHECK(today() == "2025-06-01");
    ::setenv("PAYBACK_TODAY", "June 2025", 1);
    CHECK_THROWS_AS(today(), InputError);
    ::unsetenv("PAYBACK_TODAY");
    const std::string now = today();  // the clock's date: a real date of this century
    CHECK(now.size() == 10);
    CHECK(days_between("2000-01-01", now) > 0);
    if (saved) ::setenv("PAYBACK_TODAY", restore.c_str(), 1);
}
