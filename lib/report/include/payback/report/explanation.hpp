// Why the answer is what it is, in sentences (`payback explain`): the verdict; what each side's money
// goes on, from the line items of its cash-flow table; and what would flip the answer, the break-evens
// of the main inputs nearest to their current values.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "payback/scenario/scenario.hpp"

namespace payback {

// nlohmann::json's default constructor is not declared noexcept (a null value allocates nothing).
struct Explanation {  // NOLINT(bugprone-exception-escape)
    std::vector<std::string> sentences;  ///< the verdict first
    nlohmann::json json;                 ///< the same with the figures behind them (explain --format json)
};

/// Against the cloud option named (the one closest to beating the rig when none is); throws InputError
/// for a name the scenario does not have.
Explanation explain(const Scenario& scenario, const std::optional<std::string>& against);

}  // namespace payback
