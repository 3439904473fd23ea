#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "payback/base/distribution.hpp"

using namespace payback;

namespace {

// The midpoint rule over u in (0, 1): the mean of the distribution, as the average of its quantiles.
double mean_of_quantiles(const Distribution& d, int points) {
    double sum = 0.0;
    for (int k = 0; k < points; ++k) sum += quantile(d, (k + 0.5) / points);
    return sum / points;
}

}  // namespace

// ---- quantiles against closed forms ----

TEST_CASE("uniform quantile is linear", "[distribution][quantile]") {
    const Distribution d{dist::Uniform{2, 6}};
    CHECK(quantile(d, 0.25) == Approx(3.0).epsilon(1e-15));
    CHECK(quantile(d, 0.5) == Approx(4.0).epsilon(1e-15));
    CHECK(mean(d) == 4.0);
}

TEST_CASE("triangular quantile follows the two quadratic pieces of the CDF", "[distribution][quantile]") {
    // (0, 1, 4): F(mode) = 1/4. Below: x = sqrt(u × 4 × 1), so u = 1/16 gives 0.5 and u = 1/4 the mode.
    // Above: x = 4 - sqrt((1 - u) × 4 × 3), so u = 1/2 gives 4 - sqrt(6) = 1.5505102572168219.
    const Distribution small{dist::Triangular{0, 1, 4}};
    CHECK(quantile(small, 1.0 / 16) == Approx(0.5).epsilon(1e-15));
    CHECK(quantile(small, 0.25) == Approx(1.0).epsilon(1e-15));
    CHECK(quantile(small, 0.5) == Approx(1.5505102572168219).epsilon(1e-14));
    // The (40, 120, 300): F(mode) = 80/260. u = 0.1: 40 + sqrt(0.1 × 260 × 80) = 40 + sqrt(2080)
    // = 85.607017003965519; u = 0.5: 300 - sqrt(0.5 × 260 × 180) = 300 - sqrt(23400) = 147.02941459221646.
    const Distribution hours{dist::Triangular{40, 120, 300}};
    CHECK(quantile(hours, 0.1) == Approx(85.607017003965519).epsilon(1e-14));
    CHECK(quantile(hours, 0.5) == Approx(147.02941459221646).epsilon(1e-14));
    CHECK(mean(hours) == Approx(460.0 / 3).epsilon(1e-15));
    // A mode at either end: a right or left triangle.
    CHECK(quantile(Distribution{dist::Triangular{0, 0, 1}}, 0.75) == Approx(0.5).epsilon(1e-15));  // 1 - sqrt(0.25)
    CHECK(quantile(Distribution{dist::Triangular{0, 1, 1}}, 0.25) == Approx(0.5).epsilon(1e-15));  // sqrt(0.25)
}

TEST_CASE("normal quantile: Φ^-1(0.975) = 1.959964", "[distribution][quantile]") {
    CHECK(quantile(Distribution{dist::Normal{0, 1}}, 0.975) == Approx(1.959963984540054).epsilon(1e-14));
    CHECK(quantile(Distribution{dist::Normal{10, 2}}, 0.975) == Approx(10 + 2 * 1.959963984540054).epsilon(1e-14));
    CHECK(quantile(Distribution{dist::Normal{10, 2}}, 0.5) == Approx(10.0).epsilon(1e-15));
    CHECK(mean(Distribution{dist::Normal{10, 2}}) == 10.0);
}

TEST_CASE("truncated normal: quantile of the truncated distribution, its mean in closed form",
          "[distribution][quantile]") {
    // The half normal: [0, inf) keeps the upper half, so u = 0.95 is Φ^-1(0.5 + 0.95/2) = Φ^-1(0.975);
    // its mean is sqrt(2/π) = 0.79788456080286536.
    const Distribution half{dist::Normal{.mean = 0, .sd = 1, .low = 0.0}};
    CHECK(quantile(half, 0.95) == Approx(1.959963984540054).epsilon(1e-13));
    CHECK(mean(half) == Approx(0.79788456080286536).epsilon(1e-14));
    // mean 10, sd 2 on [9, 15]: 10 + 2 (φ(-0.5) - φ(2.5)) / (Φ(2.5) - Φ(-0.5)) = 10.976390109602709;
    // the median 10 + 2 Φ^-1((Φ(-0.5) + Φ(2.5)) / 2) = 10.776929523429453 (mpmath, 30 digits).
    const Distribution both{dist::Normal{.mean = 10, .sd = 2, .low = 9.0, .high = 15.0}};
    CHECK(mean(both) == Approx(10.976390109602709).epsilon(1e-13));
    CHECK(quantile(both, 0.5) == Approx(10.776929523429453).epsilon(1e-13));
    CHECK(quantile(both, 1e-9) >= 9.0);
    CHECK(quantile(both, 1 - 1e-9) <= 15.0);
}

TEST_CASE("a truncation deep in the upper tail keeps its precision", "[distribution][quantile]") {
    // N(0, 1) above 10: the mean is φ(10) / Φ(-10) = 10.098093233962512, though Φ(10) rounds to 1.
    const Distribution tail{dist::Normal{.mean = 0, .sd = 1, .low = 10.0}};
    CHECK(check(tail).empty());
    CHECK(mean(tail) == Approx(10.098093233962512).epsilon(1e-13));
    const double median = quantile(tail, 0.5);
    CHECK(median > 10.0);
    CHECK(median < 10.1);
}

TEST_CASE("lognormal: median = exp(mu), both parametrisations", "[distribution][quantile]") {
    const Distribution by_median{dist::Lognormal{.median = 100.0, .sigma = 0.5}};
    CHECK(quantile(by_median, 0.5) == Approx(100.0).epsilon(1e-14));
    // 100 exp(0.5 Φ^-1(0.975)) = 266.44082615528980
    CHECK(quantile(by_median, 0.975) == Approx(266.44082615528980).epsilon(1e-13));
    CHECK(mean(by_median) == Approx(100 * std::exp(0.125)).epsilon(1e-14));  // exp(mu + sigma^2/2)

    // mean 100, sd 50: sigma^2 = ln(1 + 0.25), median = 100 / sqrt(1.25).
    const Distribution by_mean{dist::Lognormal{.mean = 100.0, .sd = 50.0}};
    CHECK(mean(by_mean) == Approx(100.0).epsilon(1e-14));
    CHECK(quantile(by_mean, 0.5) == Approx(100 / std::sqrt(1.25)).epsilon(1e-14));
    CHECK(mean_of_quantiles(by_mean, 100000) == Approx(100.0).epsilon(1e-3));
}

TEST_CASE("truncated lognormal", "[distribution][quantile]") {
    // Cut above the median: the truncated median is the untruncated quartile, 100 exp(0.5 Φ^-1(0.25)).
    const Distribution below{dist::Lognormal{.median = 100.0, .sigma = 0.5, .high = 100.0}};
    CHECK(quantile(below, 0.5) == Approx(71.373404280815796).epsilon(1e-13));
    // On [50, 150] the mean is 94.757722593811351 (mpmath quadrature of x f(x) over the mass).
    const Distribution both{dist::Lognormal{.median = 100.0, .sigma = 0.5, .low = 50.0, .high = 150.0}};
    CHECK(mean(both) == Approx(94.757722593811351).epsilon(1e-12));
    CHECK(mean_of_quantiles(both, 100000) == Approx(94.757722593811351).epsilon(1e-8));
    // A low at or below 0 cuts nothing.
    const Distribution none{dist::Lognormal{.median = 100.0, .sigma = 0.5, .low = -5.0}};
    CHECK(quantile(none, 0.975) == Approx(266.44082615528980).epsilon(1e-13));
}

TEST_CASE("PERT: the mean of its quantiles is (low + 4 mode + high) / 6", "[distribution][quantile]") {
    const Distribution hours{dist::Pert{40, 120, 300}};
    const double expected = (40 + 4 * 120 + 300) / 6.0;  // 136.666...
    CHECK(mean(hours) == Approx(expected).epsilon(1e-15));
    // The quantile goes as u^(1/alpha) at the ends, so the midpoint rule's error shrinks only as
    // about N^-1.4: some 3e-7 at N = 20,000.
    CHECK(mean_of_quantiles(hours, 20000) == Approx(expected).epsilon(1e-6));
    // The median: 40 + 260 × the Beta(1 + 4·80/260, 1 + 4·180/260) median = 132.74833014797585 (mpmath).
    CHECK(quantile(hours, 0.5) == Approx(132.74833014797585).epsilon(1e-12));
    // lambda 2: mean (40 + 2·120 + 300) / 4 = 145.
    const Distribution flatter{dist::Pert{40, 120, 300, 2}};
    CHECK(mean_of_quantiles(flatter, 20000) == Approx(145.0).epsilon(1e-6));
}

TEST_CASE("discrete: the smallest value whose cumulative weight reaches u", "[distribution][quantile]") {
    // Listed out of order; ascending it is 10 (weight 2/4), 20 (1/4), 30 (1/4).
    const Distribution d{dist::Discrete{{30, 10, 20}, {1, 2, 1}}};
    CHECK(quantile(d, 0.01) == 10.0);
    CHECK(quantile(d, 0.5) == 10.0);  // cumulative 2/4 reaches 0.5 exactly
    CHECK(quantile(d, 0.51) == 20.0);
    CHECK(quantile(d, 0.75) == 20.0);
    CHECK(quantile(d, 0.76) == 30.0);
    CHECK(quantile(d, 0.999) == 30.0);
    CHECK(mean(d) == Approx((30 + 2 * 10 + 20) / 4.0).epsilon(1e-15));

    // A zero weight is never drawn; no weights are equal ones.
    const Distribution gap{dist::Discrete{{1, 2, 3}, {1, 0, 1}}};
    CHECK(quantile(gap, 0.5) == 1.0);
    CHECK(quantile(gap, 0.5000001) == 3.0);
    const Distribution equal{dist::Discrete{{4, 8}, {}}};
    CHECK(quantile(equal, 0.49) == 4.0);
    CHECK(quantile(equal, 0.51) == 8.0);
    CHECK(mean(equal) == 6.0);
}

TEST_CASE("quantile wants u in (0, 1) and a valid distribution", "[distribution][quantile]") {
    const Distribution d{dist::Uniform{0, 1}};
    CHECK_THROWS_AS(quantile(d, 0.0), std::invalid_argument);
    CHECK_THROWS_AS(quantile(d, 1.0), std::invalid_argument);
    CHECK_THROWS_AS(quantile(d, std::nan("")), std::invalid_argument);
    CHECK_THROWS_WITH(quantile(Distribution{dist::Uniform{5, 3}}, 0.5),
                      "{ dist = \"uniform\", low = 5, high = 3 }: low must be < high, got 5 and 3");
    CHECK_THROWS_AS(mean(Distribution{dist::Normal{0, 0}}), std::invalid_argument);
}

// ---- check ----

TEST_CASE("check names each problem in the scenario's key names", "[distribution][check]") {
    CHECK(check(Distribution{dist::Uniform{0.10, 0.40}}).empty());
    CHECK(check(Distribution{dist::Triangular{40, 120, 300}}).empty());
    CHECK(check(Distribution{dist::Uniform{5, 3}}) == "low must be < high, got 5 and 3");
    CHECK(check(Distribution{dist::Uniform{3, 3}}) == "low must be < high, got 3 and 3");
    CHECK(check(Distribution{dist::Uniform{0, std::numeric_limits<double>::infinity()}}) ==
          "high must be a finite number, got inf");
    CHECK(check(Distribution{dist::Triangular{40, 500, 300}}) == "mode 500 outside [40, 300]");
    CHECK(check(Distribution{dist::Triangular{300, 120, 40}}) == "low must be < high, got 300 and 40");
    CHECK(check(Distribution{dist::Pert{40, 20, 300}}) == "mode 20 outside [40, 300]");
    CHECK(check(Distribution{dist::Pert{40, 120, 300, 0}}) == "lambda must be > 0, got 0");
    CHECK(check(Distribution{dist::Normal{10, 0}}) == "sd must be > 0, got 0");
    CHECK(check(Distribution{dist::Normal{10, -1}}) == "sd must be > 0, got -1");
    CHECK(check(Distribution{dist::Normal{.mean = 0, .sd = 1, .low = 2.0, .high = 1.0}}) ==
          "low must be < high, got 2 and 1");
    // 50 sd above the mean: Φ rounds both ends to the same number.
    CHECK(check(Distribution{dist::Normal{.mean = 0, .sd = 1, .low = 50.0, .high = 60.0}}) ==
          "truncation leaves no probability");
    CHECK(check(Distribution{dist::Lognormal{.median = 100.0, .sigma = 0.5, .high = 0.0}}) ==
          "truncation leaves no probability");
    CHECK(check(Distribution{dist::Discrete{{1, 2}, {1, -1}}}) == "weights must be >= 0 and sum > 0");
    CHECK(check(Distribution{dist::Discrete{{1, 2}, {0, 0}}}) == "weights must be >= 0 and sum > 0");
    CHECK(check(Distribution{dist::Discrete{{1, 2}, {1}}}) ==
          "values and weights must have the same length, got 2 and 1");
    CHECK(check(Distribution{dist::Discrete{{}, {}}}) == "values must not be empty");
}

TEST_CASE("check of a lognormal wants exactly one parameter pair", "[distribution][check]") {
    CHECK(check(Distribution{dist::Lognormal{.median = 100.0, .sigma = 0.5}}).empty());
    CHECK(check(Distribution{dist::Lognormal{.mean = 100.0, .sd = 50.0}}).empty());
    CHECK(check(Distribution{dist::Lognormal{}}) == "give median and sigma, or mean and sd");
    CHECK(check(Distribution{dist::Lognormal{.median = 100.0, .sigma = 0.5, .mean = 100.0}}) ==
          "give median and sigma, or mean and sd");
    CHECK(check(Distribution{dist::Lognormal{.median = 100.0}}) == "median needs sigma");
    CHECK(check(Distribution{dist::Lognormal{.sd = 3.0}}) == "sd needs mean");
    CHECK(check(Distribution{dist::Lognormal{.median = -1.0, .sigma = 0.5}}) == "median must be > 0, got -1");
    CHECK(check(Distribution{dist::Lognormal{.median = 100.0, .sigma = 0.0}}) == "sigma must be > 0, got 0");
    CHECK(check(Distribution{dist::Lognormal{.mean = 0.0, .sd = 1.0}}) == "mean must be > 0, got 0");
}

// ---- describe ----

TEST_CASE("describe writes the scenario's inline table", "[distribution][describe]") {
    CHECK(describe(Distribution{dist::Triangular{40, 120, 300}}) ==
          "{ dist = \"triangular\", low = 40, mode = 120, high = 300 }");
    CHECK(describe(Distribution{dist::Uniform{0.1, 0.4}}) == "{ dist = \"uniform\", low = 0.1, high = 0.4 }");
    CHECK(describe(Distribution{dist::Normal{.mean = 10, .sd = 2, .low = 0.0}}) ==
          "{ dist = \"normal\", mean = 10, sd = 2, low = 0 }");
    CHECK(describe(Distribution{dist::Lognormal{.median = 100.0, .sigma = 0.5}}) ==
          "{ dist = \"lognormal\", median = 100, sigma = 0.5 }");
    CHECK(describe(Distribution{dist::Pert{40, 120, 300}}) ==
          "{ dist = \"pert\", low = 40, mode = 120, high = 300 }");
    CHECK(describe(Distribution{dist::Pert{40, 120, 300, 2.5}}) ==
          "{ dist = \"pert\", low = 40, mode = 120, high = 300, lambda = 2.5 }");
    CHECK(describe(Distribution{dist::Discrete{{1, 2}, {}}}) == "{ dist = \"discrete\", values = [1, 2] }");
    CHECK(describe(Distribution{dist::Discrete{{1, 2}, {0.25, 0.75}}}) ==
          "{ dist = \"discrete\", values = [1, 2], weights = [0.25, 0.75] }");
}

TEST_CASE("QuantileFunction gives quantile() to 1e-12 of the range, PERT's table included",
          "[distribution][quantile]") {
    // The bench's PERT (low 0.15, mode 0.25, high 0.40): Beta(1 + 4·0.1/0.25, 1 + 4·0.15/0.25) = Beta(2.6, 3.4);
    // and a skewed one with its mode at the low end, Beta(1, 5), whose density does not vanish there.
    for (const Distribution& d : {Distribution{dist::Pert{0.15, 0.25, 0.40}}, Distribution{dist::Pert{10, 10, 50}}}) {
        const QuantileFunction fast(d);
        const auto& p = std::get<dist::Pert>(d.shape);
        double worst = 0.0;
        // 100,003 points (a prime count, so not the table's knots) and the extreme tails.
        for (int k = 1; k < 100'003; ++k) {
            const double u = k / 100'003.0;
            worst = std::max(worst, std::abs(fast(u) - quantile(d, u)));
        }
        for (const double u : {1e-12, 1e-6, 0.5 / 1024, 1 - 0.5 / 1024, 1 - 1e-6, 1 - 1e-12})
            worst = std::max(worst, std::abs(fast(u) - quantile(d, u)));
        CHECK(worst <= 1e-12 * (p.high - p.low));
    }
    // Elsewhere it is quantile() itself.
    const Distribution triangular{dist::Triangular{40, 120, 300}};
    CHECK(QuantileFunction(triangular)(0.3) == quantile(triangular, 0.3));
    CHECK_THROWS_AS(QuantileFunction(Distribution{dist::Pert{5, 1, 3}}), std::invalid_argument);
}
