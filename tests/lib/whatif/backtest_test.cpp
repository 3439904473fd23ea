// The pieces of a backtest: the observed mean price over a horizon, and used prices known by a date.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "payback/base/calendar.hpp"
#include "payback/whatif/backtest.hpp"

using namespace payback;

TEST_CASE("observed_mean_price averages the price in effect on each month's first day", "[backtest]") {
    // $3.00 from 2024-01-01, $2.00 from 2024-07-01; decided 2024-01-15, 12 months: January (on the
    // 15th) to June at 3.00, July to December at 2.00: (6 x 3 + 6 x 2) / 12 = 2.50.
    const std::vector<std::string> dates = {"2024-07-01", "2024-01-01"};
    const std::vector<double> prices = {2.00, 3.00};
    CHECK(observed_mean_price(dates, prices, "2024-01-15", "2024-12-31", 12) == Approx(2.50).epsilon(1e-15));
    // Observed only until 2024-03-31: the cut is not seen, every month at 3.00.
    CHECK(observed_mean_price(dates, prices, "2024-01-15", "2024-03-31", 12) == 3.00);
    // Decided on the day of the cut, 4 months: all at 2.00.
    CHECK(observed_mean_price(dates, prices, "2024-07-01", "2025-01-01", 4) == 2.00);
    // Decided in June, 3 months: June at 3.00, July and August at 2.00: 7 / 3.
    CHECK(observed_mean_price(dates, prices, "2024-06-10", "2025-01-01", 3) == Approx(7.0 / 3.0).epsilon(1e-15));
    // A horizon across a year's end: decided 2024-11-20, 3 months (Nov, Dec, Jan): all 2.00.
    CHECK(observed_mean_price(dates, prices, "2024-11-20", "2025-06-01", 3) == 2.00);
}

TEST_CASE("known_on keeps the observations on or before the date", "[backtest]") {
    const PriceSchedule series{"Card",
                               "USD",
                               {{*parse_calendar_date("2021-10-15"), 2737, "2021-10-15"},
                                {*parse_calendar_date("2021-11-15"), 2936, "2021-11-15"},
                                {*parse_calendar_date("2023-10-15"), 704, "2023-10-15"}}};
    const auto at_decision = known_on(series, "2021-10-15");
    REQUIRE(at_decision);
    REQUIRE(at_decision->points.size() == 1);
    CHECK(at_decision->points[0].price == 2737);
    CHECK(known_on(series, "2022-01-01")->points.size() == 2);
    CHECK(known_on(series, "2030-01-01")->points.size() == 3);
    CHECK_FALSE(known_on(series, "2021-10-14"));
}
