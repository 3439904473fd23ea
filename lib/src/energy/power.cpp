#include "payback/energy/power.hpp"

#include <algorithm>
#include <numeric>

namespace payback {

double PowerSupply::wall_watts(double dc_watts) const {
    if (curve) return payback::wall_watts(*curve, dc_watts);
    return dc_watts / fixed_efficiency;
}

double Cooling::factor(int calendar_month) const {
    const double cop = cop_by_month[static_cast<std::size_t>(calendar_month - 1)];
    return overhead_fraction + (cop > 0.0 ? 1.0 / cop : 0.0);
}

std::array<double, hours_per_week> week_kwh(const EnergyModel& model, const UsageProfile& usage,
                                            int calendar_month, const StateWatts& watts) {
    std::array<double, power_states> wall_kw{};
    for (int s = 0; s < power_states; ++s)
        wall_kw[static_cast<std::size_t>(s)] = model.psu.wall_watts(watts.dc[static_cast<std::size_t>(s)]) / 1000.0;
    const double with_cooling = 1.0 + model.cooling.factor(calendar_month);
    std::array<double, hours_per_week> kwh{};
    for (int h = 0; h < hours_per_week; ++h) {
        double kw = 0.0;
        for (int s = 0; s < power_states; ++s)
            kw += usage.share_of(h, static_cast<PowerState>(s)) * wall_kw[static_cast<std::size_t>(s)];
        kwh[static_cast<std::size_t>(h)] = kw * with_cooling;  // one hour
    }
    return kwh;
}

MonthEnergy month_energy(const EnergyModel& model, const UsageProfile& usage, int calendar_month,
                         const StateWatts& watts) {
    MonthEnergy month;
    month.kwh_by_period = kwh_by_period(model.tariff, calendar_month, week_kwh(model, usage, calendar_month, watts));
    const double total = std::accumulate(month.kwh_by_period.begin(), month.kwh_by_period.end(), 0.0);
    const double cooling = model.cooling.factor(calendar_month);
    month.wall_kwh = total / (1.0 + cooling);
    month.cooling_kwh = total - month.wall_kwh;
    month.cost = incremental_bill(model.tariff, calendar_month, month.kwh_by_period);
    return month;
}

UsageProfile cheapest_schedule(const EnergyModel& model, const UsageProfile& usage, int calendar_month,
                               const StateWatts& watts, PowerState otherwise) {
    const auto training = static_cast<std::size_t>(PowerState::training);
    const auto rest = static_cast<std::size_t>(otherwise);
    // Training week-hours to place, and the hours that can take them (all but rented time).
    double to_place = 0.0;
    for (const auto& hour : usage.share) to_place += hour[training];
    UsageProfile moved = usage;
    for (auto& hour : moved.share) {
        const double flexible = hour[training] + hour[rest];
        hour[training] = 0.0;
        hour[rest] = flexible;
    }
    // The marginal tier depends on the whole household's use: the base load plus the rig (and its cooling).
    const MonthEnergy as_given = month_energy(model, usage, calendar_month, watts);
    const double month_kwh = as_given.wall_kwh + as_given.cooling_kwh + model.tariff.base_load_kwh_per_month;
    // Extra kWh of training instead of resting, priced at each hour's marginal rate.
    const double extra_kwh = (model.psu.wall_watts(watts.of(PowerState::training)) -
                              model.psu.wall_watts(watts.of(otherwise))) / 1000.0 *
                             (1.0 + model.cooling.factor(calendar_month));
    std::vector<int> order(hours_per_week);
    std::iota(order.begin(), order.end(), 0);
    std::vector<double> price(hours_per_week);
    for (int h = 0; h < hours_per_week; ++h)
        price[static_cast<std::size_t>(h)] = extra_kwh * marginal_rate(model.tariff, calendar_month, h, month_kwh);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
        return price[static_cast<std::size_t>(a)] < price[static_cast<std::size_t>(b)];
    });
    for (int h : order) {
        if (to_place <= 0.0) break;
        auto& hour = moved.share[static_cast<std::size_t>(h)];
        const double placed = std::min(to_place, hour[rest]);
        hour[training] += placed;
        hour[rest] -= placed;
        to_place -= placed;
    }
    const double naive = as_given.cost;
    const double cheaper = month_energy(model, moved, calendar_month, watts).cost;
    return cheaper <= naive ? moved : usage;
}

}  // namespace payback
