#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "payback/model/comparison.hpp"
#include "payback/whatif/breakeven.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {

Scenario tokens(const std::vector<Override>& overrides = {}) {
    return parse_scenario(test::token_scenario(), "tokens.toml", overrides);
}

// Over 24 months: 43.2e6 tokens a month = 1036.8 million tokens, 864 M input, 172.8 M output.
constexpr double million_tokens = 1036.8, million_input = 864.0, million_output = 172.8;

}  // namespace

TEST_CASE("cost per million tokens, rates and J per token on every option", "[tokens][comparison]") {
    const Comparison c = compare(tokens());
    REQUIRE(c.options.size() == 3);
    CHECK(c.options[2].kind == OptionKind::api);
    CHECK(c.cashflows[2].kind == OptionKind::api);

    // The rig: $1,500 of parts + 24 × $11.3125 of power (25 h at 500 W, 705 h at 62.5 W) = $1,771.50.
    const OptionResult& rig = c.options[0];
    CHECK(rig.total_cost == Approx(1771.5));
    const TokenCosts& r = *rig.tokens;
    CHECK(r.cost_per_million_tokens == Approx(1771.5 / million_tokens));
    // Input takes 5 of the 25 serving hours: a fifth of the cost.
    CHECK(*r.cost_per_million_input_tokens == Approx(1771.5 * 0.2 / million_input));
    CHECK(*r.cost_per_million_output_tokens == Approx(1771.5 * 0.8 / million_output));
    CHECK(*r.tokens_per_second == 100.0);
    CHECK(*r.prefill_tokens_per_second == 2000.0);
    CHECK(*r.serving_hours_per_month == Approx(25.0));
    // 500 W × 25 h × 3600 s / 43.2e6 tokens = 1.0417 J; × 1e6 / 3.6e6 J/kWh × 0.4 kg × 1000 = 115.74 g.
    CHECK(*r.joules_per_token == Approx(500.0 * 25.0 * 3600.0 / 43.2e6));
    CHECK(*r.co2_g_per_million_tokens == Approx(500.0 * 25.0 * 3600.0 / 43.2e6 / 3.6 * 400.0));

    // The cloud: 36e6 / 4000 / 3600 + 7.2e6 / 200 / 3600 = 2.5 + 10 = 12.5 h × $2 = $25 a month, $600.
    const OptionResult& cloud = c.options[1];
    CHECK(cloud.total_cost == Approx(600.0));
    CHECK(cloud.billing->billed_hours == Approx(12.5));
    CHECK(cloud.tokens->cost_per_million_tokens == Approx(600.0 / million_tokens));
    CHECK_FALSE(cloud.tokens->joules_per_token);  // typed in without its draw

    // The API: (36e6 × 0.5 × 0.2 + 36e6 × 0.5 × 0.1 + 7.2e6 × 6) / 1e6 = $48.60, × 5/6 off-peak =
    // $40.50 a month, $972 over 24 months: $0.9375 per million tokens. Input is 5.4 / 48.6 = 1/9 of
    // the bill: 972 / 9 / 864 = $0.125 per million input, 864 / 172.8 = $5 per million output.
    const OptionResult& api = c.options[2];
    CHECK(api.total_cost == Approx(972.0));
    CHECK(api.tokens->cost_per_million_tokens == Approx(0.9375));
    CHECK(*api.tokens->cost_per_million_input_tokens == Approx(0.125));
    CHECK(*api.tokens->cost_per_million_output_tokens == Approx(5.0));
    CHECK_FALSE(api.tokens->tokens_per_second);
    CHECK_FALSE(api.tokens->joules_per_token);

    // The API appears in versus like a cloud: 972 - 1771.5 at a 0 % discount rate.
    REQUIRE(c.versus.size() == 2);
    CHECK(c.versus[1].cloud == "api");
    CHECK(c.versus[1].npv_savings == Approx(972.0 - 1771.5));
    CHECK_FALSE(c.versus[1].breakeven_gpu_hours_per_month);  // it serves no training hours
}

TEST_CASE("API prices escalate yearly, at each month's end", "[tokens][comparison]") {
    // -30 % a year: 12 × 40.5 + 12 × 40.5 × 0.7 = 486 + 340.2 = $826.20.
    const Comparison c = compare(tokens({{"api[0].escalation", "-0.3"}}));
    CHECK(c.options[2].total_cost == Approx(826.2));
    CHECK(c.cashflows[2].net.front() == Approx(-40.5));
}

TEST_CASE("the break-even output volume by hand and by the solver", "[tokens][breakeven]") {
    // Rig: 1500 + 24 × (9.125 + 0.0875 h) with h = 5 + O / 360,000 (O in tokens a month); the API:
    // 24 × (4.5 + 5 O / 1e6). Equal at 1729.5 + 5.8333 O/1e6 = 108 + 120 O/1e6: O = 1621.5 / 114.1667
    // = 14.2029 million tokens a month.
    const double by_hand = 1621.5 / (120.0 - 24.0 * 0.0875 / 0.36) * 1e6;
    BreakevenQuery query;
    query.key = "workload.tokens.output_tokens_per_month";
    query.against = "api";
    const BreakevenResult result = breakeven(tokens(), query);
    REQUIRE(result.value);
    CHECK(*result.value == Approx(by_hand).epsilon(1e-6));
    CHECK(result.current == 7.2e6);
    const Comparison at = compare(tokens({{"workload.tokens.output_tokens_per_month", fmt::format("{}", *result.value)}}));
    CHECK(at.versus[1].npv_savings == Approx(0.0).margin(1e-3));
}
