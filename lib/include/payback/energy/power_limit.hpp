// What a GPU loses when its board power is capped (nvidia-smi -pl), so a rig can fit more GPUs on one
// circuit or PSU. Near stock power the last watts buy little speed, so a modest cap costs a few percent;
// the model below is fitted to published training-throughput measurements at several caps.
//
// Model: with r = cap / board power, throughput = 1 - c (1 - r)^2, c = 0.75, for r from 0.45 to 1;
// 1 at or above board power; below r = 0.45 (the lowest cap measured) linear from that point to 0 at
// r = 0, i.e. no better throughput per watt than the lowest measured cap (an assumption, conservative).
// The quadratic has zero slope at stock power, as the data show: 75-80 % of the power keeps 95-97 % of
// the speed.
//
// Fitted to 43 points (listed with their sources in tests/lib/energy/psu_test.cpp):
//  - RTX 3070 (220 W stock), tf_cnn_benchmarks synthetic training, FP16 and FP32, ResNet-50/152,
//    Inception-v3/v4, AlexNet at 100/130/160/190 W: henry2man/nvidia-powerlimit-benchmarks,
//    results/3600-GeForce_RTX_3070-100-130-190-220-242.md (commit 9d568c81).
//  - RTX 3090 (350 W), TensorFlow, 280 W keeps "over 95%": Puget Systems, D. Kinghorn, 2020-11-13,
//    https://www.pugetsystems.com/labs/hpc/quad-rtx3090-gpu-wattage-limited-maxq-tensorflow-performance-1974/
//  - RTX 3090 (480 W max limit), ViT-B/16 training, FP32 and TF32 at 80/90/95 % of the 480 W speed:
//    https://blog.qwertyforce.dev/posts/optimal_power_limit
// c = 0.75 is the minimax fit (0.764) rounded: largest error 7.0 percentage points (at r = 0.45-0.58),
// 3.7 points for r >= 0.7, 2.0 points for r >= 0.75; rms 3.4 points; on average 1.4 points low.
// All the data are consumer Ampere cards; data-center GPUs (A100/H100) are not in it.
#pragma once

#include <cmath>
#include <stdexcept>

namespace payback {

/// Fraction of its stock training throughput a GPU keeps when capped at `cap_watts` (its board power is
/// `board_watts`). 1 at or above board power, 0 at or below 0 W; see the header comment for the curve.
/// Throws std::invalid_argument when board_watts is not positive and finite or cap_watts is NaN.
inline double power_limited_throughput(double cap_watts, double board_watts) {
    if (!(board_watts > 0) || !std::isfinite(board_watts))
        throw std::invalid_argument("GPU board power must be a positive number of watts");
    if (std::isnan(cap_watts)) throw std::invalid_argument("GPU power cap must be a number of watts");
    if (cap_watts >= board_watts) return 1.0;
    if (cap_watts <= 0) return 0.0;

    constexpr double curvature = 0.75;  // c, fitted above
    // The lowest cap in the data: 100 W of a 220 W RTX 3070 is r = 0.4545, rounded down.
    constexpr double lowest_measured = 0.45;
    const auto fitted = [](double r) { return 1.0 - curvature * (1.0 - r) * (1.0 - r); };
    const double r = cap_watts / board_watts;
    return r >= lowest_measured ? fitted(r) : fitted(lowest_measured) * r / lowest_measured;
}

}  // namespace payback
