// The superposed evaluator (evaluator.hpp): a block of samples' metrics from the engine's outputs at
// probe points (superposition.hpp), with the payback searches of gap_search.hpp; a part's sale and a
// cloud bill that rounds are computed per sample. The blocks run the active instruction set's kernel
// (BatchKernels::superposed, sample_blocks.cpp).
#pragma once

#include "payback/model/engine.hpp"
#include "whatif/evaluator.hpp"

namespace payback {

class SuperposedEvaluator final : public Evaluator {
public:
    /// `state` must hold a Superposition.
    explicit SuperposedEvaluator(const SampleState& state) : state_(state) {}
    const char* name() const override { return "superposed"; }
    void evaluate(const double* rows, std::size_t begin, std::size_t end, SampleMetrics& out) const override;

    /// Whether it gives the exact model's metrics (within 1e-9) for `row`, whose exact inputs are
    /// `exact`: SampleModel::verify asks at its check rows.
    bool agrees(const double* row, const ModelInputs<double>& exact) const;

private:
    const SampleState& state_;
};

}  // namespace payback
