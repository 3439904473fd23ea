#include "whatif/superposition.hpp"

#include <array>
#include <algorithm>
#include <cmath>
#include <limits>

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
    for (std::size_t c = 0; c < clouds_; ++c)
        for (const std::size_t first_gap : {std::size_t{0}, std::size_t{2}}) {
            std::vector<const std::vector<double>*> start, end;
            for (std::size_t m0 = 0; m0 < static_cast<std::size_t>(months_); ++m0) {
                start.push_back(&row(c, m0, first_gap));
                end.push_back(&row(c, m0, first_gap + 1));
            }
            searches_.emplace_back(start, end);
        }
}

LaneBlock Superposition::value(const Terms& terms, const std::vector<LaneBlock>& features) const {
    LaneBlock sum = LaneBlock::Zero();
    for (std::size_t j = 0; j < terms.feature.size(); ++j)
        sum += terms.coefficient[j] * features[static_cast<std::size_t>(terms.feature[j])];
    return sum;
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
        searches_[2 * c].paybacks(x, out.payback_months[c].data() + offset, n);
    for (std::size_t c = 0; c < out.discounted_payback_months.size(); ++c)
        searches_[2 * c + 1].paybacks(x, out.discounted_payback_months[c].data() + offset, n);
}

}  // namespace payback
