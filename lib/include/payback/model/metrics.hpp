// Metrics of the rig against each cloud option, accumulated month by month from the model's
// flows. Generic over the numeric type like the model, so one scenario (double) and a batch of
// samples (Eigen lanes) compute them with the same code. A metric that does not exist (payback
// never reached) is NaN here and null at the boundary.
#pragma once

#include <vector>

#include "payback/base/numeric.hpp"
#include "payback/finance/crossing_search.hpp"
#include "payback/model/engine.hpp"

namespace payback {

/// Metrics of one cloud option against the rig: building instead of renting.
template <class T>
struct Versus {
    T payback_months;             ///< NaN when not reached within the horizon
    T payback_months_if_sold;     ///< NaN when not reached within the horizon
    T discounted_payback_months;  ///< the same crossing on present values; NaN when not reached
    T npv_savings;                ///< NPV(building) - NPV(renting), both signed cash flows
    T roi;                        ///< undiscounted savings over the horizon / capex; NaN without capex
};

/// Totals of one option over the horizon.
template <class T>
struct OptionTotals {
    T total_cost;  ///< undiscounted, net of resale and every other income: -sum of net
    T npv_cost;    ///< present value of the same: -sum of discounted
    T levelized_cost_per_gpu_hour;  ///< npv_cost / discounted hours of work; NaN without work
};

template <class T>
struct Metrics {
    OptionTotals<T> rig;
    T rig_energy_kwh;
    std::vector<OptionTotals<T>> clouds;
    std::vector<Versus<T>> versus;
};

/// Feed it every month of simulate(); read finish() at the end. Payback counts operating flows:
/// no debt flows (as SAM) and no hardware sales (the if-sold variant counts the hardware at its
/// resale value, sold or still held).
template <class T>
class MetricsAccumulator {
public:
    /// `if_sold`: also search for payback counting the hardware at its value (the batch path
    /// leaves it out when no one reads it; it is NaN then).
    explicit MetricsAccumulator(const ModelInputs<T>& in, bool if_sold = true)
        : discount_rate_(in.discount_rate), if_sold_(if_sold) {
        const T zero = numeric_ops<T>::fill_like(in.discount_rate, 0.0);
        rig_ = {zero, zero};
        rig_capex_ = rig_kwh_ = rig_resold_ = work_pv_ = zero;
        discount_end_ = numeric_ops<T>::fill_like(in.discount_rate, 1.0);
        const auto not_yet = CrossingSearch<T>::start(zero);
        clouds_.assign(in.clouds.size(), CloudState{{zero, zero}, zero, zero, not_yet, not_yet, not_yet});
        gaps_.assign(in.clouds.size(), Gaps{zero, zero, zero, zero});
    }

    /// What the payback searches saw in the last month fed, per cloud option: the operating gap
    /// at the month's start and end, nominal and discounted. The batch's superposition records
    /// them month by month (superposition.hpp).
    struct Gaps {
        T start, end, pv_start, pv_end;
    };
    const std::vector<Gaps>& gaps() const { return gaps_; }

    void operator()(const MonthFlows<T>& f) {
        const T discount_start = discount_end_;  // the last month's end
        discount_end_ = discount_factor(discount_rate_, f.month);
        const T& discount_end = discount_end_;
        const T rig_start = f.rig.at_start(), rig_end = f.rig.at_end();
        rig_.add(rig_start, rig_end, discount_start, discount_end);
        rig_capex_ = rig_capex_ - f.rig.capex;
        rig_kwh_ = rig_kwh_ + f.energy_kwh;
        work_pv_ = work_pv_ + f.work_hours * discount_end;
        const T rig_operating_start = f.rig.operating_at_start();
        const T rig_operating_end = f.rig.operating_part_of(rig_end);
        for (std::size_t c = 0; c < clouds_.size(); ++c) {
            CloudState& s = clouds_[c];
            const LineItems<T>& cloud = f.clouds[c];
            const T cloud_start = cloud.at_start(), cloud_end = cloud.at_end();
            s.totals.add(cloud_start, cloud_end, discount_start, discount_end);
            // Gap: how far building is behind renting, counting operating flows only.
            const T at_start = rig_operating_start - cloud.operating_at_start();
            const T at_end = rig_operating_end - cloud.operating_part_of(cloud_end);
            const T gap_start = 0.0 - (s.operating + at_start);
            const T gap_end = gap_start - at_end;
            s.operating = s.operating + at_start + at_end;
            s.payback.step(f.month, gap_start, gap_end);
            if (if_sold_)
                s.payback_if_sold.step(f.month, gap_start - rig_resold_ - f.asset_value_start,
                                       gap_end - rig_resold_ - f.asset_value_end);
            const T pv_gap_start = 0.0 - (s.operating_pv + at_start * discount_start);
            const T pv_gap_end = pv_gap_start - at_end * discount_end;
            s.operating_pv = s.operating_pv + at_start * discount_start + at_end * discount_end;
            s.discounted_payback.step(f.month, pv_gap_start, pv_gap_end);
            gaps_[c] = {gap_start, gap_end, pv_gap_start, pv_gap_end};
        }
        rig_resold_ = rig_resold_ + f.rig.resale;
    }

    Metrics<T> finish() const {
        using ops = numeric_ops<T>;
        Metrics<T> m;
        m.rig = rig_.totals(work_pv_);
        m.rig_energy_kwh = rig_kwh_;
        const auto no_capex = ops::equal(rig_capex_, 0.0);
        for (const auto& s : clouds_) {
            m.clouds.push_back(s.totals.totals(work_pv_));
            const T savings = rig_.net - s.totals.net;
            const T roi = ops::select(no_capex, ops::nan_like(savings),
                                      savings / ops::select(no_capex, ops::fill_like(savings, 1.0), rig_capex_));
            m.versus.push_back({s.payback.months, s.payback_if_sold.months, s.discounted_payback.months,
                                rig_.net_pv - s.totals.net_pv, roi});
        }
        return m;
    }

private:
    /// Running sums of one option's signed flows.
    struct Sums {
        T net;
        T net_pv;
        void add(const T& at_start, const T& at_end, const T& discount_start, const T& discount_end) {
            net = net + at_start + at_end;
            net_pv = net_pv + at_start * discount_start + at_end * discount_end;
        }
        OptionTotals<T> totals(const T& work_pv) const {
            using ops = numeric_ops<T>;
            const T npv_cost = 0.0 - net_pv;
            const auto no_work = ops::less_equal(work_pv, 0.0);
            const T levelized = ops::select(no_work, ops::nan_like(npv_cost),
                                            npv_cost / ops::select(no_work, ops::fill_like(work_pv, 1.0), work_pv));
            return {0.0 - net, npv_cost, levelized};
        }
    };
    struct CloudState {
        Sums totals;
        T operating;     ///< running sum of (rig - cloud) operating flows
        T operating_pv;  ///< the same in present value
        CrossingSearch<T> payback;
        CrossingSearch<T> payback_if_sold;
        CrossingSearch<T> discounted_payback;
    };

    T discount_rate_;
    bool if_sold_;
    T discount_end_;  ///< the discount factor at the end of the last month fed
    Sums rig_;
    T rig_capex_;   ///< capex over the horizon, a positive amount
    T rig_kwh_;
    T rig_resold_;  ///< hardware sold before the current month
    T work_pv_;     ///< discounted hours of work
    std::vector<CloudState> clouds_;
    std::vector<Gaps> gaps_;
};

/// Runs the model and returns its metrics (no table kept): the fast path, for any T.
/// `if_sold`: as MetricsAccumulator's.
template <class T>
Metrics<T> evaluate(const ModelInputs<T>& in, bool if_sold = true) {
    MetricsAccumulator<T> acc(in, if_sold);
    simulate(in, acc);
    return acc.finish();
}

}  // namespace payback
