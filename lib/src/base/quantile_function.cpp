// QuantileFunction's evaluation (distribution.hpp), apart from the rest of distribution.cpp: the
// draw's hot path (draw_rows.cpp) compiles it once per instruction set, and distribution.cpp's
// Boost.Math code has static initializers, which a variant must not have (cmake/PaybackIsa.cmake).
#include <algorithm>

#include "base/quantile_unchecked.hpp"
#include "payback/base/distribution.hpp"

namespace payback {

// Quintic Hermite on interval j at fraction t, in units of the range (the beta's [0, 1]): matches
// the inverse's value, slope and curvature at both knots.
double QuantileFunction::interpolate(std::size_t j, double t) const {
    const double h = 1.0 / static_cast<double>(intervals);
    const double t2 = t * t, t3 = t2 * t, t4 = t3 * t, t5 = t4 * t;
    const double p0 = 1 - 10 * t3 + 15 * t4 - 6 * t5, p1 = 1 - p0;
    const double v0 = t - 6 * t3 + 8 * t4 - 3 * t5, v1 = -4 * t3 + 7 * t4 - 3 * t5;
    const double c0 = 0.5 * (t2 - 3 * t3 + 3 * t4 - t5), c1 = 0.5 * (t3 - 2 * t4 + t5);
    return p0 * x_[j] + p1 * x_[j + 1] + h * (v0 * slope_[2 * j] + v1 * slope_[2 * j + 2]) +
           h * h * (c0 * slope_[2 * j + 1] + c1 * slope_[2 * j + 3]);
}

double QuantileFunction::operator()(double u) const {
    if (!(u > 0.0 && u < 1.0)) return quantile(d_, u);  // which says what is wrong
    // d_ was checked when this was built: not again for each of a million draws.
    if (x_.empty()) return detail::quantile_unchecked(d_, u);
    const double position = u * static_cast<double>(intervals);
    const auto j = std::min(static_cast<std::size_t>(position), intervals - 1);
    if (exact_[j]) return detail::quantile_unchecked(d_, u);
    return low_ + width_ * interpolate(j, position - static_cast<double>(j));
}

}  // namespace payback
