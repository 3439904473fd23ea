#include "payback/base/calendar.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace payback {

namespace {

// The value of `text`, all ASCII digits, or -1 if it is empty or any character is not a digit.
int digits_value(std::string_view text) {
    if (text.empty()) return -1;
    int value = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') return -1;
        value = value * 10 + (c - '0');
    }
    return value;
}

bool is_real_date(int year, int month, int day) {
    return year >= 0 && day >= 1 && day <= days_in_month(year, month);
}

}  // namespace

bool is_leap_year(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

int days_in_month(int year, int month) {
    static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12) return 0;
    return month == 2 && is_leap_year(year) ? 29 : days[month - 1];
}

std::optional<CalendarDate> parse_date(std::string_view text) {
    if (text.size() != 7 && text.size() != 10) return std::nullopt;
    if (text[4] != '-' || (text.size() == 10 && text[7] != '-')) return std::nullopt;
    const CalendarDate date{digits_value(text.substr(0, 4)), digits_value(text.substr(5, 2)),
                            text.size() == 10 ? digits_value(text.substr(8, 2)) : 1};
    if (!is_real_date(date.year, date.month, date.day)) return std::nullopt;
    return date;
}

bool is_year_month(std::string_view text) { return text.size() == 7 && parse_date(text).has_value(); }

double calendar_month(int year, int month, int day) {
    if (!is_real_date(year, month, day))
        throw std::invalid_argument(
            fmt::format("calendar_month: {:04}-{:02}-{:02} is not a real date", year, month, day));
    return year * 12.0 + (month - 1) + static_cast<double>(day - 1) / days_in_month(year, month);
}

std::optional<double> parse_calendar_date(std::string_view text) {
    const auto date = parse_date(text);
    if (!date) return std::nullopt;
    return calendar_month(date->year, date->month, date->day);
}

int month_of_year(const std::optional<CalendarDate>& start, int month) {
    const int first = start ? start->month : 1;
    return (first - 1 + month - 1) % 12 + 1;
}

}  // namespace payback
