#include "superposition.hpp"

#include <array>
#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include <fmt/format.h>

namespace payback {
namespace {

constexpr int gaps_per_month = 4;  // start, end, pv_start, pv_end

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
    const auto months = static_cast<std::size_t>(months_);
    for (std::size_t c = 0; c < clouds_; ++c)
        for (const std::size_t first_gap : {std::size_t{0}, std::size_t{2}}) {
            Gaps g;
            for (std::size_t j = 0; j < features; ++j) {
                bool used = false;
                for (std::size_t m0 = 0; m0 < months && !used; ++m0)
                    used = row(c, m0, first_gap)[j] != 0.0 || row(c, m0, first_gap + 1)[j] != 0.0;
                if (used) g.feature.push_back(static_cast<int>(j));
            }
            // Rows padded with zeros to a multiple of 4 features: a month's gap is then a dot
            // product in whole vectors.
            g.width = (g.feature.size() + 3) / 4 * 4;
            for (std::size_t m0 = 0; m0 < months; ++m0)
                for (std::size_t a = 0; a < g.width; ++a) {
                    const bool real = a < g.feature.size();
                    const auto j = real ? static_cast<std::size_t>(g.feature[a]) : 0;
                    g.start.push_back(real ? row(c, m0, first_gap)[j] : 0.0);
                    g.end.push_back(real ? row(c, m0, first_gap + 1)[j] : 0.0);
                }
            for (const int j : g.feature) {
                double least = 0.0, greatest = 0.0, largest = 0.0;
                for (std::size_t m0 = 0; m0 < months; ++m0) {
                    const double here = row(c, m0, first_gap + 1)[static_cast<std::size_t>(j)];
                    largest = std::max(largest, std::abs(here));
                    if (m0 == 0) continue;
                    const double step = here - row(c, m0 - 1, first_gap + 1)[static_cast<std::size_t>(j)];
                    least = m0 == 1 ? step : std::min(least, step);
                    greatest = m0 == 1 ? step : std::max(greatest, step);
                }
                g.least_step.push_back(least);
                g.greatest_step.push_back(greatest);
                g.largest.push_back(largest);
            }
            searches_.push_back(std::move(g));
        }
}

LaneBlock Superposition::value(const Terms& terms, const std::vector<LaneBlock>& features) const {
    LaneBlock sum = LaneBlock::Zero();
    for (std::size_t j = 0; j < terms.feature.size(); ++j)
        sum += terms.coefficient[j] * features[static_cast<std::size_t>(terms.feature[j])];
    return sum;
}

// A block's paybacks: for each lane, the first month whose gap at its end is at or below zero.
// That month alone goes through the engine's CrossingSearch, with the gap at its start (the months
// before leave a search unchanged). A lane whose gap provably falls every month (the sum over its
// features of the largest rise any month gives each is negative, by a margin far above rounding)
// starts from a guess and steps to that month; the others go month by month.
LaneBlock Superposition::paybacks(const Gaps& gaps, const std::vector<LaneBlock>& features) const {
    const std::size_t n = gaps.feature.size(), width = gaps.width;
    const auto months = static_cast<std::size_t>(months_);
    LaneBlock greatest_rise = LaneBlock::Zero(), scale = LaneBlock::Zero();
    for (std::size_t a = 0; a < n; ++a) {
        const LaneBlock& x = features[static_cast<std::size_t>(gaps.feature[a])];
        greatest_rise += (x >= 0.0).select(x * gaps.greatest_step[a], x * gaps.least_step[a]);
        scale += x.abs() * gaps.largest[a];
    }
    const auto falling = (greatest_rise <= -1e-9 * scale).eval();

    constexpr auto lanes = static_cast<std::size_t>(LaneBlock::SizeAtCompileTime);
    // Each lane's features, padded with zeros; on the stack for up to 16 features.
    std::array<double, lanes * 16> on_stack;
    std::vector<double> on_heap;
    std::span<double> x = width <= 16 ? std::span<double>(on_stack.data(), lanes * width)
                                      : std::span<double>((on_heap.resize(lanes * width), on_heap));
    std::fill(x.begin(), x.end(), 0.0);
    for (std::size_t a = 0; a < n; ++a)
        for (std::size_t i = 0; i < lanes; ++i)
            x[i * width + a] = features[static_cast<std::size_t>(gaps.feature[a])][static_cast<Eigen::Index>(i)];
    const auto gap = [&](const std::vector<double>& coefficients, std::size_t m, std::size_t lane) {
        const double* c = coefficients.data() + m * width;
        const double* f = x.data() + lane * width;
        Eigen::Array4d sum = Eigen::Array4d::Zero();
        for (std::size_t a = 0; a < width; a += 4)
            sum += Eigen::Map<const Eigen::Array4d>(c + a) * Eigen::Map<const Eigen::Array4d>(f + a);
        return sum.sum();
    };

    // A falling gap's first month at or below zero lies where the straight line through its first
    // and last months says, or near it (the gap falls by about as much each month): a guess, then
    // steps to the first such month.
    LaneBlock result;
    for (std::size_t i = 0; i < lanes; ++i) {
        const auto lane = static_cast<Eigen::Index>(i);
        std::size_t m = 0;
        double end = 0.0;  // the gap at the end of month m
        if (falling[lane]) {
            const double first = gap(gaps.end, 0, i), last = gap(gaps.end, months - 1, i);
            if (!(last <= 0.0)) m = months;  // never
            else if (first <= 0.0) end = first;
            else {  // 0 < first, last <= 0: months >= 2
                const double line = std::floor(first / (first - last) * static_cast<double>(months - 1));
                const double guess = std::clamp(line, 1.0, static_cast<double>(months - 1));
                m = std::isfinite(guess) ? static_cast<std::size_t>(guess) : months - 1;
                // Up to the first month at or below zero (the last one is), or down to it.
                for (end = gap(gaps.end, m, i); !(end <= 0.0); end = gap(gaps.end, m, i)) ++m;
                for (double before; m > 0 && (before = gap(gaps.end, m - 1, i)) <= 0.0; end = before) --m;
            }
        } else {
            while (m < months && !((end = gap(gaps.end, m, i)) <= 0.0)) ++m;  // month by month
        }
        if (m == months) {
            result[static_cast<Eigen::Index>(i)] = std::numeric_limits<double>::quiet_NaN();
            continue;
        }
        auto search = CrossingSearch<double>::start(0.0);
        search.step(static_cast<int>(m) + 1, gap(gaps.start, m, i), end);
        result[static_cast<Eigen::Index>(i)] = search.months;
    }
    return result;
}

Metrics<LaneBlock> Superposition::evaluate(const std::vector<LaneBlock>& delta,
                                           const std::vector<LaneBlock>& flow) const {
    thread_local std::vector<LaneBlock> x;  // the features, in the coefficients' order; kept for the next block
    x.clear();
    x.push_back(LaneBlock::Ones());
    for (std::size_t k = 0; k < keys_; ++k) x.push_back(delta[k]);
    for (std::size_t a = 0; a < keys_; ++a)
        for (std::size_t b = a + 1; b < keys_; ++b) x.push_back(delta[a] * delta[b]);
    for (std::size_t n = 0; n < flows_.size(); ++n) x.push_back(flow[n] - flow_at_base_[n]);

    const LaneBlock nan = LaneBlock::Constant(std::numeric_limits<double>::quiet_NaN());
    Metrics<LaneBlock> m;
    m.rig = {value(totals_[0], x), value(totals_[1], x), nan};
    m.rig_energy_kwh = nan;
    for (std::size_t c = 0; c < clouds_; ++c) {
        m.clouds.push_back({value(totals_[2 + 2 * c], x), nan, nan});
        m.versus.push_back({paybacks(searches_[2 * c], x), nan, paybacks(searches_[2 * c + 1], x),
                            value(totals_[3 + 2 * c], x), nan});
    }
    return m;
}

}  // namespace payback
