#include "payback/report/report_data.hpp"

#include "payback/report/verdict.hpp"
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

}  // namespace

ReportData report_data(const Scenario& s, const ReportOptions& options) {
    ReportData r{s, compare(s), {}, std::nullopt, {}, {}, std::nullopt, {}, std::nullopt, std::nullopt,
                 options.samples, options.seed, assumptions(s, options.overrides), {}};
    r.costs = cost_breakdown(r.comparison);
    r.headline = headline_pair(r.comparison);
    r.verdict = verdict(r.comparison, s);
    if (r.headline) r.reason = biggest_reason(s, r.comparison, r.comparison.versus[*r.headline]);
    r.hours = hours_sweep(s);
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
