#include "payback/model/rig_report.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "payback/market/cloud_cost.hpp"

namespace payback {

namespace {

// The GPUs' share of the peak: for "how many of these GPUs fit on the circuit".
double gpu_wall_watts(const Scenario& s, const RigEnergy& energy, int& gpus) {
    double gpu_dc = 0.0;
    gpus = 0;
    for (const Part& part : s.rig.parts) {
        if (part.kind != PartKind::gpu) continue;
        gpus += part.count;
        const double load = units::in_watts(part.load_power);
        gpu_dc += part.count * (part.power_limit ? std::min(load, units::in_watts(*part.power_limit)) : load);
    }
    if (gpus == 0 || energy.peak_dc_watts <= 0) return 0.0;
    return gpu_dc / gpus * (energy.peak_wall_watts / energy.peak_dc_watts);  // at the peak's PSU efficiency
}

}  // namespace

RigReport rig_report(const Scenario& s, const RigEnergy& energy) {
    RigReport r;
    r.peak_wall_watts = energy.peak_wall_watts;
    // Without a PSU table saying the mains voltage, guess it from the currency: 230 V outside North America.
    const bool north_american = s.currency == "USD" || s.currency == "CAD" || s.currency == "MXN";
    const double mains = s.rig.psu ? s.rig.psu->mains_volts : (north_american ? 120.0 : 230.0);
    r.circuit = s.rig.circuit.value_or(default_circuit(mains));
    const double per_gpu = gpu_wall_watts(s, energy, r.gpus);
    r.circuit_check = check_circuit(r.circuit, r.peak_wall_watts, r.peak_wall_watts - per_gpu * r.gpus, per_gpu);
    for (int state = 0; state < power_states; ++state) {
        const auto i = static_cast<std::size_t>(state);
        r.heat_watts[i] = energy.wall_watts_by_state[i];
        r.heat_btu_per_hour[i] = btu_per_hour(r.heat_watts[i]);
    }
    r.energy_kwh_by_month = energy.wall_kwh;
    const double total = std::accumulate(energy.wall_kwh.begin(), energy.wall_kwh.end(), 0.0);
    r.energy_kwh_per_month = energy.wall_kwh.empty() ? 0.0 : total / static_cast<double>(energy.wall_kwh.size());
    for (std::size_t p = 0; p < energy.period_names.size(); ++p)
        r.energy_kwh_by_period.emplace_back(energy.period_names[p], energy.kwh_by_period[p]);
    r.co2_kg_total = total * s.grid_co2_kg_per_kwh;
    r.rig_hours_per_month = energy.rig_hours_per_month;
    r.work_hours_per_month = energy.work_hours_per_month;
    r.rented_hours_per_month = energy.rented_hours_per_month;
    r.throughput_factor = energy.throughput_factor;
    if (s.deferrable_training) {
        double naive = 0.0, scheduled = 0.0;
        for (std::size_t m = 0; m < energy.cost.size(); ++m) {
            const double escalation = std::pow(1.0 + s.electricity_escalation, static_cast<double>(m / 12));
            naive += energy.naive_cost[m] * escalation;
            scheduled += energy.cost[m] * escalation;
        }
        r.naive_energy_cost = naive;
        r.scheduled_energy_cost = scheduled;
    }
    return r;
}

double cloud_co2_kg(const Scenario& s, const CloudOption& cloud, double work_hours_per_month) {
    // The instance's hours, spot's repeated work included.
    const double hours = cloud_month(cloud, work_hours_per_month, s.job_hours).instance_hours * s.horizon_months;
    return hours * units::in_watts(cloud.power) / 1000.0 * cloud.pue * cloud.co2_kg_per_kwh;
}

}  // namespace payback
