// What a part is worth on the used market at a given age, per its resale method.
// Generic over the numeric type so the batch engine (Eigen lanes) and the scalar model share it.
// (Depreciation for taxes is a different schedule: finance.hpp, depreciation_schedule.)
#pragma once

#include <cmath>
#include <vector>

#include "payback/base/conventions.hpp"
#include "payback/base/marked_members.hpp"
#include "payback/base/numeric.hpp"

namespace payback {

enum class ResaleMethod {
    none,               ///< worth nothing when sold
    declining_balance,  ///< loses `annual_rate` of its value each year, compounding
    straight_line,      ///< falls linearly to `salvage_fraction` of its price over `life_years`
    price_performance,  ///< halves every `half_life_years`, as newer hardware gets cheaper per FLOP/s
    observed,           ///< follows a schedule of observed used prices by calendar date
};

/// Parameters of a part's resale curve; only those its method uses matter.
template <class T>
struct ResaleCurve {
    ResaleMethod method = ResaleMethod::none;
    T annual_rate{};
    T life_years{};
    T salvage_fraction{};
    T half_life_years{};
    /// observed: the used price as a fraction of the purchase price at each month boundary of the
    /// scenario (index 0 = the start of month 1, index m = the end of month m).
    std::vector<double> observed_fraction;

    /// Every member, marked (marked_members.hpp): the curve's numbers act through the part's sale.
    static constexpr auto members() {
        constexpr const char* what = "a part's resale curve";
        return std::tuple{fixed(&ResaleCurve::method),
                          mark(&ResaleCurve::annual_rate, Response::sale, what),
                          mark(&ResaleCurve::life_years, Response::sale, what),
                          mark(&ResaleCurve::salvage_fraction, Response::sale, what),
                          mark(&ResaleCurve::half_life_years, Response::sale, what),
                          fixed(&ResaleCurve::observed_fraction)};
    }
};
static_assert(every_member_listed<ResaleCurve<double>>());

/// Fraction of the purchase price a part fetches at `age_months`, at the end of scenario month
/// `month_end` (0 = the start of month 1; only the observed method looks at the calendar).
/// declining_balance: (1 - rate)^(age/12), compounding within the year as well.
/// straight_line: 1 - (1 - salvage) * min(age / (12 * life), 1).
/// price_performance: 0.5^(age / (12 * half_life)).
/// observed: the schedule's price at that date over the purchase price.
template <class T>
T resale_fraction(const ResaleCurve<T>& curve, double age_months, int month_end = 0) {
    using ops = numeric_ops<T>;
    const double age_years = age_months / conventions::months_per_year;
    switch (curve.method) {
        case ResaleMethod::none:
            return ops::fill_like(curve.annual_rate, 0.0);
        case ResaleMethod::declining_balance:
            return ops::pow(1.0 - curve.annual_rate, age_years);
        case ResaleMethod::straight_line: {
            const T used_up = ops::min(age_years / curve.life_years, 1.0);
            return 1.0 - (1.0 - curve.salvage_fraction) * used_up;
        }
        case ResaleMethod::price_performance:
            return ops::exp(-std::log(2.0) * age_years / curve.half_life_years);
        case ResaleMethod::observed:
            return ops::fill_like(curve.annual_rate, curve.observed_fraction.at(static_cast<std::size_t>(month_end)));
    }
    return ops::fill_like(curve.annual_rate, 0.0);
}

}  // namespace payback
