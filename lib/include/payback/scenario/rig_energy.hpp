// The rig's energy month by month over the horizon: which parts are held, how they are used
// through the week, what the PSU loses, what cooling adds, and what the tariff charges for it.
// model_inputs() takes each month's kWh and cost from here; compare() reports the rest.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "payback/energy/power.hpp"
#include "payback/scenario/scenario.hpp"

namespace payback {

struct RigEnergy {
    std::vector<std::string> period_names;  ///< the tariff's periods
    // Per horizon month.
    std::vector<double> wall_kwh;       ///< the rig and its cooling, at the wall
    std::vector<double> cooling_kwh;    ///< of which cooling
    std::vector<double> cost;           ///< incremental bill, before escalation
    std::vector<double> naive_cost;     ///< the same with the schedule as given (differs when deferrable)
    std::vector<int> calendar_month;    ///< 1..12
    /// kWh in each tariff period summed over the horizon.
    std::vector<double> kwh_by_period;
    double rig_hours_per_month = 0;     ///< training hours on the rig (more under a power limit)
    double work_hours_per_month = 0;    ///< the work those hours do, in hours of the stock rig
    double rented_hours_per_month = 0;  ///< hours rented out (offered × occupancy)
    std::vector<double> rentable_gpu_hours;  ///< per horizon month: GPUs held × hours offered for rent
    std::vector<int> gpus_held;              ///< per horizon month
    double throughput_factor = 1.0;     ///< the GPUs' throughput under their power limits, 1 without
    std::array<double, power_states> wall_watts_by_state{};  ///< the most in each state over the months, no cooling
    double peak_wall_watts = 0;         ///< the most in any state the week uses (training always counts)
    double peak_dc_watts = 0;           ///< the DC draw behind that peak
};

/// The model of the week, PSU, cooling and tariff a scenario describes.
EnergyModel energy_model(const Scenario& s);

/// The parts held in horizon month m and their DC watts in each state (power limits applied).
StateWatts state_watts(const Scenario& s, int month);

/// Calendar month (1..12) of horizon month m: from scenario.start, January when it has none.
int calendar_month_of(const Scenario& s, int month);

RigEnergy rig_energy(const Scenario& s);

}  // namespace payback
