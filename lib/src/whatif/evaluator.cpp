#include "whatif/evaluator.hpp"

#include "whatif/exact_evaluator.hpp"
#include "whatif/lanes_evaluator.hpp"
#include "whatif/sample_state.hpp"
#include "whatif/superposed_evaluator.hpp"

namespace payback {

EvaluatorChoice choose_evaluator(const SampleState& state, bool superpose) {
    // The reasons' words are montecarlo --json's "path": kept as they were, byte for byte.
    if (!state.not_lanes.empty())
        return {std::make_unique<ExactEvaluator>(state), "exact: every sample parsed and run alone (" + state.not_lanes + ")"};
    const std::string lanes = "fast: lanes of samples, from the exact model's response to each key";
    if (!state.not_superposed.empty())
        return {std::make_unique<LanesEvaluator>(state), lanes + " (not superposed: " + state.not_superposed + ")"};
    if (!state.superposition) return {std::make_unique<LanesEvaluator>(state), lanes};
    if (!superpose) return {std::make_unique<LanesEvaluator>(state), lanes + " (not superposed: asked for lanes)"};
    return {std::make_unique<SuperposedEvaluator>(state), "fast: superposed from the exact model's outputs at probe points"};
}

}  // namespace payback
