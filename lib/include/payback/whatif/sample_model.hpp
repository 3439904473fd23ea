// The scenario's model evaluated for many values of a few numeric keys at once: the batch path of
// the one engine (DESIGN.md, "One engine") behind Monte Carlo, sweeps and tornado charts.
//
// Each sample's inputs are the scenario with its keys set as `--set` would set them. Built once,
// the model knows how each input number responds to each key: probes of the exact model give the
// slopes and the pairwise cross terms, so a sample's inputs are base + Σ slope·δ + Σ cross·δδ,
// computed in lanes of samples. Cloud bills (whose billing increments round) are recomputed per
// sample. Before any batch is trusted, the surrogate is checked against the exact model on
// sample rows; when any input number differs (a key whose effect is not multilinear: a tiered
// tariff, rounding, a schedule), every sample is evaluated exactly, one scenario at a time.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "payback/scenario/scenario.hpp"

namespace payback {

/// Which per-sample metrics evaluate() computes. The others stay empty and cost nothing: the
/// fastest path skips each payback search no one asked for. Monte Carlo, sweeps and tornado
/// charts ask for all of them; a caller that reads one or two (a benchmark, a custom analysis)
/// asks for just those.
struct MetricSelection {
    bool rig_total_cost = true;
    bool rig_npv_cost = true;
    bool cloud_total_cost = true;
    bool npv_savings = true;
    bool payback_months = true;
    bool discounted_payback_months = true;

    /// Only the metrics named: "total_cost" (the rig's and each cloud's), "rig_npv_cost",
    /// "npv_savings", "payback_months", "discounted_payback_months". Throws std::invalid_argument
    /// naming an unknown one.
    static MetricSelection only(const std::vector<std::string>& names);
};

/// Per-sample metrics, one entry per sample (NaN where a metric does not exist, such as payback
/// never reached); a metric not selected is empty.
struct SampleMetrics {
    std::vector<double> rig_total_cost;
    std::vector<double> rig_npv_cost;
    std::vector<std::vector<double>> cloud_total_cost;            ///< [cloud][sample]
    std::vector<std::vector<double>> npv_savings;                 ///< [cloud][sample]
    std::vector<std::vector<double>> payback_months;              ///< [cloud][sample]
    std::vector<std::vector<double>> discounted_payback_months;   ///< [cloud][sample]

    /// Zeroed columns of `samples` for the selected metrics, on up to `threads` threads (0: one
    /// per core): first touching the pages of a million samples is a large part of a fast run.
    void resize(std::size_t clouds, std::size_t samples, const MetricSelection& selection = {}, int threads = 1);
};

struct EvaluationOptions {
    int threads = 0;               ///< 0: every hardware thread
    int chunk = 512;               ///< samples per batch of lanes: small enough to stay in cache
    std::function<void(double)> progress;  ///< fraction done, from the calling thread
    const std::atomic<bool>* cancel = nullptr;  ///< set to stop early; evaluate() then throws Cancelled
    /// false: lanes of the whole model even where superposition holds (the tests compare the two)
    bool superpose = true;
    MetricSelection metrics;  ///< what to compute; the rest of SampleMetrics stays empty
};

struct Cancelled : std::runtime_error {
    Cancelled() : std::runtime_error("cancelled") {}
};

class SampleModel {
public:
    /// `keys` are numeric key paths of the scenario ("electricity.price_per_kwh"); `probes` one value
    /// per key, different from its current value and admitted by it (the slopes are measured there).
    /// Throws InputError for an unknown key or a probe the key does not admit.
    SampleModel(const Scenario& scenario, std::vector<std::string> keys, std::vector<double> probes);
    ~SampleModel();
    SampleModel(SampleModel&&) noexcept;

    const std::vector<std::string>& keys() const;
    const std::vector<double>& current() const;  ///< each key's value in the scenario
    const std::vector<std::string>& cloud_names() const;

    /// Checks the surrogate against the exact model at these rows (row-major, keys() wide); after a
    /// mismatch every later evaluation is exact. Returns whether the fast path holds.
    bool verify(const std::vector<double>& rows);
    bool fast() const;
    std::string path_note() const;  ///< which path, and why when exact

    /// Checks that every value of each key's column is admitted by the key (as --set would):
    /// the column's least and greatest. Throws InputError naming the key and the value.
    void check_admitted(const std::vector<double>& rows) const;

    /// Metrics of each row (row-major, keys() wide), in lanes, across threads. The result does not
    /// depend on the thread count or the chunk size.
    SampleMetrics evaluate(const std::vector<double>& rows, const EvaluationOptions& options = {}) const;

    /// One row through the exact model (parse with overrides, then the scalar engine).
    SampleMetrics evaluate_exactly(const std::vector<double>& row) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace payback
