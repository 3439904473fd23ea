#include <catch2/catch.hpp>

#include <set>

#include "payback/market/api_price.hpp"
#include "payback/market/catalog.hpp"
#include "payback/market/token_serving.hpp"
#include "support/input_errors.hpp"

using namespace payback;

namespace {

const TokenVolume volume{36e6, 7.2e6, 0.5};

}  // namespace

TEST_CASE("serving hours from tokens and rates", "[tokens]") {
    // 36e6 / 2000 / 3600 = 5 h reading, 7.2e6 / 100 / 3600 = 20 h writing: 25 h, a fifth of it input.
    const TokenRates rates{.prefill = 2000.0, .decode = 100.0, .origin = "", .predicted = false};
    CHECK(serving_hours_per_month(volume, rates) == Approx(25.0));
    CHECK(input_share_of_serving(volume, rates) == Approx(0.2));
    CHECK(serving_hours_per_month({}, rates) == 0.0);
    CHECK(input_share_of_serving({}, rates) == 0.0);
}

TEST_CASE("an API's month: cached input at its price, the off-peak share discounted", "[tokens][api]") {
    ApiPricing p;
    p.input_per_million = 0.2;
    p.output_per_million = 6.0;
    p.cached_input_per_million = 0.1;
    // 36e6 × 0.5 × 0.2 + 36e6 × 0.5 × 0.1 + 7.2e6 × 6 = 3.6e6 + 1.8e6 + 43.2e6 = 48.6e6 → $48.60.
    CHECK(api_month_cost(p, volume) == Approx(48.6));
    CHECK(api_month_input_cost(p, volume) == Approx(5.4));
    // Without a cached price the cached half costs the input price: 7.2 + 43.2 = $50.40.
    p.cached_input_per_million.reset();
    CHECK(api_month_cost(p, volume) == Approx(50.4));
    // Half off for a third of the tokens: × (1 - 1/3 × 0.5) = 5/6.
    p.cached_input_per_million = 0.1;
    p.off_peak_share = 1.0 / 3.0;
    p.off_peak_discount = 0.5;
    CHECK(api_month_cost(p, volume) == Approx(40.5));
    CHECK(api_month_input_cost(p, volume) == Approx(4.5));
}

TEST_CASE("the shipped API prices: 8+ providers, 30+ models, dated and sourced", "[tokens][api][catalog]") {
    const Catalog& catalog = Catalog::shipped();
    const std::vector<ApiPriceRow>& rows = catalog.api_prices();
    std::set<std::string> providers, models;
    for (const ApiPriceRow& row : rows) {
        providers.insert(row.provider);
        models.insert(row.model);
        CHECK_FALSE(row.origin.source.empty());
        CHECK_FALSE(row.origin.as_of.empty());
        CHECK(row.output_per_million >= 0.0);
    }
    CHECK(providers.size() >= 8);
    CHECK(models.size() >= 30);
    // Published figures: together_ai Llama 3.1 8B Turbo at 1.8e-07 USD a token both ways (litellm
    // 1.110.2), gpt-5 at $1.25 / $10 / $0.125 cached (simonw/llm-prices data/openai.json).
    const ApiPriceRow& together = catalog.api_price("together:llama-3.1-8b");
    CHECK(together.input_per_million == Approx(0.18));
    CHECK(together.output_per_million == Approx(0.18));
    CHECK_FALSE(together.cached_input_per_million);
    const ApiPriceRow& gpt5 = catalog.api_price("openai:gpt-5");
    CHECK(gpt5.input_per_million == 1.25);
    CHECK(gpt5.output_per_million == 10.0);
    CHECK(*gpt5.cached_input_per_million == 0.125);
    // Open-weight models are served by several providers.
    for (const char* model : {"llama-3.1-8b", "llama-3.3-70b", "qwen3-14b"}) {
        int served = 0;
        for (const ApiPriceRow& row : rows) served += row.model == model ? 1 : 0;
        CHECK(served >= 2);
    }
}

TEST_CASE("an unknown API row suggests the closest", "[tokens][api][catalog]") {
    const InputError e = test::input_error([&] { (void)Catalog::shipped().api_price("together:llama-3.1-8"); });
    test::check_error(e, "pricing", 0, "api", "did you mean \"together:llama-3.1-8b\"?");
}
