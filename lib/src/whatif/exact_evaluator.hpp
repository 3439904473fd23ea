// The exact evaluator (evaluator.hpp): each sample's scenario parsed again with its keys set, as
// `--set` would set them, and run through the scalar engine alone.
#pragma once

#include "payback/model/engine.hpp"
#include "whatif/evaluator.hpp"

namespace payback {

/// The inputs of the exact model at `row` (the state's keys wide): the scenario parsed with its
/// keys set as `--set` would set them (17 significant digits).
ModelInputs<double> exact_inputs(const SampleState& state, const double* row);

class ExactEvaluator final : public Evaluator {
public:
    explicit ExactEvaluator(const SampleState& state) : state_(state) {}
    const char* name() const override { return "exact"; }
    void evaluate(const double* rows, std::size_t begin, std::size_t end, SampleMetrics& out) const override;

private:
    const SampleState& state_;
};

}  // namespace payback
