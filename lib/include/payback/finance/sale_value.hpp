// What a part sells for, written once for the model (engine.hpp), which books it month after
// month, and for the batch's superposition, which computes one sale per sample: the same number,
// to the last bit, from either.
#pragma once

#include "payback/finance/depreciation.hpp"

namespace payback {

/// The fraction of its price a part is booked at after `age_months` whole months, at the end of
/// scenario month `month_end`: resale_fraction itself, except that the exponential curves
/// (declining balance, price-performance) take it exactly at each whole year and multiply by the
/// one-month factor once a month between. The model steps month by month (ResaleSteps) without
/// a power per month, and the rounding of the products never spans more than 11 steps (a few 1e-16).
template <class T>
T booked_resale_fraction(const ResaleCurve<T>& curve, int age_months, int month_end) {
    if (curve.method != ResaleMethod::declining_balance && curve.method != ResaleMethod::price_performance)
        return resale_fraction(curve, static_cast<double>(age_months), month_end);
    const int whole_years = age_months / 12;
    T fraction = resale_fraction(curve, 12.0 * whole_years, month_end);
    if (age_months == 12 * whole_years) return fraction;
    const T month_factor = resale_fraction(curve, 1.0);
    for (int month = 12 * whole_years; month < age_months; ++month) fraction = fraction * month_factor;
    return fraction;
}

/// What a part that cost `cost` fetches when its curve is at `fraction` and the wear of renting
/// has left `kept` of its value.
template <class T>
T sale_value(const T& cost, const T& fraction, double kept) {
    return cost * fraction * kept;
}

/// The same at `age_months`, at the end of scenario month `month_end`.
template <class T>
T sale_value(const T& cost, const ResaleCurve<T>& curve, int age_months, int month_end, double kept) {
    return sale_value(cost, booked_resale_fraction(curve, age_months, month_end), kept);
}

/// booked_resale_fraction month after month of a part's age (0, 1, 2, ...) at a multiplication a
/// month: the batch engine pays a logarithm and an exponential per lane for each power, so this is
/// its costliest saving. Any call may jump to any age; the fractions are the same either way.
template <class T>
class ResaleSteps {
public:
    explicit ResaleSteps(const ResaleCurve<T>& curve)
        : curve_(curve),
          exponential_(curve.method == ResaleMethod::declining_balance ||
                       curve.method == ResaleMethod::price_performance),
          month_factor_(exponential_ ? resale_fraction(curve, 1.0) : numeric_ops<T>::fill_like(curve.annual_rate, 1.0)),
          fraction_(month_factor_) {}

    /// The fraction at `age_months`, at the end of scenario month `month_end`.
    T at(int age_months, int month_end) {
        if (exponential_ && age_months % 12 != 0 && age_months == age_ + 1)
            fraction_ = fraction_ * month_factor_;
        else
            fraction_ = booked_resale_fraction(curve_, age_months, month_end);
        age_ = age_months;
        return fraction_;
    }

private:
    const ResaleCurve<T>& curve_;
    bool exponential_;
    T month_factor_;
    T fraction_;
    int age_ = -2;
};

}  // namespace payback
