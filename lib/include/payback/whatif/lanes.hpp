// The batch side of the one engine: numeric_ops for Eigen arrays (one lane per sample). Only batch
// code and its tests include this (Eigen stays out of the headers everything includes).
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Core>

#include "payback/base/numeric.hpp"
#include "payback/model/engine.hpp"

namespace payback {

using Lanes = Eigen::ArrayXd;

/// A fixed block of lanes: no heap allocation for temporaries, so the batch engine's inner loop
/// stays in registers and cache (sample_model.cpp evaluates samples in such blocks).
using LaneBlock = Eigen::Array<double, 16, 1>;

/// The same operations for any column of doubles, dynamic (Lanes) or fixed (LaneBlock).
template <int Rows>
struct numeric_ops<Eigen::Array<double, Rows, 1>> {
    using array = Eigen::Array<double, Rows, 1>;
    using mask = Eigen::Array<bool, Rows, 1>;
    // Most lanes share their discount, inflation and escalation rates (only uncertain inputs vary):
    // one scalar pow then serves every lane.
    // A whole power (a part sold after whole years) by repeated squaring: a few multiplications,
    // within a few units in the last place.
    // Otherwise exp(e·ln b), which Eigen vectorizes (its pow is a scalar call per lane), for the
    // positive bases the model has (1 + a rate, 1 - a resale rate); the rest take pow.
    static array pow(const array& base, double exponent) {
        if (base.size() > 1 && base.minCoeff() == base.maxCoeff())
            return array::Constant(base.size(), std::pow(base[0], exponent));
        if (exponent == std::floor(exponent) && std::abs(exponent) <= 64.0) {
            array result = array::Ones(base.size()), square = base;
            for (auto e = static_cast<unsigned>(std::abs(exponent)); e > 0; e /= 2) {
                if (e % 2 == 1) result *= square;
                if (e > 1) square *= square;
            }
            return exponent < 0.0 ? array(result.inverse()) : result;
        }
        if (exponent != 0.0 && base.minCoeff() > 0.0) return (base.log() * exponent).exp();
        return base.pow(exponent);
    }
    static array exp(const array& x) { return x.exp(); }
    static array expm1(const array& x) { return x.expm1(); }
    static array log1p(const array& x) { return x.log1p(); }
    static array min(const array& a, double b) { return a.min(b); }
    static array max(const array& a, double b) { return a.max(b); }
    static array select(const mask& condition, const array& if_true, const array& if_false) {
        return condition.select(if_true, if_false);
    }
    static array fill_like(const array& like, double value) { return array::Constant(like.size(), value); }
    static array nan_like(const array& like) { return fill_like(like, std::numeric_limits<double>::quiet_NaN()); }
    static mask less_equal(const array& a, double b) { return a <= b; }
    static mask equal(const array& a, double b) { return a == b; }
    static mask logical_and(const mask& a, const mask& b) { return a && b; }
    static mask logical_or(const mask& a, const mask& b) { return a || b; }
    static mask logical_not(const mask& a) { return !a; }
    static mask all_false_like(const array& like) { return mask::Constant(like.size(), false); }
    static bool all(const mask& m) { return m.all(); }
};

}  // namespace payback
