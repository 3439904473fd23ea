// How many GPUs a board and CPU can feed, and how well data-parallel training scales on them: PCIe
// bandwidth and lane budgets (benchmark-facts §5.2), a ring all-reduce cost model (§5.1), and that model
// fitted to Lambda's published ResNet-50 scaling efficiencies (§5.3). The fit is rough (see
// fit_overlap): use it to compare a PCIe rig with an NVLink cloud instance, not to promise a number.
//
// Units: bytes, seconds, bytes per second, except pcie_gb_per_s (GB/s, 1 GB = 1e9 bytes). Bandwidths are
// per direction, as nccl-tests' busbw is: NVLink totals quoted "bidirectional" must be halved.
#pragma once

#include <string>
#include <vector>

#include "payback/market/pcie.hpp"

namespace payback {

// ---- Wiring ----

struct Wiring {
    std::vector<PcieSlot> slots_used;  ///< per GPU placed: the link it gets (min of card and slot)
    int cpu_lanes_used = 0;            ///< sum of the lanes in slots_used
    std::string problem;  ///< empty when the parts can be wired as listed, else one sentence naming them
};

/// Places `gpus` cards in the board's slots, largest slots first (faster generation breaks ties), and
/// checks the CPU's lane budget: the sum of the lanes the GPUs use must not exceed cpu_lanes (other
/// devices such as NVMe are the caller's to subtract first). Boards often drop to x8/x8 when two slots
/// are filled: describe that by listing the slots as they are wired with that many cards ({x8, x8}).
/// With more GPUs than slots, the slots are filled and `problem` says so; the slot problem is reported
/// before the lane problem. Throws std::invalid_argument for gpus < 0 or cpu_lanes < 0.
Wiring wire_gpus(int gpus, const GpuLink& card, const std::vector<PcieSlot>& slots, int cpu_lanes);

/// The bandwidth (bytes/s) a ring all-reduce over these links can use: the slowest link's, since every
/// rank sends and receives the same amount each step. 0 for no links.
double ring_bandwidth_bytes_per_s(const std::vector<PcieSlot>& links);

// ---- Data-parallel scaling ----

/// One data-parallel training step on n GPUs: step = compute + (1 - overlap) × all-reduce, the ring
/// all-reduce taking 2(n-1)/n × gradient bytes / link bandwidth (nccl-tests, §5.1). The per-GPU batch
/// is fixed (weak scaling), so efficiency = throughput(n) / (n × throughput(1)) = compute / step.
struct ScalingWorkload {
    double gradient_bytes;            ///< bytes all-reduced per step (parameters × bytes per gradient)
    double compute_seconds_per_step;  ///< per-GPU batch / single-GPU throughput
};

/// (S / B) · 2(n-1)/n; 0 for one GPU. Throws std::invalid_argument for gpus < 1, gradient_bytes < 0 or
/// bandwidth <= 0.
double all_reduce_seconds(int gpus, double gradient_bytes, double bandwidth_bytes_per_s);

/// compute / (compute + (1 - overlap) × all_reduce_seconds); exactly 1 for one GPU. Throws
/// std::invalid_argument for overlap outside [0, 1], compute <= 0, or what all_reduce_seconds rejects.
double data_parallel_efficiency(int gpus, const ScalingWorkload& w, double bandwidth_bytes_per_s,
                                double overlap);

/// A published efficiency with what the model needs to predict it.
struct ScalingPoint {
    std::string setup;
    int gpus;
    double published;
    ScalingWorkload workload;
    double bandwidth_bytes_per_s;  ///< nominal per-direction link bandwidth of the setup
    std::string source;
};

/// Lambda's ResNet-50 AMP efficiencies (benchmark-facts §5.3) for every setup whose per-GPU batch,
/// single-GPU throughput and link can be read from the reference: 17 points on 7 setups.
/// - gradient bytes: 25.6 M parameters × 4 bytes = 102.4 MB. Lambda runs NVIDIA DeepLearningExamples,
///   whose AMP is torch.cuda.amp autocast under torch DDP: the parameters stay FP32, so the gradient
///   buckets DDP all-reduces are FP32 too (a 2-byte assumption would only rescale bandwidth_fraction).
/// - compute per step: per-GPU batch / 1-GPU img/s, from Table 2.1a (2025 rows; batches 448 for
///   3090/4090, 1280 for A100/H100 80GB, from §2.1 methodology) or 2.1b (2022 rows, its batch column).
/// - links: H100 SXM5 NVLink 4 900 GB/s and DGX A100 NVSwitch 600 GB/s are bidirectional totals, so
///   450 and 300 GB/s per direction; A100 80GB SXM4 is assumed to sit on such an NVSwitch board. PCIe
///   setups are assumed to give every GPU a full x16 link of the card's generation (gen 4 for 3090, 4090
///   and A100 PCIe, gen 3 for 2080 Ti), an upper bound where a server routes GPUs through PCIe switches
///   or across sockets.
/// Left out: V100 16GB Lambda Cloud and B200 (link not in the reference), RTX 6000 Ada (batch not in
/// the reference), 2080 Ti with NVLink (the bridge joins pairs only, and it scaled worse than without it
/// at 2 and 4 GPUs, which no bandwidth model can reproduce), FP32 rows (batch unknown).
std::vector<ScalingPoint> published_scaling_points();

/// The model fitted to published points. Overlap and an achieved fraction of the link bandwidth enter
/// the step time only as k = (1 - overlap) / bandwidth_fraction, so the points determine k alone. We
/// fit k and report it as overlap = 1 - k with a full link when k <= 1, else as no overlap with
/// bandwidth_fraction = 1 / k: the data asking for more communication time than the nominal link allows
/// even unoverlapped is then said plainly.
struct ScalingFit {
    double overlap;             ///< in [0, 1]
    double bandwidth_fraction;  ///< in (0, 1]: achieved share of the nominal per-direction bandwidth
    double rms_error;           ///< of predicted - published efficiency, over the points
    double max_abs_error;
    std::vector<double> predicted;  ///< one per point, in order
};

/// Minimizes the squared error of k over [0, 1e4] (a log grid, then Brent on the best cell), as the
/// ScalingFit comment explains. Throws std::invalid_argument for no points. Fitted on
/// published_scaling_points() it gives overlap 0, bandwidth_fraction ≈ 0.17, rms ≈ 0.031 and a largest
/// error ≈ 0.092 (A100 SXM4 at 8 GPUs, 0.904 published: its losses are not communication).
ScalingFit fit_overlap(const std::vector<ScalingPoint>& points);

/// data_parallel_efficiency with a fit's overlap and bandwidth × bandwidth_fraction: the prediction for
/// a new setup. Expect errors of the fit's size (a few points, up to ~0.1).
double fitted_efficiency(int gpus, const ScalingWorkload& w, double bandwidth_bytes_per_s,
                         const ScalingFit& fit);

}  // namespace payback
