// What a cloud option bills for the owner's work in a month: the hours at its speed, stretched by
// spot interruptions, rounded up by its billing increment and minimum for the workload's job
// length, priced by its mode (a reservation is paid whether used or not), plus egress.
#pragma once

#include <optional>

#include "payback/market/cloud_option.hpp"

namespace payback {

struct CloudMonth {
    double instance_hours = 0;    ///< work / speedup, with spot's lost and repeated work
    double billed_hours = 0;      ///< after the billing increment and minimum
    double spend = 0;             ///< the month's bill at month-1 prices, egress included
    double effective_price_per_work_hour = 0;  ///< spend / hours of work; 0 without work
    /// Spot: the interruption rate at which this option stops beating on-demand (when the catalog
    /// or the scenario gives an on-demand price).
    std::optional<double> breakeven_interruptions_per_hour;
    /// Reserved: the share of the commitment that must be used for it to beat on-demand.
    std::optional<double> breakeven_utilization;
};

/// job_hours: one job's length on the rig, when the workload gives it (billing rounds each job up).
CloudMonth cloud_month(const CloudOption& cloud, double work_hours_per_month, std::optional<double> job_hours);

}  // namespace payback
