// Quantiles, means and checks of the input distributions (see distribution.hpp). Normal and lognormal
// work on the standard normal Z: a lognormal is exp(mu + s Z), and a truncation becomes an interval
// [za, zb] of Z. When the interval lies above 0 the survival function stands in for the CDF, so a
// truncation far in the upper tail keeps its precision instead of vanishing in 1 - tiny.
#include "payback/base/distribution.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numbers>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include <boost/math/distributions/beta.hpp>
#include <boost/math/distributions/normal.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/quantile_unchecked.hpp"

namespace payback {

namespace {

constexpr double infinity = std::numeric_limits<double>::infinity();

// ---- the standard normal, on an interval ----

// Boost computes double functions in long double by default; in double they stay within a few ulp
// and the beta quantile (PERT) runs ten times faster, 2.5 µs instead of 26.
using DoublePolicy = boost::math::policies::policy<boost::math::policies::promote_double<false>>;

const boost::math::normal_distribution<double, DoublePolicy> standard_normal;

double phi(double z) { return std::exp(-0.5 * z * z) * std::numbers::inv_sqrtpi / std::numbers::sqrt2; }

double cdf(double z) { return boost::math::cdf(standard_normal, z); }

double survival(double z) { return boost::math::cdf(boost::math::complement(standard_normal, z)); }

double inverse_cdf(double p) {
    // Never 0 or 1: boost throws there, and the caller clamps to its interval anyway.
    p = std::clamp(p, std::numeric_limits<double>::min(), 1.0 - std::numeric_limits<double>::epsilon() / 2);
    return boost::math::quantile(standard_normal, p);
}

// Z restricted to [za, zb]; either end may be infinite.
struct ZInterval {
    double za = -infinity;
    double zb = infinity;

    bool upper() const { return za > 0.0; }  // work with the survival function
    double probability() const { return upper() ? survival(za) - survival(zb) : cdf(zb) - cdf(za); }

    double quantile(double u) const {
        if (upper()) {
            const double above_za = survival(za);
            return std::clamp(-inverse_cdf(above_za - u * (above_za - survival(zb))), za, zb);
        }
        const double below_za = cdf(za);
        return std::clamp(inverse_cdf(below_za + u * (cdf(zb) - below_za)), za, zb);
    }

    // E[Z | za < Z < zb] = (phi(za) - phi(zb)) / P(za < Z < zb).
    double mean() const { return std::clamp((phi(za) - phi(zb)) / probability(), za, zb); }
};

// ---- the parameters each shape needs ----

std::string finite(const char* key, double value) {
    return std::isfinite(value) ? "" : fmt::format("{} must be a finite number, got {}", key, value);
}

std::string finite(const char* key, const std::optional<double>& value) {
    return value ? finite(key, *value) : "";
}

std::string positive(const char* key, double value) {
    if (std::string problem = finite(key, value); !problem.empty()) return problem;
    return value > 0.0 ? "" : fmt::format("{} must be > 0, got {}", key, value);
}

std::string ordered(double low, double high) {
    if (std::string problem = finite("low", low); !problem.empty()) return problem;
    if (std::string problem = finite("high", high); !problem.empty()) return problem;
    return low < high ? "" : fmt::format("low must be < high, got {} and {}", low, high);
}

// The truncation bounds, each optional.
std::string truncation(const std::optional<double>& low, const std::optional<double>& high) {
    if (low && high) return ordered(*low, *high);
    if (std::string problem = finite("low", low); !problem.empty()) return problem;
    return finite("high", high);
}

std::string mode_within(double low, double mode, double high) {
    if (std::string problem = ordered(low, high); !problem.empty()) return problem;
    if (std::string problem = finite("mode", mode); !problem.empty()) return problem;
    return low <= mode && mode <= high ? "" : fmt::format("mode {} outside [{}, {}]", mode, low, high);
}

std::string enough_probability(const ZInterval& z) {
    const double p = z.probability();
    return p > 0.0 && std::isfinite(p) ? "" : "truncation leaves no probability";
}

ZInterval normal_interval(const dist::Normal& n) {
    return {n.low ? (*n.low - n.mean) / n.sd : -infinity, n.high ? (*n.high - n.mean) / n.sd : infinity};
}

// ln X = mu + s Z.
struct LogNormalParameters {
    double mu = 0.0;
    double s = 1.0;
};

LogNormalParameters log_parameters(const dist::Lognormal& l) {
    if (l.median) return {std::log(*l.median), *l.sigma};
    // mean = exp(mu + s^2/2), sd^2 = mean^2 (exp(s^2) - 1)
    const double s2 = std::log1p((*l.sd / *l.mean) * (*l.sd / *l.mean));
    return {std::log(*l.mean) - s2 / 2, std::sqrt(s2)};
}

ZInterval log_interval(const dist::Lognormal& l) {
    const LogNormalParameters p = log_parameters(l);
    // A bound <= 0 is below every value: ln gives -inf (or nan, for < 0), so say -inf.
    auto z = [&](double bound) { return bound > 0.0 ? (std::log(bound) - p.mu) / p.s : -infinity; };
    return {l.low ? z(*l.low) : -infinity, l.high ? z(*l.high) : infinity};
}

std::string lognormal_pair(const dist::Lognormal& l) {
    const bool by_median = l.median || l.sigma;
    const bool by_mean = l.mean || l.sd;
    if (by_median == by_mean) return "give median and sigma, or mean and sd";
    if (by_median) {
        if (!l.median) return "sigma needs median";
        if (!l.sigma) return "median needs sigma";
        if (std::string problem = positive("median", *l.median); !problem.empty()) return problem;
        return positive("sigma", *l.sigma);
    }
    if (!l.mean) return "sd needs mean";
    if (!l.sd) return "mean needs sd";
    if (std::string problem = positive("mean", *l.mean); !problem.empty()) return problem;
    return positive("sd", *l.sd);
}

// ---- check ----

std::string check_shape(const dist::Uniform& d) { return ordered(d.low, d.high); }

std::string check_shape(const dist::Normal& d) {
    if (std::string problem = finite("mean", d.mean); !problem.empty()) return problem;
    if (std::string problem = positive("sd", d.sd); !problem.empty()) return problem;
    if (std::string problem = truncation(d.low, d.high); !problem.empty()) return problem;
    return enough_probability(normal_interval(d));
}

std::string check_shape(const dist::Lognormal& d) {
    if (std::string problem = lognormal_pair(d); !problem.empty()) return problem;
    if (std::string problem = truncation(d.low, d.high); !problem.empty()) return problem;
    return enough_probability(log_interval(d));
}

std::string check_shape(const dist::Triangular& d) { return mode_within(d.low, d.mode, d.high); }

std::string check_shape(const dist::Pert& d) {
    if (std::string problem = mode_within(d.low, d.mode, d.high); !problem.empty()) return problem;
    return positive("lambda", d.lambda);
}

std::string check_shape(const dist::Discrete& d) {
    if (d.values.empty()) return "values must not be empty";
    for (double v : d.values)
        if (std::string problem = finite("values", v); !problem.empty()) return problem;
    if (d.weights.empty()) return "";
    if (d.weights.size() != d.values.size())
        return fmt::format("values and weights must have the same length, got {} and {}", d.values.size(),
                           d.weights.size());
    double sum = 0.0;
    for (double w : d.weights) {
        if (!(w >= 0.0) || !std::isfinite(w)) return "weights must be >= 0 and sum > 0";
        sum += w;
    }
    return sum > 0.0 ? "" : "weights must be >= 0 and sum > 0";
}

// ---- quantile: each shape assumes check_shape passed ----

double quantile_of(const dist::Uniform& d, double u) { return d.low + u * (d.high - d.low); }

double quantile_of(const dist::Normal& d, double u) {
    return d.mean + d.sd * normal_interval(d).quantile(u);
}

double quantile_of(const dist::Lognormal& d, double u) {
    const LogNormalParameters p = log_parameters(d);
    return std::exp(p.mu + p.s * log_interval(d).quantile(u));
}

double quantile_of(const dist::Triangular& d, double u) {
    // The CDF is quadratic on each side of the mode; F(mode) = (mode - low) / (high - low).
    const double width = d.high - d.low;
    if (u < (d.mode - d.low) / width) return d.low + std::sqrt(u * width * (d.mode - d.low));
    return d.high - std::sqrt((1.0 - u) * width * (d.high - d.mode));
}

double quantile_of(const dist::Pert& d, double u) {
    const double width = d.high - d.low;
    const boost::math::beta_distribution<double, DoublePolicy> beta(1.0 + d.lambda * (d.mode - d.low) / width,
                                                      1.0 + d.lambda * (d.high - d.mode) / width);
    return d.low + width * boost::math::quantile(beta, u);
}

double quantile_of(const dist::Discrete& d, double u) {
    auto weight = [&](std::size_t i) { return d.weights.empty() ? 1.0 : d.weights[i]; };
    std::vector<std::size_t> order(d.values.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return d.values[a] < d.values[b]; });
    double total = 0.0;
    for (std::size_t i : order) total += weight(i);
    // Compare against u × total rather than normalise each weight: fewer roundings.
    const double target = u * total;
    double cumulative = 0.0;
    std::size_t last = order.front();
    for (std::size_t i : order) {
        if (weight(i) == 0.0) continue;
        cumulative += weight(i);
        last = i;
        if (cumulative >= target) return d.values[i];
    }
    return d.values[last];  // u × total rounded above the sum
}

// ---- mean ----

double mean_of(const dist::Uniform& d) { return (d.low + d.high) / 2; }

double mean_of(const dist::Normal& d) { return d.mean + d.sd * normal_interval(d).mean(); }

double mean_of(const dist::Lognormal& d) {
    // E[X | za < Z < zb] = exp(mu + s^2/2) P(za - s < Z < zb - s) / P(za < Z < zb), in logs so that a
    // large s does not overflow before the ratio shrinks it.
    const LogNormalParameters p = log_parameters(d);
    const ZInterval z = log_interval(d);
    const ZInterval shifted{z.za - p.s, z.zb - p.s};
    const double m = std::exp(p.mu + p.s * p.s / 2 + std::log(shifted.probability()) - std::log(z.probability()));
    return std::clamp(m, std::exp(p.mu + p.s * z.za), std::exp(p.mu + p.s * z.zb));
}

double mean_of(const dist::Triangular& d) { return (d.low + d.mode + d.high) / 3; }

double mean_of(const dist::Pert& d) { return (d.low + d.lambda * d.mode + d.high) / (d.lambda + 2); }

double mean_of(const dist::Discrete& d) {
    if (d.weights.empty()) return std::accumulate(d.values.begin(), d.values.end(), 0.0) / d.values.size();
    double weighted = 0.0;
    double total = 0.0;
    for (std::size_t i = 0; i < d.values.size(); ++i) {
        weighted += d.weights[i] * d.values[i];
        total += d.weights[i];
    }
    return weighted / total;
}

// ---- describe ----

std::string optional_key(const char* key, const std::optional<double>& value) {
    return value ? fmt::format(", {} = {}", key, *value) : "";
}

std::string describe_shape(const dist::Uniform& d) {
    return fmt::format("dist = \"uniform\", low = {}, high = {}", d.low, d.high);
}

std::string describe_shape(const dist::Normal& d) {
    return fmt::format("dist = \"normal\", mean = {}, sd = {}", d.mean, d.sd) + optional_key("low", d.low) +
           optional_key("high", d.high);
}

std::string describe_shape(const dist::Lognormal& d) {
    return "dist = \"lognormal\"" + optional_key("median", d.median) + optional_key("sigma", d.sigma) +
           optional_key("mean", d.mean) + optional_key("sd", d.sd) + optional_key("low", d.low) +
           optional_key("high", d.high);
}

std::string describe_shape(const dist::Triangular& d) {
    return fmt::format("dist = \"triangular\", low = {}, mode = {}, high = {}", d.low, d.mode, d.high);
}

std::string describe_shape(const dist::Pert& d) {
    return fmt::format("dist = \"pert\", low = {}, mode = {}, high = {}", d.low, d.mode, d.high) +
           (d.lambda == 4.0 ? "" : fmt::format(", lambda = {}", d.lambda));
}

std::string describe_shape(const dist::Discrete& d) {
    return fmt::format("dist = \"discrete\", values = [{}]", fmt::join(d.values, ", ")) +
           (d.weights.empty() ? "" : fmt::format(", weights = [{}]", fmt::join(d.weights, ", ")));
}

void require_valid(const Distribution& d) {
    if (std::string problem = check(d); !problem.empty())
        throw std::invalid_argument(describe(d) + ": " + problem);
}

}  // namespace

std::string check(const Distribution& d) {
    return std::visit([](const auto& shape) { return check_shape(shape); }, d.shape);
}

double detail::quantile_unchecked(const Distribution& d, double u) {
    return std::visit([u](const auto& shape) { return quantile_of(shape, u); }, d.shape);
}

double quantile(const Distribution& d, double u) {
    if (!(u > 0.0 && u < 1.0)) throw std::invalid_argument(fmt::format("quantile needs u in (0, 1), got {}", u));
    require_valid(d);
    return detail::quantile_unchecked(d, u);
}

double mean(const Distribution& d) {
    require_valid(d);
    return std::visit([](const auto& shape) { return mean_of(shape); }, d.shape);
}

std::string describe(const Distribution& d) {
    return "{ " + std::visit([](const auto& shape) { return describe_shape(shape); }, d.shape) + " }";
}

}  // namespace payback

namespace payback {

QuantileFunction::QuantileFunction(const Distribution& d) : d_(d) {
    require_valid(d);
    const auto* pert = std::get_if<dist::Pert>(&d.shape);
    if (!pert) return;
    low_ = pert->low;
    width_ = pert->high - pert->low;
    const boost::math::beta_distribution<double, DoublePolicy> beta(1.0 + pert->lambda * (pert->mode - pert->low) / width_,
                                                                    1.0 + pert->lambda * (pert->high - pert->mode) / width_);
    const double n = static_cast<double>(intervals);
    // The beta's log-density slope, f'/f = (a - 1)/x - (b - 1)/(1 - x), gives the inverse's second
    // derivative: x'' = -(f'/f) x'^2, with x' = 1 / f.
    const double a = beta.alpha(), b = beta.beta();
    x_.resize(intervals + 1);
    slope_.assign(2 * (intervals + 1), 0.0);
    exact_.assign(intervals, false);
    exact_.front() = exact_.back() = true;
    for (std::size_t j = 1; j < intervals; ++j) {
        const double x = boost::math::quantile(beta, static_cast<double>(j) / n);
        const double density = boost::math::pdf(beta, x);
        x_[j] = x;
        if (!(density > 0.0) || x <= 0.0 || x >= 1.0) continue;  // slope 0: its intervals stay exact
        const double first = 1.0 / density;
        slope_[2 * j] = first;
        slope_[2 * j + 1] = -((a - 1.0) / x - (b - 1.0) / (1.0 - x)) * first * first;
    }
    for (std::size_t j = 1; j + 1 < intervals; ++j) {
        if (slope_[2 * j] == 0.0 || slope_[2 * j + 2] == 0.0) {
            exact_[j] = true;
            continue;
        }
        for (const double t : {0.25, 0.5, 0.75}) {
            const double want = boost::math::quantile(beta, (static_cast<double>(j) + t) / n);
            if (!(std::abs(interpolate(j, t) - want) <= 1e-12)) exact_[j] = true;
        }
    }
}

}  // namespace payback
