// When the rig is off, idle, training or rented out, hour by hour through an average week. The
// week is the unit of every energy sum: a payback month (730 h) holds each of its 168 hours
// 730 / 168 times, so a month's energy is a 168-term sum, never an 8,760-hour loop.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace payback {

enum class PowerState { off, idle, training, rented };
inline constexpr int power_states = 4;
const char* to_string(PowerState state);

inline constexpr int hours_per_week = 168;
/// How often each hour of the week occurs in a 730-hour month.
inline constexpr double weeks_per_month = 730.0 / 168.0;

/// The share of each hour of the week spent in each state (shares of an hour sum to 1).
/// Index: day × 24 + hour, day 0 = Monday ... 6 = Sunday.
struct UsageProfile {
    std::array<std::array<double, power_states>, hours_per_week> share{};

    double hours_per_month(PowerState state) const;
    double share_of(int week_hour, PowerState state) const {
        return share[static_cast<std::size_t>(week_hour)][static_cast<std::size_t>(state)];
    }
};

/// Training spread evenly over the week (the naive schedule): every hour trains
/// training_hours / 730 of the time and spends the rest in `otherwise`.
UsageProfile spread_evenly(double training_hours_per_month, PowerState otherwise);

/// A schedule written as rules, later rules overriding earlier ones, every other hour in `otherwise`:
///   "weekdays 09-18 training", "daily 22-06 rented", "sat,sun 00-24 off", "mon-thu 18-23 training".
/// Days: daily, weekdays, weekends, mon..sun, ranges (mon-fri) and lists (sat,sun). Hours: HH-HH from
/// 00 to 24, the end excluded, wrapping past midnight (22-06). States: off, idle, training, rented.
/// Throws std::invalid_argument with a message naming the rule's fault.
UsageProfile parse_schedule(const std::vector<std::string>& rules, PowerState otherwise);

/// One rule's days and hours as week-hour flags, and its state; throws std::invalid_argument.
struct ScheduleRule {
    std::array<bool, hours_per_week> hours{};
    PowerState state = PowerState::idle;
};
ScheduleRule parse_schedule_rule(std::string_view rule);

}  // namespace payback
