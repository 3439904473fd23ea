#include "payback/workload/rig_scaling.hpp"

#include <algorithm>

namespace payback {

ScalingWorkload default_scaling_workload() { return {25.6e6 * 4.0, 448.0 / 801.0}; }

const ScalingFit& published_fit() {
    static const ScalingFit fit = fit_overlap(published_scaling_points());
    return fit;
}

double cloud_speedup(double per_gpu_speedup, int gpus, double interconnect_gb_per_s, const RigScaling& rig,
                     const ScalingWorkload& workload) {
    const double efficiency =
        gpus > 1 ? fitted_efficiency(gpus, workload, interconnect_gb_per_s * 1e9, published_fit()) : 1.0;
    return per_gpu_speedup * gpus * efficiency / std::max(1.0, rig.effective_gpus());
}

}  // namespace payback
