#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>

#include "payback/market/cloud_billing.hpp"

using namespace payback;

namespace {
const Billing hourly{3600, 3600};
const Billing aws_linux{1, 60};  // per second, 60 s minimum (pricing-facts.md §1.8)
const double not_a_number = std::numeric_limits<double>::quiet_NaN();
const double infinite = std::numeric_limits<double>::infinity();
}  // namespace

// ---- billing granularity ----

TEST_CASE("10-minute jobs: billed 1 h each hourly, 10 min each per second", "[cloud_billing][billing]") {
    // One 10-minute job: ceil(600 / 3600) = 1 increment of 3600 s = 1 h; per second 600 s = 1/6 h,
    // above the 60 s minimum.
    CHECK(billed_hours(hourly, 1.0 / 6) == Approx(1.0).epsilon(1e-15));
    CHECK(billed_hours(aws_linux, 1.0 / 6) == Approx(1.0 / 6).epsilon(1e-15));
    // 1 h of work as 6 jobs of 10 min: hourly 6 × 1 h = 6 h; per second 6 × 600 s = 3600 s = 1 h.
    CHECK(billed_hours_per_month(hourly, 1.0, 1.0 / 6) == Approx(6.0).epsilon(1e-15));
    CHECK(billed_hours_per_month(aws_linux, 1.0, 1.0 / 6) == Approx(1.0).epsilon(1e-15));
    // The 60 s minimum is irrelevant for 600 s jobs: the same 1 h without it.
    CHECK(billed_hours_per_month(Billing{1, 0}, 1.0, 1.0 / 6) == Approx(1.0).epsilon(1e-15));
}

TEST_CASE("30-second jobs under a 60 s minimum bill double", "[cloud_billing][billing]") {
    // One 30 s job: max(60, 30) = 60 s = 1/60 h.
    CHECK(billed_hours(aws_linux, 30.0 / 3600) == Approx(1.0 / 60).epsilon(1e-15));
    // 1 h of work = 3600 / 30 = 120 jobs, each billed 60 s: 7200 s = 2 h.
    CHECK(billed_hours_per_month(aws_linux, 1.0, 30.0 / 3600) == Approx(2.0).epsilon(1e-12));
    // Without the minimum they bill what they use: 1 h.
    CHECK(billed_hours_per_month(Billing{1, 0}, 1.0, 30.0 / 3600) == Approx(1.0).epsilon(1e-12));
}

TEST_CASE("billed_hours rounds up to whole increments, not rounding noise", "[cloud_billing][billing]") {
    const Billing per_minute{60, 0};
    // 61 s: ceil(61 / 60) = 2 minutes = 120 s.
    CHECK(billed_hours(per_minute, 61.0 / 3600) == Approx(120.0 / 3600).epsilon(1e-15));
    // 0.1 h + 0.2 h is 0.30000000000000004 h = 1080.0000000000002 s: still 18 whole minutes, not 19.
    CHECK(billed_hours(per_minute, 0.1 + 0.2) == Approx(0.3).epsilon(1e-15));
    // A job of 0 h ran nothing and bills nothing, even under a minimum.
    CHECK(billed_hours(aws_linux, 0.0) == 0.0);
    CHECK(billed_hours_per_month(aws_linux, 0.0, 1.0) == 0.0);
}

TEST_CASE("billed_hours_per_month: whole jobs plus one remainder job", "[cloud_billing][billing]") {
    // 1.25 h of 1-h jobs: one whole job (1 h) and a 0.25 h remainder job; hourly the remainder bills a full
    // hour: 1 + 1 = 2 h. Per second: 1 + 0.25 = 1.25 h.
    CHECK(billed_hours_per_month(hourly, 1.25, 1.0) == Approx(2.0).epsilon(1e-15));
    CHECK(billed_hours_per_month(aws_linux, 1.25, 1.0) == Approx(1.25).epsilon(1e-15));
    // Per minute with a 10-minute minimum, 1.1 h of 1-h jobs: 60 min + max(10, 6) min = 70 min = 7/6 h.
    CHECK(billed_hours_per_month(Billing{60, 600}, 1.1, 1.0) == Approx(7.0 / 6).epsilon(1e-12));
    // Less work than one job: only the remainder job, 0.5 h billed as 1 h hourly.
    CHECK(billed_hours_per_month(hourly, 0.5, 2.0) == Approx(1.0).epsilon(1e-15));
}

// ---- spot overhead ----

TEST_CASE("spot overhead without interruptions is 1, or (tau + C) / tau with checkpoint cost",
          "[cloud_billing][spot]") {
    CHECK(spot_overhead_factor(SpotTerms{0.0, 2.0, 0.25}) == 1.0);
    // 2 h intervals each followed by a 0.1 h checkpoint: 2.1 / 2 = 1.05.
    CHECK(spot_overhead_factor(SpotTerms{0.0, 2.0, 0.25, 0.1}) == Approx(1.05).epsilon(1e-15));
}

TEST_CASE("spot overhead for small rates: 1 + lambda (tau / 2 + R)", "[cloud_billing][spot]") {
    // (e^{x} - 1)(1/λ + R)/τ with x = λτ expands to 1 + λ(τ/2 + R) + λ²(τ²/6 + Rτ/2) + O(λ³).
    // λ = 1e-4, τ = 1, R = 0.5: first order 1 + 1e-4 × 1 = 1.0001; second-order term
    // 1e-8 × (1/6 + 1/4) = 4.1667e-9.
    const double f = spot_overhead_factor(SpotTerms{1e-4, 1.0, 0.5});
    CHECK(f == Approx(1.0001).epsilon(1e-8));
    CHECK(f - 1.0001 == Approx(1e-8 * (1.0 / 6 + 0.25)).epsilon(1e-3));
    // λ = 1e-9 per hour, τ = 4, R = 1: 1 + 1e-9 × 3 to within 1e-17.
    CHECK(spot_overhead_factor(SpotTerms{1e-9, 4.0, 1.0}) - 1.0 == Approx(3e-9).epsilon(1e-6));
}

TEST_CASE("spot overhead by hand", "[cloud_billing][spot]") {
    // λ = 0.1/h, τ = 2 h, R = 0.25 h, C = 0.05 h: T = 2.05, e^{0.205} - 1 = 0.22752506496317765;
    // × (1/0.1 + 0.25) = 10.25 gives 2.332131915872571 h per 2 h of work, so f = 1.1660659579362855.
    const SpotTerms terms{0.1, 2.0, 0.25, 0.05};
    CHECK(spot_overhead_factor(terms) == Approx(1.1660659579362855).epsilon(1e-14));
    // Pure restart-from-checkpoint, no restart cost: τ = 1, λ = ln 2: (2 - 1)/ln 2 = 1.4426950408889634.
    CHECK(spot_overhead_factor(SpotTerms{std::log(2.0), 1.0, 0.0}) ==
          Approx(1.4426950408889634).epsilon(1e-14));
    // Rates rise with λ.
    CHECK(spot_overhead_factor(SpotTerms{0.2, 2.0, 0.25, 0.05}) > spot_overhead_factor(terms));
}

TEST_CASE("spot overhead overflows to infinity, not NaN", "[cloud_billing][spot]") {
    // λτ = 10 × 100 = 1000 > 709: e^1000 overflows. With R = 0 the product must not become 0 × inf.
    CHECK(std::isinf(spot_overhead_factor(SpotTerms{10.0, 100.0, 0.0})));
    CHECK(std::isinf(spot_overhead_factor(SpotTerms{10.0, 100.0, 0.5})));
}

TEST_CASE("effective spot price is the spot price times the overhead", "[cloud_billing][spot]") {
    // 1.10 $/h × 1.1660659579362855 (the hand case above) = 1.282672553729914 $/useful hour.
    CHECK(effective_spot_price(1.10, SpotTerms{0.1, 2.0, 0.25, 0.05}) ==
          Approx(1.282672553729914).epsilon(1e-14));
    CHECK(effective_spot_price(17.63, SpotTerms{0.0, 1.0, 0.25}) == Approx(17.63).epsilon(1e-15));
}

// ---- spot break-even ----

TEST_CASE("break-even interruption rate by hand", "[cloud_billing][spot][breakeven]") {
    // τ = 1, R = 0: f(ln 2) = (2 - 1)/ln 2 = 1/ln 2; so spot 1 $/h equals 1/ln 2 $/h at λ = ln 2.
    const std::optional<double> plain = breakeven_interruption_rate(1.0, 1.0 / std::log(2.0), 1.0, 0.0);
    REQUIRE(plain);
    CHECK(*plain == Approx(std::log(2.0)).epsilon(1e-13));
    // τ = 1, R = 0.5: f(ln 2) = (2 - 1)(1/ln 2 + 0.5) = 1.9426950408889634.
    const std::optional<double> restart = breakeven_interruption_rate(1.0, 1.9426950408889634, 1.0, 0.5);
    REQUIRE(restart);
    CHECK(*restart == Approx(std::log(2.0)).epsilon(1e-13));
}

TEST_CASE("at the break-even rate spot's effective price equals the other price",
          "[cloud_billing][spot][breakeven]") {
    // p5.48xlarge, us-east-1 (pricing-facts.md §1.1): spot 17.63 vs on-demand 55.04 $/h; checkpoints every
    // hour taking 3 minutes, 15-minute restarts.
    const std::optional<double> rate = breakeven_interruption_rate(17.63, 55.04, 1.0, 0.25, 0.05);
    REQUIRE(rate);
    CHECK(*rate > 0.0);
    CHECK(effective_spot_price(17.63, SpotTerms{*rate, 1.0, 0.25, 0.05}) == Approx(55.04).epsilon(1e-12));
    // A long interval, where f overflows at the 10/h cap (200 h × 10/h = 2000): the log-space search still
    // finds the root: x = 200λ solves (e^x - 1)/x = 3, x = 1.9038136944403834 (bisection, by hand in Python).
    const std::optional<double> long_interval = breakeven_interruption_rate(1.0, 3.0, 200.0, 0.0);
    REQUIRE(long_interval);
    CHECK(*long_interval == Approx(1.9038136944403834 / 200).epsilon(1e-12));
    CHECK(effective_spot_price(1.0, SpotTerms{*long_interval, 200.0, 0.0}) == Approx(3.0).epsilon(1e-12));
}

TEST_CASE("break-even rate: none when spot is dearer at zero or cheaper at the cap",
          "[cloud_billing][spot][breakeven]") {
    // Dearer even without interruptions: 2 > 1.
    CHECK_FALSE(breakeven_interruption_rate(2.0, 1.0, 1.0, 0.25));
    // Checkpoint cost alone makes it dearer: 0.95 × 1.1 / 1 = 1.045 > 1.
    CHECK_FALSE(breakeven_interruption_rate(0.95, 1.0, 1.0, 0.25, 0.1));
    // Still cheaper at 10/h: τ = 0.01 h, R = 0: f(10) = (e^{0.1} - 1)/0.1 = 1.0517; 0.01 × 1.0517 < 100.
    CHECK_FALSE(breakeven_interruption_rate(0.01, 100.0, 0.01, 0.0));
    // Equal without interruptions: the break-even is 0.
    const std::optional<double> equal = breakeven_interruption_rate(1.0, 1.0, 1.0, 0.25);
    REQUIRE(equal);
    CHECK(*equal == 0.0);
    // Free spot against a paid option is cheaper at every rate; a paid spot against a free one never is.
    CHECK_FALSE(breakeven_interruption_rate(0.0, 1.0, 1.0, 0.25));
    CHECK_FALSE(breakeven_interruption_rate(1.0, 0.0, 1.0, 0.25));
}

// ---- AWS Spot Instance Advisor buckets ----

TEST_CASE("AWS interruption buckets convert to rates per hour", "[cloud_billing][spot][aws]") {
    // Bucket middle p read as P(interrupted within 730 h): rate = -ln(1 - p) / 730.
    // <5 %: -ln(0.975) = 0.02531780798429, / 730 = 3.468192874560257e-05.
    CHECK(interruptions_per_hour_from_aws_bucket("<5%").value() ==
          Approx(3.468192874560257e-05).epsilon(1e-13));
    // 5-10 %: -ln(0.925) = 0.07796154146971171, / 730 = 1.0679663215029022e-04.
    CHECK(interruptions_per_hour_from_aws_bucket("5-10%").value() ==
          Approx(1.0679663215029022e-04).epsilon(1e-13));
    // 10-15 %: -ln(0.875) = 0.13353139262452257, / 730 = 1.829197159240036e-04.
    CHECK(interruptions_per_hour_from_aws_bucket("10-15%").value() ==
          Approx(1.829197159240036e-04).epsilon(1e-13));
    // 15-20 %: -ln(0.825) = 0.1923718926474561, / 730 = 2.635231406129535e-04.
    CHECK(interruptions_per_hour_from_aws_bucket("15-20%").value() ==
          Approx(2.635231406129535e-04).epsilon(1e-13));
    // >20 %, taken as 22.5 %: -ln(0.775) = 0.25489224962879004, / 730 = 3.4916746524491795e-04.
    CHECK(interruptions_per_hour_from_aws_bucket(">20%").value() ==
          Approx(3.4916746524491795e-04).epsilon(1e-13));
}

TEST_CASE("AWS bucket spellings: spaces and en dashes accepted, anything else rejected",
          "[cloud_billing][spot][aws]") {
    const double mid = interruptions_per_hour_from_aws_bucket("5-10%").value();
    CHECK(interruptions_per_hour_from_aws_bucket("5\xE2\x80\x93" "10 %").value() == mid);  // en dash
    CHECK(interruptions_per_hour_from_aws_bucket(" 5 - 10 ").value() == mid);
    CHECK(interruptions_per_hour_from_aws_bucket("< 5 %").value() ==
          interruptions_per_hour_from_aws_bucket("<5%").value());
    CHECK_FALSE(interruptions_per_hour_from_aws_bucket(""));
    CHECK_FALSE(interruptions_per_hour_from_aws_bucket("20%"));
    CHECK_FALSE(interruptions_per_hour_from_aws_bucket("5-15%"));
    CHECK_FALSE(interruptions_per_hour_from_aws_bucket("high"));
}

TEST_CASE("AWS bucket rates feed the spot overhead", "[cloud_billing][spot][aws]") {
    // >20 %: λ = 3.4916746524491795e-04/h; τ = 1 h, R = 0.25 h. To first order
    // f = 1 + λ(0.5 + 0.25) = 1 + 2.6188e-4; the second-order term λ²(1/6 + 1/8) is 3.6e-8.
    const double lambda = interruptions_per_hour_from_aws_bucket(">20%").value();
    CHECK(spot_overhead_factor(SpotTerms{lambda, 1.0, 0.25}) - 1.0 == Approx(lambda * 0.75).epsilon(2e-4));
}

// ---- reserved / committed use ----

TEST_CASE("reserved cost below and above the commitment", "[cloud_billing][reserved]") {
    // 500 committed hours at 0.6 $/h cost 300 $ whether used or not.
    CHECK(reserved_monthly_cost(300, 500, 0.6, 1.0) == Approx(300.0).epsilon(1e-15));
    CHECK(reserved_monthly_cost(0, 500, 0.6, 1.0) == Approx(300.0).epsilon(1e-15));
    // 700 h: 300 $ + (700 - 500) × 1.0 = 500 $.
    CHECK(reserved_monthly_cost(700, 500, 0.6, 1.0) == Approx(500.0).epsilon(1e-15));
    // No commitment: all on demand, 700 × 1.0.
    CHECK(reserved_monthly_cost(700, 0, 0.6, 1.0) == Approx(700.0).epsilon(1e-15));
}

TEST_CASE("reserved break-even utilization is reserved / on-demand", "[cloud_billing][reserved]") {
    CHECK(reserved_breakeven_utilization(0.6, 1.0) == Approx(0.6).epsilon(1e-15));
    // At 60 % of 500 committed hours (300 h) the commitment costs 300 $, the same as 300 h on demand.
    const double used = reserved_breakeven_utilization(0.6, 1.0) * 500;
    CHECK(reserved_monthly_cost(used, 500, 0.6, 1.0) == Approx(used * 1.0).epsilon(1e-14));
    // A "discount" above on-demand never pays: 1.2 / 1.0 = 1.2 > 1.
    CHECK(reserved_breakeven_utilization(1.2, 1.0) == Approx(1.2).epsilon(1e-15));
}

// ---- storage and egress ----

TEST_CASE("storage and egress are gigabytes times price", "[cloud_billing][storage]") {
    // 500 GB of EBS gp3 at 0.08 $/GB-month (pricing-facts.md §1.8) = 40 $/month.
    CHECK(storage_cost_per_month(500, 0.08) == Approx(40.0).epsilon(1e-15));
    // 1000 GB out at 0.09 $/GB = 90 $.
    CHECK(egress_cost(1000, 0.09) == Approx(90.0).epsilon(1e-15));
    CHECK(egress_cost(0, 0.09) == 0.0);
}

// ---- errors ----

TEST_CASE("invalid inputs throw std::invalid_argument", "[cloud_billing][errors]") {
    CHECK_THROWS_AS(billed_hours(Billing{0, 0}, 1.0), std::invalid_argument);
    CHECK_THROWS_AS(billed_hours(Billing{-1, 0}, 1.0), std::invalid_argument);
    CHECK_THROWS_AS(billed_hours(Billing{1, -60}, 1.0), std::invalid_argument);
    CHECK_THROWS_AS(billed_hours(aws_linux, -1.0), std::invalid_argument);
    CHECK_THROWS_AS(billed_hours(aws_linux, not_a_number), std::invalid_argument);
    CHECK_THROWS_AS(billed_hours(Billing{not_a_number, 0}, 1.0), std::invalid_argument);
    CHECK_THROWS_AS(billed_hours_per_month(aws_linux, 10.0, 0.0), std::invalid_argument);
    CHECK_THROWS_AS(billed_hours_per_month(aws_linux, -10.0, 1.0), std::invalid_argument);
    CHECK_THROWS_AS(billed_hours_per_month(aws_linux, infinite, 1.0), std::invalid_argument);

    CHECK_THROWS_AS(spot_overhead_factor(SpotTerms{-0.1, 1.0, 0.25}), std::invalid_argument);
    CHECK_THROWS_AS(spot_overhead_factor(SpotTerms{not_a_number, 1.0, 0.25}), std::invalid_argument);
    CHECK_THROWS_AS(spot_overhead_factor(SpotTerms{0.1, 0.0, 0.25}), std::invalid_argument);
    CHECK_THROWS_AS(spot_overhead_factor(SpotTerms{0.1, 1.0, -0.25}), std::invalid_argument);
    CHECK_THROWS_AS(spot_overhead_factor(SpotTerms{0.1, 1.0, 0.25, -0.05}), std::invalid_argument);
    CHECK_THROWS_AS(effective_spot_price(-1.0, SpotTerms{0.1, 1.0, 0.25}), std::invalid_argument);
    CHECK_THROWS_AS(breakeven_interruption_rate(not_a_number, 1.0, 1.0, 0.25), std::invalid_argument);
    CHECK_THROWS_AS(breakeven_interruption_rate(1.0, -1.0, 1.0, 0.25), std::invalid_argument);
    CHECK_THROWS_AS(breakeven_interruption_rate(1.0, 2.0, 0.0, 0.25), std::invalid_argument);
    CHECK_THROWS_AS(breakeven_interruption_rate(1.0, 2.0, 1.0, 0.25, not_a_number), std::invalid_argument);

    CHECK_THROWS_AS(reserved_monthly_cost(-1, 500, 0.6, 1.0), std::invalid_argument);
    CHECK_THROWS_AS(reserved_monthly_cost(100, 500, not_a_number, 1.0), std::invalid_argument);
    CHECK_THROWS_AS(reserved_breakeven_utilization(0.6, 0.0), std::invalid_argument);
    CHECK_THROWS_AS(reserved_breakeven_utilization(-0.6, 1.0), std::invalid_argument);
    CHECK_THROWS_AS(storage_cost_per_month(-1, 0.08), std::invalid_argument);
    CHECK_THROWS_AS(egress_cost(100, not_a_number), std::invalid_argument);

    // The message names the function and the argument.
    CHECK_THROWS_WITH(billed_hours(aws_linux, -1.0),
                      Catch::Contains("billed_hours") && Catch::Contains("job_hours"));
}
