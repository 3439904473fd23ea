#include "payback/scenario/rig_energy.hpp"

#include <algorithm>

#include "payback/base/calendar.hpp"
#include "payback/energy/power_limit.hpp"

namespace payback {

namespace {

bool held(const Part& part, int month, int horizon) {
    return month >= part.purchase_month && month <= std::min(part.retire_month.value_or(horizon), horizon);
}

// Per unit: a power limit caps what the part draws while it works.
double capped(const Part& part, double watts) {
    return part.power_limit ? std::min(watts, units::in_watts(*part.power_limit)) : watts;
}

// The GPUs' throughput under their power limits, averaged over the GPU units (1 without limits).
double throughput_factor(const Scenario& s) {
    double units_total = 0.0, throughput = 0.0;
    for (const Part& part : s.rig.parts) {
        if (part.kind != PartKind::gpu) continue;
        const double board = units::in_watts(part.load_power);
        const double factor = part.power_limit && board > 0
                                  ? power_limited_throughput(units::in_watts(*part.power_limit), board)
                                  : 1.0;
        units_total += part.count;
        throughput += factor * part.count;
    }
    return units_total > 0 ? throughput / units_total : 1.0;
}

PowerState otherwise_state(const Scenario& s) {
    return s.rig.when_not_training == WhenNotTraining::idle ? PowerState::idle : PowerState::off;
}

}  // namespace

int calendar_month_of(const Scenario& s, int month) {
    return month_of_year(s.start ? parse_date(*s.start) : std::nullopt, month);
}

StateWatts state_watts(const Scenario& s, int month) {
    StateWatts watts;
    for (const Part& part : s.rig.parts) {
        if (!held(part, month, s.horizon_months)) continue;
        const double n = part.count;
        watts.dc[static_cast<std::size_t>(PowerState::off)] += n * units::in_watts(part.off_power);
        watts.dc[static_cast<std::size_t>(PowerState::idle)] += n * units::in_watts(part.idle_power);
        watts.dc[static_cast<std::size_t>(PowerState::training)] += n * capped(part, units::in_watts(part.load_power));
        watts.dc[static_cast<std::size_t>(PowerState::rented)] +=
            n * capped(part, units::in_watts(part.rented_power.value_or(part.load_power)));
    }
    return watts;
}

EnergyModel energy_model(const Scenario& s) {
    EnergyModel model;
    model.psu.curve = s.rig.psu;
    model.psu.fixed_efficiency = s.rig.psu_efficiency;
    model.cooling = s.rig.cooling;
    model.tariff = s.tariff;
    const double factor = throughput_factor(s);
    if (s.rig.schedule.empty())
        model.usage = spread_evenly(units::in_hours(s.training_per_month) / factor + s.serving_hours_per_month,
                                    otherwise_state(s));  // serving draws the load watts too
    else
        model.usage = parse_schedule(s.rig.schedule, otherwise_state(s));  // validated by the parser
    // Renting: the hours offered (the schedule's rented hours, or every hour not trained) are rented
    // at the occupancy and idle the rest of the time.
    const auto rented = static_cast<std::size_t>(PowerState::rented);
    const auto idle = static_cast<std::size_t>(PowerState::idle);
    const auto rest = static_cast<std::size_t>(otherwise_state(s));
    for (auto& hour : model.usage.share) {
        double offered = hour[rented];
        if (s.rental && s.rig.schedule.empty()) {
            offered = hour[rest];
            hour[rest] = 0.0;
        }
        hour[rented] = 0.0;
        const double occupancy = s.rental ? s.rental->terms.occupancy : (s.rig.rented_hours_idle ? 0.0 : 1.0);
        hour[rented] += offered * occupancy;
        hour[idle] += offered * (1.0 - occupancy);
    }
    return model;
}

// The hours a week a scenario offers for rent: a schedule's rented hours, or all hours not trained.
static double offered_hours_per_month(const Scenario& s, const EnergyModel& model) {
    if (!s.rental) return 0.0;
    return s.rental->terms.occupancy > 0
               ? model.usage.hours_per_month(PowerState::rented) / s.rental->terms.occupancy
               : 730.0 - model.usage.hours_per_month(PowerState::training);
}

RigEnergy rig_energy(const Scenario& s) {
    const EnergyModel model = energy_model(s);
    RigEnergy out;
    for (const auto& period : model.tariff.periods) out.period_names.push_back(period.name);
    out.kwh_by_period.assign(model.tariff.periods.size(), 0.0);
    out.throughput_factor = throughput_factor(s);
    out.rig_hours_per_month = model.usage.hours_per_month(PowerState::training);
    // Without a schedule the work is what the workload says, exactly; with one, what its hours do.
    out.work_hours_per_month = s.rig.schedule.empty() ? units::in_hours(s.training_per_month)
                                                      : out.rig_hours_per_month * out.throughput_factor;
    out.rented_hours_per_month = model.usage.hours_per_month(PowerState::rented);
    const double offered_hours = offered_hours_per_month(s, model);
    // The states the week uses (training always counts): the peak is the most any of them draws.
    std::array<bool, power_states> used{};
    used[static_cast<std::size_t>(PowerState::training)] = true;
    for (int state = 0; state < power_states; ++state)
        for (int h = 0; h < hours_per_week; ++h)
            if (model.usage.share_of(h, static_cast<PowerState>(state)) > 0) used[static_cast<std::size_t>(state)] = true;
    for (int m = 1; m <= s.horizon_months; ++m) {
        const int calendar = calendar_month_of(s, m);
        const StateWatts watts = state_watts(s, m);
        const MonthEnergy naive = month_energy(model, model.usage, calendar, watts);
        MonthEnergy month = naive;
        if (s.deferrable_training)
            month = month_energy(model, cheapest_schedule(model, model.usage, calendar, watts, otherwise_state(s)),
                                 calendar, watts);
        out.calendar_month.push_back(calendar);
        int gpus = 0;
        for (const Part& part : s.rig.parts)
            if (part.kind == PartKind::gpu && held(part, m, s.horizon_months)) gpus += part.count;
        out.gpus_held.push_back(gpus);
        out.rentable_gpu_hours.push_back(gpus * offered_hours);
        out.wall_kwh.push_back(month.wall_kwh + month.cooling_kwh);
        out.cooling_kwh.push_back(month.cooling_kwh);
        out.cost.push_back(month.cost);
        out.naive_cost.push_back(naive.cost);
        for (std::size_t p = 0; p < month.kwh_by_period.size(); ++p) out.kwh_by_period[p] += month.kwh_by_period[p];
        for (int state = 0; state < power_states; ++state) {
            const double dc = watts.dc[static_cast<std::size_t>(state)];
            const double wall = model.psu.wall_watts(dc);
            auto& most = out.wall_watts_by_state[static_cast<std::size_t>(state)];
            most = std::max(most, wall);
            if (used[static_cast<std::size_t>(state)] && wall > out.peak_wall_watts) {
                out.peak_wall_watts = wall;
                out.peak_dc_watts = dc;
            }
        }
    }
    return out;
}

}  // namespace payback
