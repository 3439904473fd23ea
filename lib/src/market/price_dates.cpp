#include "payback/market/price_dates.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "payback/base/calendar.hpp"
#include "payback/base/error.hpp"

namespace payback {

namespace {

std::chrono::sys_days day_of(const std::string& text) {
    const auto date = parse_date(text);
    if (!date) throw std::invalid_argument("expected a date YYYY-MM-DD, got \"" + text + "\"");
    return std::chrono::sys_days(std::chrono::year(date->year) / std::chrono::month(static_cast<unsigned>(date->month)) /
                                 std::chrono::day(static_cast<unsigned>(date->day)));
}

}  // namespace

std::optional<std::size_t> row_in_effect(const std::vector<std::string>& as_of_dates, const std::string& date) {
    std::optional<std::size_t> best;
    for (std::size_t i = 0; i < as_of_dates.size(); ++i)  // ISO dates order as text
        if (as_of_dates[i] <= date && (!best || as_of_dates[i] > as_of_dates[*best])) best = i;
    return best;
}

std::optional<std::size_t> newest_row(const std::vector<std::string>& as_of_dates) {
    if (as_of_dates.empty()) return std::nullopt;
    return static_cast<std::size_t>(std::max_element(as_of_dates.begin(), as_of_dates.end()) - as_of_dates.begin());
}

long days_between(const std::string& from, const std::string& to) {
    return static_cast<long>((day_of(to) - day_of(from)).count());
}

std::string today() {
    if (const char* fixed = std::getenv("PAYBACK_TODAY"); fixed && *fixed) {
        try {
            day_of(fixed);
        } catch (const std::invalid_argument& e) {
            throw InputError("PAYBACK_TODAY", 0, "", e.what());
        }
        return fixed;
    }
    const std::chrono::year_month_day now(std::chrono::floor<std::chrono::days>(std::chrono::system_clock::now()));
    return fmt::format("{:04}-{:02}-{:02}", static_cast<int>(now.year()), static_cast<unsigned>(now.month()),
                       static_cast<unsigned>(now.day()));
}

std::string PriceAge::warning() const {
    if (!stale) return {};
    return fmt::format("warning: prices as of {} are {} days old (--max-age {}); run payback catalog import to "
                       "refresh them",
                       *prices_as_of, age_days, max_age_days);
}

PriceAge price_age(const std::vector<std::string>& as_of_dates, const std::string& today, int max_age_days) {
    PriceAge age;
    age.max_age_days = max_age_days;
    if (as_of_dates.empty()) return age;
    age.prices_as_of = *std::min_element(as_of_dates.begin(), as_of_dates.end());
    age.age_days = days_between(*age.prices_as_of, today);
    age.stale = age.age_days > max_age_days;
    return age;
}

}  // namespace payback
