// How a cloud bill differs from "hours × list price": billing increments and minimums, spot interruptions
// (lost work and restarts priced as extra billed hours), reserved commitments paid whether used or not, and
// storage and egress. Kept free of the model, like finance.hpp, so each formula can be checked by hand.
//
// Sources. Billing granularity: AWS bills Linux On-Demand, Reserved and Spot per second with a 60 s
// minimum (aws.amazon.com/about-aws/whats-new/2017/10/announcing-amazon-ec2-per-second-billing/).
// Spot overhead: the renewal-reward result for periodic
// checkpointing under Poisson failures (derived at spot_overhead_factor; Daly 2006, "A higher order
// estimate of the optimum checkpoint interval for restart dumps", Future Generation Computer Systems
// 22(3):303-312, doi:10.1016/j.future.2004.11.016, has the same form with an interruptible restart).
// Interruption buckets: the AWS Spot Instance Advisor (aws.amazon.com/ec2/spot/instance-advisor/, data
// in spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json) defines "frequency of interruption" as
// the rate at which Spot reclaimed capacity during the trailing month, in ranges <5 %, 5-10 %, 10-15 %,
// 15-20 % and >20 % (as quoted by the grailbio/base spotadvisor package and LeanerCloud/AutoSpotting#389).
//
// Units: hours and USD. Every function throws std::invalid_argument on a negative, NaN or infinite input.
#pragma once

#include <optional>
#include <string_view>

namespace payback {

/// How a provider bills: in increments of `increment_seconds` with a minimum charge of `minimum_seconds`.
/// Hourly billing is {3600, 3600}; AWS Linux instances today are {1, 60}. increment_seconds must be > 0.
struct Billing {
    double increment_seconds = 1;
    double minimum_seconds = 0;
};

/// Billed hours for one job of `job_hours`: max(minimum, ceil(job / increment) × increment); 0 for a job
/// of 0 hours (nothing ran). A job within 1e-9 (relative) of a whole number of increments is that many
/// increments, so 1/6 h billed per second is 600 s, not 601 s from rounding.
double billed_hours(const Billing& b, double job_hours);

/// Billed hours a month for `hours_per_month` of work done as jobs of `job_hours` each (> 0). Convention:
/// the work is n = floor(hours_per_month / job_hours) whole jobs plus one remainder job of the hours left
/// (none when the division is whole, within 1e-9 relative), each billed on its own by billed_hours.
/// So 1 h of 10-minute jobs billed hourly is 6 billed hours; 1.25 h of 1-h jobs is 1 + 1 = 2.
double billed_hours_per_month(const Billing& b, double hours_per_month, double job_hours);

/// Spot: interruptions arrive as a Poisson process at `interruptions_per_hour` (λ) while the instance
/// works; after each, the work since the last checkpoint (every `checkpoint_interval_hours` of useful work,
/// τ > 0) is lost and `restart_hours` (R) are spent getting a new instance and reloading. Writing a
/// checkpoint takes `checkpoint_cost_hours` (C). All of that time is billed.
struct SpotTerms {
    double interruptions_per_hour;
    double checkpoint_interval_hours;
    double restart_hours;
    double checkpoint_cost_hours = 0;
};

/// Expected wall-clock (billed) hours per hour of useful work on spot:
///     f = (e^{λ(τ+C)} − 1)(1/λ + R) / τ,      f = (τ + C) / τ at λ = 0.
/// Derivation (renewal reward, one segment of T = τ + C to finish): an attempt succeeds with probability
/// e^{−λT}; it runs E[min(X, T)] = (1 − e^{−λT})/λ for X ~ Exp(λ); a failed one adds R and starts over. So
/// E = (1 − e^{−λT})/λ + (1 − e^{−λT})(R + E), that is E = (e^{λT} − 1)(1/λ + R), and f = E/τ. The restart
/// itself is taken as uninterruptible; Daly (2006), who lets restarts fail too, has e^{λR}/λ in place of
/// 1/λ + R, the same to first order. Small λ: f = (1 + C/τ) + λ((τ+C)²/(2τ) + R(τ+C)/τ) + O(λ²), which is
/// 1 + λ(τ/2 + R) for C = 0: on average half an interval is lost and one restart paid per interruption.
/// Worst case for the work lost: AWS's two-minute notice, which could trigger a last checkpoint, is not
/// used. +infinity when λ(τ + C) is past about 709 (e^x overflows): such work never finishes.
double spot_overhead_factor(const SpotTerms& t);

/// Effective price per hour of useful work on spot: spot price × overhead factor.
double effective_spot_price(double spot_price_per_hour, const SpotTerms& t);

/// The cap on the interruption rate breakeven_interruption_rate searches up to: 10 per hour.
inline constexpr double max_breakeven_interruption_rate = 10.0;

/// The interruption rate λ at which spot's effective price equals `other_price_per_hour` (on-demand or
/// reserved), found with TOMS 748 on [0, max_breakeven_interruption_rate] (the overhead rises with λ, so
/// there is at most one). 0 when they are equal without interruptions; nullopt when spot is dearer even
/// without interruptions (spot × (τ+C)/τ > other), or still cheaper at the cap. Spot is worth it below
/// the returned rate.
std::optional<double> breakeven_interruption_rate(double spot_price_per_hour, double other_price_per_hour,
                                                  double checkpoint_interval_hours, double restart_hours,
                                                  double checkpoint_cost_hours = 0);

/// An AWS Spot Instance Advisor frequency bucket ("<5%", "5-10%", "10-15%", "15-20%", ">20%": the share
/// of capacity reclaimed in the trailing month) as an interruption rate per hour. Conversion: the bucket's
/// middle p (2.5 %, 7.5 %, 12.5 %, 17.5 %; the open ">20%" is taken as 22.5 %, the middle of a next 5-point
/// step, so a floor rather than an estimate) is read as the probability that an instance running the whole
/// month (730 h) is interrupted, so rate = −ln(1 − p) / 730 per hour (a Poisson process with that chance of
/// at least one event in 730 h). Spaces, a space before "%", a missing "%" and an en dash are accepted;
/// nullopt for any other text.
std::optional<double> interruptions_per_hour_from_aws_bucket(std::string_view bucket);

/// Reserved / committed use: `committed_hours_per_month` are paid at `reserved_price` whether used or not;
/// work beyond it runs on demand. Monthly cost for `hours_per_month` of use:
/// committed × reserved_price + max(0, hours − committed) × on_demand_price.
double reserved_monthly_cost(double hours_per_month, double committed_hours_per_month, double reserved_price,
                             double on_demand_price);

/// The utilization (used / committed hours, 0..1) at which a full commitment costs the same as on-demand:
/// reserved_price / on_demand_price (on_demand_price > 0). Above 1 the commitment never pays.
double reserved_breakeven_utilization(double reserved_price, double on_demand_price);

/// Storage kept while the workload lasts: gigabytes × $/GB-month.
double storage_cost_per_month(double gigabytes, double price_per_gb_month);
/// Egress: gigabytes × $/GB (one flat rate; tiers and free allowances are the caller's to apply).
double egress_cost(double gigabytes, double price_per_gb);

}  // namespace payback
