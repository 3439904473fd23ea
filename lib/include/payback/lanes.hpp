// The batch side of the one engine: numeric_ops for Eigen arrays (one lane per sample), and
// stacking of per-sample inputs into lanes. Only batch code and its tests include this (Eigen
// stays out of the headers everything includes).
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include <Eigen/Core>

#include "payback/engine.hpp"
#include "payback/numeric.hpp"

namespace payback {

using Lanes = Eigen::ArrayXd;

template <>
struct numeric_ops<Lanes> {
    using mask = Eigen::Array<bool, Eigen::Dynamic, 1>;
    // Most lanes share their discount, inflation and escalation rates (only uncertain inputs vary):
    // one scalar pow then serves every lane.
    static Lanes pow(const Lanes& base, double exponent) {
        if (base.size() > 1 && base.minCoeff() == base.maxCoeff())
            return Lanes::Constant(base.size(), std::pow(base[0], exponent));
        return base.pow(exponent);
    }
    static Lanes exp(const Lanes& x) { return x.exp(); }
    static Lanes min(const Lanes& a, double b) { return a.min(b); }
    static Lanes max(const Lanes& a, double b) { return a.max(b); }
    static Lanes select(const mask& condition, const Lanes& if_true, const Lanes& if_false) {
        return condition.select(if_true, if_false);
    }
    static Lanes fill_like(const Lanes& like, double value) { return Lanes::Constant(like.size(), value); }
    static Lanes nan_like(const Lanes& like) {
        return fill_like(like, std::numeric_limits<double>::quiet_NaN());
    }
    static mask less_equal(const Lanes& a, double b) { return a <= b; }
    static mask equal(const Lanes& a, double b) { return a == b; }
    static mask logical_and(const mask& a, const mask& b) { return a && b; }
    static mask logical_or(const mask& a, const mask& b) { return a || b; }
    static mask logical_not(const mask& a) { return !a; }
    static mask all_false_like(const Lanes& like) { return mask::Constant(like.size(), false); }
};

/// Stacks one-sample inputs into lanes. All samples must share the structure (horizon, parts'
/// resale methods, number of cloud options); their numbers may differ.
ModelInputs<Lanes> stack_lanes(const std::vector<ModelInputs<double>>& samples);

}  // namespace payback
