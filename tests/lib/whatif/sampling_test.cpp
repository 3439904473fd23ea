#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "payback/base/distribution.hpp"
#include "payback/whatif/sampling.hpp"

using namespace payback;

namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

std::vector<double> sorted(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v;
}

// 3 X + 2 Y for X ~ U(0, 1), Y ~ U(0, 2), i.e. U(0, 3) + U(0, 4): a trapezoid on [0, 7] with
// F(z) = z^2 / 24 below 3, mean 3.5, variance 9/12 + 16/12 = 25/12.
std::vector<double> linear_combination(const SampleMatrix& m) {
    std::vector<double> z(static_cast<std::size_t>(m.samples));
    for (int s = 0; s < m.samples; ++s) z[static_cast<std::size_t>(s)] = 3 * m.at(s, 0) + 2 * m.at(s, 1);
    return z;
}

const std::vector<Distribution> two_uniforms{Distribution{dist::Uniform{0, 1}}, Distribution{dist::Uniform{0, 2}}};

}  // namespace

// ---- the random stream ----

TEST_CASE("uniform01 is uniform on (0, 1) and its streams are independent", "[sampling][random]") {
    constexpr int n = 1'000'000;
    constexpr int bins = 100;
    std::vector<int> counts(bins, 0);
    double sum = 0.0;
    double low = 1.0;
    double high = 0.0;
    for (int s = 0; s < n; ++s) {
        const double u = uniform01(42, 0, static_cast<std::uint64_t>(s));
        low = std::min(low, u);
        high = std::max(high, u);
        sum += u;
        ++counts[static_cast<std::size_t>(u * bins)];
    }
    CHECK(low > 0.0);
    CHECK(high < 1.0);
    // The mean's standard error is sqrt(1/12 / n) = 2.9e-4; allow 5 of them.
    CHECK(sum / n == Approx(0.5).margin(5 * std::sqrt(1.0 / 12 / n)));
    // Chi-square with 99 degrees of freedom: mean 99, sd sqrt(2 × 99) = 14; allow 5 sd.
    double chi2 = 0.0;
    for (int c : counts) chi2 += (c - n / bins) * (c - n / bins) / static_cast<double>(n / bins);
    CHECK(chi2 < 99 + 5 * 14.1);

    // Neighbouring inputs and seeds: uncorrelated within 5 standard errors (1/sqrt(n) each).
    std::vector<double> a(100'000), b(a.size()), c(a.size());
    for (std::size_t s = 0; s < a.size(); ++s) {
        a[s] = uniform01(42, 0, s);
        b[s] = uniform01(42, 1, s);
        c[s] = uniform01(43, 0, s);
    }
    CHECK(std::abs(spearman(a, b)) < 5 / std::sqrt(1e5));
    CHECK(std::abs(spearman(a, c)) < 5 / std::sqrt(1e5));
    // Serial: sample s against s + 1.
    std::vector<double> next(a.begin() + 1, a.end());
    a.pop_back();
    CHECK(std::abs(spearman(a, next)) < 5 / std::sqrt(1e5));
}

// ---- sample statistics against closed forms ----

TEST_CASE("Monte Carlo statistics of 3 X + 2 Y match the closed forms at N = 200,000", "[sampling][statistics]") {
    constexpr int n = 200'000;
    const Summary z = summarize(linear_combination(draw(two_uniforms, n, SamplingMethod::monte_carlo, 2024)));
    CHECK(z.count == n);
    // mean 3 × 0.5 + 2 × 1 = 3.5, sd sqrt(25/12) = 1.4434: standard error 0.00323, allow 5.
    const double sd = std::sqrt(25.0 / 12);
    CHECK(z.mean == Approx(3.5).margin(5 * sd / std::sqrt(n)));
    CHECK(z.sd == Approx(sd).epsilon(0.01));
    CHECK(z.standard_error == Approx(sd / std::sqrt(n)).epsilon(0.01));
    // A sample quantile's standard error is sqrt(p (1 - p) / N) / f(x_p); allow 5.
    // P10: z^2/24 = 0.1, z = sqrt(2.4) = 1.5491933, f = z/12 = 0.129. P90 by symmetry 7 - sqrt(2.4).
    // P50 lies on the flat top, f = 1/4: 3/8 + (z - 3)/4 = 1/2, z = 3.5.
    const double p10 = std::sqrt(2.4);
    const double tail_tolerance = 5 * std::sqrt(0.09 / n) / (p10 / 12);
    CHECK(z.p10 == Approx(p10).margin(tail_tolerance));
    CHECK(z.p50 == Approx(3.5).margin(5 * std::sqrt(0.25 / n) / 0.25));
    CHECK(z.p90 == Approx(7 - p10).margin(tail_tolerance));
    CHECK(z.min >= 0.0);
    CHECK(z.max <= 7.0);
}

TEST_CASE("percentiles of one uniform: MC within its standard error, LHS within 2/N", "[sampling][statistics]") {
    constexpr int n = 200'000;
    const std::vector<Distribution> one{Distribution{dist::Uniform{0, 1}}};
    const Summary mc = summarize(draw(one, n, SamplingMethod::monte_carlo, 5).column(0));
    // sqrt(p (1 - p) / N) with density 1: 6.7e-4 at P10, 1.1e-3 at P50.
    CHECK(mc.p10 == Approx(0.1).margin(5 * std::sqrt(0.09 / n)));
    CHECK(mc.p50 == Approx(0.5).margin(5 * std::sqrt(0.25 / n)));
    CHECK(mc.p90 == Approx(0.9).margin(5 * std::sqrt(0.09 / n)));
    // With one sample per stratum the k-th smallest lies in [k/N, (k+1)/N]: no chance involved.
    const Summary lhs = summarize(draw(one, n, SamplingMethod::latin_hypercube, 5).column(0));
    CHECK(lhs.p10 == Approx(0.1).margin(2.0 / n));
    CHECK(lhs.p50 == Approx(0.5).margin(2.0 / n));
    CHECK(lhs.p90 == Approx(0.9).margin(2.0 / n));
    CHECK(lhs.mean == Approx(0.5).margin(1.0 / n));
}

// ---- Latin hypercube ----

TEST_CASE("Latin hypercube: each of the n strata of each input holds exactly one sample", "[sampling][lhs]") {
    for (int n : {1, 7, 1000}) {
        const SampleMatrix m = uniform_samples(n, 4, SamplingMethod::latin_hypercube, 99);
        std::vector<int> every(static_cast<std::size_t>(n));
        std::iota(every.begin(), every.end(), 0);
        for (int i = 0; i < 4; ++i) {
            std::vector<int> strata;
            for (double u : m.column(i)) strata.push_back(static_cast<int>(u * n));  // u < 1, so < n
            std::sort(strata.begin(), strata.end());
            CHECK(strata == every);
        }
    }
    // The strata are shuffled independently per input: the columns are not in lockstep.
    const SampleMatrix m = uniform_samples(1000, 2, SamplingMethod::latin_hypercube, 99);
    CHECK(std::abs(spearman(m.column(0), m.column(1))) < 5 / std::sqrt(1000.0));
}

TEST_CASE("Latin hypercube estimates a mean far better than Monte Carlo at the same n", "[sampling][lhs]") {
    // X ~ triangular(0, 1, 4) (mean 5/3) plus Y ~ normal(10, 2): mean 35/3, over 20 seeds of n = 1000.
    const std::vector<Distribution> inputs{Distribution{dist::Triangular{0, 1, 4}},
                                           Distribution{dist::Normal{10, 2}}};
    const double expected = 5.0 / 3 + 10;
    double mc_squares = 0.0;
    double lhs_squares = 0.0;
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        for (SamplingMethod method : {SamplingMethod::monte_carlo, SamplingMethod::latin_hypercube}) {
            const SampleMatrix m = draw(inputs, 1000, method, seed);
            double sum = 0.0;
            for (int s = 0; s < m.samples; ++s) sum += m.at(s, 0) + m.at(s, 1);
            const double error = sum / m.samples - expected;
            (method == SamplingMethod::monte_carlo ? mc_squares : lhs_squares) += error * error;
        }
    }
    const double mc_rms = std::sqrt(mc_squares / 20);
    const double lhs_rms = std::sqrt(lhs_squares / 20);
    // MC: sqrt((13/18 + 4) / 1000) = 0.069 expected. For a sum of inputs LHS leaves only the
    // within-stratum noise, orders of magnitude less.
    CHECK(mc_rms == Approx(0.069).epsilon(0.5));
    CHECK(lhs_rms < mc_rms / 50);
}

// ---- Iman-Conover ----

TEST_CASE("Iman-Conover reaches the target rank correlation and keeps the marginals", "[sampling][correlation]") {
    constexpr int n = 10'000;
    const std::vector<Distribution> inputs{Distribution{dist::Lognormal{.median = 100.0, .sigma = 0.5}},
                                           Distribution{dist::Triangular{40, 120, 300}},
                                           Distribution{dist::Pert{0, 1, 10}}};
    const std::vector<std::vector<double>> target{{1.0, 0.7, -0.5}, {0.7, 1.0, 0.0}, {-0.5, 0.0, 1.0}};
    for (SamplingMethod method : {SamplingMethod::monte_carlo, SamplingMethod::latin_hypercube}) {
        const SampleMatrix plain = draw(inputs, n, method, 11);
        const SampleMatrix correlated = draw(inputs, n, method, 11, target);
        CHECK(spearman(correlated.column(0), correlated.column(1)) == Approx(0.7).margin(0.03));
        CHECK(spearman(correlated.column(0), correlated.column(2)) == Approx(-0.5).margin(0.03));
        CHECK(spearman(correlated.column(1), correlated.column(2)) == Approx(0.0).margin(0.03));
        for (int i = 0; i < 3; ++i) CHECK(sorted(correlated.column(i)) == sorted(plain.column(i)));
    }
}

TEST_CASE("Iman-Conover on continuous inputs lands within 0.01 of the target", "[sampling][correlation]") {
    const std::vector<Distribution> inputs{Distribution{dist::Normal{0, 1}}, Distribution{dist::Uniform{0, 1}}};
    for (double rho : {0.7, -0.5, 0.95}) {
        const SampleMatrix m = draw(inputs, 10'000, SamplingMethod::monte_carlo, 3, {{1, rho}, {rho, 1}});
        CHECK(spearman(m.column(0), m.column(1)) == Approx(rho).margin(0.01));
    }
}

TEST_CASE("Iman-Conover stays close at n = 100 thanks to the scores' own correlation", "[sampling][correlation]") {
    // Undoing the random scores' sample correlation is what keeps a small draw on target: over these
    // 40 draws the worst miss is 0.054 with it, 0.19 without.
    const std::vector<Distribution> inputs(2, Distribution{dist::Normal{0, 1}});
    double worst = 0.0;
    for (double rho : {0.0, 0.7})
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            const SampleMatrix m = draw(inputs, 100, SamplingMethod::monte_carlo, seed, {{1, rho}, {rho, 1}});
            worst = std::max(worst, std::abs(spearman(m.column(0), m.column(1)) - rho));
        }
    CHECK(worst < 0.08);
}

TEST_CASE("a target near singular still draws", "[sampling][correlation]") {
    // Positive definite (smallest eigenvalue 0.02), but 2 sin(π ρ / 6) of it is not: the scores then
    // aim at the target itself, whose Spearman is (6/π) asin(ρ / 2) = ±0.468 for ρ = ±0.49.
    const std::vector<Distribution> inputs(3, Distribution{dist::Uniform{0, 1}});
    const std::vector<std::vector<double>> target{{1, 0.49, 0.49}, {0.49, 1, -0.49}, {0.49, -0.49, 1}};
    const SampleMatrix m = draw(inputs, 10'000, SamplingMethod::monte_carlo, 3, target);
    CHECK(spearman(m.column(0), m.column(1)) == Approx(0.49).margin(0.03));
    CHECK(spearman(m.column(1), m.column(2)) == Approx(-0.49).margin(0.03));
}

TEST_CASE("a rank correlation that is not a correlation matrix is refused", "[sampling][correlation]") {
    const std::vector<Distribution> inputs(2, Distribution{dist::Uniform{0, 1}});
    auto with = [&](const std::vector<std::vector<double>>& c) {
        return draw(inputs, 10, SamplingMethod::monte_carlo, 1, c);
    };
    CHECK_THROWS_WITH(with({{1, 0.5}, {0.4, 1}}),
                      "rank_correlation must be symmetric: [1][0] is 0.4 but [0][1] is 0.5");
    CHECK_THROWS_WITH(with({{2, 0.5}, {0.5, 1}}), "rank_correlation[0][0] must be 1, got 2");
    CHECK_THROWS_WITH(with({{1, 1.5}, {1.5, 1}}), "rank_correlation[1][0] must be in [-1, 1], got 1.5");
    CHECK_THROWS_WITH(with({{1, 1}, {1, 1}}), "rank_correlation must be positive definite");
    CHECK_THROWS_WITH(with({{1}}), "rank_correlation must be 2 × 2 (one row and column per input), got 1 rows");
    CHECK_THROWS_WITH(with({{1, 0}, {0}}), "rank_correlation row 1 must have 2 entries, got 1");
    const std::vector<Distribution> three(3, Distribution{dist::Uniform{0, 1}});
    const std::vector<std::vector<double>> impossible{{1, 0.9, 0.9}, {0.9, 1, -0.9}, {0.9, -0.9, 1}};
    CHECK_THROWS_WITH(draw(three, 10, SamplingMethod::monte_carlo, 1, impossible),
                      "rank_correlation must be positive definite");
}

TEST_CASE("draw names a bad input", "[sampling]") {
    const std::vector<Distribution> inputs{Distribution{dist::Uniform{0, 1}},
                                           Distribution{dist::Triangular{40, 500, 300}}};
    CHECK_THROWS_WITH(draw(inputs, 10, SamplingMethod::monte_carlo, 1), "input 1: mode 500 outside [40, 300]");
    CHECK_THROWS_AS(uniform_samples(-1, 2, SamplingMethod::monte_carlo, 1), std::invalid_argument);
}

// ---- determinism ----

TEST_CASE("the same seed gives the same matrix, another seed another", "[sampling][determinism]") {
    const std::vector<Distribution> inputs{Distribution{dist::Pert{40, 120, 300}}, Distribution{dist::Normal{0, 1}}};
    const std::vector<std::vector<double>> c{{1, 0.6}, {0.6, 1}};
    for (SamplingMethod method : {SamplingMethod::monte_carlo, SamplingMethod::latin_hypercube}) {
        CHECK(draw(inputs, 500, method, 17).values == draw(inputs, 500, method, 17).values);
        CHECK(draw(inputs, 500, method, 17, c).values == draw(inputs, 500, method, 17, c).values);
        CHECK(draw(inputs, 500, method, 17).values != draw(inputs, 500, method, 18).values);
        CHECK(draw(inputs, 500, method, 17, c).values != draw(inputs, 500, method, 18, c).values);
    }
}

TEST_CASE("Monte Carlo: sample s is the same whatever the number of samples or the order of work",
          "[sampling][determinism]") {
    const std::vector<Distribution> inputs{Distribution{dist::Triangular{40, 120, 300}},
                                           Distribution{dist::Uniform{0.10, 0.40}},
                                           Distribution{dist::Lognormal{.mean = 100.0, .sd = 30.0, .low = 50.0}}};
    const SampleMatrix big = draw(inputs, 1000, SamplingMethod::monte_carlo, 8);
    const SampleMatrix small = draw(inputs, 300, SamplingMethod::monte_carlo, 8);
    CHECK(std::equal(small.values.begin(), small.values.end(), big.values.begin()));
    // Each cell is a pure function of (seed, input, sample): computed in any order, by any thread,
    // it is the same number.
    std::vector<double> backwards(big.values.size());
    for (int s = big.samples - 1; s >= 0; --s)
        for (int i = 2; i >= 0; --i) {
            const double u = uniform01(8, static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(s));
            backwards[static_cast<std::size_t>(s * 3 + i)] = quantile(inputs[static_cast<std::size_t>(i)], u);
        }
    CHECK(backwards == big.values);
}

// ---- summaries ----

TEST_CASE("summarize skips NaN and interpolates percentiles like NumPy", "[sampling][summary]") {
    const Summary s = summarize({4, not_a_number, 1, 3, 2});
    CHECK(s.count == 4);
    CHECK(s.mean == 2.5);
    CHECK(s.sd == Approx(std::sqrt(5.0 / 3)).epsilon(1e-15));  // squares 2.25 + 0.25 + 0.25 + 2.25 over 3
    CHECK(s.standard_error == Approx(std::sqrt(5.0 / 3) / 2).epsilon(1e-15));
    // numpy.percentile([1, 2, 3, 4], [10, 50, 90]) = 1.3, 2.5, 3.7: positions 0.3, 1.5, 2.7.
    CHECK(s.p10 == Approx(1.3).epsilon(1e-15));
    CHECK(s.p50 == 2.5);
    CHECK(s.p90 == Approx(3.7).epsilon(1e-15));
    CHECK(s.min == 1.0);
    CHECK(s.max == 4.0);

    const Summary one = summarize({7});
    CHECK(one.count == 1);
    CHECK(one.mean == 7.0);
    CHECK(one.p10 == 7.0);
    CHECK(std::isnan(one.sd));
    CHECK(std::isnan(one.standard_error));

    const Summary none = summarize({not_a_number, not_a_number});
    CHECK(none.count == 0);
    CHECK(std::isnan(none.mean));
    CHECK(std::isnan(none.p50));
    CHECK(std::isnan(none.max));
}

TEST_CASE("histogram: equal bins over [min, max], the last one closed", "[sampling][histogram]") {
    // numpy.histogram([0, 1, 2, 3, 4], 4) = [1, 1, 1, 2] over edges 0..4.
    const Histogram h = histogram({0, 1, 2, 3, 4, not_a_number, std::numeric_limits<double>::infinity()}, 4);
    CHECK(h.edges == std::vector<double>{0, 1, 2, 3, 4});
    CHECK(h.counts == std::vector<int>{1, 1, 1, 2});
    // numpy.histogram([5, 5, 5], 2) = [0, 3] over [4.5, 5, 5.5].
    const Histogram same = histogram({5, 5, 5}, 2);
    CHECK(same.edges == std::vector<double>{4.5, 5, 5.5});
    CHECK(same.counts == std::vector<int>{0, 3});
    // Tenths fall on edges that are not exact binary fractions: each still lands in its own bin.
    std::vector<double> tenths;
    for (int k = 0; k <= 10; ++k) tenths.push_back(k / 10.0);
    CHECK(histogram(tenths, 10).counts == std::vector<int>{1, 1, 1, 1, 1, 1, 1, 1, 1, 2});
    const Histogram empty = histogram({}, 2);
    CHECK(empty.edges == std::vector<double>{0, 0.5, 1});
    CHECK(empty.counts == std::vector<int>{0, 0});
    CHECK_THROWS_AS(histogram({1, 2}, 0), std::invalid_argument);
}

TEST_CASE("spearman: Pearson of average ranks", "[sampling][spearman]") {
    // scipy.stats.spearmanr([1, 2, 3, 4, 5], [5, 6, 7, 8, 7]) = 0.8207826816681233: y's ranks are
    // 1, 2, 3.5, 5, 3.5, so the correlation is 8 / sqrt(10 × 9.5).
    CHECK(spearman({1, 2, 3, 4, 5}, {5, 6, 7, 8, 7}) == Approx(0.8207826816681233).epsilon(1e-14));
    CHECK(spearman({1, 2, 3, 4}, {1, 8, 27, 64}) == Approx(1.0).epsilon(1e-15));
    CHECK(spearman({1, 2, 3, 4}, {4, 3, 2, 1}) == Approx(-1.0).epsilon(1e-15));
    // The NaN pair is left out.
    CHECK(spearman({1, 2, not_a_number, 3}, {10, 20, 0, 30}) == Approx(1.0).epsilon(1e-15));
    CHECK(std::isnan(spearman({1, 2, 3}, {5, 5, 5})));
    CHECK(std::isnan(spearman({1}, {2})));
    CHECK_THROWS_AS(spearman({1, 2}, {1}), std::invalid_argument);
}
