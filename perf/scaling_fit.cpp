// Prints the data-parallel scaling model's fit to Lambda's ResNet-50 efficiencies (scaling.hpp): each
// published point beside the prediction, the fitted parameters, then an out-of-sample check against a
// benchmark the fit never saw. Built with the project; run by hand: build/bin/scaling_fit
#include <cstddef>

#include <fmt/format.h>

#include "payback/workload/scaling.hpp"

using namespace payback;

int main() {
    const std::vector<ScalingPoint> points = published_scaling_points();
    const ScalingFit fit = fit_overlap(points);

    fmt::print("{:<38} {:>2} {:>9} {:>9} {:>7}\n", "setup", "n", "published", "predicted", "error");
    for (std::size_t i = 0; i < points.size(); ++i) {
        const ScalingPoint& p = points[i];
        fmt::print("{:<38} {:>2} {:>9.3f} {:>9.3f} {:>+7.3f}\n", p.setup, p.gpus, p.published,
                   fit.predicted[i], fit.predicted[i] - p.published);
    }
    fmt::print("\noverlap {:.3f}, bandwidth_fraction {:.4f} (k = (1 - overlap) / fraction = {:.3f})\n",
               fit.overlap, fit.bandwidth_fraction, (1 - fit.overlap) / fit.bandwidth_fraction);
    fmt::print("rms error {:.4f}, max |error| {:.4f} over {} points\n", fit.rms_error, fit.max_abs_error,
               points.size());

    // Out of sample: server-gear's 8x RTX 3090 on EPYC 7352, tf_cnn_benchmarks ResNet-50 FP16, NGC TF
    // 20.12 (benchmark-facts §4 and §5.3). One GPU: 1027 img/s at batch 64, 1205 at 512. Assumed: each
    // GPU on PCIe 4 x16, FP32 gradients (TF keeps FP32 variables under mixed precision).
    struct Check {
        double batch, one_gpu;
        int gpus;
        double published;
    };
    const Check checks[] = {{64, 1027, 2, 0.89},  {64, 1027, 4, 0.68},  {64, 1027, 8, 0.49},
                            {512, 1205, 2, 0.98}, {512, 1205, 4, 0.96}, {512, 1205, 8, 0.91}};
    const double pcie4_x16 = pcie_gb_per_s(4, 16) * 1e9;
    fmt::print("\nout of sample: 8x RTX 3090, TensorFlow (server-gear), PCIe 4 x16 assumed\n");
    fmt::print("{:>5} {:>2} {:>9} {:>9} {:>7}\n", "batch", "n", "published", "predicted", "error");
    for (const Check& c : checks) {
        const double predicted =
            fitted_efficiency(c.gpus, {25.6e6 * 4.0, c.batch / c.one_gpu}, pcie4_x16, fit);
        fmt::print("{:>5.0f} {:>2} {:>9.3f} {:>9.3f} {:>+7.3f}\n", c.batch, c.gpus, c.published, predicted,
                   predicted - c.published);
    }
    return 0;
}
