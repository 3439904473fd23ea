// The batch engine's hot path (sample_state.hpp), compiled once per instruction set.
#include "whatif/sample_state.hpp"

namespace payback::PAYBACK_ISA_NAMESPACE {

namespace {

void lanes(const SampleState& state, const double* rows, Eigen::Index n, SampleMetrics& out, std::size_t offset) {
    store_metrics(evaluate(state.lanes<LaneBlock>(rows, n), false), out, offset, n);
}

void superposed(const SampleState& state, const double* rows, Eigen::Index n, SampleMetrics& out,
                std::size_t offset) {
    state.superposed(rows, n, out, offset);
}

}  // namespace

const BatchKernels& batch_kernels() {
    static constexpr BatchKernels kernels{&lanes, &superposed};
    return kernels;
}

}  // namespace payback::PAYBACK_ISA_NAMESPACE
