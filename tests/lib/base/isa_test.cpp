// The instruction-set variants of the hot paths (payback/base/isa.hpp): the choice and its override, and
// every variant this CPU runs giving the baseline's results, within 1e-9 relative (the variants
// differ in vector width and FMA, so sums may round differently; nothing else may differ).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "payback/base/error.hpp"
#include "payback/base/isa.hpp"
#include "payback/scenario/scenario.hpp"
#include "payback/whatif/montecarlo.hpp"
#include "payback/whatif/sampling.hpp"
#include "support/isa_choice.hpp"

using namespace payback;

namespace {

// a and b agree within 1e-9 of the larger magnitude (or both are NaN: a payback never reached).
bool agree(double a, double b) {
    if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
    return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

void require_agree(const std::vector<double>& a, const std::vector<double>& b, const std::string& what) {
    REQUIRE(a.size() == b.size());
    std::size_t differing = 0;
    for (std::size_t i = 0; i < a.size(); ++i) differing += agree(a[i], b[i]) ? 0 : 1;
    INFO(what << ": " << differing << " of " << a.size() << " samples differ by more than 1e-9");
    CHECK(differing == 0);
}

void require_agree(const SampleMetrics& a, const SampleMetrics& b) {
    require_agree(a.rig_total_cost, b.rig_total_cost, "rig_total_cost");
    require_agree(a.rig_npv_cost, b.rig_npv_cost, "rig_npv_cost");
    for (std::size_t c = 0; c < a.npv_savings.size(); ++c) {
        require_agree(a.cloud_total_cost[c], b.cloud_total_cost[c], "cloud_total_cost");
        require_agree(a.npv_savings[c], b.npv_savings[c], "npv_savings");
        require_agree(a.payback_months[c], b.payback_months[c], "payback_months");
        require_agree(a.discounted_payback_months[c], b.discounted_payback_months[c], "discounted_payback_months");
    }
}

}  // namespace

TEST_CASE("the variants: baseline first, the best this CPU runs chosen, overrides checked", "[isa]") {
    const auto& variants = isa_variants();
    REQUIRE(!variants.empty());
    CHECK(cpu_runs(variants.front()));
#if defined(__x86_64__)
    CHECK(variants.front() == "x86-64-v2");
#endif
    const std::vector<std::string> runnable = runnable_isa_variants();
    {
        const test::IsaChoice baseline("baseline");
        CHECK(active_isa() == variants.front());
        CHECK(active_isa_index() == 0);
    }
    {
        const test::IsaChoice best(runnable.back());
        CHECK(active_isa() == runnable.back());
    }
    const std::string before = active_isa();
    CHECK_THROWS_WITH(select_isa("avx9000"), Catch::Contains("PAYBACK_ISA") && Catch::Contains("no variant \"avx9000\""));
    for (const auto& v : variants)
        if (!cpu_runs(v)) CHECK_THROWS_WITH(select_isa(v), Catch::Contains("this CPU cannot run " + v));
    CHECK(active_isa() == before);  // a refused choice changes nothing
}

TEST_CASE("every variant draws the same samples", "[isa]") {
    // A PERT (table of quintic Hermite polynomials), a triangular and a lognormal input.
    const std::vector<Distribution> inputs = {Distribution{dist::Pert{40, 120, 300}},
                                              Distribution{dist::Triangular{0.1, 0.15, 0.3}},
                                              Distribution{dist::Lognormal{1.0, 0.4}}};
    const auto draw_with = [&](const std::string& variant, SamplingMethod method) {
        const test::IsaChoice isa(variant);
        return draw(inputs, 20000, method, 7, {}).values;
    };
    for (const SamplingMethod method : {SamplingMethod::monte_carlo, SamplingMethod::latin_hypercube}) {
        const std::vector<double> baseline = draw_with("baseline", method);
        for (const auto& variant : runnable_isa_variants()) {
            INFO(variant);
            require_agree(draw_with(variant, method), baseline, "draw");
        }
    }
}

TEST_CASE("every variant gives the baseline's Monte Carlo metrics, superposed and in lanes", "[isa]") {
    // venus-2019-uncertain: 4 uncertain inputs, the superposed path; without superposition, lanes of
    // the whole engine.
    const Scenario scenario = load_scenario(PAYBACK_SOURCE_DIR "/scenarios/venus-2019-uncertain.toml");
    const bool superpose = GENERATE(true, false);
    INFO((superpose ? "superposed" : "lanes"));
    MonteCarloOptions options;
    options.samples = 20000;
    options.evaluation.superpose = superpose;
    const auto metrics_with = [&](const std::string& variant) {
        const test::IsaChoice isa(variant);
        MonteCarloResult r = montecarlo(scenario, options);
        CHECK(r.isa == active_isa());
        return r.metrics;
    };
    const SampleMetrics baseline = metrics_with("baseline");
    REQUIRE(baseline.npv_savings.size() >= 1);
    for (const auto& variant : runnable_isa_variants()) {
        INFO(variant);
        require_agree(metrics_with(variant), baseline);
    }
}
