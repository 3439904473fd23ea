// The lanes evaluator (evaluator.hpp): a block of samples' inputs from the exact model's response
// to each key (base + Σ slope·δ + Σ cross·δδ, cloud bills that round recomputed per sample), run
// through the engine with a lane per sample. The blocks run the active instruction set's kernel
// (BatchKernels::lanes, sample_blocks.cpp).
#pragma once

#include "whatif/evaluator.hpp"

namespace payback {

class LanesEvaluator final : public Evaluator {
public:
    explicit LanesEvaluator(const SampleState& state) : state_(state) {}
    const char* name() const override { return "lanes"; }
    void evaluate(const double* rows, std::size_t begin, std::size_t end, SampleMetrics& out) const override;

private:
    const SampleState& state_;
};

}  // namespace payback
