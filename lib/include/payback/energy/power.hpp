// From the parts' DC watts to energy at the wall and its cost, for one calendar month: the PSU's
// losses (a fixed efficiency or an 80 PLUS curve), the energy to pump the heat out again, the usage
// profile of the week, and the tariff. Plain doubles: this runs once per month per scenario, before
// the generic engine, which sees only each month's kWh and cost.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "payback/energy/psu.hpp"
#include "payback/energy/tariff.hpp"
#include "payback/energy/usage.hpp"

namespace payback {

/// The rig's DC draw in each power state, for the parts held in some month.
struct StateWatts {
    std::array<double, power_states> dc{};
    double of(PowerState state) const { return dc[static_cast<std::size_t>(state)]; }
};

/// Wall watts from DC watts: a fixed efficiency, or an 80 PLUS curve at the actual load.
struct PowerSupply {
    std::optional<PsuSpec> curve;
    double fixed_efficiency = 1.0;
    double wall_watts(double dc_watts) const;
};

/// Energy to remove the rig's heat, as a share of its wall energy: a flat overhead, or an air
/// conditioner's coefficient of performance by calendar month (0: no cooling that month).
struct Cooling {
    double overhead_fraction = 0.0;
    std::array<double, 12> cop_by_month{};
    /// Cooling kWh per wall kWh in calendar month 1..12: overhead + 1 / COP (all wall energy ends up as heat).
    double factor(int calendar_month) const;
};

struct EnergyModel {
    UsageProfile usage;
    PowerSupply psu;
    Cooling cooling;
    Tariff tariff;
};

/// One month's energy and what it adds to the bill (before escalation).
struct MonthEnergy {
    double wall_kwh = 0;     ///< the rig, at the wall
    double cooling_kwh = 0;  ///< the cooling on top
    double cost = 0;         ///< incremental bill for both
    std::vector<double> kwh_by_period;  ///< wall + cooling kWh in each tariff period
};

/// kWh drawn (with cooling) in each hour of an average week.
std::array<double, hours_per_week> week_kwh(const EnergyModel& model, const UsageProfile& usage,
                                            int calendar_month, const StateWatts& watts);

MonthEnergy month_energy(const EnergyModel& model, const UsageProfile& usage, int calendar_month,
                         const StateWatts& watts);

/// Deferrable training: the same training hours moved to the cheapest hours of the week (never
/// into rented hours), per calendar month. The result never costs more than `usage`: when the
/// greedy placement would (tiers can make the marginal price move), `usage` itself is returned.
UsageProfile cheapest_schedule(const EnergyModel& model, const UsageProfile& usage, int calendar_month,
                               const StateWatts& watts, PowerState otherwise);

}  // namespace payback
