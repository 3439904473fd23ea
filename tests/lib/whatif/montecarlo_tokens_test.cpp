// Monte Carlo over a token workload's utilization: the rig's decode rate and the tokens a month in
// [uncertainty] (docs/inference.md), on the hand token scenario (support/scenario_text.hpp): the rig
// reads 2,000 and writes 100 tokens a second, 36 M input and 7.2 M output tokens a month, 24 months.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "payback/model/comparison.hpp"
#include "payback/whatif/montecarlo.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {

const std::string decode_key = "rig.tokens_per_second.decode";
const std::string output_key = "workload.tokens.output_tokens_per_month";

Scenario with_uncertainty(const std::string& lines) {
    return parse_scenario(test::token_scenario() + "\n[uncertainty]\n" + lines, "tokens.toml");
}

// The deterministic answer with the rig writing `decode` tokens a second.
Comparison at_decode(double decode) {
    return compare(parse_scenario(test::token_scenario(), "tokens.toml", {{decode_key, fmt::format("{}", decode)}}));
}

const MetricSummary& total_cost_of(const MonteCarloResult& r, const std::string& option) {
    for (const MetricSummary& m : r.summaries)
        if (m.metric == "total_cost" && m.option == option) return m;
    FAIL("no total_cost summary of " << option);
    throw;
}

int key_index(const MonteCarloResult& r, const std::string& key) {
    const auto at = std::find(r.keys.begin(), r.keys.end(), key);
    REQUIRE(at != r.keys.end());
    return static_cast<int>(at - r.keys.begin());
}

// (36e6 + 7.2e6) tokens a month over 24 months.
constexpr double horizon_tokens = (36e6 + 7.2e6) * 24;

}  // namespace

TEST_CASE("the rig's decode rate drawn around its value: the median cost per million tokens stays at the "
          "deterministic one, and a slower rig is never cheaper",
          "[montecarlo][tokens]") {
    // The cost moves with the decode rate D only through the serving hours: 7.2e6 / D / 3,600 = 2,000 / D h a
    // month at load (400 W DC / 0.8 = 500 W at the wall) instead of idle (50 W / 0.8 = 62.5 W), 0.4375 kWh
    // × $0.20 = $0.0875 an hour, over 24 months: cost(D) = K + 24 × 0.0875 × 2,000 / D = K + 4,200 / D.
    const Comparison point = at_decode(100);
    const OptionResult& rig = point.options.front();
    CHECK(at_decode(90).options.front().total_cost - rig.total_cost == Approx(4200.0 / 90 - 4200.0 / 100));
    REQUIRE(rig.tokens);
    CHECK(rig.tokens->cost_per_million_tokens == Approx(rig.total_cost / horizon_tokens * 1e6));

    // D uniform on [80, 120], symmetric about 100. The cost falls as D rises, so its median is the cost at
    // the sample median of D (1,001 samples: P50 is the 501st order statistic of either). That median's
    // standard deviation is (120 - 80) / (2 √1,001) = 0.632 tokens/s; within 4 of them (±2.53 tokens/s)
    // the median cost lies between cost(102.53) and cost(97.47): K + 40.96 to K + 43.09, about ±$1.06.
    MonteCarloOptions options;
    options.samples = 1001;
    options.seed = 7;
    const MonteCarloResult r = montecarlo(with_uncertainty("\"" + decode_key + "\" = { dist = \"uniform\", low = 80, high = 120 }\n"),
                                          options);
    const double spread = 4 * (120.0 - 80.0) / (2 * std::sqrt(1001.0));
    const Summary& cost = total_cost_of(r, rig.name).summary;
    CHECK(cost.p50 >= at_decode(100 + spread).options.front().total_cost);
    CHECK(cost.p50 <= at_decode(100 - spread).options.front().total_cost);
    const double p50_per_million = cost.p50 / horizon_tokens * 1e6;
    const double tolerance = (4200.0 / (100 - spread) - 4200.0 / 100) / horizon_tokens * 1e6;
    CHECK(std::abs(p50_per_million - rig.tokens->cost_per_million_tokens) <= tolerance);

    // No sample with a lower decode rate costs less: sorted by D, the cost never rises.
    const int d = key_index(r, decode_key);
    std::vector<int> order(static_cast<std::size_t>(r.inputs.samples));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return r.inputs.at(a, d) < r.inputs.at(b, d); });
    int rises = 0;
    for (std::size_t k = 1; k < order.size(); ++k)
        if (r.metrics.rig_total_cost[order[k]] > r.metrics.rig_total_cost[order[k - 1]]) ++rises;
    CHECK(rises == 0);
    CHECK(r.inputs.at(order.front(), d) >= 80);
    CHECK(r.inputs.at(order.back(), d) <= 120);
    // The cloud and the API do not depend on the rig's speed.
    CHECK(total_cost_of(r, "api").summary.min == total_cost_of(r, "api").summary.max);
}

TEST_CASE("a degenerate decode rate reproduces the deterministic answer exactly", "[montecarlo][tokens]") {
    MonteCarloOptions options;
    options.samples = 64;
    const MonteCarloResult r = montecarlo(with_uncertainty("\"" + decode_key + "\" = { dist = \"discrete\", values = [100] }\n"),
                                          options);
    const Comparison point = at_decode(100);
    for (const double cost : r.metrics.rig_total_cost) CHECK(cost == point.options.front().total_cost);
    REQUIRE(r.metrics.npv_savings.size() == point.versus.size());
    for (std::size_t c = 0; c < point.versus.size(); ++c)
        for (const double savings : r.metrics.npv_savings[c]) CHECK(savings == point.versus[c].npv_savings);
}

TEST_CASE("output tokens drawn: the API bills each sample's tokens, and more tokens never cost the rig less",
          "[montecarlo][tokens]") {
    MonteCarloOptions options;
    options.samples = 500;
    const MonteCarloResult r = montecarlo(
        with_uncertainty("\"" + output_key + "\" = { dist = \"normal\", mean = 7.2e6, sd = 1e6, low = 1e6 }\n"), options);
    const int out = key_index(r, output_key);
    const auto api = std::find(r.clouds.begin(), r.clouds.end(), "api");
    REQUIRE(api != r.clouds.end());
    const auto& api_cost = r.metrics.cloud_total_cost[static_cast<std::size_t>(api - r.clouds.begin())];
    for (int s = 0; s < r.inputs.samples; ++s) {
        // A month: 36e6 × 0.5 × $0.2 + 36e6 × 0.5 × $0.1 = $5.40 of input and output × $6 / 10^6, a sixth
        // off (half off for the third of the week from 16:00 to 24:00); 24 months, no escalation.
        const double output = r.inputs.at(s, out);
        CHECK(api_cost[static_cast<std::size_t>(s)] == Approx(24 * (5.4 + output * 6.0 / 1e6) * 5.0 / 6.0));
    }
    std::vector<int> order(static_cast<std::size_t>(r.inputs.samples));
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return r.inputs.at(a, out) < r.inputs.at(b, out); });
    for (std::size_t k = 1; k < order.size(); ++k)
        CHECK(r.metrics.rig_total_cost[order[k]] >= r.metrics.rig_total_cost[order[k - 1]]);
}
