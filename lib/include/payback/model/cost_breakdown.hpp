// What each option's total cost is made of, in a few groups of line items (hardware less resale,
// electricity, upkeep, financing, tax, cloud, storage, renting out), and the one group that
// separates the rig from a cloud option most: the report's stacked bars and its "biggest reason".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "payback/model/comparison.hpp"

namespace payback {

/// One group's cost on every option over the horizon, undiscounted; costs positive, income
/// negative. An option's groups add up to its total_cost.
struct CostGroup {
    std::string name;                ///< "hardware less resale", "electricity", "cloud instances", ...
    std::vector<double> per_option;  ///< in Comparison::options order
};

/// The groups that are not zero on every option, in a fixed order.
std::vector<CostGroup> cost_breakdown(const Comparison& comparison);

/// The pair the answer is about: for each cloud option the better way to build (alone or renting
/// out), then the cloud option closest to beating it (the lowest NPV savings), as the verdict
/// picks it. An index into comparison.versus; none when there are no cloud options.
std::optional<std::size_t> headline_pair(const Comparison& comparison);

}  // namespace payback
