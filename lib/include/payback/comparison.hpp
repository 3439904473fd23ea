// The answer for one scenario: each option's cash flows and totals, the rig against each cloud
// option, and a one-line verdict. This is what `payback compare` and `payback cashflow` print.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "payback/cashflow.hpp"
#include "payback/scenario.hpp"

namespace payback {

struct OptionResult {
    std::string name;
    OptionKind kind;
    double total_cost;  ///< undiscounted, net of resale
    double npv_cost;    ///< present value of the costs, net of resale
    std::optional<double> cost_per_gpu_hour;  ///< total_cost per hour of the owner's work; none at 0 hours
    double energy_kwh;  ///< at the wall over the horizon (0 for cloud options)
};

struct VersusResult {
    std::string cloud;
    std::optional<double> payback_months;
    std::optional<double> payback_months_if_sold;
    std::optional<double> discounted_payback_months;
    double npv_savings;  ///< positive: building is cheaper in present value
    std::optional<double> breakeven_gpu_hours_per_month;
};

struct Comparison {
    std::vector<CashFlows> cashflows;  ///< the rig first, then each cloud option
    std::vector<OptionResult> options; ///< same order
    std::vector<VersusResult> versus;  ///< one per cloud option
    std::string verdict;
};

Comparison compare(const Scenario& scenario);

/// Only the cash-flow tables (the rig first, then each cloud option): no metrics, no break-even search.
std::vector<CashFlows> cash_flows(const Scenario& scenario);

/// The monthly training hours in [0, 730] at which NPV savings against cloud option `cloud`
/// are zero (a bracketed TOMS 748 root search); none when the sign does not change on [0, 730].
std::optional<double> breakeven_training_hours(const ModelInputs<double>& inputs, std::size_t cloud);

}  // namespace payback
