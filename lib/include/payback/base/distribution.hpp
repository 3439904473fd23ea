// Probability distributions of uncertain inputs, as a scenario's [uncertainty] table gives them:
// each is known by its inverse CDF (quantile), so a sampler turns uniform numbers into draws and
// Latin hypercube strata and rank correlation carry over from the uniforms unchanged.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace payback {

namespace dist {

struct Uniform {
    double low = 0.0;
    double high = 1.0;
};

/// Truncated to [low, high] when either is given (the other end stays open).
struct Normal {
    double mean = 0.0;
    double sd = 1.0;
    std::optional<double> low{};
    std::optional<double> high{};
};

/// X with ln X normal. Give exactly one pair: `median` and `sigma` (median = exp(mu); sigma is the
/// sd of ln X, so X / median lies within exp(±sigma) two times in three), or `mean` and `sd` of X
/// itself. Truncated to [low, high] when either is given; low <= 0 truncates nothing.
struct Lognormal {
    std::optional<double> median{};
    std::optional<double> sigma{};
    std::optional<double> mean{};
    std::optional<double> sd{};
    std::optional<double> low{};
    std::optional<double> high{};
};

struct Triangular {
    double low = 0.0;
    double mode = 0.5;
    double high = 1.0;
};

/// Beta-PERT: low + (high - low) × Beta(1 + lambda (mode - low)/(high - low),
/// 1 + lambda (high - mode)/(high - low)); its mean is (low + lambda mode + high) / (lambda + 2).
struct Pert {
    double low = 0.0;
    double mode = 0.5;
    double high = 1.0;
    double lambda = 4.0;
};

/// Each value with probability weight / sum of weights; no weights means equal ones.
/// The values need not be sorted or distinct.
struct Discrete {
    std::vector<double> values;
    std::vector<double> weights;
};

}  // namespace dist

struct Distribution {
    std::variant<dist::Uniform, dist::Normal, dist::Lognormal, dist::Triangular, dist::Pert, dist::Discrete> shape;
};

/// "" when the distribution can be sampled, else the one-line problem, in the key names above:
/// "low must be < high, got 5 and 3", "mode 500 outside [40, 300]", "sd must be > 0, got 0",
/// "weights must be >= 0 and sum > 0", "truncation leaves no probability", ...
std::string check(const Distribution& d);

/// The inverse CDF at u in (0, 1): the smallest x with P(X <= x) >= u. A truncated distribution
/// gives the quantile of the truncated one, F^-1(F(low) + u (F(high) - F(low))). Discrete values
/// are taken in ascending order. Throws std::invalid_argument when check(d) is not "" or u is
/// outside (0, 1).
double quantile(const Distribution& d, double u);

/// The expected value, in closed form (truncation included). Throws as quantile does.
double mean(const Distribution& d);

/// quantile(d, u) for many u, as a sampler needs it: the same function, fast where quantile is slow.
/// PERT's beta inverse takes microseconds a call, so its quantiles come from a table of 1,024 knots
/// in u with the inverse's first and second derivatives, interpolated by quintic Hermite polynomials.
/// The table is checked against quantile() at three points inside every interval when it is built;
/// the intervals that miss by more than 1e-12 of (high - low), and the two outermost (where the
/// density vanishes), call quantile() itself. Other distributions call quantile() directly.
class QuantileFunction {
public:
    explicit QuantileFunction(const Distribution& d);
    double operator()(double u) const;

private:
    static constexpr std::size_t intervals = 1024;  ///< of the table, in u
    double interpolate(std::size_t interval, double t) const;
    Distribution d_;
    std::vector<double> x_, slope_;   ///< x at the knots j / intervals (units of the range); slope_: x', x'' pairs
    std::vector<bool> exact_;         ///< intervals that call quantile()
    double low_ = 0.0, width_ = 0.0;
};

/// The distribution as the scenario writes it, a TOML inline table:
/// { dist = "triangular", low = 40, mode = 120, high = 300 }. Optional keys appear when given
/// (lambda when not 4).
std::string describe(const Distribution& d);

}  // namespace payback
