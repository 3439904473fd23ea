// Catalog::with_history: a price history's prices as catalog rows before the catalogs' own, picked
// by date with the catalogs' rule.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "payback/market/catalog.hpp"
#include "payback/market/price_history.hpp"

using namespace payback;

namespace {

DatedPrice price(const std::string& kind, const std::string& provider, const std::string& item,
                 const std::string& region, const std::string& mode, const std::string& as_of, double value) {
    return {{kind, provider, item, region, mode}, as_of, value, "USD", "test: " + as_of, "test"};
}

}  // namespace

TEST_CASE("a history's prices become dated catalog rows, the history's first on a tie", "[catalog][history]") {
    const Catalog& shipped = Catalog::shipped();
    // aws:p3.2xlarge in us-east-1: on demand $3.06 and spot $0.371 as of 2026-11-29 in the catalog.
    const std::vector<DatedPrice> history = {
        price("instance", "aws", "p3.2xlarge", "us-east-1", "on_demand", "2025-01-01", 2.80),
        price("instance", "aws", "p3.2xlarge", "us-east-1", "on_demand", "2026-11-29", 3.00),  // a corrected snapshot
        price("instance", "aws", "p3.2xlarge", "us-east-1", "spot", "2027-01-01", 0.30),  // spot alone changes
        price("api", "together", "llama-3.1-8b", "", "input", "2025-01-01", 0.10),
        price("api", "together", "llama-3.1-8b", "", "output", "2025-01-01", 0.12),
        price("api", "together", "llama-3.1-8b", "", "input", "2025-06-01", 0.11),  // output still $0.12
        price("rental", "vast", "RTX 4090", "", "host", "2025-01-01", 0.40),
        price("instance", "aws", "no-such-type", "us-east-1", "on_demand", "2025-01-01", 1.0),  // not in the catalog
    };
    const Catalog c = shipped.with_history(history, "/data/prices.sqlite");

    const CloudInstance& early = c.instance("aws:p3.2xlarge", "us-east-1", "2025-06-30");
    CHECK(*early.on_demand_per_hour == 2.80);
    CHECK_FALSE(early.spot_per_hour);  // no spot price in effect yet
    CHECK(early.gpu == "V100 16GB");   // the rest from the catalog's row
    CHECK(early.origin.describe() == "prices.sqlite (price history), as of 2025-01-01");
    CHECK(early.origin.source == "test: 2025-01-01");
    // On 2026-11-29 both hold a price: the history's.
    CHECK(*c.instance("aws:p3.2xlarge", "us-east-1", "2026-11-29").on_demand_per_hour == 3.00);
    // The newest: on demand carried from 2026-11-29 beside the new spot price.
    const CloudInstance& newest = c.instance("aws:p3.2xlarge", "us-east-1");
    CHECK(newest.origin.as_of == "2027-01-01");
    CHECK(*newest.on_demand_per_hour == 3.00);
    CHECK(*newest.spot_per_hour == 0.30);
    // The instance's first region is still the catalog's.
    CHECK(c.instance("aws:p3.2xlarge", "").region == shipped.instance("aws:p3.2xlarge", "").region);
    CHECK_THROWS(c.instance("aws:no-such-type", "us-east-1"));

    CHECK(c.api_price("together:llama-3.1-8b", "2025-03-01").input_per_million == 0.10);
    CHECK(c.api_price("together:llama-3.1-8b", "2025-06-01").input_per_million == 0.11);
    CHECK(c.api_price("together:llama-3.1-8b", "2025-06-01").output_per_million == 0.12);
    CHECK(c.api_price("together:llama-3.1-8b").input_per_million ==
          shipped.api_price("together:llama-3.1-8b").input_per_million);  // the catalog's row is newer

    const RentalMarket& market = c.rental_market("vast", "RTX 4090", "2025-02-01");
    CHECK(*market.host_price_per_hour == 0.40);
    CHECK(market.platform_fee == shipped.rental_market("vast", "RTX 4090").platform_fee);
}

TEST_CASE("an empty history leaves every lookup as the catalogs answer it", "[catalog][history]") {
    const Catalog& shipped = Catalog::shipped();
    const Catalog c = shipped.with_history({}, "prices.sqlite");
    CHECK(c.instances().size() == shipped.instances().size());
    CHECK(*c.instance("aws:p3.2xlarge", "us-east-1").on_demand_per_hour == 3.06);
}
