// Electricity tariffs: flat, tiered (block) and time-of-use, in the shape of OpenEI's Utility Rate
// Database (URDB) and NREL SAM: periods with tiers, chosen by a 12 × 24 month-hour matrix for weekdays
// and one for weekends. The rig's energy arrives as kWh per hour of an average week; a payback month
// (730 h) holds each week-hour 730 / 168 times, so every sum here is over 168 hours, never 8,760.
//
// Tiers are household tiers: their limits count the household's whole month, so the rig is priced at
// the margin above the household's own use (base_load_kwh_per_month). Fixed and minimum charges are
// not modelled: the rig does not change them.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "payback/energy/usage.hpp"  // hours_per_week (168), weeks_per_month (730 / 168)

namespace payback {

/// One block of a period's price: up to max_kwh of the month's energy (cumulative, counted over all
/// periods), the last tier has none. A max on the last tier is ignored: kWh above it stay at its rate.
struct Tier {
    std::optional<double> max_kwh;
    double rate;  ///< in the scenario currency per kWh
};

/// A time-of-use period ("peak", "off-peak") and its price blocks; at least one tier.
struct TouPeriod {
    std::string name;
    std::vector<Tier> tiers;
};

/// [calendar month 0..11][hour 0..23] -> period index.
using MonthHourMatrix = std::array<std::array<int, 24>, 12>;

struct Tariff {
    std::string name;
    std::vector<TouPeriod> periods;      ///< a flat tariff: one period with one tier
    MonthHourMatrix weekday{};           ///< Monday to Friday; all zeros for flat/tiered
    MonthHourMatrix weekend{};           ///< Saturday and Sunday; holidays are not modelled
    double base_load_kwh_per_month = 0;  ///< the household's own use, spread evenly over the hours
};

/// One period, one tier, every hour: `rate` per kWh.
Tariff flat_tariff(double rate);
/// One period with these blocks, every hour.
Tariff tiered_tariff(std::vector<Tier> tiers);

/// Throws InputError(source, 0, key path, message) for: no periods ("periods"), a period without
/// tiers ("periods[1].tiers"), a negative or non-finite rate ("periods[0].tiers[1].rate"), a tier max
/// that is not finite, not positive or not above the one before, or missing before the last tier
/// ("periods[0].tiers[0].max_kwh"), a matrix entry naming a missing period ("weekday[6][16]"), and a
/// negative or non-finite base load ("base_load_kwh_per_month").
void validate(const Tariff& tariff, const std::string& source);

/// Hours of a week: index = day × 24 + hour, day 0 = Monday ... 6 = Sunday (5, 6 are the weekend).
/// A payback month is 730 h: each hour of the week occurs 730 / 168 times in it.
/// kWh by period for one calendar month (1..12) from the kWh drawn in each hour of an average week:
/// result[p] = 730/168 × Σ kwh_per_week_hour[h] over the week-hours h in period p. The result has one
/// entry per period. std::invalid_argument for a month outside 1..12 or a matrix entry that names no
/// period (a tariff that has not been validated).
std::vector<double> kwh_by_period(const Tariff& t, int calendar_month,
                                  const std::array<double, hours_per_week>& kwh_per_week_hour);

/// The bill for one month's kWh by period. Tier limits count the month's total kWh over all periods (as
/// URDB's residential tiers do); each period's kWh is split over the tiers in the same proportions as
/// the total: with T = Σ kwh[p], bill = Σ_p kwh[p] / T × cost of T kWh at period p's tiers.
/// std::invalid_argument unless there is one finite, non-negative entry per period.
double bill(const Tariff& t, const std::vector<double>& kwh_by_period);

/// What the rig adds to the household's bill in a month: bill(base + rig) - bill(base), the base load
/// spread evenly over the month's hours and so over the periods by their share of hours in that calendar
/// month. Never negative when no period's tier rates fall as usage rises (flat or inclining blocks, as
/// residential tiers are); with declining blocks that differ between periods the proportional split can
/// make it dip below zero.
double incremental_bill(const Tariff& t, int calendar_month, const std::vector<double>& rig_kwh_by_period);

/// The marginal price of one more kWh in week-hour h (0..167) of a calendar month, given the month's
/// kWh so far over all periods (for scheduling; count the base load in it, as incremental_bill does):
/// the rate of the tier of h's period that the next kWh falls in (the first whose max exceeds the total).
/// Exactly the derivative of bill() when the tier steps are the same in every period (a baseline credit,
/// as PG&E's E-TOU-C has), otherwise the scheduling approximation. std::invalid_argument for a month,
/// hour or negative total out of range.
double marginal_rate(const Tariff& t, int calendar_month, int week_hour, double month_total_kwh);

/// Share of a calendar month's hours in each period (sums to 1): (5 × weekday hours + 2 × weekend
/// hours in the period) / 168, so that a constant draw lands in the periods in these proportions.
std::vector<double> period_hour_shares(const Tariff& t, int calendar_month);

}  // namespace payback
