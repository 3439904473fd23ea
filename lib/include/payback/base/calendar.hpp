// The calendar, in one place: Gregorian months and leap years, dates as written in catalogs and
// scenarios ("YYYY-MM-DD", "YYYY-MM"), and the calendar month a horizon month falls in. Catalog rows'
// as_of, used prices' dates, scenario.start and the seasons of tariffs and cooling all read it.
#pragma once

#include <optional>
#include <string_view>

namespace payback {

struct CalendarDate {
    int year = 0;
    int month = 1;  ///< 1-12
    int day = 1;
};

bool is_leap_year(int year);

/// Days in `month` (1-12) of `year`, Gregorian leap years included; 0 when the month is not 1-12.
int days_in_month(int year, int month);

/// "YYYY-MM-DD", or "YYYY-MM" (the first of the month); nullopt when malformed or not a real date.
std::optional<CalendarDate> parse_date(std::string_view text);

/// Exactly "YYYY-MM" with a real month (scenario.start).
bool is_year_month(std::string_view text);

/// A calendar instant as fractional months since year 0: year*12 + (month-1) + (day-1)/days_in_month.
/// Throws std::invalid_argument when (year, month, day) is not a real date.
double calendar_month(int year, int month, int day = 1);

/// parse_date as a calendar_month(); nullopt when malformed or not a real date.
std::optional<double> parse_calendar_date(std::string_view text);

/// The calendar month (1-12) of horizon month `month` (1 is the first) when the horizon starts in
/// `start` ("YYYY-MM"); January when there is no start.
int month_of_year(const std::optional<CalendarDate>& start, int month);

}  // namespace payback
