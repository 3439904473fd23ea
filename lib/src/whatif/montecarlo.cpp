#include "payback/whatif/montecarlo.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "base/parallel.hpp"
#include "payback/base/arguments.hpp"
#include "payback/base/error.hpp"
#include "payback/base/isa.hpp"
#include "scenario/key_paths.hpp"

namespace payback {
namespace {

// Rows to check the fast path against the exact model: spread over the draw, a handful.
std::vector<double> verification_rows(const SampleMatrix& inputs) {
    constexpr int wanted = 6;
    std::vector<double> rows;
    const int step = std::max(1, inputs.samples / wanted);
    const std::size_t cells = static_cast<std::size_t>(wanted) * static_cast<std::size_t>(inputs.inputs);
    for (int s = 0; s < inputs.samples && rows.size() < cells; s += step)
        for (int k = 0; k < inputs.inputs; ++k) rows.push_back(inputs.at(s, k));
    return rows;
}

MetricSummary summary_of(std::string metric, std::string option, const std::vector<double>& values, int bins) {
    MetricSummary m;
    m.metric = std::move(metric);
    m.option = std::move(option);
    m.summary = summarize(values);
    m.share_defined = values.empty() ? 0.0 : static_cast<double>(m.summary.count) / values.size();
    m.histogram = histogram(values, bins);
    return m;
}

// The probe of each key the sample model measures its slopes at: the distribution's P90, or its
// P10 when the P90 is the current value.
std::vector<double> probe_values(const Scenario& s, const std::vector<double>& current) {
    std::vector<double> probes;
    for (std::size_t k = 0; k < s.uncertainty.inputs.size(); ++k) {
        const Distribution& d = s.uncertainty.inputs[k].distribution;
        double probe = quantile(d, 0.9);
        if (probe == current[k]) probe = quantile(d, 0.1);
        if (probe == current[k]) probe = current[k] == 0.0 ? 1e-3 : current[k] * 1.001;  // a point mass
        probes.push_back(probe);
    }
    return probes;
}

}  // namespace

SamplePlan montecarlo_plan(const Scenario& scenario, const MonteCarloOptions& options) {
    if (scenario.uncertainty.empty())
        throw InputError(scenario.source, 0, "uncertainty",
                         "missing: Monte Carlo needs distributions, e.g. [uncertainty] "
                         "\"electricity.price_per_kwh\" = { dist = \"uniform\", low = 0.1, high = 0.4 }");
    if (options.samples < 1) throw InputError(argument::sample_count, 0, "", "must be at least 1");
    SamplePlan plan;
    std::vector<Distribution> distributions;
    for (const auto& input : scenario.uncertainty.inputs) {
        plan.keys.push_back(input.key);
        distributions.push_back(input.distribution);
    }
    std::vector<std::vector<double>> ranks = scenario.uncertainty.rank_matrix();
    try {
        plan.rows = draw(distributions, options.samples, options.method, options.seed, ranks);
    } catch (const std::invalid_argument& e) {
        throw InputError(scenario.source, 0, "uncertainty.correlations", e.what());
    }
    std::vector<double> current;
    for (const auto& key : plan.keys) current.push_back(detail::numeric_key_value(scenario, key, scenario.source));
    plan.probes = probe_values(scenario, current);
    plan.checks = verification_rows(plan.rows);
    return plan;
}

MonteCarloResult montecarlo_result(const Scenario& scenario, SamplePlan plan, const SampleModel& model,
                                   SampleMetrics metrics, const MonteCarloOptions& options, double seconds) {
    MonteCarloResult r;
    r.keys = std::move(plan.keys);
    r.inputs = std::move(plan.rows);
    r.metrics = std::move(metrics);
    r.path_note = model.path_note();
    r.isa = active_isa();
    r.clouds = model.cloud_names();
    r.seconds = seconds;

    // What to summarize, in the order reported; each summary on its own core (a million values
    // each: a copy, three selections and a histogram).
    struct Wanted {
        const char* metric;
        std::string option;
        const std::vector<double>* values;
    };
    // A metric not selected (options.evaluation.metrics) is empty: not summarized.
    std::vector<Wanted> wanted;
    if (!r.metrics.rig_total_cost.empty()) wanted.push_back({"total_cost", scenario.rig.name, &r.metrics.rig_total_cost});
    for (std::size_t c = 0; c < r.metrics.cloud_total_cost.size(); ++c)
        wanted.push_back({"total_cost", r.clouds[c], &r.metrics.cloud_total_cost[c]});
    for (std::size_t c = 0; c < r.clouds.size(); ++c) {
        if (!r.metrics.payback_months.empty()) wanted.push_back({"payback_months", r.clouds[c], &r.metrics.payback_months[c]});
        if (!r.metrics.discounted_payback_months.empty())
            wanted.push_back({"discounted_payback_months", r.clouds[c], &r.metrics.discounted_payback_months[c]});
        if (!r.metrics.npv_savings.empty()) wanted.push_back({"npv_savings", r.clouds[c], &r.metrics.npv_savings[c]});
    }
    r.summaries.resize(wanted.size());
    detail::parallel_for(wanted.size(), [&](std::size_t i) {
        r.summaries[i] = summary_of(wanted[i].metric, wanted[i].option, *wanted[i].values, options.histogram_bins);
    });
    for (std::size_t c = 0; c < r.metrics.npv_savings.size(); ++c) {
        const auto& savings = r.metrics.npv_savings[c];
        const auto wins = std::count_if(savings.begin(), savings.end(), [](double v) { return v > 0.0; });
        r.probability_build_wins.push_back(static_cast<double>(wins) / static_cast<double>(savings.size()));
    }
    return r;
}

MonteCarloResult montecarlo(const Scenario& scenario, const MonteCarloOptions& options) {
    SamplePlan plan = montecarlo_plan(scenario, options);
    const SampleModel model = plan.model(scenario);
    const auto start = std::chrono::steady_clock::now();
    SampleMetrics metrics = model.evaluate(plan.rows.values, options.evaluation);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return montecarlo_result(scenario, std::move(plan), model, std::move(metrics), options, seconds);
}

}  // namespace payback
