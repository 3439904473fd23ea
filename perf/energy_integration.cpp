// Times the rig's energy model, which integrates each month from the 168 hours of an average week,
// against the obvious alternative, a loop over the 8,760 hours of a calendar year, on Venus with
// PG&E's E-TOU-C (a time-of-use URDB tariff). Run by hand: build/bin/energy_integration
#include <chrono>
#include <cstdio>

#include "payback/scenario/rig_energy.hpp"
#include "payback/scenario/scenario.hpp"

using namespace payback;

namespace {

// One year hour by hour on the 2025 calendar (January 1 was a Wednesday), 12 months of it.
double hourly_year_bill(const EnergyModel& model, const StateWatts& watts) {
    int day_of_week = 2;  // Monday = 0
    const int days_in[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    double total = 0.0;
    for (int month = 1; month <= 12; ++month) {
        std::vector<double> kwh(model.tariff.periods.size(), 0.0);
        const std::array<double, hours_per_week> week = week_kwh(model, model.usage, month, watts);
        for (int day = 0; day < days_in[month - 1]; ++day, day_of_week = (day_of_week + 1) % 7)
            for (int hour = 0; hour < 24; ++hour) {
                const auto& matrix = day_of_week >= 5 ? model.tariff.weekend : model.tariff.weekday;
                const int period = matrix[static_cast<std::size_t>(month - 1)][static_cast<std::size_t>(hour)];
                kwh[static_cast<std::size_t>(period)] += week[static_cast<std::size_t>(day_of_week * 24 + hour)];
            }
        total += incremental_bill(model.tariff, month, kwh);
    }
    return total;
}

template <class F>
double microseconds_per_call(F&& f, int calls) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < calls; ++i) f();
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count() / calls;
}

}  // namespace

int main() {
    const Scenario s = load_scenario(PAYBACK_SOURCE_DIR "/scenarios/venus-2019.toml",
                                     {{"electricity", "{ urdb = \"../pricing/tariffs/pge-e-tou-c.json\", "
                                                      "base_load_kwh_per_month = 500 }"},
                                      {"scenario.horizon_months", "12"}});
    const EnergyModel model = energy_model(s);
    const StateWatts watts = state_watts(s, 1);
    double weekly = 0.0, hourly = 0.0;
    const double week_us = microseconds_per_call([&] {
        weekly = 0.0;
        for (int month = 1; month <= 12; ++month) weekly += month_energy(model, model.usage, month, watts).cost;
    }, 2000);
    const double hour_us = microseconds_per_call([&] { hourly = hourly_year_bill(model, watts); }, 200);
    std::printf("a year's bill, Venus on E-TOU-C:\n");
    std::printf("  168-hour week x 12 months: %8.1f us  $%.2f (730-hour months: 8,760 h)\n", week_us, weekly);
    std::printf("  8,760-hour calendar loop:  %8.1f us  $%.2f (2025 calendar)\n", hour_us, hourly);
    std::printf("  speed-up %.1fx; bills differ by %.2f %% (weekday counts of real months)\n", hour_us / week_us,
                100.0 * (weekly - hourly) / hourly);
}
