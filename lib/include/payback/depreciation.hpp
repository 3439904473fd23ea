// What a part is worth on the used market at a given age, per its resale method.
// Generic over the numeric type so the batch engine (Eigen lanes) and the scalar model share it.
#pragma once

#include "payback/conventions.hpp"
#include "payback/numeric.hpp"

namespace payback {

enum class ResaleMethod {
    none,               ///< worth nothing when sold
    declining_balance,  ///< loses `annual_rate` of its value each year, compounding
    straight_line,      ///< falls linearly to `salvage_fraction` of its price over `life_years`
};

/// Parameters of a part's resale curve; only those its method uses matter.
template <class T>
struct ResaleCurve {
    ResaleMethod method = ResaleMethod::none;
    T annual_rate{};
    T life_years{};
    T salvage_fraction{};
};

/// Fraction of the purchase price a part fetches at `age_months`.
/// declining_balance: (1 - rate)^(age/12), compounding within the year as well.
/// straight_line: 1 - (1 - salvage) * min(age / (12 * life), 1).
template <class T>
T resale_fraction(const ResaleCurve<T>& curve, double age_months) {
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
    }
    return ops::fill_like(curve.annual_rate, 0.0);
}

}  // namespace payback
