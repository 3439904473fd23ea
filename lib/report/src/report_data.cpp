#include "payback/report/report_data.hpp"

#include <algorithm>

#include "payback/base/error.hpp"
#include "payback/report/verdict.hpp"
#include "payback/whatif/breakeven.hpp"
#include "payback/whatif/sweep.hpp"

namespace payback {

namespace {

// Hours a month on a 10-hour grid, and the month's end (730 h).
constexpr double hours_step = 10.0;

std::optional<HoursSweep> hours_sweep(const Scenario& s) {
    if (s.clouds.empty() || s.job || s.tokens || !s.rig.schedule.empty()) return std::nullopt;
    const SweepResult r = sweep(s, {{"workload.gpu_hours_per_month", 0.0, 730.0, hours_step}});
    return HoursSweep{r.values[0], r.clouds, r.metrics.npv_savings};
}

constexpr const char* output_tokens_key = "workload.tokens.output_tokens_per_month";
// Points on the token axis, and how far it reaches past today's volume and the furthest crossing.
constexpr double token_points = 40.0;
constexpr double beyond_today = 2.0, beyond_crossing = 1.25;

std::optional<TokenVolumeSweep> token_volume_sweep(const Scenario& s) {
    if (!s.tokens || s.clouds.empty()) return std::nullopt;
    TokenVolumeSweep t;
    const double today = s.tokens->volume.output_per_month;
    double top = beyond_today * today, admitted = top;
    for (const CloudOption& cloud : s.clouds) {
        // As `payback breakeven --for workload.tokens.output_tokens_per_month --against NAME` answers.
        const BreakevenResult r = breakeven(s, {output_tokens_key, std::nullopt, cloud.name});
        t.breakeven.push_back(r.value);
        admitted = std::min(admitted, r.range.second);  // the most the rig (and each instance) can serve
        if (r.value) top = std::max(top, beyond_crossing * *r.value);
    }
    top = std::min(top, std::max(admitted, today));
    if (!(top > 0)) return std::nullopt;
    const SweepResult r = sweep(s, {{output_tokens_key, 0.0, top, top / token_points}});
    t.output_tokens = r.values[0];
    const double months = s.horizon_months;
    t.options.push_back(s.rig.name);
    std::vector<double> rig;
    for (double pv : r.metrics.rig_npv_cost) rig.push_back(pv / months);
    t.cost_per_month.push_back(rig);
    for (std::size_t k = 0; k < r.clouds.size(); ++k) {
        t.options.push_back(r.clouds[k]);
        std::vector<double> cloud;  // npv_savings = the cloud's PV of cost - the rig's
        for (std::size_t i = 0; i < rig.size(); ++i) cloud.push_back(rig[i] + r.metrics.npv_savings[k][i] / months);
        t.cost_per_month.push_back(std::move(cloud));
    }
    return t;
}

}  // namespace

ReportData report_data(const Scenario& s, const ReportOptions& options) {
    ReportData r{s, compare(s), {}, std::nullopt, {}, {}, std::nullopt, {}, std::nullopt, std::nullopt, std::nullopt,
                 options.samples, options.seed, assumptions(s, options.overrides), {}};
    r.costs = cost_breakdown(r.comparison);
    r.headline = headline_pair(r.comparison);
    r.verdict = verdict(r.comparison, s);
    if (r.headline) r.reason = biggest_reason(s, r.comparison, r.comparison.versus[*r.headline]);
    r.hours = hours_sweep(s);
    r.token_volume = token_volume_sweep(s);
    if (!r.hours)
        r.hours_note = s.clouds.empty() ? "There are no cloud options to break even with."
                       : s.job          ? "The workload is given as training jobs ([workload] job), so its hours "
                                          "follow from the runs; try payback breakeven --for workload.job.runs_per_month."
                       : s.tokens       ? "The rig serves a token workload, whose hours follow from the tokens; try "
                                          "payback breakeven --for workload.tokens.output_tokens_per_month."
                                        : "A usage schedule sets the rig's hours, so they are not a free input.";
    if (!s.uncertainty.empty() && !s.clouds.empty()) {
        MonteCarloOptions mc;
        mc.samples = options.samples;
        mc.seed = options.seed;
        r.montecarlo = montecarlo(s, mc);
        TornadoOptions t;
        t.samples = options.samples;
        t.seed = options.seed;
        if (r.headline) t.against = r.comparison.versus[*r.headline].cloud;
        r.tornado = tornado(s, t);
    }
    return r;
}

}  // namespace payback
