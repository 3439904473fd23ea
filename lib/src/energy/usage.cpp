#include "payback/energy/usage.hpp"

#include <charconv>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

namespace payback {

namespace {

constexpr std::array<const char*, 7> day_names = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};
constexpr std::array<const char*, power_states> state_names = {"off", "idle", "training", "rented"};

int day_index(std::string_view name) {
    for (std::size_t d = 0; d < day_names.size(); ++d)
        if (name == day_names[d]) return static_cast<int>(d);
    throw std::invalid_argument(fmt::format("unknown day \"{}\" (mon..sun, weekdays, weekends, daily)", name));
}

// "daily", "weekdays", "weekends", "mon-fri", "sat,sun", "tue".
std::array<bool, 7> parse_days(std::string_view text) {
    std::array<bool, 7> days{};
    if (text == "daily") days.fill(true);
    else if (text == "weekdays") for (int d = 0; d < 5; ++d) days[static_cast<std::size_t>(d)] = true;
    else if (text == "weekends") days[5] = days[6] = true;
    else {
        std::size_t start = 0;
        while (start <= text.size()) {
            const std::size_t comma = std::min(text.find(',', start), text.size());
            const std::string_view item = text.substr(start, comma - start);
            const std::size_t dash = item.find('-');
            const int first = day_index(item.substr(0, dash));
            const int last = dash == std::string_view::npos ? first : day_index(item.substr(dash + 1));
            for (int d = first;; d = (d + 1) % 7) {  // mon-fri, or fri-mon across the week's end
                days[static_cast<std::size_t>(d)] = true;
                if (d == last) break;
            }
            start = comma + 1;
        }
    }
    return days;
}

int parse_hour(std::string_view text) {
    int hour = -1;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), hour);
    if (text.empty() || text.size() > 2 || error != std::errc() || end != text.data() + text.size() || hour < 0 ||
        hour > 24)
        throw std::invalid_argument(fmt::format("expected an hour 00..24, got \"{}\"", text));
    return hour;
}

}  // namespace

const char* to_string(PowerState state) { return state_names[static_cast<std::size_t>(state)]; }

double UsageProfile::hours_per_month(PowerState state) const {
    double hours = 0.0;
    for (const auto& hour : share) hours += hour[static_cast<std::size_t>(state)];
    return hours * weeks_per_month;
}

UsageProfile spread_evenly(double training_hours_per_month, PowerState otherwise) {
    UsageProfile profile;
    const double training = training_hours_per_month / 730.0;
    for (auto& hour : profile.share) {
        hour[static_cast<std::size_t>(PowerState::training)] = training;
        hour[static_cast<std::size_t>(otherwise)] += 1.0 - training;
    }
    return profile;
}

ScheduleRule parse_schedule_rule(std::string_view rule) {
    std::istringstream words{std::string(rule)};
    std::string days, hours, state, extra;
    words >> days >> hours >> state;
    if (state.empty() || (words >> extra))
        throw std::invalid_argument(fmt::format("expected \"DAYS HH-HH STATE\" such as \"weekdays 09-18 training\", "
                                                "got \"{}\"", rule));
    ScheduleRule out;
    bool known_state = false;
    for (std::size_t s = 0; s < state_names.size(); ++s)
        if (state == state_names[s]) {
            out.state = static_cast<PowerState>(s);
            known_state = true;
        }
    if (!known_state)
        throw std::invalid_argument(fmt::format("unknown state \"{}\" (off, idle, training, rented)", state));
    const std::size_t dash = hours.find('-');
    if (dash == std::string::npos)
        throw std::invalid_argument(fmt::format("expected hours as HH-HH, got \"{}\"", hours));
    const int from = parse_hour(std::string_view(hours).substr(0, dash));
    const int to = parse_hour(std::string_view(hours).substr(dash + 1));
    if (from == to && !(from == 0 && to == 0))
        throw std::invalid_argument(fmt::format("the hours \"{}\" are empty", hours));
    const std::array<bool, 7> on_days = parse_days(days);
    for (int d = 0; d < 7; ++d) {
        if (!on_days[static_cast<std::size_t>(d)]) continue;
        // 22-06 covers 22, 23 of the day and 0-5 of the next; 00-24 and 00-00 the whole day.
        const int length = to > from ? to - from : to + 24 - from;
        for (int k = 0; k < length; ++k)
            out.hours[static_cast<std::size_t>((d * 24 + from + k) % hours_per_week)] = true;
    }
    return out;
}

UsageProfile parse_schedule(const std::vector<std::string>& rules, PowerState otherwise) {
    std::array<PowerState, hours_per_week> state;
    state.fill(otherwise);
    for (const auto& text : rules) {
        const ScheduleRule rule = parse_schedule_rule(text);
        for (int h = 0; h < hours_per_week; ++h)
            if (rule.hours[static_cast<std::size_t>(h)]) state[static_cast<std::size_t>(h)] = rule.state;
    }
    UsageProfile profile;
    for (int h = 0; h < hours_per_week; ++h)
        profile.share[static_cast<std::size_t>(h)][static_cast<std::size_t>(state[static_cast<std::size_t>(h)])] = 1.0;
    return profile;
}

}  // namespace payback
