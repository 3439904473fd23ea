// Metrics of the rig against each cloud option, accumulated month by month from the model's
// flows. Generic over the numeric type like the model, so one scenario (double) and a batch of
// samples (Eigen lanes) compute them with the same code. A metric that does not exist (payback
// never reached) is NaN here and null at the boundary.
#pragma once

#include <vector>

#include "payback/engine.hpp"
#include "payback/numeric.hpp"

namespace payback {

/// Running state of "when does the rig's cumulative outlay fall to the cloud's cumulative spend".
/// The gap is rig outlay minus cloud spend; it moves linearly within a month, so the crossing
/// is interpolated between the month's start and end. The first month whose end has a gap at or
/// below zero gives the answer; a gap already at or below zero at that month's start gives its
/// start. NaN while not reached.
template <class T>
struct CrossingSearch {
    T months;
    typename numeric_ops<T>::mask found;

    static CrossingSearch start(const T& like) {
        using ops = numeric_ops<T>;
        return {ops::nan_like(like), ops::all_false_like(like)};
    }

    void step(int month, const T& gap_start, const T& gap_end) {
        using ops = numeric_ops<T>;
        const auto crosses = ops::logical_and(ops::logical_not(found), ops::less_equal(gap_end, 0.0));
        const auto ahead_at_start = ops::less_equal(gap_start, 0.0);
        // In months where gap_start <= 0 the fraction is unused; guard its division anyway.
        const T denominator = ops::select(ahead_at_start, ops::fill_like(gap_start, 1.0), gap_start - gap_end);
        const T fraction = ops::select(ahead_at_start, ops::fill_like(gap_start, 0.0), gap_start / denominator);
        months = ops::select(crosses, (month - 1.0) + fraction, months);
        found = ops::logical_or(found, crosses);
    }
};

/// Metrics of one cloud option against the rig.
template <class T>
struct Versus {
    T payback_months;          ///< NaN when not reached within the horizon
    T payback_months_if_sold;  ///< NaN when not reached within the horizon
    T discounted_payback_months;  ///< the same crossing on present values; NaN when not reached
    T npv_savings;             ///< NPV(renting) - NPV(building), costs as positive amounts
};

/// Totals of one option over the horizon.
template <class T>
struct OptionTotals {
    T total_cost;  ///< undiscounted, net of resale
    T npv_cost;    ///< present value at the discount rate, net of resale
};

template <class T>
struct Metrics {
    OptionTotals<T> rig;
    T rig_energy_kwh;
    std::vector<OptionTotals<T>> clouds;
    std::vector<Versus<T>> versus;
};

/// Feed it every month of simulate(); read finish() at the end.
template <class T>
class MetricsAccumulator {
public:
    explicit MetricsAccumulator(const ModelInputs<T>& in) : discount_rate_(in.discount_rate) {
        const T zero = numeric_ops<T>::fill_like(in.price_per_kwh, 0.0);
        rig_outlay_ = rig_outlay_pv_ = rig_total_ = rig_pv_ = rig_kwh_ = zero;
        const auto not_yet = CrossingSearch<T>::start(zero);
        clouds_.assign(in.clouds.size(), CloudState{zero, zero, not_yet, not_yet, not_yet});
    }

    void operator()(const MonthFlows<T>& f) {
        const T discount_start = discount_factor(discount_rate_, f.month - 1.0);
        const T discount_end = discount_factor(discount_rate_, f.month);

        const T outlay_start = rig_outlay_ + f.rig.capex;
        rig_outlay_ = outlay_start + f.rig.energy_cost;
        const T outlay_pv_start = rig_outlay_pv_ + f.rig.capex * discount_start;
        rig_outlay_pv_ = outlay_pv_start + f.rig.energy_cost * discount_end;
        rig_total_ = rig_total_ + f.rig.capex + f.rig.energy_cost - f.rig.resale;
        rig_pv_ = rig_pv_ + f.rig.capex * discount_start + (f.rig.energy_cost - f.rig.resale) * discount_end;
        rig_kwh_ = rig_kwh_ + f.rig.energy_kwh;

        for (std::size_t c = 0; c < clouds_.size(); ++c) {
            CloudState& s = clouds_[c];
            const T spent_start = s.spent;
            const T pv_start = s.pv;
            s.spent = s.spent + f.cloud_spend[c];
            s.pv = s.pv + f.cloud_spend[c] * discount_end;
            s.payback.step(f.month, outlay_start - spent_start, rig_outlay_ - s.spent);
            s.payback_if_sold.step(f.month, outlay_start - f.rig.asset_value_start - spent_start,
                                   rig_outlay_ - f.rig.asset_value_end - s.spent);
            s.discounted_payback.step(f.month, outlay_pv_start - pv_start, rig_outlay_pv_ - s.pv);
        }
    }

    Metrics<T> finish() const {
        Metrics<T> m;
        m.rig = {rig_total_, rig_pv_};
        m.rig_energy_kwh = rig_kwh_;
        for (const auto& s : clouds_) {
            m.clouds.push_back({s.spent, s.pv});
            m.versus.push_back({s.payback.months, s.payback_if_sold.months, s.discounted_payback.months,
                                s.pv - rig_pv_});
        }
        return m;
    }

private:
    struct CloudState {
        T spent;
        T pv;
        CrossingSearch<T> payback;
        CrossingSearch<T> payback_if_sold;
        CrossingSearch<T> discounted_payback;
    };

    T discount_rate_;
    T rig_outlay_;     ///< capex + energy so far, resale not counted
    T rig_outlay_pv_;  ///< the same in present value
    T rig_total_;
    T rig_pv_;
    T rig_kwh_;
    std::vector<CloudState> clouds_;
};

/// Runs the model and returns its metrics (no table kept): the fast path, for any T.
template <class T>
Metrics<T> evaluate(const ModelInputs<T>& in) {
    MetricsAccumulator<T> acc(in);
    simulate(in, acc);
    return acc.finish();
}

}  // namespace payback
