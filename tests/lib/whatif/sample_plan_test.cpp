#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "payback/whatif/montecarlo.hpp"
#include "payback/whatif/sample_plan.hpp"
#include "payback/whatif/sweep.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {

Scenario uncertain() {
    return parse_scenario(test::hand_scenario() +
                              "\n[uncertainty]\n\"electricity.price_per_kwh\" = { dist = \"uniform\", low = 0.1, "
                              "high = 0.3 }\n\"workload.gpu_hours_per_month\" = { dist = \"triangular\", low = 50, "
                              "mode = 200, high = 600 }\n",
                          "hand.toml");
}

// Equal element by element, NaN (payback not reached) equal to NaN.
bool same(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!(a[i] == b[i] || (std::isnan(a[i]) && std::isnan(b[i])))) return false;
    return true;
}

// The metrics of a plan's rows evaluated in three parts, each with its own model, joined in order.
SampleMetrics in_three_parts(const Scenario& s, const SamplePlan& plan) {
    const int n = plan.rows.samples, cut1 = n / 3, cut2 = 2 * n / 3 + 1;
    SampleMetrics joined;
    joined.resize(s.clouds.size(), 0);
    for (const auto& [first, count] : {std::pair{0, cut1}, std::pair{cut1, cut2 - cut1}, std::pair{cut2, n - cut2}}) {
        const SamplePlan part = plan.part(first, count);
        const SampleMetrics m = part.model(s).evaluate(part.rows.values);
        const auto append = [](std::vector<double>& to, const std::vector<double>& from) {
            to.insert(to.end(), from.begin(), from.end());
        };
        append(joined.rig_total_cost, m.rig_total_cost);
        append(joined.rig_npv_cost, m.rig_npv_cost);
        for (std::size_t c = 0; c < s.clouds.size(); ++c) {
            append(joined.cloud_total_cost[c], m.cloud_total_cost[c]);
            append(joined.npv_savings[c], m.npv_savings[c]);
            append(joined.payback_months[c], m.payback_months[c]);
            append(joined.discounted_payback_months[c], m.discounted_payback_months[c]);
        }
    }
    return joined;
}

}  // namespace

TEST_CASE("a Monte Carlo plan evaluated in parts gives the whole run's metrics and summaries", "[sample_plan]") {
    const Scenario s = uncertain();
    MonteCarloOptions options;
    options.samples = 1001;
    options.seed = 7;
    options.method = SamplingMethod::latin_hypercube;  // the draw depends on every sample
    const MonteCarloResult whole = montecarlo(s, options);
    const SamplePlan plan = montecarlo_plan(s, options);
    CHECK(plan.rows.values == whole.inputs.values);
    const SampleMetrics joined = in_three_parts(s, plan);
    CHECK(same(joined.rig_total_cost, whole.metrics.rig_total_cost));
    CHECK(same(joined.npv_savings[0], whole.metrics.npv_savings[0]));
    CHECK(same(joined.payback_months[0], whole.metrics.payback_months[0]));
    const MonteCarloResult r = montecarlo_result(s, plan, plan.model(s), joined, options, 0.0);
    REQUIRE(r.summaries.size() == whole.summaries.size());
    for (std::size_t i = 0; i < r.summaries.size(); ++i) {
        CHECK(r.summaries[i].summary.p50 == whole.summaries[i].summary.p50);
        CHECK(r.summaries[i].histogram.counts == whole.summaries[i].histogram.counts);
    }
    CHECK(r.probability_build_wins == whole.probability_build_wins);
    CHECK(r.path_note == whole.path_note);
}

TEST_CASE("a sweep plan evaluated in parts gives the whole grid and its contour", "[sample_plan]") {
    const Scenario s = uncertain();
    const std::vector<SweepAxis> axes{parse_axis("electricity.price_per_kwh=0.05:0.6:0.05"),
                                      parse_axis("workload.gpu_hours_per_month=20:700:40")};
    const SweepResult whole = sweep(s, axes);
    const SamplePlan plan = sweep_plan(s, axes);
    REQUIRE(plan.rows.samples == static_cast<int>(whole.points()));
    const SweepResult r = sweep_result(axes, plan.model(s), in_three_parts(s, plan));
    CHECK(same(r.metrics.npv_savings[0], whole.metrics.npv_savings[0]));
    REQUIRE(r.contours.size() == 1);
    CHECK(r.contours[0].polylines == whole.contours[0].polylines);
}

TEST_CASE("a plan's part keeps the rows asked for and refuses rows outside it", "[sample_plan]") {
    SamplePlan plan{{"a", "b"}, {}, {1, 2}, {}};
    plan.rows.samples = 3;
    plan.rows.inputs = 2;
    plan.rows.values = {1, 2, 3, 4, 5, 6};
    const SamplePlan p = plan.part(1, 2);
    CHECK(p.rows.samples == 2);
    CHECK(p.rows.values == std::vector<double>{3, 4, 5, 6});
    CHECK(p.keys == plan.keys);
    CHECK_THROWS_AS(plan.part(2, 2), std::out_of_range);
}
