// JSON views of results (nlohmann-json). Absent metrics are null, never NaN.
#pragma once

#include <nlohmann/json.hpp>

#include "payback/model/comparison.hpp"

namespace payback {

nlohmann::json comparison_json(const Scenario& scenario, const Comparison& comparison);
nlohmann::json cashflow_json(const CashFlows& table);

}  // namespace payback
