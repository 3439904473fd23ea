// The state of a SampleModel that its hot path reads (sample_model.cpp sets it up), and the hot
// path's entry points: the metrics of a block of samples, by lanes of the whole model or by
// superposition. sample_blocks.cpp compiles them once per instruction set (isa_dispatch.hpp); the
// methods are defined here, inline, so that each variant compiles its own.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "payback/market/cloud_cost.hpp"
#include "payback/model/input_fields.hpp"
#include "payback/model/metrics.hpp"
#include "payback/scenario/scenario.hpp"
#include "payback/whatif/lanes.hpp"
#include "payback/whatif/sample_model.hpp"
#include "whatif/superposition.hpp"

namespace payback {

template <class T>
double lane_value(const T& v, Eigen::Index i) {
    if constexpr (std::is_same_v<T, double>) return v;
    else return v[i];
}

// Copies lane `i` of `m` (or the scalar) to sample `offset + i` of `out`, for the metrics `out` holds.
template <class T>
void store_metrics(const Metrics<T>& m, SampleMetrics& out, std::size_t offset, Eigen::Index lanes) {
    const auto copy = [&](const T& from, std::vector<double>& to) {
        for (Eigen::Index i = 0; i < lanes; ++i) to[offset + static_cast<std::size_t>(i)] = lane_value(from, i);
    };
    if (!out.rig_total_cost.empty()) copy(m.rig.total_cost, out.rig_total_cost);
    if (!out.rig_npv_cost.empty()) copy(m.rig.npv_cost, out.rig_npv_cost);
    for (std::size_t c = 0; c < out.cloud_total_cost.size(); ++c) copy(m.clouds[c].total_cost, out.cloud_total_cost[c]);
    for (std::size_t c = 0; c < out.npv_savings.size(); ++c) copy(m.versus[c].npv_savings, out.npv_savings[c]);
    for (std::size_t c = 0; c < out.payback_months.size(); ++c) copy(m.versus[c].payback_months, out.payback_months[c]);
    for (std::size_t c = 0; c < out.discounted_payback_months.size(); ++c)
        copy(m.versus[c].discounted_payback_months, out.discounted_payback_months[c]);
}

struct SampleState {
    Scenario scenario;
    std::string text;  ///< the resolved scenario, parsed again with a sample's keys set
    std::vector<std::string> keys;
    std::vector<double> current;
    std::vector<double> probes;
    std::vector<std::string> clouds;
    ModelInputs<double> base;
    std::vector<double> v0;
    std::vector<std::vector<double>> slope;  ///< [key][field]
    struct Cross {
        std::size_t i, j;
        std::vector<double> per_field;
    };
    std::vector<Cross> cross;
    std::vector<std::size_t> spend_fields;  ///< where each cloud's spend_per_month sits in the flat list
    int hours_key = -1;
    std::vector<int> price_key;  ///< per cloud: the key of its price_per_hour, or -1
    std::vector<bool> bill_per_sample;  ///< per cloud: its bill rounds, and the keys move it
    /// Why the lanes of the whole model do not hold (ExactEvaluator, evaluator.hpp), and why
    /// superposition does not; empty where they hold. choose_evaluator() reads them.
    std::string not_lanes, not_superposed;
    /// The fastest path, where it holds (superposition.hpp); null: lanes of the whole model.
    std::unique_ptr<Superposition> superposition;
    std::size_t hours_field = 0;
    std::vector<std::array<std::size_t, 5>> part_fields;  ///< cost, then the resale curve's numbers

    // The row of lane s of `n` samples: lanes past the last sample repeat it (a padded block).
    const double* row_of(const double* rows, Eigen::Index n, Eigen::Index s) const {
        return rows + static_cast<std::size_t>(std::min(s, n - 1)) * keys.size();
    }

    // Key k's offset from its current value in each lane, into `delta` (kept between blocks).
    template <class L>
    void deltas(std::vector<L>& delta, const double* rows, Eigen::Index n, Eigen::Index size) const {
        const std::size_t width = keys.size();
        delta.resize(width, L::Zero(size));
        for (std::size_t k = 0; k < width; ++k) {
            const double at = current[k];
            double* lanes = delta[k].data();
            for (Eigen::Index s = 0; s < size; ++s) lanes[s] = row_of(rows, n, s)[k] - at;
        }
    }

    // Input number f of the flat list: base + Σ slope·δ + Σ cross·δδ.
    template <class L>
    L field(std::size_t f, const std::vector<L>& delta, Eigen::Index size) const {
        L x = L::Constant(size, v0[f]);
        for (std::size_t k = 0; k < delta.size(); ++k)
            if (slope[k][f] != 0.0) x += slope[k][f] * delta[k];
        for (const Cross& c : cross)
            if (c.per_field[f] != 0.0) x += c.per_field[f] * delta[c.i] * delta[c.j];
        return x;
    }

    // Cloud c's bill for one sample (its row) at these hours of work.
    double bill(std::size_t c, const double* row, double hours) const {
        CloudOption cloud = scenario.clouds[c];
        if (price_key[c] >= 0) cloud.price = units::money_per_hour(row[price_key[c]]);
        return cloud_month(cloud, hours, scenario.job_hours).spend;
    }

    // The metrics of `n` samples (n <= a block) by superposition, into samples `offset`... of `out`.
    void superposed(const double* rows, Eigen::Index n, SampleMetrics& out, std::size_t offset) const {
        const Eigen::Index size = LaneBlock::SizeAtCompileTime;
        thread_local std::vector<LaneBlock> delta, flow;  // kept for the next block
        deltas(delta, rows, n, size);
        flow.clear();
        for (const NonlinearFlow& f : superposition->flows()) {
            if (f.kind == NonlinearFlow::Kind::part_sale) {
                const auto& at = part_fields[f.index];
                PartInputs<LaneBlock> part = part_shape<LaneBlock>(base.parts[f.index]);
                part.cost = field(at[0], delta, size);
                part.resale.annual_rate = field(at[1], delta, size);
                part.resale.life_years = field(at[2], delta, size);
                part.resale.salvage_fraction = field(at[3], delta, size);
                part.resale.half_life_years = field(at[4], delta, size);
                flow.push_back(sale_value(part));
            } else {
                const LaneBlock hours = field(hours_field, delta, size);
                LaneBlock spend;
                for (Eigen::Index s = 0; s < size; ++s)
                    spend[s] = bill(f.index, row_of(rows, n, s), hours[s]);
                flow.push_back(spend);
            }
        }
        superposition->evaluate(delta, flow, out, offset, n);
    }

    // The inputs of `n` samples as lanes L (dynamic, or a fixed block padded with the last row):
    // base + Σ slope·δ + Σ cross·δδ, cloud bills exactly.
    template <class L>
    ModelInputs<L> lanes(const double* rows, Eigen::Index n) const {
        const Eigen::Index size = L::SizeAtCompileTime == Eigen::Dynamic ? n : Eigen::Index{L::SizeAtCompileTime};
        std::vector<L> delta;
        deltas(delta, rows, n, size);
        ModelInputs<L> in = structure<L>();
        std::size_t f = 0;
        for_each_field(in, [&](L& x) { x = field(f++, delta, size); });
        for (std::size_t c = 0; c < bill_per_sample.size(); ++c)
            if (bill_per_sample[c])
                for (Eigen::Index s = 0; s < size; ++s)
                    in.clouds[c].spend_per_month[s] = bill(c, row_of(rows, n, s), in.training_hours[s]);
        return in;
    }

    // The base's structure (months, parts' timing and methods) with lanes of type L for numbers.
    template <class L>
    ModelInputs<L> structure() const {
        ModelInputs<L> out;
        out.horizon_months = base.horizon_months;
        out.energy_kwh.resize(base.energy_kwh.size());
        out.energy_cost.resize(base.energy_cost.size());
        out.rental_income.resize(base.rental_income.size());
        out.rental_fees.resize(base.rental_fees.size());
        out.loan.term_months = base.loan.term_months;
        for (const PartInputs<double>& p : base.parts) out.parts.push_back(part_shape<L>(p));
        out.clouds.resize(base.clouds.size());
        return out;
    }

    // A part's timing, methods and schedules with lanes of type L for its numbers, all zero: the
    // callers set them (fixed blocks would start undefined).
    template <class L>
    static PartInputs<L> part_shape(const PartInputs<double>& p) {
        PartInputs<L> part;
        for (L* x : {&part.cost, &part.resale.annual_rate, &part.resale.life_years, &part.resale.salvage_fraction,
                     &part.resale.half_life_years})
            x->setZero();
        part.purchase_month = p.purchase_month;
        part.sell_month = p.sell_month;
        part.tax_depreciation = p.tax_depreciation;
        part.wear_kept = p.wear_kept;
        part.resale.method = p.resale.method;
        part.resale.observed_fraction = p.resale.observed_fraction;
        return part;
    }
};

/// The hot path's entry points, one table per instruction set: the metrics of the first `n` samples
/// (n <= a LaneBlock) of `rows` into samples `offset`... of `out`.
struct BatchKernels {
    void (*lanes)(const SampleState& state, const double* rows, Eigen::Index n, SampleMetrics& out, std::size_t offset);
    void (*superposed)(const SampleState& state, const double* rows, Eigen::Index n, SampleMetrics& out,
                       std::size_t offset);
};

/// The active instruction set's table (payback/base/isa.hpp).
const BatchKernels& batch_kernels();

}  // namespace payback
