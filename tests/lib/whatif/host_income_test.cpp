// Host income when the market's host price is a spread: the lognormal through a row's quantiles, and
// the net income a month at the price's P10, median and P90; with the occupancy drawn from a range,
// the income's quantiles over the draws.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
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

TEST_CASE("host income over a uniform occupancy at a fixed price, by hand", "[host_income]") {
    const Scenario s = renting_rig();
    const auto at = [&](double occupancy) {
        Scenario t = s;
        t.rental->terms.occupancy = occupancy;
        return host_income_per_month(t);
    };
    // Each rented hour earns $0.30 x (1 - 0.25) = $0.225 and draws 300 W x $0.20/kWh = $0.06 more than
    // idling (the card idles at 0 W): $0.165. 630 offered hours x occupancy are rented, so income is
    // 630 x 0.165 = $103.95 a month per unit of occupancy, a straight line through 0.
    CHECK(at(0.5) == Approx(103.95 * 0.5).epsilon(1e-9));
    CHECK(at(0.4) == Approx(103.95 * 0.4).epsilon(1e-9));
    // Occupancy uniform on [0.4, 0.6]: its P10, P50 and P90 are 0.42, 0.50 and 0.58, and a straight
    // line keeps quantiles: 43.659, 51.975 and 60.291 a month. 4,000 Latin hypercube draws put each
    // within a stratum (0.2 / 4,000 = 0.00005 of occupancy, $0.005) of those.
    const HostIncomeQuantiles q =
        host_income_drawn(s, std::nullopt, Distribution{dist::Uniform{0.4, 0.6}}, 4000, 1);
    CHECK(q.p10 == Approx(43.659).margin(0.01));
    CHECK(q.p50 == Approx(51.975).margin(0.01));
    CHECK(q.p90 == Approx(60.291).margin(0.01));
}

TEST_CASE("a point occupancy reproduces the deterministic income exactly; a wider range widens P10-P90",
          "[host_income]") {
    const Scenario s = renting_rig();
    // Every draw is the scenario's own occupancy and price: every income is the deterministic one.
    const HostIncomeQuantiles point = host_income_drawn(s, std::nullopt, Distribution{dist::Discrete{{0.5}, {}}}, 100, 7);
    CHECK(point.p10 == host_income_per_month(s));
    CHECK(point.p50 == host_income_per_month(s));
    CHECK(point.p90 == host_income_per_month(s));
    // Property: around the same centre, with the host price drawn too (the row's lognormal), each wider
    // occupancy range gives a wider P10-P90 of income, for several seeds.
    const auto price = host_price_distribution(market_row(0.20, 0.30, 0.45));
    for (const std::uint64_t seed : {1U, 2U, 3U}) {
        double last = 0.0;
        for (const double half_width : {0.0, 0.05, 0.15, 0.3, 0.45}) {
            const Distribution occupancy = half_width == 0.0
                                               ? Distribution{dist::Discrete{{0.5}, {}}}
                                               : Distribution{dist::Uniform{0.5 - half_width, 0.5 + half_width}};
            const HostIncomeQuantiles q = host_income_drawn(s, price, occupancy, 2000, seed);
            INFO("seed " << seed << ", occupancy 0.5 +/- " << half_width);
            CHECK(q.p10 <= q.p50);
            CHECK(q.p50 <= q.p90);
            CHECK(q.p90 - q.p10 > last);
            last = q.p90 - q.p10;
        }
    }
}
