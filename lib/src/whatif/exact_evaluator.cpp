#include "whatif/exact_evaluator.hpp"

#include <vector>

#include <fmt/format.h>

#include "payback/model/model_inputs.hpp"
#include "whatif/sample_state.hpp"

namespace payback {

ModelInputs<double> exact_inputs(const SampleState& state, const double* row) {
    std::vector<Override> overrides;
    for (std::size_t k = 0; k < state.keys.size(); ++k)
        overrides.push_back({state.keys[k], fmt::format("{:.17g}", row[k])});
    return model_inputs(parse_scenario(state.text, state.scenario.source, overrides, state.scenario.prices));
}

void ExactEvaluator::evaluate(const double* rows, std::size_t begin, std::size_t end, SampleMetrics& out) const {
    const std::size_t width = state_.keys.size();
    for (std::size_t s = begin; s < end; ++s)
        store_metrics(payback::evaluate(exact_inputs(state_, rows + s * width), false), out, s, 1);
}

}  // namespace payback
