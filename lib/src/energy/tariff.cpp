#include "payback/energy/tariff.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "payback/base/error.hpp"

namespace payback {

namespace {

void check_month(int calendar_month) {
    if (calendar_month < 1 || calendar_month > 12)
        throw std::invalid_argument(fmt::format("calendar month {} is not 1..12", calendar_month));
}

// The period of week-hour h (0..167) in a calendar month (1..12), checked against the period list.
std::size_t period_at(const Tariff& t, int calendar_month, int week_hour) {
    const int day = week_hour / 24;
    const int hour = week_hour % 24;
    const MonthHourMatrix& matrix = day >= 5 ? t.weekend : t.weekday;
    const int p = matrix[static_cast<std::size_t>(calendar_month - 1)][static_cast<std::size_t>(hour)];
    if (p < 0 || static_cast<std::size_t>(p) >= t.periods.size())
        throw std::invalid_argument(
            fmt::format("tariff '{}': month {} hour {} names period {}, but it has {}", t.name,
                        calendar_month, hour, p, t.periods.size()));
    return static_cast<std::size_t>(p);
}

// The cost of `total` kWh priced at one period's blocks alone; the last tier takes whatever is left.
double cost_at_tiers(const std::vector<Tier>& tiers, double total) {
    double cost = 0;
    double below = 0;  // kWh already priced by earlier tiers
    for (std::size_t i = 0; i < tiers.size(); ++i) {
        const bool last = i + 1 == tiers.size();
        const double top = last || !tiers[i].max_kwh ? total : std::min(total, *tiers[i].max_kwh);
        if (top > below) {
            cost += (top - below) * tiers[i].rate;
            below = top;
        }
        if (below >= total) break;
    }
    return cost;
}

}  // namespace

Tariff flat_tariff(double rate) { return tiered_tariff({Tier{std::nullopt, rate}}); }

Tariff tiered_tariff(std::vector<Tier> tiers) {
    Tariff t;
    t.name = tiers.size() == 1 ? "flat" : "tiered";
    t.periods.push_back(TouPeriod{"all hours", std::move(tiers)});
    return t;
}

void validate(const Tariff& tariff, const std::string& source) {
    if (tariff.periods.empty()) throw InputError(source, 0, "periods", "a tariff needs at least one period");
    for (std::size_t p = 0; p < tariff.periods.size(); ++p) {
        const std::vector<Tier>& tiers = tariff.periods[p].tiers;
        const std::string where = fmt::format("periods[{}]", p);
        if (tiers.empty()) throw InputError(source, 0, where + ".tiers", "a period needs at least one tier");
        double previous_max = 0;
        for (std::size_t i = 0; i < tiers.size(); ++i) {
            const std::string tier = fmt::format("{}.tiers[{}]", where, i);
            const double rate = tiers[i].rate;
            if (!std::isfinite(rate) || rate < 0)
                throw InputError(source, 0, tier + ".rate",
                                 fmt::format("expected a finite rate >= 0 per kWh, got {}", rate));
            const bool last = i + 1 == tiers.size();
            if (!tiers[i].max_kwh) {
                if (!last)
                    throw InputError(source, 0, tier + ".max_kwh",
                                     "only the last tier may be open-ended; this one needs a max");
                continue;
            }
            const double max = *tiers[i].max_kwh;
            if (!std::isfinite(max) || max <= previous_max)
                throw InputError(source, 0, tier + ".max_kwh",
                                 i == 0
                                     ? fmt::format("expected a finite max > 0 kWh, got {}", max)
                                     : fmt::format("expected a finite max above the previous tier's {} kWh, "
                                                   "got {}",
                                                   previous_max, max));
            previous_max = max;
        }
    }
    const auto check_matrix = [&](const MonthHourMatrix& matrix, const char* name) {
        for (std::size_t m = 0; m < 12; ++m)
            for (std::size_t h = 0; h < 24; ++h) {
                const int p = matrix[m][h];
                if (p < 0 || static_cast<std::size_t>(p) >= tariff.periods.size())
                    throw InputError(source, 0, fmt::format("{}[{}][{}]", name, m, h),
                                     fmt::format("names period {}, but the periods are 0..{}", p,
                                                 tariff.periods.size() - 1));
            }
    };
    check_matrix(tariff.weekday, "weekday");
    check_matrix(tariff.weekend, "weekend");
    const double base = tariff.base_load_kwh_per_month;
    if (!std::isfinite(base) || base < 0)
        throw InputError(source, 0, "base_load_kwh_per_month",
                         fmt::format("expected a finite kWh >= 0, got {}", base));
}

std::vector<double> kwh_by_period(const Tariff& t, int calendar_month,
                                  const std::array<double, hours_per_week>& kwh_per_week_hour) {
    check_month(calendar_month);
    std::vector<double> sums(t.periods.size(), 0.0);
    for (int h = 0; h < hours_per_week; ++h)
        sums[period_at(t, calendar_month, h)] += kwh_per_week_hour[static_cast<std::size_t>(h)];
    for (double& kwh : sums) kwh *= weeks_per_month;
    return sums;
}

double bill(const Tariff& t, const std::vector<double>& kwh_by_period) {
    if (kwh_by_period.size() != t.periods.size())
        throw std::invalid_argument(fmt::format("tariff '{}' has {} periods, got kWh for {}", t.name,
                                                t.periods.size(), kwh_by_period.size()));
    double total = 0;
    for (const double kwh : kwh_by_period) {
        if (!std::isfinite(kwh) || kwh < 0)
            throw std::invalid_argument(fmt::format("kWh by period must be finite and >= 0, got {}", kwh));
        total += kwh;
    }
    if (total <= 0) return 0.0;
    double sum = 0;
    for (std::size_t p = 0; p < t.periods.size(); ++p)
        if (kwh_by_period[p] > 0) sum += kwh_by_period[p] / total * cost_at_tiers(t.periods[p].tiers, total);
    return sum;
}

std::vector<double> period_hour_shares(const Tariff& t, int calendar_month) {
    check_month(calendar_month);
    std::vector<double> shares(t.periods.size(), 0.0);
    for (int h = 0; h < hours_per_week; ++h) shares[period_at(t, calendar_month, h)] += 1.0 / hours_per_week;
    return shares;
}

double incremental_bill(const Tariff& t, int calendar_month, const std::vector<double>& rig_kwh_by_period) {
    if (rig_kwh_by_period.size() != t.periods.size())
        throw std::invalid_argument(fmt::format("tariff '{}' has {} periods, got rig kWh for {}", t.name,
                                                t.periods.size(), rig_kwh_by_period.size()));
    std::vector<double> base = period_hour_shares(t, calendar_month);
    for (double& kwh : base) kwh *= t.base_load_kwh_per_month;
    std::vector<double> with_rig = base;
    for (std::size_t p = 0; p < with_rig.size(); ++p) with_rig[p] += rig_kwh_by_period[p];
    return bill(t, with_rig) - bill(t, base);
}

double marginal_rate(const Tariff& t, int calendar_month, int week_hour, double month_total_kwh) {
    check_month(calendar_month);
    if (week_hour < 0 || week_hour >= hours_per_week)
        throw std::invalid_argument(fmt::format("week hour {} is not 0..167", week_hour));
    if (!std::isfinite(month_total_kwh) || month_total_kwh < 0)
        throw std::invalid_argument(
            fmt::format("month total {} kWh is not finite and >= 0", month_total_kwh));
    const std::vector<Tier>& tiers = t.periods[period_at(t, calendar_month, week_hour)].tiers;
    if (tiers.empty())
        throw std::invalid_argument(fmt::format("tariff '{}' has a period without tiers", t.name));
    for (std::size_t i = 0; i + 1 < tiers.size(); ++i)
        if (!tiers[i].max_kwh || month_total_kwh < *tiers[i].max_kwh) return tiers[i].rate;
    return tiers.back().rate;
}

}  // namespace payback
