// The month-by-month model, written once and generic over its numeric type: `double` for one
// scenario, an Eigen array (lanes.hpp) for many samples at once. Inputs are plain numbers in one
// canonical unit each (suffixes say which); model_inputs() converts a unit-typed Scenario.
//
// Timing (conventions.hpp): capex at the start of month 1; energy, cloud spend and the sale of
// the rig at the end of their month. simulate() streams one month at a time to a sink, so the
// batch path keeps only the running sums its metrics need.
#pragma once

#include <vector>

#include "payback/conventions.hpp"
#include "payback/depreciation.hpp"
#include "payback/numeric.hpp"
#include "payback/scenario.hpp"

namespace payback {

template <class T>
struct PartInputs {
    T cost;  ///< price × count, in the scenario's currency
    ResaleCurve<T> resale;
};

template <class T>
struct CloudInputs {
    T price_per_hour;
    T speedup;  ///< throughput relative to the rig
};

template <class T>
struct ModelInputs {
    int horizon_months = 1;
    T discount_rate;        ///< annual, nominal
    T training_hours;       ///< per month, on the rig
    T idle_when_not_training;  ///< 1: idle watts outside training; 0: switched off
    T load_watts;           ///< DC, all parts × counts
    T idle_watts;           ///< DC, all parts × counts
    T psu_efficiency;
    T price_per_kwh;
    std::vector<PartInputs<T>> parts;
    std::vector<CloudInputs<T>> clouds;
};

/// The rig's line items for one month. Money in the scenario's currency, positive amounts.
template <class T>
struct RigMonth {
    T capex;               ///< spent at the start of the month
    T energy_kwh;          ///< at the wall
    T energy_cost;         ///< at the end of the month
    T resale;              ///< the sale of the rig: non-zero only at the horizon
    T asset_value_start;   ///< what the parts would sell for at the start of the month
    T asset_value_end;     ///< ... and at its end
};

/// One month of every option: the rig, and each cloud option's spend (end of month).
template <class T>
struct MonthFlows {
    int month;  ///< 1-based
    RigMonth<T> rig;
    std::vector<T> cloud_spend;
};

/// Converts a validated scenario to canonical plain numbers.
ModelInputs<double> model_inputs(const Scenario& scenario);

/// Present-value factor of a flow `months` after time 0, discounting monthly at (1+r)^(1/12).
template <class T>
T discount_factor(const T& annual_rate, double months) {
    return numeric_ops<T>::pow(1.0 + annual_rate, -months / conventions::months_per_year);
}

/// The parts' resale value at an age, summed.
template <class T>
T asset_value(const ModelInputs<T>& in, double age_months) {
    T total = numeric_ops<T>::fill_like(in.price_per_kwh, 0.0);  // zero, shaped like the lanes
    for (const auto& part : in.parts) total = total + part.cost * resale_fraction(part.resale, age_months);
    return total;
}

/// Runs the model month by month, handing each month's flows to `sink(const MonthFlows<T>&)`.
template <class T, class Sink>
void simulate(const ModelInputs<T>& in, Sink&& sink) {
    const T zero = numeric_ops<T>::fill_like(in.price_per_kwh, 0.0);
    T capex_total = zero;
    for (const auto& part : in.parts) capex_total = capex_total + part.cost;

    const T other_hours = conventions::hours_per_month - in.training_hours;
    const T dc_wh = in.load_watts * in.training_hours +
                    in.idle_when_not_training * in.idle_watts * other_hours;
    const T wall_kwh = dc_wh / 1000.0 / in.psu_efficiency;
    const T energy_cost = wall_kwh * in.price_per_kwh;

    MonthFlows<T> flows;
    flows.cloud_spend.resize(in.clouds.size(), zero);
    for (std::size_t c = 0; c < in.clouds.size(); ++c)
        flows.cloud_spend[c] = in.training_hours / in.clouds[c].speedup * in.clouds[c].price_per_hour;

    T value_start = asset_value(in, 0.0);
    for (int m = 1; m <= in.horizon_months; ++m) {
        const T value_end = asset_value(in, static_cast<double>(m));
        flows.month = m;
        flows.rig.capex = m == conventions::capex_month ? capex_total : zero;
        flows.rig.energy_kwh = wall_kwh;
        flows.rig.energy_cost = energy_cost;
        flows.rig.resale = m == in.horizon_months ? value_end : zero;
        flows.rig.asset_value_start = value_start;
        flows.rig.asset_value_end = value_end;
        sink(static_cast<const MonthFlows<T>&>(flows));
        value_start = value_end;
    }
}

}  // namespace payback
