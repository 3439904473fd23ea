#include "whatif/superposed_evaluator.hpp"

#include <cmath>

#include "whatif/sample_state.hpp"

namespace payback {

void SuperposedEvaluator::evaluate(const double* rows, std::size_t begin, std::size_t end, SampleMetrics& out) const {
    const std::size_t width = state_.keys.size();
    const BatchKernels& kernels = batch_kernels();  // the active instruction set's (resolved on first use)
    for_each_block(begin, end,
                   [&](std::size_t s, Eigen::Index n) { kernels.superposed(state_, rows + s * width, n, out, s); });
}

bool SuperposedEvaluator::agrees(const double* row, const ModelInputs<double>& exact) const {
    const std::size_t clouds = state_.clouds.size();
    SampleMetrics want, got;
    want.resize(clouds, 1);
    got.resize(clouds, 1);
    store_metrics(payback::evaluate(exact, false), want, 0, 1);
    state_.superposed(row, 1, got, 0);
    const auto same = [](double a, double b) { return (std::isnan(a) && std::isnan(b)) || close_enough(a, b); };
    bool ok = same(got.rig_total_cost[0], want.rig_total_cost[0]) && same(got.rig_npv_cost[0], want.rig_npv_cost[0]);
    for (std::size_t c = 0; c < clouds; ++c)
        ok = ok && same(got.cloud_total_cost[c][0], want.cloud_total_cost[c][0]) &&
             same(got.npv_savings[c][0], want.npv_savings[c][0]) &&
             same(got.payback_months[c][0], want.payback_months[c][0]) &&
             same(got.discounted_payback_months[c][0], want.discounted_payback_months[c][0]);
    return ok;
}

}  // namespace payback
