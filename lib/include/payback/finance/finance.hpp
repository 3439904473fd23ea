// Plain finance arithmetic on per-period cash flows: present value, internal rate of return, level-payment
// loans, rate conversions and tax depreciation schedules. Kept free of the model so each function can be
// checked against a textbook or numpy-financial (tests/fixtures/finance/numpy_financial.json).
//
// Conventions: flows[t] falls at the end of period t, flows[0] is now and is not discounted
// (numpy-financial's npv, not Excel's NPV, which discounts its first value). Rates are per period and
// effective.
//
// irr searches per-period rates with 1 + r from 1e-6 to 1e6, that is r in [-0.999999, 999999]. A root
// outside that range is not found. It never returns NaN: it reports what it found in an IrrStatus.
#pragma once

#include <stdexcept>
#include <vector>

#include "payback/base/numeric.hpp"

namespace payback::finance {

enum class IrrStatus {
    ok,              ///< exactly one rate makes the npv zero
    no_sign_change,  ///< all flows zero, or the nonzero ones never change sign: no rate can make npv zero
    multiple_roots,  ///< several rates make the npv zero; each is listed
    not_converged,   ///< the flows change sign but no root was found in the searched range (or a flow is
                     ///< not finite)
};

/// "ok", "no_sign_change", "multiple_roots" or "not_converged".
const char* to_string(IrrStatus status);

struct IrrResult {
    IrrStatus status;
    std::vector<double> rates;  ///< per-period rates of every root found, ascending; one when ok, >=2 when
                                ///< multiple_roots, empty otherwise
};

/// flows[t] happens at the end of period t (flows[0] is now). Finds every rate r > -1 where
/// npv(r, flows) = 0, within the range in the header comment. Scans a grid in log(1 + r) (steps of 1e-4
/// up to |log(1 + r)| = 0.01, then of 1 %) for sign changes and refines each with TOMS 748, to about
/// 1e-15 × max(1, |r|). So two roots within one grid step of each other may be missed as a pair (a
/// near-double root), and a root where npv only touches zero is found only on a grid point (r = 0 is one).
/// One sign change in the flows means exactly one root (Descartes), found by bisection without the scan.
/// Takes tens of microseconds for 600 flows with one sign change, a few hundred with several.
IrrResult irr(const std::vector<double>& flows);

/// Σ flows[t] / (1+r)^t ; flows[0] undiscounted (numpy-financial's npv convention, NOT Excel's NPV).
/// Needs rate > -1.
double npv(double rate, const std::vector<double>& flows);

/// The level payment (a positive amount) at the end of each of `periods` periods that repays `principal`
/// at `rate` per period; rate 0 -> principal / periods. (numpy_financial.pmt(rate, n, -principal))
/// Throws std::invalid_argument when periods < 1. Generic over the number type like the model, whose
/// loan (engine.hpp) pays it: one formula for a scenario and for the batch's lanes.
template <class T>
T annuity_payment(const T& principal, const T& rate, int periods) {
    using ops = numeric_ops<T>;
    if (periods < 1) throw std::invalid_argument("annuity_payment: periods must be at least 1");
    // P r / (1 - (1+r)^-n), with expm1/log1p so that tiny rates keep their digits.
    const T level = principal * rate / (0.0 - ops::expm1(-static_cast<double>(periods) * ops::log1p(rate)));
    return ops::select(ops::equal(rate, 0.0), principal / static_cast<double>(periods), level);
}
/// The same for plain numbers (any arithmetic arguments).
double annuity_payment(double principal, double rate, int periods);

/// Principal still owed after `paid` level payments (0 <= paid <= periods; otherwise
/// std::invalid_argument). Exactly 0 once every payment is made.
double loan_balance(double principal, double rate, int periods, int paid);

/// Interest part of payment number k (1-based) of that loan: rate × balance after k-1 payments.
/// (numpy_financial.ipmt(rate, k, periods, -principal)); 1 <= k <= periods, otherwise std::invalid_argument.
double loan_interest(double principal, double rate, int periods, int k);

/// Converting an annual effective rate to the per-month rate with the same growth and back:
/// (1+a)^(1/12)-1, (1+m)^12-1.
double monthly_rate(double annual);
/// (1+m)^12 - 1: the annual effective rate of a monthly rate.
double annual_rate(double monthly);

/// Fisher relation: (1 + nominal) = (1 + real)(1 + inflation), exactly (not the approximation
/// nominal ≈ real + inflation).
double nominal_rate(double real, double inflation);
/// The real rate in that relation: (1 + nominal) / (1 + inflation) - 1.
double real_rate(double nominal, double inflation);

enum class TaxDepreciation {
    none,
    straight_line,
    double_declining_balance,
    sum_of_years_digits,
    macrs_5,
    custom,
};

/// "none", "straight_line", "double_declining_balance", "sum_of_years_digits", "macrs_5" or "custom".
const char* to_string(TaxDepreciation method);

/// Fractions of the depreciable basis deducted in tax year 1, 2, ... (they sum to 1; empty for none).
/// straight_line: 1/life each year. double_declining_balance: rate 2/life on the remaining basis, switching
/// to straight line over the remaining years when that deducts more (the usual DDB-with-switch, salvage 0),
/// so it sums to 1 within `life_years`. sum_of_years_digits: (life - y + 1) / (life(life+1)/2).
/// macrs_5: IRS Publication 946 Table A-1, 5-year property, half-year convention: 20.00, 32.00, 19.20,
/// 11.52, 11.52, 5.76 % (six years; life_years ignored). custom: the given fractions as they are (the caller
/// validates them). Throws std::invalid_argument when a method that uses life_years gets one below 1.
std::vector<double> depreciation_schedule(TaxDepreciation method, int life_years,
                                          const std::vector<double>& custom = {});

}  // namespace payback::finance
