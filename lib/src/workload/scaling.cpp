// PCIe wiring, the ring all-reduce model and its fit to Lambda's scaling data (see scaling.hpp). The
// published points are typed in from benchmark-facts.md so that a reader can check each against the
// table it names.
#include "payback/workload/scaling.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>

#include <boost/math/tools/minima.hpp>
#include <fmt/format.h>

namespace payback {

Wiring wire_gpus(int gpus, const GpuLink& card, const std::vector<PcieSlot>& slots, int cpu_lanes) {
    if (gpus < 0) throw std::invalid_argument(fmt::format("GPU count {} is negative", gpus));
    if (cpu_lanes < 0) throw std::invalid_argument(fmt::format("CPU lanes {} is negative", cpu_lanes));

    std::vector<PcieSlot> by_size = slots;
    std::stable_sort(by_size.begin(), by_size.end(), [](const PcieSlot& a, const PcieSlot& b) {
        return a.lanes != b.lanes ? a.lanes > b.lanes : a.generation > b.generation;
    });

    Wiring wiring;
    const std::size_t placed = std::min(static_cast<std::size_t>(gpus), by_size.size());
    for (std::size_t i = 0; i < placed; ++i) {
        const PcieSlot link{std::min(card.generation, by_size[i].generation),
                            std::min(card.lanes, by_size[i].lanes)};
        wiring.slots_used.push_back(link);
        wiring.cpu_lanes_used += link.lanes;
    }

    if (static_cast<std::size_t>(gpus) > by_size.size()) {
        wiring.problem = fmt::format("{} GPUs need {} slots but the board lists {}.", gpus, gpus,
                                     by_size.size());
    } else if (wiring.cpu_lanes_used > cpu_lanes) {
        std::string widths;
        for (const PcieSlot& s : wiring.slots_used) {
            if (!widths.empty()) widths += " + ";
            widths += fmt::format("x{}", s.lanes);
        }
        wiring.problem = fmt::format("{} GPUs at {} use {} PCIe lanes but the CPU has {}.", gpus, widths,
                                     wiring.cpu_lanes_used, cpu_lanes);
    }
    return wiring;
}

double ring_bandwidth_bytes_per_s(const std::vector<PcieSlot>& links) {
    if (links.empty()) return 0.0;
    double slowest = std::numeric_limits<double>::infinity();
    for (const PcieSlot& link : links) {
        slowest = std::min(slowest, pcie_gb_per_s(link.generation, link.lanes));
    }
    return slowest * 1e9;
}

double all_reduce_seconds(int gpus, double gradient_bytes, double bandwidth_bytes_per_s) {
    if (gpus < 1) throw std::invalid_argument(fmt::format("GPU count {} is below 1", gpus));
    if (!(gradient_bytes >= 0)) throw std::invalid_argument("gradient bytes must be >= 0");
    if (!(bandwidth_bytes_per_s > 0)) throw std::invalid_argument("bandwidth must be > 0");
    const double n = gpus;
    return 2.0 * (n - 1.0) / n * gradient_bytes / bandwidth_bytes_per_s;
}

double data_parallel_efficiency(int gpus, const ScalingWorkload& w, double bandwidth_bytes_per_s,
                                double overlap) {
    if (!(overlap >= 0 && overlap <= 1)) throw std::invalid_argument("overlap must be in [0, 1]");
    if (!(w.compute_seconds_per_step > 0)) throw std::invalid_argument("compute seconds must be > 0");
    const double exposed =
        (1.0 - overlap) * all_reduce_seconds(gpus, w.gradient_bytes, bandwidth_bytes_per_s);
    return w.compute_seconds_per_step / (w.compute_seconds_per_step + exposed);
}

namespace {

// ResNet-50: 25.6 M parameters, FP32 gradients under torch.cuda.amp + DDP (see the header).
constexpr double resnet50_gradient_bytes = 25.6e6 * 4.0;

struct Series {
    const char* setup;
    double per_gpu_batch;
    double one_gpu_images_per_s;
    double bandwidth_bytes_per_s;
    std::vector<std::pair<int, double>> published;  // (GPUs, efficiency)
    const char* source;
};

// k = (1 - overlap) / bandwidth_fraction: the factor on the nominal all-reduce time.
double efficiency_at(const ScalingPoint& p, double k) {
    const double exposed = k * all_reduce_seconds(p.gpus, p.workload.gradient_bytes, p.bandwidth_bytes_per_s);
    return p.workload.compute_seconds_per_step / (p.workload.compute_seconds_per_step + exposed);
}

double squared_error(const std::vector<ScalingPoint>& points, double k) {
    double sum = 0;
    for (const ScalingPoint& p : points) {
        const double e = efficiency_at(p, k) - p.published;
        sum += e * e;
    }
    return sum;
}

}  // namespace

std::vector<ScalingPoint> published_scaling_points() {
    const double pcie4_x16 = pcie_gb_per_s(4, 16) * 1e9;
    const double pcie3_x16 = pcie_gb_per_s(3, 16) * 1e9;
    const char* lambda_2025 = "Lambda csv_v1_v2 2025; benchmark-facts §5.3, Table 2.1a";
    const char* lambda_2022 = "Lambda csv @67a9bb51 2022; benchmark-facts §5.3, Table 2.1b";
    const std::vector<Series> series = {
        {"H100 SXM5, NVLink 4 (450 GB/s)", 1280, 2791, 450e9, {{2, 0.991}, {4, 0.990}, {8, 0.988}},
         lambda_2025},
        {"A100 80GB SXM4, NVSwitch (300 GB/s)", 1280, 1582, 300e9, {{2, 0.960}, {4, 0.959}, {8, 0.904}},
         lambda_2025},
        {"RTX 4090, PCIe 4 x16", 448, 1301, pcie4_x16, {{2, 0.949}}, lambda_2025},
        {"RTX 3090, PCIe 4 x16", 448, 905, pcie4_x16, {{2, 0.967}}, lambda_2025},
        {"A100 40GB PCIe, PCIe 4 x16", 768, 1120, pcie4_x16, {{2, 0.995}, {4, 0.956}, {8, 0.931}},
         lambda_2022},
        {"RTX 3090, PCIe 4 x16 (2022)", 448, 801, pcie4_x16, {{2, 0.974}, {4, 0.960}, {8, 0.922}},
         lambda_2022},
        {"RTX 2080 Ti, PCIe 3 x16", 184, 526, pcie3_x16, {{2, 0.906}, {4, 0.905}, {8, 0.812}}, lambda_2022},
    };
    std::vector<ScalingPoint> points;
    for (const Series& s : series) {
        for (const auto& [gpus, efficiency] : s.published) {
            points.push_back({s.setup, gpus, efficiency,
                              {resnet50_gradient_bytes, s.per_gpu_batch / s.one_gpu_images_per_s},
                              s.bandwidth_bytes_per_s, s.source});
        }
    }
    return points;
}

ScalingFit fit_overlap(const std::vector<ScalingPoint>& points) {
    if (points.empty()) throw std::invalid_argument("fit_overlap needs at least one point");

    // Each efficiency falls monotonically in k, but a sum of squares of such terms can still have more
    // than one minimum, so scan k = 0 and a log grid 1e-4 .. 1e4 before refining the best cell.
    constexpr int grid = 801;
    constexpr double log_lo = -4.0, log_hi = 4.0;
    auto k_at = [&](int i) { return std::pow(10.0, log_lo + (log_hi - log_lo) * i / (grid - 1)); };
    double best_k = 0.0;
    double best_sse = squared_error(points, 0.0);
    int best_i = -1;
    for (int i = 0; i < grid; ++i) {
        const double sse = squared_error(points, k_at(i));
        if (sse < best_sse) {
            best_sse = sse;
            best_k = k_at(i);
            best_i = i;
        }
    }
    if (best_i >= 0) {
        const double lo = best_i == 0 ? 0.0 : k_at(best_i - 1);
        const double hi = k_at(std::min(best_i + 1, grid - 1));
        std::uintmax_t max_iter = 200;
        const auto [k, sse] = boost::math::tools::brent_find_minima(
            [&](double x) { return squared_error(points, x); }, lo, hi,
            std::numeric_limits<double>::digits / 2, max_iter);
        if (sse <= best_sse) best_k = k;
    }

    ScalingFit fit{};
    if (best_k <= 1.0) {
        fit.overlap = 1.0 - best_k;
        fit.bandwidth_fraction = 1.0;
    } else {
        fit.overlap = 0.0;
        fit.bandwidth_fraction = 1.0 / best_k;
    }
    double sum = 0;
    for (const ScalingPoint& p : points) {
        const double predicted = fitted_efficiency(p.gpus, p.workload, p.bandwidth_bytes_per_s, fit);
        const double e = predicted - p.published;
        fit.predicted.push_back(predicted);
        sum += e * e;
        fit.max_abs_error = std::max(fit.max_abs_error, std::abs(e));
    }
    fit.rms_error = std::sqrt(sum / static_cast<double>(points.size()));
    return fit;
}

double fitted_efficiency(int gpus, const ScalingWorkload& w, double bandwidth_bytes_per_s,
                         const ScalingFit& fit) {
    return data_parallel_efficiency(gpus, w, bandwidth_bytes_per_s * fit.bandwidth_fraction, fit.overlap);
}

}  // namespace payback
