// Element-wise operations the generic model needs, for plain doubles.
// lanes.hpp specialises the same traits for Eigen arrays (one lane per sample); the model is
// written once against `numeric_ops<T>` and so runs unchanged on both.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace payback {

template <class T>
struct numeric_ops;

template <>
struct numeric_ops<double> {
    using mask = bool;
    static double pow(double base, double exponent) { return std::pow(base, exponent); }
    static double exp(double x) { return std::exp(x); }
    static double expm1(double x) { return std::expm1(x); }
    static double log1p(double x) { return std::log1p(x); }
    static double min(double a, double b) { return std::min(a, b); }
    static double max(double a, double b) { return std::max(a, b); }
    static double select(bool condition, double if_true, double if_false) {
        return condition ? if_true : if_false;
    }
    static double fill_like(double, double value) { return value; }
    static double nan_like(double) { return std::numeric_limits<double>::quiet_NaN(); }
    static bool less_equal(double a, double b) { return a <= b; }
    static bool equal(double a, double b) { return a == b; }
    static bool logical_and(bool a, bool b) { return a && b; }
    static bool logical_or(bool a, bool b) { return a || b; }
    static bool logical_not(bool a) { return !a; }
    static bool all_false_like(double) { return false; }
    static bool all(bool m) { return m; }
};

}  // namespace payback
