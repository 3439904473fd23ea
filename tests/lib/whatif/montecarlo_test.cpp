#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include "payback/model/comparison.hpp"
#include "payback/model/metric_table.hpp"
#include "payback/whatif/montecarlo.hpp"
#include "support/input_errors.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {

// The hand scenario with its electricity price uniform on [0.1, 0.3].
Scenario uncertain_price() {
    return parse_scenario(test::hand_scenario() +
                              "\n[uncertainty]\n\"electricity.price_per_kwh\" = { dist = \"uniform\", low = 0.1, "
                              "high = 0.3 }\n",
                          "hand.toml");
}

double savings_at(double price) {
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml",
                                      {{"electricity.price_per_kwh", std::to_string(price)}});
    return compare(s).versus.front().npv_savings;
}

const MetricSummary& find(const MonteCarloResult& r, const std::string& metric) {
    for (const auto& m : r.summaries)
        if (m.metric == metric && m.option == "cloud") return m;
    FAIL("no summary of " << metric);
    throw;
}

}  // namespace

TEST_CASE("Monte Carlo statistics of a linear response match the closed form", "[montecarlo]") {
    // NPV savings fall linearly with the price: S(p) = S(0.1) + (p - 0.1)/0.2 × (S(0.3) - S(0.1)).
    // With p uniform on [0.1, 0.3] the mean is S(0.2), and since S falls with p its P10 is S at the
    // price's P90 (0.28), its P90 is S at the price's P10 (0.12).
    const double low = savings_at(0.1), high = savings_at(0.3);
    const auto s_at = [&](double p) { return low + (p - 0.1) / 0.2 * (high - low); };
    REQUIRE(high < low);
    MonteCarloOptions options;
    options.samples = 20000;
    options.method = SamplingMethod::latin_hypercube;  // stratified: sample quantiles within 1/N
    const MonteCarloResult r = montecarlo(uncertain_price(), options);
    const Summary& s = find(r, "npv_savings").summary;
    const double span = low - high;
    CHECK(s.mean == Approx(s_at(0.2)).margin(1e-4 * span));
    CHECK(s.p50 == Approx(s_at(0.2)).margin(1e-3 * span));
    CHECK(s.p10 == Approx(s_at(0.28)).margin(1e-3 * span));
    CHECK(s.p90 == Approx(s_at(0.12)).margin(1e-3 * span));
    CHECK(s.min >= high - 1e-9);
    CHECK(s.max <= low + 1e-9);
    // Plain Monte Carlo: the mean within 4 standard errors (the s.d. of a uniform is span/√12).
    options.method = SamplingMethod::monte_carlo;
    options.samples = 100000;
    const Summary mc = find(montecarlo(uncertain_price(), options), "npv_savings").summary;
    CHECK(mc.standard_error == Approx(span / std::sqrt(12.0) / std::sqrt(100000.0)).epsilon(0.02));
    CHECK(std::abs(mc.mean - s_at(0.2)) < 4 * mc.standard_error);
    CHECK(r.probability_build_wins.size() == 1);
    CHECK(r.probability_build_wins[0] == (low > 0 && high > 0 ? 1.0 : r.probability_build_wins[0]));
}

TEST_CASE("the same seed gives the same answer whatever the thread count", "[montecarlo][property]") {
    MonteCarloOptions options;
    options.samples = 3000;
    options.seed = 42;
    options.evaluation.threads = 1;
    const MonteCarloResult one = montecarlo(uncertain_price(), options);
    options.evaluation.threads = 2;
    options.evaluation.chunk = 100;
    const MonteCarloResult two = montecarlo(uncertain_price(), options);
    CHECK(one.inputs.values == two.inputs.values);
    CHECK(one.metrics.npv_savings == two.metrics.npv_savings);
    CHECK(one.metrics.payback_months == two.metrics.payback_months);
    options.seed = 43;
    CHECK(montecarlo(uncertain_price(), options).inputs.values != one.inputs.values);
}

TEST_CASE("Monte Carlo summarizes the selected metrics only", "[montecarlo]") {
    MonteCarloOptions options;
    options.samples = 2000;
    const MonteCarloResult all = montecarlo(uncertain_price(), options);
    options.evaluation.metrics = MetricSelection::only({"npv_savings"});
    const MonteCarloResult one = montecarlo(uncertain_price(), options);
    REQUIRE(one.summaries.size() == 1);
    CHECK(one.summaries[0].metric == "npv_savings");
    CHECK(one.summaries[0].summary.mean == find(all, "npv_savings").summary.mean);
    CHECK(one.probability_build_wins == all.probability_build_wins);
    options.evaluation.metrics = MetricSelection::only({"payback_months"});
    CHECK(montecarlo(uncertain_price(), options).probability_build_wins.empty());  // it needs npv_savings
}

TEST_CASE("Monte Carlo needs an [uncertainty] table", "[montecarlo][errors]") {
    const auto e = test::input_error([] { montecarlo(parse_scenario(test::hand_scenario(), "hand.toml")); });
    CHECK(e.key_path() == "uncertainty");
}

TEST_CASE("[uncertainty] is read and checked with the file's lines", "[montecarlo][errors]") {
    const std::string base = test::hand_scenario() + "\n[uncertainty]\n";
    const Scenario s = parse_scenario(base + "\"electricity.price_per_kwh\" = { dist = \"pert\", low = 0.1, mode = 0.15, "
                                             "high = 0.4 }\n\"workload.gpu_hours_per_month\" = { dist = \"normal\", "
                                             "mean = 100, sd = 10, low = 0 }\ncorrelations = [ { between = "
                                             "[\"electricity.price_per_kwh\", \"workload.gpu_hours_per_month\"], rank "
                                             "= 0.5 } ]\n",
                                      "u.toml");
    REQUIRE(s.uncertainty.inputs.size() == 2);
    CHECK(s.uncertainty.rank_matrix()[0][1] == 0.5);
    // The round trip through `payback check`'s text keeps it.
    CHECK(parse_scenario(to_toml(s), "again.toml").uncertainty.inputs.size() == 2);

    const auto unknown = test::input_error(
        [&] { parse_scenario(base + "\"electricity.price\" = { dist = \"uniform\", low = 0, high = 1 }\n", "u.toml"); });
    CHECK(unknown.key_path() == "electricity.price");
    CHECK_THAT(unknown.message(), Catch::Contains("no such numeric scenario key"));
    CHECK(unknown.line() == static_cast<int>(std::count(base.begin(), base.end(), '\n')) + 1);
    const auto bad = test::input_error([&] {
        parse_scenario(base + "\"electricity.price_per_kwh\" = { dist = \"triangular\", low = 0.1, mode = 0.5, high = 0.3 }\n",
                       "u.toml");
    });
    CHECK(bad.key_path() == "uncertainty.electricity.price_per_kwh.dist");
    CHECK_THAT(bad.message(), Catch::Contains("mode"));
    const auto shape = test::input_error([&] {
        parse_scenario(base + "\"electricity.price_per_kwh\" = { dist = \"gaussian\", mean = 0.2, sd = 0.1 }\n", "u.toml");
    });
    CHECK_THAT(shape.message(), Catch::Contains("uniform"));
}

TEST_CASE("every metric Monte Carlo summarizes is a number of the metric table, for its options", "[montecarlo][metric_table]") {
    MonteCarloOptions options;
    options.samples = 64;
    const Scenario s = uncertain_price();
    const MonteCarloResult r = montecarlo(s, options);
    REQUIRE(r.summaries.size() == 5);  // total_cost of the rig and the cloud, and three of the pair
    for (const MetricSummary& m : r.summaries) {
        INFO(m.metric << " of " << m.option);
        const Metric* row = find_metric(m.metric);
        REQUIRE(row != nullptr);
        CHECK((row->type == MetricType::number || row->type == MetricType::optional_number));
        // A per-option metric is summarized for the rig and the cloud, a pair's against the cloud.
        if (row->scope == MetricScope::option) {
            CHECK((m.option == s.rig.name || m.option == "cloud"));
        } else {
            CHECK(row->scope == MetricScope::pair);
            CHECK(m.option == "cloud");
        }
    }
}
