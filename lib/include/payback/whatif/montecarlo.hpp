// Monte Carlo over the scenario's [uncertainty]: samples drawn (plain or Latin hypercube, with
// rank correlation), evaluated in lanes (sample_model.hpp), summarized per metric.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "payback/scenario/scenario.hpp"
#include "payback/whatif/sample_model.hpp"
#include "payback/whatif/sample_plan.hpp"
#include "payback/whatif/sampling.hpp"

namespace payback {

struct MonteCarloOptions {
    int samples = 10000;
    std::uint64_t seed = 1;
    SamplingMethod method = SamplingMethod::monte_carlo;
    int histogram_bins = 30;
    EvaluationOptions evaluation;
};

/// One metric of one option (or of the rig against one cloud option) over the samples.
struct MetricSummary {
    std::string metric;  ///< payback_months, discounted_payback_months, npv_savings, total_cost
    std::string option;  ///< the cloud option (versus metrics), or the option whose cost it is
    Summary summary;     ///< over the samples where the metric exists (payback reached)
    double share_defined = 1.0;  ///< the share of samples where it exists
    Histogram histogram;
};

struct MonteCarloResult {
    std::vector<std::string> keys;
    SampleMatrix inputs;    ///< samples × keys
    SampleMetrics metrics;  ///< per sample
    std::vector<std::string> clouds;
    std::vector<MetricSummary> summaries;
    /// Per cloud option: the share of samples in which building has positive NPV savings.
    std::vector<double> probability_build_wins;
    std::string path_note;  ///< fast (lanes) or exact, and why
    std::string isa;        ///< the instruction set the hot paths ran (payback/base/isa.hpp)
    double seconds = 0.0;   ///< wall time of the evaluation
};

/// Throws InputError when the scenario has no [uncertainty] or a drawn value is not admitted.
MonteCarloResult montecarlo(const Scenario& scenario, const MonteCarloOptions& options = {});

/// montecarlo() in steps (sample_plan.hpp): the draw, the keys and where the model is probed and
/// verified. Throws InputError as montecarlo() does for a scenario without [uncertainty].
SamplePlan montecarlo_plan(const Scenario& scenario, const MonteCarloOptions& options);

/// ... and the summaries of the metrics of every row of `plan`, in order, evaluated with `model`
/// (plan.model()); `seconds` is the evaluation's wall time.
MonteCarloResult montecarlo_result(const Scenario& scenario, SamplePlan plan, const SampleModel& model,
                                   SampleMetrics metrics, const MonteCarloOptions& options, double seconds);

}  // namespace payback
