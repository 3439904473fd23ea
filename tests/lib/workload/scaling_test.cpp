#include <catch2/catch.hpp>

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "payback/workload/scaling.hpp"

using namespace payback;

// ---- PCIe bandwidth and wiring ----

TEST_CASE("pcie_gb_per_s is lanes times the per-lane rate of the generation", "[scaling][pcie]") {
    CHECK(pcie_gb_per_s(3, 16) == Approx(15.76).epsilon(1e-12));   // 16 × 0.985
    CHECK(pcie_gb_per_s(4, 8) == Approx(15.752).epsilon(1e-12));   // 8 × 1.969
    CHECK(pcie_gb_per_s(4, 16) == Approx(31.504).epsilon(1e-12));  // 16 × 1.969
    CHECK(pcie_gb_per_s(5, 16) == Approx(63.008).epsilon(1e-12));  // 16 × 3.938
    CHECK(pcie_gb_per_s(1, 1) == Approx(0.25).epsilon(1e-12));
    CHECK(pcie_gb_per_s(2, 4) == Approx(2.0).epsilon(1e-12));      // 4 × 0.5
    CHECK_THROWS_AS(pcie_gb_per_s(0, 16), std::invalid_argument);
    CHECK_THROWS_AS(pcie_gb_per_s(6, 16), std::invalid_argument);
    CHECK_THROWS_AS(pcie_gb_per_s(4, 0), std::invalid_argument);
}

TEST_CASE("a Threadripper 1920X with four x16 slots takes three GPUs at x16", "[scaling][wiring]") {
    const std::vector<PcieSlot> slots(4, PcieSlot{3, 16});
    const Wiring w = wire_gpus(3, GpuLink{3, 16}, slots, 64);
    CHECK(w.problem.empty());
    REQUIRE(w.slots_used.size() == 3);
    for (const PcieSlot& s : w.slots_used) {
        CHECK(s.generation == 3);
        CHECK(s.lanes == 16);
    }
    CHECK(w.cpu_lanes_used == 48);  // 3 × 16 of 64
    CHECK(ring_bandwidth_bytes_per_s(w.slots_used) == Approx(15.76e9).epsilon(1e-12));
}

TEST_CASE("a 16-lane desktop CPU wired x8/x8 takes two GPUs at x8", "[scaling][wiring]") {
    // The board's two x16 slots become x8/x8 with both filled; the caller lists them that way. A gen-4
    // card in gen-3 slots runs at gen 3.
    const Wiring w = wire_gpus(2, GpuLink{4, 16}, {{3, 8}, {3, 8}}, 16);
    CHECK(w.problem.empty());
    REQUIRE(w.slots_used.size() == 2);
    CHECK(w.slots_used[0].lanes == 8);
    CHECK(w.slots_used[1].lanes == 8);
    CHECK(w.slots_used[0].generation == 3);
    CHECK(w.cpu_lanes_used == 16);
    CHECK(ring_bandwidth_bytes_per_s(w.slots_used) == Approx(7.88e9).epsilon(1e-12));  // 8 × 0.985
}

TEST_CASE("more GPUs than slots is a problem that names both counts", "[scaling][wiring]") {
    const Wiring w = wire_gpus(3, GpuLink{}, {{3, 16}, {3, 16}}, 64);
    CHECK(w.problem == "3 GPUs need 3 slots but the board lists 2.");
    CHECK(w.slots_used.size() == 2);  // the slots there are still get filled
    CHECK(w.cpu_lanes_used == 32);
}

TEST_CASE("two x16 GPUs on a 16-lane CPU is a problem naming the lane count", "[scaling][wiring]") {
    const Wiring w = wire_gpus(2, GpuLink{3, 16}, {{3, 16}, {3, 16}}, 16);
    CHECK(w.problem == "2 GPUs at x16 + x16 use 32 PCIe lanes but the CPU has 16.");
    CHECK(w.cpu_lanes_used == 32);
    REQUIRE(w.slots_used.size() == 2);
    CHECK(w.slots_used[1].lanes == 16);
}

TEST_CASE("wire_gpus fills the widest slots first and uses no more lanes than the card has",
          "[scaling][wiring]") {
    // Slots x4 (gen 4), x16 (gen 3), x8 (gen 4), x16 (gen 4): widest first, the faster generation first
    // among equals. An x8 card uses 8 lanes even in an x16 slot.
    const std::vector<PcieSlot> slots = {{4, 4}, {3, 16}, {4, 8}, {4, 16}};
    const Wiring w = wire_gpus(3, GpuLink{4, 8}, slots, 24);
    CHECK(w.problem.empty());
    REQUIRE(w.slots_used.size() == 3);
    CHECK(w.slots_used[0].generation == 4);  // the gen-4 x16
    CHECK(w.slots_used[0].lanes == 8);
    CHECK(w.slots_used[1].generation == 3);  // the gen-3 x16
    CHECK(w.slots_used[1].lanes == 8);
    CHECK(w.slots_used[2].generation == 4);  // the x8
    CHECK(w.slots_used[2].lanes == 8);
    CHECK(w.cpu_lanes_used == 24);  // 3 × 8: exactly the budget is fine
    // The ring runs at the slowest link: gen 3 x8 = 7.88 GB/s.
    CHECK(ring_bandwidth_bytes_per_s(w.slots_used) == Approx(7.88e9).epsilon(1e-12));

    const Wiring none = wire_gpus(0, GpuLink{}, slots, 0);
    CHECK(none.problem.empty());
    CHECK(none.slots_used.empty());
    CHECK(none.cpu_lanes_used == 0);
    CHECK(ring_bandwidth_bytes_per_s(none.slots_used) == 0.0);
    CHECK_THROWS_AS(wire_gpus(-1, GpuLink{}, slots, 64), std::invalid_argument);
}

// ---- All-reduce and efficiency ----

TEST_CASE("all_reduce_seconds is 2(n-1)/n of bytes over bandwidth", "[scaling][allreduce]") {
    CHECK(all_reduce_seconds(2, 100e6, 10e9) == Approx(0.01).epsilon(1e-12));     // 2·1/2·100e6/10e9
    CHECK(all_reduce_seconds(4, 100e6, 10e9) == Approx(0.015).epsilon(1e-12));    // 2·3/4·0.01
    CHECK(all_reduce_seconds(8, 100e6, 10e9) == Approx(0.0175).epsilon(1e-12));   // 2·7/8·0.01
    CHECK(all_reduce_seconds(1, 100e6, 10e9) == 0.0);
    CHECK_THROWS_AS(all_reduce_seconds(0, 100e6, 10e9), std::invalid_argument);
    CHECK_THROWS_AS(all_reduce_seconds(2, 100e6, 0.0), std::invalid_argument);
    CHECK_THROWS_AS(all_reduce_seconds(2, -1.0, 10e9), std::invalid_argument);
}

TEST_CASE("data_parallel_efficiency is compute over compute plus the exposed all-reduce",
          "[scaling][efficiency]") {
    const ScalingWorkload w{100e6, 0.09};
    CHECK(data_parallel_efficiency(1, w, 10e9, 0.0) == 1.0);
    CHECK(data_parallel_efficiency(2, w, 10e9, 0.0) == Approx(0.9).epsilon(1e-12));  // 0.09 / (0.09 + 0.01)
    // Half overlapped: 0.09 / (0.09 + 0.005) = 0.947368...
    CHECK(data_parallel_efficiency(2, w, 10e9, 0.5) == Approx(0.09 / 0.095).epsilon(1e-12));
    CHECK(data_parallel_efficiency(8, w, 10e9, 1.0) == 1.0);
    CHECK_THROWS_AS(data_parallel_efficiency(2, w, 10e9, -0.1), std::invalid_argument);
    CHECK_THROWS_AS(data_parallel_efficiency(2, w, 10e9, 1.1), std::invalid_argument);
    CHECK_THROWS_AS(data_parallel_efficiency(2, ScalingWorkload{100e6, 0.0}, 10e9, 0.0),
                    std::invalid_argument);
}

TEST_CASE("efficiency falls with GPUs and rises with bandwidth and overlap", "[scaling][efficiency]") {
    const ScalingWorkload w{102.4e6, 0.35};
    for (double overlap : {0.0, 0.3, 0.9}) {
        for (double bandwidth : {1e9, 7.88e9, 31.5e9}) {
            double previous = data_parallel_efficiency(1, w, bandwidth, overlap);
            CHECK(previous == 1.0);
            for (int n = 2; n <= 64; n *= 2) {
                const double e = data_parallel_efficiency(n, w, bandwidth, overlap);
                CHECK(e < previous);
                CHECK(e > 0.0);
                CHECK(data_parallel_efficiency(n, w, bandwidth * 2, overlap) > e);
                CHECK(data_parallel_efficiency(n, w, bandwidth, overlap + 0.05) > e);
                previous = e;
            }
        }
    }
}

// ---- Published points and the fit ----

TEST_CASE("published_scaling_points carries Lambda's ResNet-50 rows with their inputs", "[scaling][fit]") {
    const std::vector<ScalingPoint> points = published_scaling_points();
    // H100 3, A100 SXM4 3, 4090 1, 3090 1, A100 PCIe 3, 3090 (2022) 3, 2080 Ti 3
    REQUIRE(points.size() == 17);
    const ScalingPoint& h100 = points.front();
    CHECK(h100.gpus == 2);
    CHECK(h100.published == 0.991);
    CHECK(h100.workload.gradient_bytes == Approx(102.4e6).epsilon(1e-12));  // 25.6 M × 4 B
    CHECK(h100.workload.compute_seconds_per_step == Approx(1280.0 / 2791.0).epsilon(1e-12));
    CHECK(h100.bandwidth_bytes_per_s == Approx(450e9).epsilon(1e-12));  // 900 GB/s bidirectional
    const ScalingPoint& ti = points.back();
    CHECK(ti.gpus == 8);
    CHECK(ti.published == 0.812);
    CHECK(ti.workload.compute_seconds_per_step == Approx(184.0 / 526.0).epsilon(1e-12));
    CHECK(ti.bandwidth_bytes_per_s == Approx(15.76e9).epsilon(1e-12));  // PCIe 3 x16
    for (const ScalingPoint& p : points) {
        CHECK(p.published > 0.8);
        CHECK(p.published <= 1.0);
        CHECK(!p.source.empty());
    }
}

TEST_CASE("fit_overlap recovers the parameters of points the model itself made", "[scaling][fit]") {
    // Three setups at 2, 4 and 8 GPUs, their "published" values computed by the model.
    std::vector<ScalingPoint> points;
    const std::vector<ScalingWorkload> workloads = {{102.4e6, 0.35}, {102.4e6, 0.06}, {400e6, 0.8}};
    const std::vector<double> bandwidths = {15.76e9, 31.504e9, 7.88e9};
    auto make = [&](double bandwidth_fraction, double overlap) {
        points.clear();
        for (std::size_t s = 0; s < workloads.size(); ++s) {
            for (int n : {2, 4, 8}) {
                const double e = data_parallel_efficiency(n, workloads[s], bandwidths[s] * bandwidth_fraction,
                                                          overlap);
                points.push_back({"synthetic", n, e, workloads[s], bandwidths[s], "test"});
            }
        }
    };
    make(1.0, 0.4);  // k = 0.6: reported as overlap 0.4 on the full link
    ScalingFit fit = fit_overlap(points);
    CHECK(fit.overlap == Approx(0.4).margin(1e-5));
    CHECK(fit.bandwidth_fraction == 1.0);
    CHECK(fit.rms_error < 1e-6);

    make(0.4, 0.0);  // k = 2.5: reported as no overlap on 40 % of the link
    fit = fit_overlap(points);
    CHECK(fit.overlap == 0.0);
    CHECK(fit.bandwidth_fraction == Approx(0.4).epsilon(1e-5));
    CHECK(fit.rms_error < 1e-6);
    REQUIRE(fit.predicted.size() == points.size());
    CHECK(fit.predicted[0] == Approx(points[0].published).epsilon(1e-6));

    make(0.5, 0.5);  // k = (1 - 0.5) / 0.5 = 1: indistinguishable from a full, unoverlapped link
    fit = fit_overlap(points);
    CHECK(fit.overlap == Approx(0.0).margin(1e-5));
    CHECK(fit.bandwidth_fraction == Approx(1.0).epsilon(1e-5));

    CHECK_THROWS_AS(fit_overlap({}), std::invalid_argument);
}

TEST_CASE("the fit to Lambda's points: no overlap, about 17 % of the link, errors up to 0.092",
          "[scaling][fit]") {
    const std::vector<ScalingPoint> points = published_scaling_points();
    const ScalingFit fit = fit_overlap(points);
    // The published losses exceed what even an unoverlapped all-reduce on the nominal link costs, so the
    // fit reports overlap 0 and an achieved fraction of the link: 0.1722 (k = 1 / 0.1722 = 5.81).
    CHECK(fit.overlap == 0.0);
    CHECK(fit.bandwidth_fraction == Approx(0.1722).margin(0.0005));
    // We got rms 0.0305 and max 0.0917 (A100 SXM4 at 8 GPUs: 0.996 predicted, 0.904 published).
    CHECK(fit.rms_error < 0.031);
    CHECK(fit.max_abs_error < 0.092);
    REQUIRE(fit.predicted.size() == points.size());
    double largest = 0;
    std::size_t worst = 0;
    double sum = 0;
    for (std::size_t i = 0; i < points.size(); ++i) {
        const double error = std::abs(fit.predicted[i] - points[i].published);
        CHECK(error <= fit.max_abs_error);
        sum += error * error;
        if (error > largest) {
            largest = error;
            worst = i;
        }
    }
    CHECK(largest == fit.max_abs_error);
    CHECK(std::sqrt(sum / static_cast<double>(points.size())) == Approx(fit.rms_error).epsilon(1e-12));
    CHECK(points[worst].setup.find("A100 80GB SXM4") != std::string::npos);
    CHECK(points[worst].gpus == 8);

    // 2080 Ti at 8 GPUs by hand: all-reduce 2·7/8 × 102.4e6 / (15.76e9 × 0.1722) = 0.0660 s on top of
    // 184 / 526 = 0.3498 s of compute: 0.3498 / 0.4158 = 0.841 (published 0.812).
    CHECK(fit.predicted.back() == Approx(0.841).margin(0.001));
    CHECK(fitted_efficiency(8, points.back().workload, points.back().bandwidth_bytes_per_s, fit) ==
          fit.predicted.back());
    // The same card pair on an x8/x8 desktop (PCIe 3 x8 = 7.88 GB/s): 2·1/2 × 102.4e6 / (7.88e9 ×
    // 0.1722) = 0.0755 s, so 0.3498 / 0.4253 = 0.822.
    CHECK(fitted_efficiency(2, points.back().workload, 7.88e9, fit) == Approx(0.822).margin(0.001));
}
