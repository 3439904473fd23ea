// Cloud billing arithmetic (see cloud_billing.hpp for the formulas and their sources). The one numerical
// subtlety is the spot break-even: the overhead factor grows like e^{λ(τ+C)}, which overflows for long
// checkpoint intervals well inside the searched range, so the root is found on its logarithm.
#include "payback/market/cloud_billing.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>

#include <boost/math/tools/toms748_solve.hpp>
#include <fmt/format.h>

#include "payback/base/conventions.hpp"

namespace payback {

namespace {

// Relative slack for "a whole number of increments / jobs": absorbs rounding in hours → seconds.
constexpr double whole_slack = 1e-9;

void require_non_negative(const char* function, const char* name, double value) {
    if (!std::isfinite(value) || value < 0.0) {
        throw std::invalid_argument(
            fmt::format("{}: {} must be a finite number >= 0, got {}", function, name, value));
    }
}

void require_positive(const char* function, const char* name, double value) {
    if (!std::isfinite(value) || value <= 0.0) {
        throw std::invalid_argument(fmt::format("{}: {} must be a finite number > 0, got {}", function, name,
                                                value));
    }
}

void check_billing(const char* function, const Billing& b) {
    require_positive(function, "increment_seconds", b.increment_seconds);
    require_non_negative(function, "minimum_seconds", b.minimum_seconds);
}

void check_spot_terms(const char* function, const SpotTerms& t) {
    require_non_negative(function, "interruptions_per_hour", t.interruptions_per_hour);
    require_positive(function, "checkpoint_interval_hours", t.checkpoint_interval_hours);
    require_non_negative(function, "restart_hours", t.restart_hours);
    require_non_negative(function, "checkpoint_cost_hours", t.checkpoint_cost_hours);
}

// ceil(q), except that q within whole_slack (relative) above a whole number is that number.
double ceil_with_slack(double q) {
    return std::ceil(q - whole_slack * std::max(1.0, q));
}

double billed_hours_unchecked(const Billing& b, double job_hours) {
    if (job_hours == 0.0) return 0.0;
    const double increments = ceil_with_slack(job_hours * 3600.0 / b.increment_seconds);
    return std::max(b.minimum_seconds, increments * b.increment_seconds) / 3600.0;
}

// log(e^x - 1) for x > 0, without overflow for large x.
double log_expm1(double x) {
    return x > 30.0 ? x + std::log1p(-std::exp(-x)) : std::log(std::expm1(x));
}

// log of the overhead factor; the λ = 0 limit is log((τ + C) / τ).
double log_overhead(double rate, double interval, double restart, double checkpoint_cost) {
    const double segment = interval + checkpoint_cost;
    if (rate == 0.0) return std::log(segment / interval);
    return log_expm1(rate * segment) + std::log(1.0 / rate + restart) - std::log(interval);
}

}  // namespace

double billed_hours(const Billing& b, double job_hours) {
    check_billing("billed_hours", b);
    require_non_negative("billed_hours", "job_hours", job_hours);
    return billed_hours_unchecked(b, job_hours);
}

double billed_hours_per_month(const Billing& b, double hours_per_month, double job_hours) {
    check_billing("billed_hours_per_month", b);
    require_non_negative("billed_hours_per_month", "hours_per_month", hours_per_month);
    require_positive("billed_hours_per_month", "job_hours", job_hours);
    const double q = hours_per_month / job_hours;
    const double whole_jobs = std::floor(q + whole_slack * std::max(1.0, q));
    double remainder = hours_per_month - whole_jobs * job_hours;
    if (remainder <= whole_slack * std::max(job_hours, hours_per_month)) remainder = 0.0;
    return whole_jobs * billed_hours_unchecked(b, job_hours) + billed_hours_unchecked(b, remainder);
}

double spot_overhead_factor(const SpotTerms& t) {
    check_spot_terms("spot_overhead_factor", t);
    const double lambda = t.interruptions_per_hour;
    const double tau = t.checkpoint_interval_hours;
    const double segment = tau + t.checkpoint_cost_hours;
    if (lambda == 0.0) return segment / tau;
    // (e^{λT} − 1)(1/λ + R) / τ; expm1 keeps it exact for tiny λ, and an overflow gives +inf, not NaN.
    return std::expm1(lambda * segment) * (1.0 / lambda + t.restart_hours) / tau;
}

double effective_spot_price(double spot_price_per_hour, const SpotTerms& t) {
    require_non_negative("effective_spot_price", "spot_price_per_hour", spot_price_per_hour);
    return spot_price_per_hour * spot_overhead_factor(t);
}

std::optional<double> breakeven_interruption_rate(double spot_price_per_hour, double other_price_per_hour,
                                                  double checkpoint_interval_hours, double restart_hours,
                                                  double checkpoint_cost_hours) {
    const char* fn = "breakeven_interruption_rate";
    require_non_negative(fn, "spot_price_per_hour", spot_price_per_hour);
    require_non_negative(fn, "other_price_per_hour", other_price_per_hour);
    require_positive(fn, "checkpoint_interval_hours", checkpoint_interval_hours);
    require_non_negative(fn, "restart_hours", restart_hours);
    require_non_negative(fn, "checkpoint_cost_hours", checkpoint_cost_hours);

    // Free spot: equal to a free alternative at once, cheaper than any paid one at every rate.
    if (spot_price_per_hour == 0.0) {
        return other_price_per_hour == 0.0 ? std::optional<double>(0.0) : std::nullopt;
    }
    if (other_price_per_hour == 0.0) return std::nullopt;  // paid spot is always dearer

    // h(λ) = log(spot × f(λ) / other): rises with λ, finite where f itself overflows.
    const double log_ratio = std::log(spot_price_per_hour) - std::log(other_price_per_hour);
    const auto h = [&](double rate) {
        return log_ratio +
               log_overhead(rate, checkpoint_interval_hours, restart_hours, checkpoint_cost_hours);
    };
    const double lo = 0.0;
    const double hi = max_breakeven_interruption_rate;
    const double h_lo = h(lo);
    const double h_hi = h(hi);
    if (h_lo > 0.0) return std::nullopt;  // dearer even without interruptions
    if (h_lo == 0.0) return 0.0;
    if (h_hi < 0.0) return std::nullopt;  // still cheaper at the cap
    if (h_hi == 0.0) return hi;

    std::uintmax_t max_iter = 200;
    const boost::math::tools::eps_tolerance<double> tolerance(std::numeric_limits<double>::digits - 2);
    const auto [a, b] = boost::math::tools::toms748_solve(h, lo, hi, h_lo, h_hi, tolerance, max_iter);
    // Past max_iter the bracket still holds the root; its middle is the best guess.
    return a + (b - a) / 2.0;
}

std::optional<double> interruptions_per_hour_from_aws_bucket(std::string_view bucket) {
    // Normalize: drop spaces and '%', turn an en dash (UTF-8 E2 80 93) into '-'.
    std::string key;
    for (std::size_t i = 0; i < bucket.size(); ++i) {
        const char c = bucket[i];
        if (c == ' ' || c == '\t' || c == '%') continue;
        if (bucket.substr(i, 3) == "\xE2\x80\x93") {
            key += '-';
            i += 2;
            continue;
        }
        key += c;
    }
    double monthly_probability = 0.0;
    if (key == "<5") {
        monthly_probability = 0.025;
    } else if (key == "5-10") {
        monthly_probability = 0.075;
    } else if (key == "10-15") {
        monthly_probability = 0.125;
    } else if (key == "15-20") {
        monthly_probability = 0.175;
    } else if (key == ">20") {
        monthly_probability = 0.225;
    } else {
        return std::nullopt;
    }
    return -std::log1p(-monthly_probability) / conventions::hours_per_month;
}

double reserved_monthly_cost(double hours_per_month, double committed_hours_per_month, double reserved_price,
                             double on_demand_price) {
    const char* fn = "reserved_monthly_cost";
    require_non_negative(fn, "hours_per_month", hours_per_month);
    require_non_negative(fn, "committed_hours_per_month", committed_hours_per_month);
    require_non_negative(fn, "reserved_price", reserved_price);
    require_non_negative(fn, "on_demand_price", on_demand_price);
    const double overflow_hours = std::max(0.0, hours_per_month - committed_hours_per_month);
    return committed_hours_per_month * reserved_price + overflow_hours * on_demand_price;
}

double reserved_breakeven_utilization(double reserved_price, double on_demand_price) {
    require_non_negative("reserved_breakeven_utilization", "reserved_price", reserved_price);
    require_positive("reserved_breakeven_utilization", "on_demand_price", on_demand_price);
    return reserved_price / on_demand_price;
}

double storage_cost_per_month(double gigabytes, double price_per_gb_month) {
    require_non_negative("storage_cost_per_month", "gigabytes", gigabytes);
    require_non_negative("storage_cost_per_month", "price_per_gb_month", price_per_gb_month);
    return gigabytes * price_per_gb_month;
}

double egress_cost(double gigabytes, double price_per_gb) {
    require_non_negative("egress_cost", "gigabytes", gigabytes);
    require_non_negative("egress_cost", "price_per_gb", price_per_gb);
    return gigabytes * price_per_gb;
}

}  // namespace payback
