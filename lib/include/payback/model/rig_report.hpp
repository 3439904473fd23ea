// What the rig is as hardware, beside the money: its peak draw against the circuit it is plugged
// into, the heat it puts in the room, its energy by tariff period, its emissions, and what moving
// deferrable training to cheap hours saves.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "payback/energy/circuit.hpp"
#include "payback/scenario/rig_energy.hpp"
#include "payback/scenario/scenario.hpp"

namespace payback {

struct RigReport {
    double peak_wall_watts = 0;  ///< the most the rig draws at the wall, cooling not included
    Circuit circuit;             ///< as given, or the usual one for the mains voltage
    CircuitCheck circuit_check;
    std::array<double, power_states> heat_watts{};  ///< by state: every wall watt ends up as heat
    std::array<double, power_states> heat_btu_per_hour{};
    double energy_kwh_per_month = 0;            ///< mean over the horizon, cooling included
    std::vector<double> energy_kwh_by_month;    ///< per horizon month
    std::vector<std::pair<std::string, double>> energy_kwh_by_period;  ///< over the horizon
    double co2_kg_total = 0;                    ///< over the horizon; 0 when the grid's intensity is not given
    double rig_hours_per_month = 0;
    double work_hours_per_month = 0;
    double rented_hours_per_month = 0;
    double throughput_factor = 1.0;
    /// Deferrable training: the bill with the schedule as given and as moved, over the horizon
    /// (undiscounted, escalated), and the saving (never negative).
    std::optional<double> naive_energy_cost;
    std::optional<double> scheduled_energy_cost;
    int gpus = 0;
    double scaling_efficiency = 1.0;  ///< data-parallel efficiency of the rig's GPUs (scaling.hpp)
};

RigReport rig_report(const Scenario& s, const RigEnergy& energy);

/// A cloud option's emissions over the horizon: its hours × draw × PUE × grid intensity.
double cloud_co2_kg(const Scenario& s, const CloudOption& cloud, double work_hours_per_month);

}  // namespace payback
