#include "whatif/lanes_evaluator.hpp"

#include "whatif/sample_state.hpp"

namespace payback {

void LanesEvaluator::evaluate(const double* rows, std::size_t begin, std::size_t end, SampleMetrics& out) const {
    const std::size_t width = state_.keys.size();
    const BatchKernels& kernels = batch_kernels();  // the active instruction set's (resolved on first use)
    for_each_block(begin, end, [&](std::size_t s, Eigen::Index n) { kernels.lanes(state_, rows + s * width, n, out, s); });
}

}  // namespace payback
