// The answer for one scenario: each option's cash flows and totals, and the rig against each cloud
// option. This is what `payback compare` and `payback cashflow` print (its verdict in words is
// payback/report/verdict.hpp's).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "payback/market/cloud_cost.hpp"
#include "payback/model/cashflow.hpp"
#include "payback/model/rig_report.hpp"
#include "payback/scenario/scenario.hpp"
#include "payback/workload/rig_scaling.hpp"

namespace payback {

/// What one run of the scenario's job costs on an option (docs/benchmark.md): the option's total
/// cost over the horizon (net of resale and, for the rig renting out, of rental income) spread over
/// every run in the horizon.
struct JobCosts {
    double samples_per_second = 0;   ///< the whole option: the rig's GPUs, or the instance's
    std::string throughput_origin;   ///< measured, mapped (with its expected error) or given
    double hours_per_run = 0;        ///< on the rig (power limits included) or on the instance
    double cost_per_run = 0;
    double cost_per_epoch = 0;
    double cost_per_million_samples = 0;
    std::optional<double> kwh_per_run;  ///< none for a cloud option whose draw is unknown
};

/// What serving the scenario's workload.tokens costs on an option (docs/inference.md): the option's
/// total cost over the horizon spread over every token it serves there.
struct TokenCosts {
    std::optional<double> tokens_per_second;          ///< decode (output) rate; none for an API
    std::optional<double> prefill_tokens_per_second;  ///< none for an API
    std::string tokens_per_second_origin;  ///< the rates given by hand, or predicted with the expected error; empty for an API
    std::optional<double> serving_hours_per_month;    ///< none for an API
    double cost_per_million_tokens = 0;               ///< total_cost / tokens over the horizon × 10^6
    /// total_cost split by the serving time (the rig, an instance) or the bill (an API) input and
    /// output take, per million of each; none without tokens of that kind.
    std::optional<double> cost_per_million_input_tokens;
    std::optional<double> cost_per_million_output_tokens;
    std::optional<double> joules_per_token;           ///< at the wall (a cloud's with its PUE); none when the draw is unknown
    std::optional<double> co2_g_per_million_tokens;   ///< none without the grid's intensity
};

struct OptionResult {
    std::string name;
    OptionKind kind;
    double total_cost;  ///< undiscounted, net of resale
    double npv_cost;    ///< present value of the costs, net of resale
    double npv;         ///< the signed NPV of the option's cash flows: -npv_cost
    std::optional<double> cost_per_gpu_hour;  ///< total_cost per hour of the owner's work; none at 0 hours
    /// npv_cost per discounted hour of the owner's work (the LCOE analogue); none at 0 hours.
    std::optional<double> levelized_cost_per_gpu_hour;
    double energy_kwh;  ///< at the wall over the horizon (0 for cloud options)
    double co2_kg_total = 0.0;  ///< over the horizon; 0 when the grid's intensity (or the instance's draw) is not given
    /// The rig's kWh in each tariff period over the horizon; empty for cloud options.
    std::vector<std::pair<std::string, double>> energy_kwh_by_period;
    /// A cloud option's month as billed (hours, billing, spot and reservation break-evens).
    std::optional<CloudMonth> billing;
    std::optional<JobCosts> job;  ///< with a [workload] job that runs at least once a month
    std::optional<TokenCosts> tokens;  ///< with [workload] tokens
};

struct VersusResult {
    std::string rig;    ///< the diy option: the rig alone, or "<rig> + rental"
    std::string cloud;
    std::optional<double> payback_months;
    std::optional<double> payback_months_if_sold;
    std::optional<double> discounted_payback_months;
    double npv_savings;  ///< positive: building is cheaper in present value
    std::optional<double> roi;  ///< undiscounted savings over the horizon / capex; none without capex
    /// The IRR of building instead of renting, annual effective; none unless irr_status is "ok".
    std::optional<double> irr;
    std::string irr_status;         ///< ok, no_sign_change, multiple_roots, not_converged
    std::vector<double> irr_roots;  ///< every root found, annual effective, ascending
    int optimal_sale_month = 0;     ///< selling the rig at this month's end (then renting) maximizes NPV savings
    double optimal_sale_npv_savings = 0.0;  ///< the NPV savings when selling then
    std::optional<double> breakeven_gpu_hours_per_month;
};

struct Comparison {
    RigReport rig;                     ///< the rig as hardware: power, circuit, heat, energy, carbon
    RigScaling scaling;                ///< how its GPUs train together
    /// The rig first (then the rig renting out, when the scenario has a rental market), then each cloud option.
    std::vector<CashFlows> cashflows;
    std::vector<OptionResult> options; ///< same order
    std::vector<VersusResult> versus;  ///< one per cloud option
};

Comparison compare(const Scenario& scenario);

/// Only the cash-flow tables (the rig first, then each cloud option): no metrics, no break-even search.
std::vector<CashFlows> cash_flows(const Scenario& scenario);

/// The monthly training hours in [0, 730] at which NPV savings against cloud option `cloud`
/// are zero (a bracketed TOMS 748 root search); none when the sign does not change on [0, 730],
/// and none when a usage schedule fixes the hours.
std::optional<double> breakeven_training_hours(const Scenario& scenario, std::size_t cloud);

}  // namespace payback
