// The payback rule, written once: when a running gap (how far building is behind renting) first
// falls to zero, month by month. The model's metrics (model/metrics.hpp) step it through every
// month; the batch's superposed evaluator (whatif/gap_search.hpp) finds most samples' month by
// bounds and guesses, and steps the rest through it as lanes, both with its rule and its answer.
#pragma once

#include "payback/base/numeric.hpp"

namespace payback {

/// Running state of "when does the rig's cumulative outlay fall to the cloud's cumulative spend".
/// The gap is rig outlay minus cloud spend; it moves linearly within a month, so the crossing
/// is interpolated between the month's start and end. The first month whose end has a gap at or
/// below zero gives the answer; a gap already at or below zero at that month's start gives its
/// start. NaN while not reached. Generic over the number type: one search or lanes of them.
template <class T>
struct CrossingSearch {
    using ops = numeric_ops<T>;
    T months;
    typename ops::mask found;

    static CrossingSearch start(const T& like) { return {ops::nan_like(like), ops::all_false_like(like)}; }

    /// Whether a month whose gap ends at `gap_end` is where the search stops.
    static typename ops::mask crosses(const T& gap_end) { return ops::less_equal(gap_end, 0.0); }

    /// The answer in month `month` (1-based), one that crosses(gap_end).
    static T at(double month, const T& gap_start, const T& gap_end) {
        return (month - 1.0) + fraction(gap_start, gap_end);
    }

    void step(int month, const T& gap_start, const T& gap_end) {
        if (ops::all(found)) return;  // most months of a batch, once every lane has paid back
        const auto crossing = ops::logical_and(ops::logical_not(found), crosses(gap_end));
        months = ops::select(crossing, at(month, gap_start, gap_end), months);
        found = ops::logical_or(found, crossing);
    }

    /// How far into its month the crossing lies, for a month whose gap ends at or below zero.
    static T fraction(const T& gap_start, const T& gap_end) {
        const auto ahead_at_start = ops::less_equal(gap_start, 0.0);
        // In months where gap_start <= 0 the fraction is unused; guard its division anyway.
        const T denominator = ops::select(ahead_at_start, ops::fill_like(gap_start, 1.0), gap_start - gap_end);
        return ops::select(ahead_at_start, ops::fill_like(gap_start, 0.0), gap_start / denominator);
    }
};

}  // namespace payback
