// Sampling the uncertain inputs and summarising the results. Every random number is a pure function
// of (seed, input, sample), never of a generator's state, so a run gives the same numbers however
// many threads share the work.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "payback/base/distribution.hpp"

namespace payback {

/// A uniform number in the open interval (0, 1), never 0 or 1: (k + 1/2) / 2^52 for a random k < 2^52.
/// Two levels of splitmix64: (seed, input_index) picks a stream, sample_index a place in it.
double uniform01(std::uint64_t seed, std::uint64_t input_index, std::uint64_t sample_index);

enum class SamplingMethod {
    monte_carlo,      ///< each cell independent
    latin_hypercube,  ///< each input's n samples fall one in each of n equal strata of (0, 1)
};

/// Samples by inputs, row-major: a sample's inputs lie together.
struct SampleMatrix {
    int samples = 0;
    int inputs = 0;
    std::vector<double> values;  ///< sample s, input i at s × inputs + i

    double at(int sample, int input) const { return values[offset(sample, input)]; }
    double& at(int sample, int input) { return values[offset(sample, input)]; }
    std::vector<double> column(int input) const;

private:
    std::size_t offset(int sample, int input) const {
        return static_cast<std::size_t>(sample) * static_cast<std::size_t>(inputs) + static_cast<std::size_t>(input);
    }
};

/// U(0, 1) in every cell. Monte Carlo: cell (s, i) is uniform01(seed, i, s), so sample s is the
/// same whatever the number of samples. Latin hypercube: input i puts sample s in stratum p_i(s)
/// of a seeded random permutation p_i of 0..n-1, at (p_i(s) + uniform01(seed, i, s)) / n.
/// Throws std::invalid_argument for a negative count.
SampleMatrix uniform_samples(int samples, int inputs, SamplingMethod method, std::uint64_t seed);

/// Draws of the inputs: column i is quantile(inputs[i], ·) of column i of uniform_samples.
/// With a rank_correlation (inputs × inputs, symmetric, unit diagonal, positive definite) the
/// columns are then reordered, each keeping its values, to about that Spearman correlation
/// (Iman & Conover 1982, with van der Waerden scores and the correction for the scores' own
/// correlation; the scores aim at Pearson 2 sin(π ρ / 6), whose Spearman is ρ, or at ρ itself
/// where that matrix is not positive definite). Inputs with few distinct values (discrete) tie,
/// and their rank correlation comes out smaller. The reordering depends on every sample: only
/// Monte Carlo without correlation keeps sample s the same whatever the number of samples.
/// Throws std::invalid_argument for an input whose check() is not "" or a rank_correlation that
/// is not as above, naming which.
SampleMatrix draw(const std::vector<Distribution>& inputs, int samples, SamplingMethod method,
                  std::uint64_t seed, const std::vector<std::vector<double>>& rank_correlation = {});

/// Statistics of the non-NaN values. sd divides by count - 1; standard_error = sd / sqrt(count).
/// Percentiles interpolate linearly between order statistics: with the values sorted as
/// x_0 <= ... <= x_{n-1}, P(q) = x_k + f (x_{k+1} - x_k) where k + f = q (n - 1) (NumPy's
/// default, "linear"). With no values everything is NaN; with one, sd and standard_error are.
struct Summary {
    double mean = 0.0;
    double sd = 0.0;
    double standard_error = 0.0;
    double p10 = 0.0;
    double p50 = 0.0;
    double p90 = 0.0;
    double min = 0.0;
    double max = 0.0;
    int count = 0;
};

Summary summarize(std::vector<double> values);

/// Counts in bins of equal width over [min, max] of the finite values (NaN and ±inf are left
/// out): bin k holds edges[k] <= x < edges[k + 1], the last bin also x = max. As NumPy, all
/// values equal spread the range to value ± 0.5 and no values use [0, 1].
struct Histogram {
    std::vector<double> edges;  ///< bins + 1 of them
    std::vector<int> counts;    ///< bins of them
};

/// Throws std::invalid_argument when bins < 1.
Histogram histogram(const std::vector<double>& values, int bins);

/// Spearman's rank correlation: Pearson's correlation of the ranks, tied values sharing their
/// average rank. Pairs where either value is NaN are left out; NaN when fewer than two pairs
/// remain or either side is constant. Throws std::invalid_argument when the sizes differ.
double spearman(const std::vector<double>& x, const std::vector<double>& y);

}  // namespace payback
