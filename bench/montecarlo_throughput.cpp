// Times Monte Carlo on one scenario: `montecarlo_throughput SCENARIO SAMPLES [THREADS] [--lhs]`.
// Prints one JSON line: samples, months, seconds (the evaluation, and the whole call with the draw),
// samples × months per second and the peak resident memory. Run by hand; bench/montecarlo_vs_numpy.py
// runs it beside NumPy and plain Python.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "payback/error.hpp"
#include "payback/montecarlo.hpp"

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: montecarlo_throughput SCENARIO SAMPLES [THREADS] [--lhs]\n");
        return 2;
    }
    try {
        const payback::Scenario scenario = payback::load_scenario(argv[1]);
        payback::MonteCarloOptions options;
        options.samples = std::atoi(argv[2]);
        options.evaluation.threads = argc > 3 ? std::atoi(argv[3]) : 0;
        if (argc > 4 && std::string(argv[4]) == "--lhs") options.method = payback::SamplingMethod::latin_hypercube;
        const auto start = std::chrono::steady_clock::now();
        const payback::MonteCarloResult r = payback::montecarlo(scenario, options);
        const double total = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        double mean = 0;
        for (double v : r.metrics.npv_savings.front()) mean += v / r.metrics.npv_savings.front().size();
        std::printf("{\"samples\": %d, \"months\": %d, \"threads\": %d, \"evaluation_seconds\": %.4f, "
                    "\"total_seconds\": %.4f, \"sample_months_per_second\": %.4g, \"peak_rss_mb\": %.1f, "
                    "\"mean_npv_savings\": %.6f, \"path\": \"%s\"}\n",
                    options.samples, scenario.horizon_months, options.evaluation.threads, r.seconds, total,
                    double(options.samples) * scenario.horizon_months / r.seconds, usage.ru_maxrss / 1024.0, mean,
                    r.path_note.c_str());
    } catch (const payback::InputError& e) {
        std::fprintf(stderr, "montecarlo_throughput: %s\n", e.what());
        return 2;
    }
}
