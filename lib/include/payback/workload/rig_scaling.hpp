// How well the rig's GPUs train together, and what that makes a cloud instance with several GPUs
// worth against it: the data-parallel model of scaling.hpp fitted to Lambda's published
// efficiencies, applied to the rig's wiring and to each cloud instance's interconnect.
#pragma once

#include "payback/workload/scaling.hpp"

namespace payback {

/// A ResNet-50 AMP step on an RTX 3090 (Lambda 2022: batch 448 at 801 img/s, 0.559 s) with FP32
/// gradients of its 25.6 M parameters (102.4 MB): the default workload for scaling.
ScalingWorkload default_scaling_workload();

/// The fit to the published points, computed once.
const ScalingFit& published_fit();

struct RigScaling {
    int gpus = 0;
    double link_gb_per_s = 0;  ///< the ring's slowest link, per direction
    double efficiency = 1.0;   ///< throughput(n) / (n × throughput(1))
    double effective_gpus() const { return gpus * efficiency; }
};


/// A cloud instance's speed relative to the whole rig: per-GPU speed × its GPUs × its efficiency on
/// its interconnect, over the rig's effective GPUs.
double cloud_speedup(double per_gpu_speedup, int gpus, double interconnect_gb_per_s, const RigScaling& rig,
                     const ScalingWorkload& workload);

}  // namespace payback
