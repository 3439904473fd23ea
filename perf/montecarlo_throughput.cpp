// Times Monte Carlo on one scenario:
//     montecarlo_throughput SCENARIO SAMPLES [THREADS] [--lhs] [--metrics NAME,NAME...] [--repeats R] [--lanes]
// Prints one JSON line: samples, months, seconds (the evaluation, and the whole call with the draw
// and the summaries), samples × months per second and the peak resident memory. --metrics computes
// only those metrics (MetricSelection::only; default all). --repeats evaluates the same draw R
// more times and reports the fastest evaluation of all (a shared machine's noise is slower, never
// faster). --lanes evaluates lanes of the whole model instead of superposing. The hot paths run the
// instruction set PAYBACK_ISA names (payback/base/isa.hpp), the best this CPU has by default. Run by hand; perf/montecarlo_vs_numpy.py runs it beside NumPy and plain Python.
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "payback/base/error.hpp"
#include "payback/whatif/montecarlo.hpp"
#include "payback/whatif/sample_plan.hpp"

namespace {

std::vector<std::string> split(const std::string& list) {
    std::vector<std::string> out;
    for (std::size_t from = 0; from <= list.size();) {
        const std::size_t comma = std::min(list.find(',', from), list.size());
        out.push_back(list.substr(from, comma - from));
        from = comma + 1;
    }
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: montecarlo_throughput SCENARIO SAMPLES [THREADS] [--lhs] [--metrics NAME,...]\n");
        return 2;
    }
    try {
        const payback::Scenario scenario = payback::load_scenario(argv[1]);
        payback::MonteCarloOptions options;
        options.samples = std::atoi(argv[2]);
        std::string metrics = "all";
        int repeats = 0;
        for (int a = 3; a < argc; ++a) {
            const std::string arg = argv[a];
            if (arg == "--lhs") options.method = payback::SamplingMethod::latin_hypercube;
            else if (arg == "--lanes") options.evaluation.superpose = false;
            else if (arg == "--metrics" && a + 1 < argc) {
                metrics = argv[++a];
                options.evaluation.metrics = payback::MetricSelection::only(split(metrics));
            } else if (arg == "--repeats" && a + 1 < argc) {
                repeats = std::atoi(argv[++a]);
            } else options.evaluation.threads = std::atoi(arg.c_str());
        }
        const auto start = std::chrono::steady_clock::now();
        payback::MonteCarloResult r = payback::montecarlo(scenario, options);
        const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        if (repeats > 0) {
            const payback::SamplePlan plan = payback::montecarlo_plan(scenario, options);
            const payback::SampleModel model = plan.model(scenario);
            for (int i = 0; i < repeats; ++i) {
                const auto from = std::chrono::steady_clock::now();
                const payback::SampleMetrics again = model.evaluate(plan.rows.values, options.evaluation);
                r.seconds = std::min(r.seconds, std::chrono::duration<double>(std::chrono::steady_clock::now() - from).count());
            }
        }
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        double mean = 0;  // of the first cloud option's npv_savings, when computed
        if (!r.metrics.npv_savings.empty())
            for (double v : r.metrics.npv_savings.front()) mean += v / static_cast<double>(r.metrics.npv_savings.front().size());
        std::printf("{\"samples\": %d, \"months\": %d, \"threads\": %d, \"metrics\": \"%s\", "
                    "\"evaluation_seconds\": %.4f, \"total_seconds\": %.4f, \"sample_months_per_second\": %.4g, "
                    "\"peak_rss_mb\": %.1f, \"mean_npv_savings\": %.6f, \"repeats\": %d, \"path\": \"%s\", \"isa\": \"%s\"}\n",
                    options.samples, scenario.horizon_months, options.evaluation.threads, metrics.c_str(), r.seconds,
                    total, double(options.samples) * scenario.horizon_months / r.seconds, usage.ru_maxrss / 1024.0,
                    mean, repeats, r.path_note.c_str(), r.isa.c_str());
    } catch (const payback::InputError& e) {
        std::fprintf(stderr, "montecarlo_throughput: %s\n", e.what());
        return 2;
    } catch (const std::invalid_argument& e) {
        std::fprintf(stderr, "montecarlo_throughput: %s\n", e.what());
        return 2;
    }
}
