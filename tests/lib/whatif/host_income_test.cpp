// Host income when the market's host price is a spread: the lognormal through a row's quantiles, and
// the net income a month at the price's P10, median and P90.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <variant>

#include "payback/base/distribution.hpp"
#include "payback/scenario/scenario.hpp"
#include "payback/whatif/host_income.hpp"

using namespace payback;

namespace {

RentalMarket market_row(double p10, double median, double p90) {
    RentalMarket row;
    row.market = "vast";
    row.gpu = "RTX 3090";
    row.host_price_p10_per_hour = p10;
    row.host_price_per_hour = median;
    row.host_price_p90_per_hour = p90;
    return row;
}

// One GPU that trains 100 h of the month's 730 and rents the other 630 out at half occupancy (315 h)
// behind a 25 % fee, for 12 months; a hobbyist pays no tax, and nothing wears.
Scenario renting_rig() {
    return parse_scenario(R"(
[scenario]
name = "host"
horizon_months = 12
[workload]
gpu_hours_per_month = 100
[rig]
name = "Rig"
[[rig.parts]]
kind = "gpu"
name = "card"
price = 1000
load_watts = 300
[electricity]
price_per_kwh = 0.2
[rental]
price_per_gpu_hour = 0.30
occupancy = 0.5
platform_fee = 0.25
)",
                          "host.toml");
}

}  // namespace

TEST_CASE("the host price's lognormal goes through the row's median, P10 and P90", "[host_income]") {
    // The median 0.30 is the geometric mean of 0.20 and 0.45 (sqrt(0.09)), so all three are exact:
    // sigma = ln(0.45 / 0.20) / (2 x 1.28155) = 0.81093 / 2.56310 = 0.31639.
    const auto d = host_price_distribution(market_row(0.20, 0.30, 0.45));
    REQUIRE(d);
    const auto& shape = std::get<dist::Lognormal>(d->shape);
    CHECK(*shape.median == 0.30);
    CHECK(*shape.sigma == Approx(std::log(2.25) / 2.5631031310892007).epsilon(1e-12));
    CHECK(quantile(*d, 0.1) == Approx(0.20).epsilon(1e-9));
    CHECK(quantile(*d, 0.5) == Approx(0.30).epsilon(1e-12));
    CHECK(quantile(*d, 0.9) == Approx(0.45).epsilon(1e-9));
    // Nothing to draw: no quantiles, or all three the same.
    RentalMarket plain = market_row(0.20, 0.30, 0.45);
    plain.host_price_p10_per_hour.reset();
    plain.host_price_p90_per_hour.reset();
    CHECK_FALSE(host_price_distribution(plain));
    CHECK_FALSE(host_price_distribution(market_row(0.30, 0.30, 0.30)));
}

TEST_CASE("host income a month at the host price's quantiles", "[host_income]") {
    const Scenario s = renting_rig();
    const HostIncomeQuantiles q = host_income_quantiles(s, 0.20, 0.30, 0.45);
    CHECK(q.p10 <= q.p50);
    CHECK(q.p50 <= q.p90);
    // Income is 315 rented hours x price x (1 - 0.25) less what does not depend on the price (the
    // rented hours' power): each $0.01 an hour is 315 x 0.75 x 0.01 = $2.3625 a month.
    CHECK(q.p90 - q.p10 == Approx(236.25 * 0.25).epsilon(1e-9));
    CHECK(q.p50 - q.p10 == Approx(236.25 * 0.10).epsilon(1e-9));
    // A degenerate spread is the deterministic answer at the scenario's own price.
    const HostIncomeQuantiles point = host_income_quantiles(s, 0.30, 0.30, 0.30);
    CHECK(point.p10 == host_income_per_month(s));
    CHECK(point.p90 == host_income_per_month(s));
    // The rented hours' power: 315 h x 300 W = 94.5 kWh x $0.20 = $18.90, at most (less if the rig
    // would have idled those hours anyway): so the income at $0.30 is within [70.875 - 18.90, 70.875].
    CHECK(host_income_per_month(s) <= 315 * 0.30 * 0.75 + 1e-9);
    CHECK(host_income_per_month(s) >= 315 * 0.30 * 0.75 - 18.90 - 1e-9);
}
