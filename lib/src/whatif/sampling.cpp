// Counter-based sampling, Latin hypercube, Iman-Conover rank correlation and result statistics
// (see sampling.hpp).
#include "payback/whatif/sampling.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <limits>
#include <numbers>
#include <numeric>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <boost/math/distributions/normal.hpp>
#include <fmt/format.h>

#include "base/parallel.hpp"
#include "payback/base/isa_dispatch.hpp"
#include "whatif/draw_kernels.hpp"

namespace payback {

PAYBACK_ISA_DISPATCH(DrawKernels, draw_kernels)

namespace {

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();

// ---- the random stream ----

constexpr std::uint64_t golden_gamma = 0x9E3779B97F4A7C15ULL;  // splitmix64's increment

// splitmix64's output function (Stafford's "Mix13" variant of the murmur3 finaliser).
constexpr std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

// Element `index` of the splitmix64 sequence that starts from `state`.
constexpr std::uint64_t splitmix(std::uint64_t state, std::uint64_t index) {
    return mix(state + (index + 1) * golden_gamma);
}

std::uint64_t random_bits(std::uint64_t seed, std::uint64_t input_index, std::uint64_t sample_index) {
    return splitmix(splitmix(mix(seed), input_index), sample_index);
}

// The permutations (Latin hypercube strata, Iman-Conover scores) need numbers of their own, apart from
// the cells' uniforms: each gets the run's seed mixed with a tag.
constexpr std::uint64_t strata_tag = 0x5354524154410000ULL;  // "STRATA"
constexpr std::uint64_t scores_tag = 0x53434F5245530000ULL;  // "SCORES"

// A seeded uniform random permutation of 0..n-1 (Fisher-Yates, drawing position k's partner from
// uniform01(seed, stream, k)).
std::vector<int> permutation(int n, std::uint64_t seed, std::uint64_t stream) {
    std::vector<int> p(static_cast<std::size_t>(n));
    std::iota(p.begin(), p.end(), 0);
    for (int k = n - 1; k > 0; --k) {
        const double u = uniform01(seed, stream, static_cast<std::uint64_t>(k));
        const int j = std::min(k, static_cast<int>(u * (k + 1)));
        std::swap(p[static_cast<std::size_t>(k)], p[static_cast<std::size_t>(j)]);
    }
    return p;
}

// ---- Iman-Conover ----

using RowMatrix = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// The target correlation as a checked Eigen matrix.
Eigen::MatrixXd target_correlation(const std::vector<std::vector<double>>& c, int inputs) {
    const auto k = static_cast<std::size_t>(inputs);
    if (c.size() != k)
        throw std::invalid_argument(fmt::format(
            "rank_correlation must be {0} × {0} (one row and column per input), got {1} rows", inputs, c.size()));
    Eigen::MatrixXd m(inputs, inputs);
    for (std::size_t i = 0; i < k; ++i) {
        if (c[i].size() != k)
            throw std::invalid_argument(
                fmt::format("rank_correlation row {} must have {} entries, got {}", i, inputs, c[i].size()));
        for (std::size_t j = 0; j < k; ++j)
            m(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = c[i][j];
    }
    constexpr double tolerance = 1e-12;
    for (Eigen::Index i = 0; i < inputs; ++i) {
        if (std::abs(m(i, i) - 1.0) > tolerance)
            throw std::invalid_argument(fmt::format("rank_correlation[{0}][{0}] must be 1, got {1}", i, m(i, i)));
        for (Eigen::Index j = 0; j < i; ++j) {
            if (!(std::abs(m(i, j)) <= 1.0))
                throw std::invalid_argument(
                    fmt::format("rank_correlation[{}][{}] must be in [-1, 1], got {}", i, j, m(i, j)));
            if (!(std::abs(m(i, j) - m(j, i)) <= tolerance))
                throw std::invalid_argument(
                    fmt::format("rank_correlation must be symmetric: [{0}][{1}] is {2} but [{1}][{0}] is {3}", i, j,
                                m(i, j), m(j, i)));
        }
    }
    return m;
}

// The Pearson correlation the normal scores need for the target Spearman one: for normal pairs
// Spearman = (6/π) asin(Pearson / 2), so Pearson = 2 sin(π Spearman / 6) (0.7 needs 0.717). Near a
// singular target that can stop being positive definite; then the target itself is used.
Eigen::MatrixXd score_correlation(const Eigen::MatrixXd& spearman_target) {
    const Eigen::MatrixXd pearson =
        spearman_target.unaryExpr([](double c) { return 2.0 * std::sin(std::numbers::pi * c / 6.0); });
    return pearson.llt().info() == Eigen::Success ? pearson : spearman_target;
}

// Van der Waerden scores Φ^-1(r / (n + 1)), r = 1..n, in a seeded random order in each column.
Eigen::MatrixXd scores(int samples, int inputs, std::uint64_t seed) {
    const boost::math::normal_distribution<double> standard_normal;
    Eigen::VectorXd ordered(samples);
    for (int r = 0; r < samples; ++r)
        ordered(r) = boost::math::quantile(standard_normal, (r + 1.0) / (samples + 1.0));
    Eigen::MatrixXd s(samples, inputs);
    for (int i = 0; i < inputs; ++i) {
        const std::vector<int> order = permutation(samples, seed, static_cast<std::uint64_t>(i));
        for (int r = 0; r < samples; ++r) s(r, i) = ordered(order[static_cast<std::size_t>(r)]);
    }
    return s;
}

Eigen::MatrixXd correlation(const Eigen::MatrixXd& x) {
    const Eigen::MatrixXd centered = x.rowwise() - x.colwise().mean();
    const Eigen::MatrixXd covariance = centered.transpose() * centered;
    const Eigen::VectorXd scale = covariance.diagonal().cwiseSqrt().cwiseInverse();
    return scale.asDiagonal() * covariance * scale.asDiagonal();
}

// The indices 0..n-1 in ascending order of `values`, ties by index.
std::vector<int> ascending_order(const Eigen::VectorXd& values) {
    std::vector<int> order(static_cast<std::size_t>(values.size()));
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return values(a) < values(b); });
    return order;
}

// Reorders each column of `draws` so that the normal scores in that order have about the Pearson
// correlation `score_target` (C = P P^T).
void impose_rank_correlation(SampleMatrix& draws, const Eigen::MatrixXd& score_target, std::uint64_t seed) {
    Eigen::Map<RowMatrix> x(draws.values.data(), draws.samples, draws.inputs);
    const Eigen::MatrixXd s = scores(draws.samples, draws.inputs, seed ^ scores_tag);
    const Eigen::MatrixXd p = score_target.llt().matrixL();
    // The scores' own sample correlation E = Q Q^T is not exactly I; undoing it (T = S Q^-T P^T)
    // lands the result on the target rather than near it. With no more samples than inputs E is
    // singular, and then the scores are used as they are.
    const Eigen::LLT<Eigen::MatrixXd> e(correlation(s));
    const Eigen::MatrixXd q = e.info() == Eigen::Success ? Eigen::MatrixXd(e.matrixL())
                                                         : Eigen::MatrixXd::Identity(draws.inputs, draws.inputs);
    const Eigen::MatrixXd mixing = q.transpose().triangularView<Eigen::Upper>().solve(p.transpose());
    const Eigen::MatrixXd t = s * mixing;
    // Column i takes its own values in the rank order of t's column i.
    for (int i = 0; i < draws.inputs; ++i) {
        Eigen::VectorXd sorted = x.col(i);
        std::sort(sorted.begin(), sorted.end());
        const std::vector<int> order = ascending_order(t.col(i));
        for (int r = 0; r < draws.samples; ++r) x(order[static_cast<std::size_t>(r)], i) = sorted(r);
    }
}

// ---- statistics ----

// Linear interpolation between order statistics of non-empty values (the q-quantile of the sorted
// values), found by selection: linear time, not a sort of a million results per metric. Reorders
// `values`.
double selected_percentile(std::vector<double>& values, double q) {
    const double h = q * static_cast<double>(values.size() - 1);
    const auto k = static_cast<std::size_t>(std::floor(h));
    const auto kth = values.begin() + static_cast<std::ptrdiff_t>(k);
    std::nth_element(values.begin(), kth, values.end());
    if (k + 1 >= values.size()) return *kth;
    const double next = *std::min_element(kth + 1, values.end());  // everything after kth is >= it
    return *kth + (h - static_cast<double>(k)) * (next - *kth);
}

// Ranks from 1, ties sharing their average.
std::vector<double> average_ranks(const std::vector<double>& values) {
    std::vector<std::size_t> order(values.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return values[a] < values[b]; });
    std::vector<double> ranks(values.size());
    for (std::size_t first = 0; first < order.size();) {
        std::size_t last = first;  // one past the run of equal values
        while (last < order.size() && values[order[last]] == values[order[first]]) ++last;
        const double rank = (static_cast<double>(first + 1) + static_cast<double>(last)) / 2;
        for (std::size_t k = first; k < last; ++k) ranks[order[k]] = rank;
        first = last;
    }
    return ranks;
}

double pearson(const std::vector<double>& x, const std::vector<double>& y) {
    const double n = static_cast<double>(x.size());
    const double mx = std::accumulate(x.begin(), x.end(), 0.0) / n;
    const double my = std::accumulate(y.begin(), y.end(), 0.0) / n;
    double sxy = 0.0;
    double sxx = 0.0;
    double syy = 0.0;
    for (std::size_t k = 0; k < x.size(); ++k) {
        sxy += (x[k] - mx) * (y[k] - my);
        sxx += (x[k] - mx) * (x[k] - mx);
        syy += (y[k] - my) * (y[k] - my);
    }
    return sxx > 0.0 && syy > 0.0 ? sxy / std::sqrt(sxx * syy) : not_a_number;
}

}  // namespace

double uniform01(std::uint64_t seed, std::uint64_t input_index, std::uint64_t sample_index) {
    // The top 52 bits k, as (k + 1/2) / 2^52: exact in a double, so from 2^-53 to 1 - 2^-53. (With 53
    // bits, k + 1/2 needs 54 and the top k rounds to 1.)
    return (static_cast<double>(random_bits(seed, input_index, sample_index) >> 12) + 0.5) * 0x1p-52;
}

std::vector<double> SampleMatrix::column(int input) const {
    std::vector<double> c(static_cast<std::size_t>(samples));
    for (int s = 0; s < samples; ++s) c[static_cast<std::size_t>(s)] = at(s, input);
    return c;
}

SampleMatrix uniform_samples(int samples, int inputs, SamplingMethod method, std::uint64_t seed) {
    if (samples < 0 || inputs < 0)
        throw std::invalid_argument(fmt::format("samples and inputs must be >= 0, got {} and {}", samples, inputs));
    const std::size_t cells = static_cast<std::size_t>(samples) * static_cast<std::size_t>(inputs);
    SampleMatrix m{samples, inputs, std::vector<double>(cells)};
    const bool latin = method == SamplingMethod::latin_hypercube;
    for (int i = 0; i < inputs; ++i) {
        const auto stream = static_cast<std::uint64_t>(i);
        const std::vector<int> strata = latin ? permutation(samples, seed ^ strata_tag, stream) : std::vector<int>{};
        for (int s = 0; s < samples; ++s) {
            const double u = uniform01(seed, stream, static_cast<std::uint64_t>(s));
            // (stratum + u) / n can round up to 1 in the top stratum; the open interval excludes it.
            m.at(s, i) = latin ? std::min((strata[static_cast<std::size_t>(s)] + u) / samples, 1.0 - 0x1p-53) : u;
        }
    }
    return m;
}

SampleMatrix draw(const std::vector<Distribution>& inputs, int samples, SamplingMethod method,
                  std::uint64_t seed, const std::vector<std::vector<double>>& rank_correlation) {
    const int k = static_cast<int>(inputs.size());
    for (int i = 0; i < k; ++i)
        if (std::string problem = check(inputs[static_cast<std::size_t>(i)]); !problem.empty())
            throw std::invalid_argument(fmt::format("input {}: {}", i, problem));
    Eigen::MatrixXd target;
    if (!rank_correlation.empty()) {
        target = target_correlation(rank_correlation, k);
        if (target.llt().info() != Eigen::Success)
            throw std::invalid_argument("rank_correlation must be positive definite");
    }

    // Latin hypercube strata need every row of a column at once; plain Monte Carlo draws each
    // uniform number where its quantile is taken.
    const bool latin = method == SamplingMethod::latin_hypercube;
    SampleMatrix m = latin ? uniform_samples(samples, k, method, seed)
                           : SampleMatrix{samples, k, std::vector<double>(static_cast<std::size_t>(samples) * static_cast<std::size_t>(k))};
    std::vector<QuantileFunction> quantiles;
    for (const Distribution& d : inputs) quantiles.emplace_back(d);
    // Rows in chunks on every core: each cell depends on its row and column only, so the matrix is
    // the same whatever the thread count.
    constexpr int chunk = 4096;
    const auto quantile_rows = draw_kernels().quantile_rows;
    detail::parallel_for(static_cast<std::size_t>((samples + chunk - 1) / chunk), [&](std::size_t c) {
        const int first = static_cast<int>(c) * chunk;
        quantile_rows(quantiles, latin, seed, m, first, std::min(samples, first + chunk));
    });
    if (!rank_correlation.empty() && samples >= 2) impose_rank_correlation(m, score_correlation(target), seed);
    return m;
}

Summary summarize(std::vector<double> values) {
    std::erase_if(values, [](double v) { return std::isnan(v); });
    Summary r;
    r.count = static_cast<int>(values.size());
    if (values.empty()) {
        r.mean = r.sd = r.standard_error = r.p10 = r.p50 = r.p90 = r.min = r.max = not_a_number;
        return r;
    }
    const double n = static_cast<double>(values.size());
    r.mean = std::accumulate(values.begin(), values.end(), 0.0) / n;
    // Two passes: the squared deviations from the mean, not sum x^2 - n mean^2, which cancels.
    double squares = 0.0;
    for (double v : values) squares += (v - r.mean) * (v - r.mean);
    r.sd = values.size() > 1 ? std::sqrt(squares / (n - 1)) : not_a_number;
    r.standard_error = r.sd / std::sqrt(n);
    const auto [least, greatest] = std::minmax_element(values.begin(), values.end());
    r.min = *least;
    r.max = *greatest;
    r.p10 = selected_percentile(values, 0.10);
    r.p50 = selected_percentile(values, 0.50);
    r.p90 = selected_percentile(values, 0.90);
    return r;
}

Histogram histogram(const std::vector<double>& values, int bins) {
    if (bins < 1) throw std::invalid_argument(fmt::format("a histogram needs bins >= 1, got {}", bins));
    std::vector<double> finite;
    std::copy_if(values.begin(), values.end(), std::back_inserter(finite), [](double v) { return std::isfinite(v); });
    double low = 0.0;
    double high = 1.0;
    if (!finite.empty()) {
        const auto [min, max] = std::minmax_element(finite.begin(), finite.end());
        low = *min;
        high = *max;
        if (low == high) {
            low -= 0.5;
            high += 0.5;
        }
    }
    Histogram h;
    h.edges.resize(static_cast<std::size_t>(bins) + 1);
    for (int k = 0; k <= bins; ++k) h.edges[static_cast<std::size_t>(k)] = low + (high - low) * k / bins;
    h.edges.back() = high;
    h.counts.assign(static_cast<std::size_t>(bins), 0);
    for (double v : finite) {
        // The arithmetic guess can be off by one at an edge; the edges themselves decide.
        auto k = static_cast<std::size_t>(std::clamp(static_cast<int>((v - low) / (high - low) * bins), 0, bins - 1));
        if (k > 0 && v < h.edges[k]) --k;
        else if (k + 1 < h.counts.size() && v >= h.edges[k + 1]) ++k;
        ++h.counts[k];
    }
    return h;
}

double spearman(const std::vector<double>& x, const std::vector<double>& y) {
    if (x.size() != y.size())
        throw std::invalid_argument(
            fmt::format("spearman needs two lists of one size, got {} and {}", x.size(), y.size()));
    std::vector<double> a;
    std::vector<double> b;
    for (std::size_t k = 0; k < x.size(); ++k)
        if (!std::isnan(x[k]) && !std::isnan(y[k])) {
            a.push_back(x[k]);
            b.push_back(y[k]);
        }
    if (a.size() < 2) return not_a_number;
    return pearson(average_ranks(a), average_ranks(b));
}

}  // namespace payback
