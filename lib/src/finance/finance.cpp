// Finance arithmetic (see finance.hpp). The one subtle part is irr: npv is a polynomial in x = 1/(1+r), so
// it can have several roots or none; we look for all of them on a fixed grid of rates and refine each sign
// change with TOMS 748, rather than trust one Newton run from a guess.
#include "payback/finance/finance.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include <boost/math/tools/toms748_solve.hpp>

#include "payback/base/conventions.hpp"

namespace payback::finance {

const char* to_string(IrrStatus status) {
    switch (status) {
        case IrrStatus::ok: return "ok";
        case IrrStatus::no_sign_change: return "no_sign_change";
        case IrrStatus::multiple_roots: return "multiple_roots";
        case IrrStatus::not_converged: return "not_converged";
    }
    return "not_converged";
}

const char* to_string(TaxDepreciation method) {
    switch (method) {
        case TaxDepreciation::none: return "none";
        case TaxDepreciation::straight_line: return "straight_line";
        case TaxDepreciation::double_declining_balance: return "double_declining_balance";
        case TaxDepreciation::sum_of_years_digits: return "sum_of_years_digits";
        case TaxDepreciation::macrs_5: return "macrs_5";
        case TaxDepreciation::custom: return "custom";
    }
    return "none";
}

double npv(double rate, const std::vector<double>& flows) {
    // Horner in x = 1/(1+r), last flow first.
    const double x = 1.0 / (1.0 + rate);
    double sum = 0.0;
    for (auto it = flows.rbegin(); it != flows.rend(); ++it) sum = sum * x + *it;
    return sum;
}

namespace {

// The irr search: s = log(1+r) runs over [-max_log, max_log], i.e. 1 + r from 1e-6 to 1e6. The grid steps
// s by linear_step up to |s| = linear_end, then by 1 % of |s|: fine near r = 0, where real rates live, and
// about 830 points a side. Two roots closer than one step may show no sign change between them.
constexpr double max_log = 13.815510557964274;  // log(1e6)
constexpr double linear_step = 1e-4;
constexpr double linear_end = 1e-2;
constexpr double geometric_ratio = 1.01;

// A grid point: the rate and z, the Horner variable there (see SignedNpv).
struct GridPoint {
    double rate;
    double z;
};

// Ascending in rate; index zero_index() is r = 0.
const std::vector<GridPoint>& rate_grid() {
    static const std::vector<GridPoint> grid = [] {
        std::vector<double> steps;  // |s| > 0, ascending
        for (int k = 1; k * linear_step < linear_end * (1 + 1e-9); ++k) steps.push_back(k * linear_step);
        while (steps.back() < max_log) steps.push_back(std::min(steps.back() * geometric_ratio, max_log));
        std::vector<GridPoint> g;
        for (auto it = steps.rbegin(); it != steps.rend(); ++it) {
            const double r = std::expm1(-*it);
            g.push_back({r, 1.0 + r});
        }
        g.push_back({0.0, 1.0});
        for (double step : steps) {
            const double r = std::expm1(step);
            g.push_back({r, 1.0 / (1.0 + r)});
        }
        return g;
    }();
    return grid;
}

std::size_t zero_index() { return rate_grid().size() / 2; }

// npv with the same sign and zeros as the real one, but never overflowing: for r >= 0 it is npv itself,
// Horner in x = 1/(1+r) <= 1 from the last flow; for r < 0 it is npv × (1+r)^n, Horner in 1+r < 1 from the
// first flow. Either way the Horner variable z is in (0, 1]. The flows are scaled to max |flow| = 1, with
// leading and trailing zeros dropped (they move no root), so the first and last are nonzero.
struct SignedNpv {
    std::vector<double> forward;   // flows[0..n], for r < 0
    std::vector<double> backward;  // flows[n..0], for r >= 0

    const std::vector<double>& coefficients(double rate) const { return rate < 0.0 ? forward : backward; }

    double at(double rate) const {
        const double z = rate < 0.0 ? 1.0 + rate : 1.0 / (1.0 + rate);
        double sum = 0.0;
        for (double c : coefficients(rate)) sum = sum * z + c;
        return sum;
    }

    // Several grid points at once, all on one side of 0: independent Horner chains keep the FPU busy.
    template <std::size_t B>
    void at_block(const GridPoint* points, double* out) const {
        double z[B];
        double sum[B] = {};
        for (std::size_t j = 0; j < B; ++j) z[j] = points[j].z;
        for (double c : coefficients(points[0].rate))
            for (std::size_t j = 0; j < B; ++j) sum[j] = sum[j] * z[j] + c;
        for (std::size_t j = 0; j < B; ++j) out[j] = sum[j];
    }

    // Grid indices [first, last] that hold every root, by Cauchy's bound on both polynomials: each root of
    // Σ c_t x^t has |x| < 1 + max_{t<n} |c_t / c_n|, and each root of Σ c_t y^(n-t), y = 1+r, has
    // |y| < 1 + max_{t>0} |c_t / c_0|. For a rig (-capex, then small monthly sums) the upper one is tight:
    // no rate beats max monthly / capex.
    std::pair<std::size_t, std::size_t> search_range() const {
        const std::size_t n = forward.size() - 1;
        double over_last = 0.0;
        double over_first = 0.0;
        for (std::size_t t = 0; t < n; ++t) over_last = std::max(over_last, std::fabs(forward[t]));
        for (std::size_t t = 1; t <= n; ++t) over_first = std::max(over_first, std::fabs(forward[t]));
        over_last /= std::fabs(forward[n]);
        over_first /= std::fabs(forward[0]);
        // 1 % beyond each bound for rounding; log(1 + large) instead of overflowing.
        const double s_low = -std::log1p(over_last) - 0.01;
        const double s_high = std::log1p(over_first) + 0.01;
        const auto& grid = rate_grid();
        const auto below = [](const GridPoint& p, double r) { return p.rate < r; };
        std::size_t first = static_cast<std::size_t>(
            std::lower_bound(grid.begin(), grid.end(), std::expm1(s_low), below) - grid.begin());
        std::size_t last = static_cast<std::size_t>(
            std::lower_bound(grid.begin(), grid.end(), std::expm1(s_high), below) - grid.begin());
        first = first == 0 ? 0 : first - 1;
        last = std::min(last, grid.size() - 1);
        return {std::min(first, zero_index()), std::max(last, zero_index())};
    }
};

// Stop once the bracket is a few ulps of max(1, |r|) wide: near r = 0 the flows only see 1 + r, so finer
// would be noise.
struct RateTolerance {
    bool operator()(double a, double b) const {
        const double scale = std::max({1.0, std::fabs(a), std::fabs(b)});
        return std::fabs(a - b) <= 4.0 * std::numeric_limits<double>::epsilon() * scale;
    }
};

// The root in (lo, hi), where f(lo) and f(hi) have opposite signs and the bracket is on one side of 0.
double refine(const SignedNpv& f, double lo, double hi, double f_lo, double f_hi) {
    std::uintmax_t max_iter = 200;
    const auto [a, b] = boost::math::tools::toms748_solve([&f](double r) { return f.at(r); }, lo, hi, f_lo,
                                                          f_hi, RateTolerance{}, max_iter);
    // Past max_iter the bracket still holds the root; its middle is the best guess.
    return a + (b - a) / 2.0;
}

int sign_changes(const std::vector<double>& flows) {
    int changes = 0;
    double last = 0.0;
    for (double v : flows) {
        if (v == 0.0) continue;
        if (last != 0.0 && (v > 0.0) != (last > 0.0)) ++changes;
        last = v;
    }
    return changes;
}

// Exactly one sign change: by Descartes' rule exactly one root. npv has opposite signs at the two ends of
// the search range unless the root lies outside it; bisect over grid points down to one cell, then refine.
std::vector<double> single_root(const SignedNpv& f) {
    const auto& grid = rate_grid();
    auto [lo, hi] = f.search_range();
    double f_lo = f.at(grid[lo].rate);
    double f_hi = f.at(grid[hi].rate);
    if (f_lo == 0.0) return {grid[lo].rate};
    if (f_hi == 0.0) return {grid[hi].rate};
    if ((f_lo > 0.0) == (f_hi > 0.0)) return {};  // the root lies outside the searched range
    while (hi - lo > 1) {
        // Split at r = 0 first, so that the final cell is on one side of it.
        const std::size_t mid = lo < zero_index() && zero_index() < hi ? zero_index() : lo + (hi - lo) / 2;
        const double f_mid = f.at(grid[mid].rate);
        if (f_mid == 0.0) return {grid[mid].rate};
        if ((f_mid > 0.0) == (f_lo > 0.0)) {
            lo = mid;
            f_lo = f_mid;
        } else {
            hi = mid;
            f_hi = f_mid;
        }
    }
    return {refine(f, grid[lo].rate, grid[hi].rate, f_lo, f_hi)};
}

// Any number of sign changes: walk the grid upwards over the search range, bracketing every sign change; an
// exact zero at a grid point is a root. Stops early once Descartes' bound on the number of roots is reached.
std::vector<double> all_roots(const SignedNpv& f, int max_roots) {
    constexpr std::size_t block = 8;
    const auto& grid = rate_grid();
    const auto [first, last] = f.search_range();
    std::vector<double> roots;
    bool have_previous = false;
    double r_previous = 0.0;
    double f_previous = 0.0;
    double values[block];
    std::size_t count = 0;
    for (std::size_t i = first; i <= last; i += count) {
        // Blocks never straddle r = 0, where the Horner direction flips.
        count = std::min(block, (i < zero_index() ? zero_index() : last + 1) - i);
        if (count == block) {
            f.at_block<block>(&grid[i], values);
        } else {
            for (std::size_t j = 0; j < count; ++j) values[j] = f.at(grid[i + j].rate);
        }
        for (std::size_t j = 0; j < count; ++j) {
            const double r = grid[i + j].rate;
            const double v = values[j];
            if (v == 0.0) {
                roots.push_back(r);
                have_previous = false;  // the sign change across this zero is this root, not another
                continue;
            }
            if (have_previous && (v > 0.0) != (f_previous > 0.0))
                roots.push_back(refine(f, r_previous, r, f_previous, v));
            have_previous = true;
            r_previous = r;
            f_previous = v;
        }
        if (static_cast<int>(roots.size()) >= max_roots) break;
    }
    return roots;
}

}  // namespace

IrrResult irr(const std::vector<double>& flows) {
    double largest = 0.0;
    for (double v : flows) {
        if (!std::isfinite(v)) return {IrrStatus::not_converged, {}};
        largest = std::max(largest, std::fabs(v));
    }
    const int changes = sign_changes(flows);
    if (largest == 0.0 || changes == 0) return {IrrStatus::no_sign_change, {}};

    // Leading zeros only multiply npv by a positive power of x and trailing ones add nothing: drop both.
    const auto first = std::find_if(flows.begin(), flows.end(), [](double v) { return v != 0.0; });
    const auto last = std::find_if(flows.rbegin(), flows.rend(), [](double v) { return v != 0.0; }).base();
    SignedNpv f;
    for (auto it = first; it != last; ++it) f.forward.push_back(*it / largest);
    f.backward.assign(f.forward.rbegin(), f.forward.rend());

    std::vector<double> roots = changes == 1 ? single_root(f) : all_roots(f, changes);
    std::sort(roots.begin(), roots.end());
    const auto same_root = [](double a, double b) {
        return std::fabs(a - b) <= 1e-12 * std::max({1.0, std::fabs(a), std::fabs(b)});
    };
    roots.erase(std::unique(roots.begin(), roots.end(), same_root), roots.end());
    if (roots.empty()) return {IrrStatus::not_converged, {}};
    if (roots.size() == 1) return {IrrStatus::ok, roots};
    return {IrrStatus::multiple_roots, roots};
}

double annuity_payment(double principal, double rate, int periods) {
    return annuity_payment<double>(principal, rate, periods);
}

double loan_balance(double principal, double rate, int periods, int paid) {
    if (periods < 1 || paid < 0 || paid > periods)
        throw std::invalid_argument("loan_balance: need 0 <= paid <= periods and periods >= 1, got paid " +
                                    std::to_string(paid) + " of " + std::to_string(periods));
    if (rate == 0.0) return principal * (periods - paid) / periods;
    // The present value of the payments still due: P ((1+r)^n - (1+r)^k) / ((1+r)^n - 1), written so that
    // it is exactly P at k = 0 and exactly 0 at k = n.
    const double growth = std::log1p(rate);
    return principal * std::exp(paid * growth) * std::expm1((periods - paid) * growth) /
           std::expm1(periods * growth);
}

double loan_interest(double principal, double rate, int periods, int k) {
    if (k < 1 || k > periods)
        throw std::invalid_argument("loan_interest: need 1 <= k <= periods, got " + std::to_string(k) +
                                    " of " + std::to_string(periods));
    return rate * loan_balance(principal, rate, periods, k - 1);
}

double monthly_rate(double annual) {
    return std::expm1(std::log1p(annual) / conventions::months_per_year);
}

double annual_rate(double monthly) {
    return std::expm1(std::log1p(monthly) * conventions::months_per_year);
}

// (1+real)(1+inflation) - 1 expanded, so that small rates do not lose digits to the 1.
double nominal_rate(double real, double inflation) { return real + inflation + real * inflation; }

double real_rate(double nominal, double inflation) { return (nominal - inflation) / (1.0 + inflation); }

std::vector<double> depreciation_schedule(TaxDepreciation method, int life_years,
                                          const std::vector<double>& custom) {
    const bool uses_life = method == TaxDepreciation::straight_line ||
                           method == TaxDepreciation::double_declining_balance ||
                           method == TaxDepreciation::sum_of_years_digits;
    if (uses_life && life_years < 1)
        throw std::invalid_argument(std::string("depreciation_schedule: ") + to_string(method) +
                                    " needs life_years >= 1, got " + std::to_string(life_years));
    const auto life = static_cast<std::size_t>(std::max(life_years, 0));
    switch (method) {
        case TaxDepreciation::none:
            return {};
        case TaxDepreciation::straight_line:
            return std::vector<double>(life, 1.0 / life_years);
        case TaxDepreciation::double_declining_balance: {
            std::vector<double> fractions;
            double remaining = 1.0;
            for (int year = 1; year <= life_years; ++year) {
                const double declining = 2.0 / life_years * remaining;
                const double straight = remaining / (life_years - year + 1);  // the last year takes the rest
                const double deduction = std::min(std::max(declining, straight), remaining);
                fractions.push_back(deduction);
                remaining -= deduction;
            }
            return fractions;
        }
        case TaxDepreciation::sum_of_years_digits: {
            std::vector<double> fractions;
            const double digits = life_years * (life_years + 1) / 2.0;
            for (int year = 1; year <= life_years; ++year)
                fractions.push_back((life_years - year + 1) / digits);
            return fractions;
        }
        case TaxDepreciation::macrs_5:
            // IRS Publication 946, Table A-1 (half-year convention), the 5-year property column.
            return {0.20, 0.32, 0.192, 0.1152, 0.1152, 0.0576};
        case TaxDepreciation::custom:
            return custom;
    }
    return {};
}

}  // namespace payback::finance
