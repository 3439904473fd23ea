#include "superposition.hpp"

#include <array>
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

namespace payback {
namespace {

constexpr int gaps_per_month = 4;  // start, end, pv_start, pv_end
constexpr std::size_t shape_buckets_per_month = 8;  // Gaps::months_below

// The engine's outputs that the batch reads, flat: the rig's total and NPV cost, each cloud's
// total cost and NPV savings, then each month's gaps for each cloud.
std::vector<double> outputs(const ModelInputs<double>& in) {
    MetricsAccumulator<double> acc(in, /*if_sold=*/false);
    std::vector<double> gaps;
    gaps.reserve(static_cast<std::size_t>(in.horizon_months) * in.clouds.size() * gaps_per_month);
    simulate(in, [&](const MonthFlows<double>& f) {
        acc(f);
        for (const auto& g : acc.gaps()) gaps.insert(gaps.end(), {g.start, g.end, g.pv_start, g.pv_end});
    });
    const Metrics<double> m = acc.finish();
    std::vector<double> y{m.rig.total_cost, m.rig.npv_cost};
    for (std::size_t c = 0; c < m.clouds.size(); ++c) {
        y.push_back(m.clouds[c].total_cost);
        y.push_back(m.versus[c].npv_savings);
    }
    y.insert(y.end(), gaps.begin(), gaps.end());
    return y;
}

double flow_value(const ModelInputs<double>& in, const NonlinearFlow& flow) {
    return flow.kind == NonlinearFlow::Kind::part_sale ? sale_value(in.parts[flow.index])
                                                        : in.clouds[flow.index].spend_per_month;
}

// Moves the flow in `in` and returns by how much.
double move(ModelInputs<double>& in, const NonlinearFlow& flow) {
    if (flow.kind == NonlinearFlow::Kind::cloud_bill) {
        double& spend = in.clouds[flow.index].spend_per_month;
        const double by = std::max(1.0, std::abs(spend));
        spend += by;
        return by;
    }
    // Doubling what wear leaves of the part at the end of its sell month doubles the sale and
    // nothing else the batch reads: that value is the part's last, as it is sold then.
    PartInputs<double>& part = in.parts[flow.index];
    const double before = sale_value(part);
    if (part.wear_kept.empty()) part.wear_kept.assign(static_cast<std::size_t>(in.horizon_months) + 1, 1.0);
    part.wear_kept[static_cast<std::size_t>(part.sell_month)] *= 2.0;
    return sale_value(part) - before;
}

}  // namespace

Superposition::Superposition(const ModelInputs<double>& base, std::vector<NonlinearFlow> flows,
                             const std::vector<ModelInputs<double>>& single, const std::vector<double>& step,
                             const std::vector<ModelInputs<double>>& pair)
    : flows_(std::move(flows)), keys_(single.size()), clouds_(base.clouds.size()), months_(base.horizon_months) {
    const std::vector<double> y0 = outputs(base);
    // Each flow's effect on every output, per unit of the flow.
    std::vector<std::vector<double>> effect;
    for (const NonlinearFlow& flow : flows_) {
        flow_at_base_.push_back(flow_value(base, flow));
        ModelInputs<double> moved = base;
        const double by = move(moved, flow);
        if (!(std::abs(by) > 0.0) || !std::isfinite(by)) {
            why_not_ = fmt::format("part {} sells for nothing at the scenario's values", flow.index + 1);
            return;
        }
        std::vector<double> e = outputs(moved);
        for (std::size_t i = 0; i < e.size(); ++i) e[i] = (e[i] - y0[i]) / by;
        effect.push_back(std::move(e));
    }
    // The outputs less the flows' share: what is multilinear in the keys.
    const auto residual = [&](const ModelInputs<double>& in) {
        std::vector<double> y = outputs(in);
        for (std::size_t n = 0; n < flows_.size(); ++n) {
            const double moved = flow_value(in, flows_[n]) - flow_at_base_[n];
            for (std::size_t i = 0; i < y.size(); ++i) y[i] -= effect[n][i] * moved;
        }
        return y;
    };
    std::vector<std::vector<double>> alone;  // [key][output]
    for (const ModelInputs<double>& in : single) alone.push_back(residual(in));

    const std::size_t features = 1 + keys_ + keys_ * (keys_ - 1) / 2 + flows_.size();
    std::vector<std::vector<double>> coefficient(y0.size(), std::vector<double>(features, 0.0));
    for (std::size_t i = 0; i < y0.size(); ++i) {
        coefficient[i][0] = y0[i];
        for (std::size_t k = 0; k < keys_; ++k) coefficient[i][1 + k] = (alone[k][i] - y0[i]) / step[k];
    }
    std::size_t f = 1 + keys_, p = 0;
    for (std::size_t a = 0; a < keys_; ++a)
        for (std::size_t b = a + 1; b < keys_; ++b, ++f, ++p) {
            const std::vector<double> both = residual(pair[p]);
            for (std::size_t i = 0; i < y0.size(); ++i) {
                // Left out where it is rounding: far below the 1e-9 the batch promises.
                const double interaction = both[i] - alone[a][i] - alone[b][i] + y0[i];
                const double scale = std::abs(both[i]) + std::abs(alone[a][i]) + std::abs(alone[b][i]) + std::abs(y0[i]);
                if (std::abs(interaction) > 1e-13 * scale) coefficient[i][f] = interaction / (step[a] * step[b]);
            }
        }
    for (std::size_t n = 0; n < flows_.size(); ++n, ++f)
        for (std::size_t i = 0; i < y0.size(); ++i) coefficient[i][f] = effect[n][i];

    const std::size_t totals = 2 + 2 * clouds_;
    for (std::size_t i = 0; i < totals; ++i) {
        Terms terms;
        for (std::size_t j = 0; j < features; ++j)
            if (coefficient[i][j] != 0.0) {
                terms.feature.push_back(static_cast<int>(j));
                terms.coefficient.push_back(coefficient[i][j]);
            }
        totals_.push_back(std::move(terms));
    }
    // The gaps: output totals + ((month - 1) · clouds + cloud) · 4 + {start, end, pv_start, pv_end}.
    const auto row = [&](std::size_t c, std::size_t month0, std::size_t gap) -> const std::vector<double>& {
        return coefficient[totals + (month0 * clouds_ + c) * gaps_per_month + gap];
    };
    for (std::size_t c = 0; c < clouds_; ++c)
        for (const std::size_t first_gap : {std::size_t{0}, std::size_t{2}}) {
            std::vector<const std::vector<double>*> start, end;
            for (std::size_t m0 = 0; m0 < static_cast<std::size_t>(months_); ++m0) {
                start.push_back(&row(c, m0, first_gap));
                end.push_back(&row(c, m0, first_gap + 1));
            }
            searches_.push_back(search_gaps(start, end));
        }
}

Superposition::Gaps Superposition::search_gaps(const std::vector<const std::vector<double>*>& start,
                                               const std::vector<const std::vector<double>*>& end) {
    const std::size_t months = end.size(), features = end.front()->size();
    Gaps g;
    for (std::size_t j = 0; j < features; ++j) {
        bool used = false;
        for (std::size_t m0 = 0; m0 < months && !used; ++m0) used = (*start[m0])[j] != 0.0 || (*end[m0])[j] != 0.0;
        if (used) g.feature.push_back(static_cast<int>(j));
    }
    for (std::size_t m0 = 0; m0 < months; ++m0)
        for (const int j : g.feature) {
            g.start.push_back((*start[m0])[static_cast<std::size_t>(j)]);
            g.end.push_back((*end[m0])[static_cast<std::size_t>(j)]);
        }
    // The scenario's own gap (feature 0, the constant) at each month's end.
    const auto base_gap = [&](std::size_t m0) { return (*end[m0])[0]; };

    // Each month's change of a feature's coefficient is measured against the scenario's own
    // change that month, when that has one sign every month: discounting shrinks every flow's
    // change alike, so the ratios stay put and the bounds hold tight. Otherwise against 1.
    std::vector<double> weight(months, 1.0);
    double sign = 0.0, least_weight = INFINITY, greatest_weight = 0.0;
    for (std::size_t m0 = 1; m0 < months; ++m0) {
        const double change = base_gap(m0) - base_gap(m0 - 1);
        sign = sign == 0.0 && change != 0.0 ? std::copysign(1.0, change) : sign;
        weight[m0] = change * sign;
        least_weight = std::min(least_weight, weight[m0]);
        greatest_weight = std::max(greatest_weight, weight[m0]);
    }
    if (!(least_weight > 1e-12 * greatest_weight) || !std::isfinite(greatest_weight)) {
        std::fill(weight.begin(), weight.end(), 1.0);
        least_weight = 1.0;
    }
    g.weight_floor = months > 1 ? least_weight : 1.0;
    for (const int j : g.feature) {
        double least = 0.0, greatest = 0.0, largest = 0.0;
        for (std::size_t m0 = 0; m0 < months; ++m0) {
            const double here = (*end[m0])[static_cast<std::size_t>(j)];
            largest = std::max(largest, std::abs(here));
            if (m0 == 0) continue;
            const double step = (here - (*end[m0 - 1])[static_cast<std::size_t>(j)]) / weight[m0];
            least = m0 == 1 ? step : std::min(least, step);
            greatest = m0 == 1 ? step : std::max(greatest, step);
        }
        g.least_step.push_back(least);
        g.greatest_step.push_back(greatest);
        g.largest.push_back(largest);
    }

    // The scenario's own gap from 0 at the first month to 1 at the last, never falling back (the
    // guesses search it); evenly spaced when it is flat.
    g.shape.assign(months, 0.0);
    const double span = base_gap(months - 1) - base_gap(0);
    for (std::size_t m0 = 1; m0 < months; ++m0) {
        const double along = span != 0.0 && std::isfinite(span)
                                 ? (base_gap(m0) - base_gap(0)) / span
                                 : static_cast<double>(m0) / static_cast<double>(months - 1);
        g.shape[m0] = std::max(g.shape[m0 - 1], along);
    }
    const std::size_t buckets = shape_buckets_per_month * months;
    g.months_below.resize(buckets + 1);
    for (std::size_t b = 0, below = 0; b <= buckets; ++b) {
        const double at = static_cast<double>(b) / static_cast<double>(buckets);
        while (below + 1 < months && g.shape[below + 1] < at) ++below;
        g.months_below[b] = static_cast<std::uint32_t>(below);
    }
    return g;
}

LaneBlock Superposition::value(const Terms& terms, const std::vector<LaneBlock>& features) const {
    LaneBlock sum = LaneBlock::Zero();
    for (std::size_t j = 0; j < terms.feature.size(); ++j)
        sum += terms.coefficient[j] * features[static_cast<std::size_t>(terms.feature[j])];
    return sum;
}

// A block's paybacks: for each lane, the first month whose gap at its end is at or below zero,
// and where in that month the gap crosses (CrossingSearch::fraction, with the gap at the month's
// start: the months before leave a search unchanged). A lane's features bound how its gap can
// change from one month to the next (the sum over them of the least and greatest change any
// month gives each), with a margin far above rounding:
//   - a gap that falls every month is guessed to cross where it would if it kept the scenario's
//     own shape from its first month to its last (Gaps::shape): exactly there when every feature
//     moves its gap alike, as constant monthly flows do, nominal or discounted. Every lane's
//     guess is checked at once; a wrong one steps to the month;
//   - a gap that never falls crosses in its first month or never;
//   - the others go month by month, every such lane at once.
void Superposition::paybacks(const Gaps& gaps, const std::vector<LaneBlock>& features, double* out,
                             Eigen::Index n) const {
    // Groups of 4 lanes in one vector register each (Eigen's Array4d), with sums that do not wait
    // on each other; per-lane decisions in plain loops.
    constexpr std::size_t lanes = LaneBlock::SizeAtCompileTime, group = 4, groups = lanes / group;
    using Group = Eigen::Array4d;
    const std::size_t width = gaps.feature.size();
    const auto months = static_cast<std::size_t>(months_);
    const auto feature = [&](std::size_t a) { return features[static_cast<std::size_t>(gaps.feature[a])].data(); };
    // Each lane's gap at month row[i] / width (coefficients: gaps.start or gaps.end).
    const auto gathered = [&](const std::vector<double>& coefficients, const std::int64_t* row, double* gap) {
        std::array<Group, groups> sum;
        sum.fill(Group::Zero());
        for (std::size_t a = 0; a < width; ++a) {
            const double* c = coefficients.data() + a;
            const double* x = feature(a);
            for (std::size_t g = 0, i = 0; g < groups; ++g, i += group)
                sum[g] += Group(c[row[i]], c[row[i + 1]], c[row[i + 2]], c[row[i + 3]]) * Eigen::Map<const Group>(x + i);
        }
        for (std::size_t g = 0; g < groups; ++g) Eigen::Map<Group>(gap + g * group) = sum[g];
    };
    // One lane's gap at the end (or start) of month m.
    const auto gap = [&](const std::vector<double>& coefficients, std::size_t m, std::size_t lane) {
        const double* c = coefficients.data() + m * width;
        double sum = 0.0;
        for (std::size_t a = 0; a < width; ++a) sum += c[a] * feature(a)[lane];
        return sum;
    };

    // Every lane at once: the bounds, and the gaps at the ends of the first and last months.
    alignas(32) double greatest_rise[lanes], least_rise[lanes], scale[lanes], first[lanes], last[lanes];
    const double* last_row = gaps.end.data() + (months - 1) * width;
    for (std::size_t i = 0; i < lanes; i += group) {
        Group rise_bound = Group::Zero(), fall_bound = Group::Zero(), size = Group::Zero();
        Group at_first = Group::Zero(), at_last = Group::Zero();
        for (std::size_t a = 0; a < width; ++a) {
            const Group x = Eigen::Map<const Group>(feature(a) + i);
            // x · (greatest step if x >= 0, else least), without a branch on the sign.
            const Group positive = x.max(0.0), negative = x.min(0.0);
            rise_bound += positive * gaps.greatest_step[a] + negative * gaps.least_step[a];
            fall_bound += positive * gaps.least_step[a] + negative * gaps.greatest_step[a];
            size += x.abs() * gaps.largest[a];
            at_first += gaps.end[a] * x;
            at_last += last_row[a] * x;
        }
        // In money: a month's change is its weight (at least weight_floor) times the bound, and
        // only a falling bound's top and a rising one's bottom are read.
        Eigen::Map<Group>(greatest_rise + i) = rise_bound * gaps.weight_floor;
        Eigen::Map<Group>(least_rise + i) = fall_bound * gaps.weight_floor;
        Eigen::Map<Group>(scale + i) = size;
        Eigen::Map<Group>(first + i) = at_first;
        Eigen::Map<Group>(last + i) = at_last;
    }

    // Each lane's state and guess: the last month whose shape lies below where the lane's gap
    // would cross, plus one (a binary search of the shape).
    enum State : unsigned char { settled, never, guessed, stepped };
    State state[lanes];
    alignas(32) double month[lanes];
    alignas(32) std::int64_t row[lanes];
    const std::size_t buckets = gaps.months_below.size() - 1;
    for (std::size_t i = 0; i < lanes; ++i) {
        const bool falling = greatest_rise[i] <= -1e-9 * scale[i];
        const bool never_falls = least_rise[i] >= 1e-9 * scale[i];
        const bool first_crosses = first[i] <= 0.0;
        state[i] = (falling && !(last[i] <= 0.0)) || (never_falls && !first_crosses) ? never
                   : (falling || never_falls) && first_crosses                     ? settled
                   : falling                                                       ? guessed
                                                                                   : stepped;
        const double crossing = first[i] / (first[i] - last[i]);  // on the shape's scale
        // The months below the crossing's bucket, and the next month if it lies below the crossing
        // too (exact when no bucket holds two months; else a guess all the same).
        const double bucket = std::clamp(crossing, 0.0, 1.0) * static_cast<double>(buckets);  // NaN: 0
        std::size_t below = gaps.months_below[bucket >= 0.0 ? static_cast<std::size_t>(bucket) : 0];
        below += static_cast<std::size_t>(below + 1 < months && gaps.shape[std::min(below + 1, months - 1)] < crossing);
        month[i] = state[i] == guessed ? static_cast<double>(std::min(below + 1, months - 1)) : 0.0;
        row[i] = static_cast<std::int64_t>(month[i]) * static_cast<std::int64_t>(width);
    }
    // The guesses checked: a guess g that ends at or below zero is the month when g - 1 ends above
    // zero. As the gap falls by at least -greatest_rise a month, g - 1 ended at or above
    // gap(g) - greatest_rise, which settles most without computing it.
    alignas(32) double month_end[lanes], before[lanes];
    gathered(gaps.end, row, month_end);
    bool unsure = false;
    for (std::size_t i = 0; i < lanes; ++i)
        unsure = unsure || (state[i] == guessed && month_end[i] <= 0.0 && !(month_end[i] - greatest_rise[i] > 1e-9 * scale[i]));
    if (unsure) {
        alignas(32) std::int64_t row_before[lanes];
        for (std::size_t i = 0; i < lanes; ++i) row_before[i] = std::max<std::int64_t>(row[i] - static_cast<std::int64_t>(width), 0);
        gathered(gaps.end, row_before, before);
    }
    for (std::size_t i = 0; i < lanes; ++i) {
        if (state[i] != guessed) continue;
        if (month_end[i] <= 0.0 && (month_end[i] - greatest_rise[i] > 1e-9 * scale[i] || before[i] > 0.0)) {
            state[i] = settled;
            continue;
        }
        // A wrong guess: up to the first month at or below zero (the last one is), or down to it.
        auto m = static_cast<std::size_t>(month[i]);
        double end = month_end[i];
        for (; !(end <= 0.0) && m + 1 < months; end = gap(gaps.end, m, i)) ++m;
        for (double prior; m > 0 && (prior = gap(gaps.end, m - 1, i)) <= 0.0; end = prior) --m;
        state[i] = end <= 0.0 ? settled : never;
        month[i] = static_cast<double>(m);
        month_end[i] = end;
    }

    // The lanes stepped through month by month, every one at once: a month's coefficients serve
    // every lane.
    bool any_stepped = false;
    for (std::size_t i = 0; i < lanes; ++i) any_stepped = any_stepped || state[i] == stepped;
    for (std::size_t m = 0; any_stepped && m < months; ++m) {
        alignas(32) double at_month[lanes];
        const double* c = gaps.end.data() + m * width;
        std::array<Group, groups> sum;
        sum.fill(Group::Zero());
        for (std::size_t a = 0; a < width; ++a)
            for (std::size_t g = 0; g < groups; ++g) sum[g] += c[a] * Eigen::Map<const Group>(feature(a) + g * group);
        for (std::size_t g = 0; g < groups; ++g) Eigen::Map<Group>(at_month + g * group) = sum[g];
        any_stepped = false;
        for (std::size_t i = 0; i < lanes; ++i) {
            if (state[i] != stepped) continue;
            if (at_month[i] <= 0.0) {
                state[i] = settled;
                month[i] = static_cast<double>(m);
                month_end[i] = at_month[i];
            } else {
                any_stepped = m + 1 < months;
                if (!any_stepped) state[i] = never;
            }
        }
    }

    // Where in its month each lane crosses.
    alignas(32) double at_start[lanes];
    for (std::size_t i = 0; i < lanes; ++i) {
        if (state[i] == settled && month[i] == 0.0) month_end[i] = first[i];
        row[i] = state[i] == settled ? static_cast<std::int64_t>(month[i]) * static_cast<std::int64_t>(width) : 0;
    }
    gathered(gaps.start, row, at_start);
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i)
        out[i] = state[i] == settled ? month[i] + CrossingSearch<double>::fraction(at_start[i], month_end[i])
                                     : std::numeric_limits<double>::quiet_NaN();
}

void Superposition::evaluate(const std::vector<LaneBlock>& delta, const std::vector<LaneBlock>& flow,
                             SampleMetrics& out, std::size_t offset, Eigen::Index n) const {
    thread_local std::vector<LaneBlock> x;  // the features, in the coefficients' order; kept for the next block
    x.clear();
    x.push_back(LaneBlock::Ones());
    for (std::size_t k = 0; k < keys_; ++k) x.push_back(delta[k]);
    for (std::size_t a = 0; a < keys_; ++a)
        for (std::size_t b = a + 1; b < keys_; ++b) x.push_back(delta[a] * delta[b]);
    for (std::size_t f = 0; f < flows_.size(); ++f) x.push_back(flow[f] - flow_at_base_[f]);

    const auto put = [&](const LaneBlock& values, std::vector<double>& column) {
        std::copy_n(values.data(), n, column.data() + offset);
    };
    if (!out.rig_total_cost.empty()) put(value(totals_[0], x), out.rig_total_cost);
    if (!out.rig_npv_cost.empty()) put(value(totals_[1], x), out.rig_npv_cost);
    for (std::size_t c = 0; c < out.cloud_total_cost.size(); ++c) put(value(totals_[2 + 2 * c], x), out.cloud_total_cost[c]);
    for (std::size_t c = 0; c < out.npv_savings.size(); ++c) put(value(totals_[3 + 2 * c], x), out.npv_savings[c]);
    for (std::size_t c = 0; c < out.payback_months.size(); ++c)
        paybacks(searches_[2 * c], x, out.payback_months[c].data() + offset, n);
    for (std::size_t c = 0; c < out.discounted_payback_months.size(); ++c)
        paybacks(searches_[2 * c + 1], x, out.discounted_payback_months[c].data() + offset, n);
}

}  // namespace payback
