#include "whatif/gap_search.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "payback/finance/crossing_search.hpp"

namespace payback {
namespace {

constexpr std::size_t shape_buckets_per_month = 8;  // GapSearch::months_below_

// A block's lanes in groups of 4, one vector register each (Eigen's Array4d).
constexpr std::size_t lanes = LaneBlock::SizeAtCompileTime, group = 4, groups = lanes / group;
using Group = Eigen::Array4d;

// The engine's payback rule (crossing_search.hpp): which month's end stops the search, and where
// in that month the gap crosses.
using Search = CrossingSearch<double>;

}  // namespace

std::size_t GapSearch::reaching(double crossing) const {
    const auto buckets = static_cast<double>(months_below_.size() - 1);
    const double bucket = crossing > 0.0 ? std::min(crossing, 1.0) * buckets : 0.0;  // NaN: 0
    std::size_t below = months_below_[static_cast<std::size_t>(bucket)];
    while (below + 1 < months_ && shape_[below + 1] < crossing) ++below;  // rarely more than once
    return std::min(below + 1, months_ - 1);
}

void GapSearch::at_month(const std::vector<double>& coefficients, std::size_t m,
                         const std::vector<LaneBlock>& features, double* gap) const {
    const std::size_t width = feature_.size();
    const double* c = coefficients.data() + m * width;
    std::array<Group, groups> sum;  // one a group, in registers: additions that do not wait on each other
    sum.fill(Group::Zero());
    for (std::size_t a = 0; a < width; ++a) {
        const double* x = features[static_cast<std::size_t>(feature_[a])].data();
        for (std::size_t g = 0; g < groups; ++g) sum[g] += c[a] * Eigen::Map<const Group>(x + g * group);
    }
    for (std::size_t g = 0; g < groups; ++g) Eigen::Map<Group>(gap + g * group) = sum[g];
}

void GapSearch::at_rows(const std::vector<double>& coefficients, const std::int64_t* row,
                        const std::vector<LaneBlock>& features, double* gap) const {
    std::array<Group, groups> sum;
    sum.fill(Group::Zero());
    for (std::size_t a = 0; a < feature_.size(); ++a) {
        const double* c = coefficients.data() + a;
        const double* x = features[static_cast<std::size_t>(feature_[a])].data();
        for (std::size_t g = 0, i = 0; g < groups; ++g, i += group)
            sum[g] += Group(c[row[i]], c[row[i + 1]], c[row[i + 2]], c[row[i + 3]]) * Eigen::Map<const Group>(x + i);
    }
    for (std::size_t g = 0; g < groups; ++g) Eigen::Map<Group>(gap + g * group) = sum[g];
}

GapSearch::GapSearch(const std::vector<const std::vector<double>*>& start,
                     const std::vector<const std::vector<double>*>& end)
    : months_(end.size()) {
    const std::size_t months = months_, features = end.front()->size();
    for (std::size_t j = 0; j < features; ++j) {
        bool used = false;
        for (std::size_t m0 = 0; m0 < months && !used; ++m0) used = (*start[m0])[j] != 0.0 || (*end[m0])[j] != 0.0;
        if (used) feature_.push_back(static_cast<int>(j));
    }
    for (std::size_t m0 = 0; m0 < months; ++m0)
        for (const int j : feature_) {
            start_.push_back((*start[m0])[static_cast<std::size_t>(j)]);
            end_.push_back((*end[m0])[static_cast<std::size_t>(j)]);
        }
    // The scenario's own gap (feature 0, the constant) at each month's end.
    const auto base_gap = [&](std::size_t m0) { return (*end[m0])[0]; };

    // Each month's change of a feature's coefficient is measured against the scenario's own
    // change that month, when that has one sign every month: discounting shrinks every flow's
    // change alike, so the ratios stay put and the bounds hold tight. Otherwise against 1.
    std::vector<double> weight(months, 1.0);
    double sign = 0.0, least_weight = INFINITY, greatest_weight = 0.0;
    for (std::size_t m0 = 1; m0 < months; ++m0) {
        const double change = base_gap(m0) - base_gap(m0 - 1);
        sign = sign == 0.0 && change != 0.0 ? std::copysign(1.0, change) : sign;
        weight[m0] = change * sign;
        least_weight = std::min(least_weight, weight[m0]);
        greatest_weight = std::max(greatest_weight, weight[m0]);
    }
    if (!(least_weight > 1e-12 * greatest_weight) || !std::isfinite(greatest_weight)) {
        std::fill(weight.begin(), weight.end(), 1.0);
        least_weight = 1.0;
    }
    weight_floor_ = months > 1 ? least_weight : 1.0;
    for (const int j : feature_) {
        double least = 0.0, greatest = 0.0, largest = 0.0;
        for (std::size_t m0 = 0; m0 < months; ++m0) {
            const double here = (*end[m0])[static_cast<std::size_t>(j)];
            largest = std::max(largest, std::abs(here));
            if (m0 == 0) continue;
            const double step = (here - (*end[m0 - 1])[static_cast<std::size_t>(j)]) / weight[m0];
            least = m0 == 1 ? step : std::min(least, step);
            greatest = m0 == 1 ? step : std::max(greatest, step);
        }
        least_step_.push_back(least);
        greatest_step_.push_back(greatest);
        largest_.push_back(largest);
    }

    // The scenario's own gap from 0 at the first month to 1 at the last, never falling back (the
    // guesses search it); evenly spaced when it is flat.
    shape_.assign(months, 0.0);
    const double span = base_gap(months - 1) - base_gap(0);
    for (std::size_t m0 = 1; m0 < months; ++m0) {
        const double along = span != 0.0 && std::isfinite(span)
                                 ? (base_gap(m0) - base_gap(0)) / span
                                 : static_cast<double>(m0) / static_cast<double>(months - 1);
        shape_[m0] = std::max(shape_[m0 - 1], along);
    }
    const std::size_t buckets = shape_buckets_per_month * months;
    months_below_.resize(buckets + 1);
    for (std::size_t b = 0, below = 0; b <= buckets; ++b) {
        const double at = static_cast<double>(b) / static_cast<double>(buckets);
        while (below + 1 < months && shape_[below + 1] < at) ++below;
        months_below_[b] = static_cast<std::uint32_t>(below);
    }

    // Does every feature's gap follow the shape (at the months' ends), and one shape of its own
    // at their starts? Then so does every sample's gap, and its crossing is found in the shape.
    start_shape_.assign(months, 0.0);
    const double start_span = (*start[months - 1])[0] - (*start[0])[0];
    for (std::size_t m0 = 1; m0 < months; ++m0)
        start_shape_[m0] = start_span != 0.0 && std::isfinite(start_span)
                               ? ((*start[m0])[0] - (*start[0])[0]) / start_span
                               : static_cast<double>(m0) / static_cast<double>(months - 1);
    const auto follows = [&](const std::vector<double>& rows, const std::vector<double>& shape) {
        for (std::size_t a = 0; a < feature_.size(); ++a) {
            const double first = rows[a], last = rows[(months - 1) * feature_.size() + a];
            double largest = 0.0, off = 0.0;
            for (std::size_t m0 = 0; m0 < months; ++m0) {
                const double here = rows[m0 * feature_.size() + a];
                largest = std::max(largest, std::abs(here));
                off = std::max(off, std::abs(here - (first + (last - first) * shape[m0])));
            }
            // The coefficients come from differences of the engine's runs, good to about 1e-12
            // of the outputs: a gap this close to the shape is the shape's, far inside the batch's
            // 1e-9.
            if (!(off <= 1e-11 * largest)) return false;
        }
        return true;
    };
    along_shape_ = follows(end_, shape_) && follows(start_, start_shape_);
}

// A block's paybacks: for each lane, the first month whose gap at its end is at or below zero,
// and where in that month the gap crosses (CrossingSearch::at, with the gap at the month's start:
// the months before leave a search unchanged). When every feature's gap follows the
// scenario's own shape, paybacks_along_shape reads it off the shape. Otherwise a lane's features
// bound how its gap can change from one month to the next (the sum over them of the least and
// greatest change any month gives each), with a margin far above rounding:
//   - a gap that falls every month is guessed to cross where it would if it kept the scenario's
//     own shape from its first month to its last (shape_). Every lane's guess is checked at once;
//     a wrong one steps to the month;
//   - a gap that never falls crosses in its first month or never;
//   - the others go month by month through the engine's own CrossingSearch, every such lane at once.
void GapSearch::paybacks(const std::vector<LaneBlock>& features, double* out, Eigen::Index n) const {
    if (along_shape_) return paybacks_along_shape(features, out, n);
    // Groups of 4 lanes in one vector register each (Eigen's Array4d), with sums that do not wait
    // on each other; per-lane decisions in plain loops.
    const std::size_t width = feature_.size();
    const std::size_t months = months_;
    const auto feature = [&](std::size_t a) { return features[static_cast<std::size_t>(feature_[a])].data(); };
    // One lane's gap at the end (or start) of month m.
    const auto gap = [&](const std::vector<double>& coefficients, std::size_t m, std::size_t lane) {
        const double* c = coefficients.data() + m * width;
        double sum = 0.0;
        for (std::size_t a = 0; a < width; ++a) sum += c[a] * feature(a)[lane];
        return sum;
    };

    // Every lane at once: the bounds, and the gaps at the ends of the first and last months.
    alignas(32) double greatest_rise[lanes], least_rise[lanes], scale[lanes], first[lanes], last[lanes];
    for (std::size_t i = 0; i < lanes; i += group) {
        Group rise_bound = Group::Zero(), fall_bound = Group::Zero(), size = Group::Zero();
        for (std::size_t a = 0; a < width; ++a) {
            const Group x = Eigen::Map<const Group>(feature(a) + i);
            // x · (greatest step if x >= 0, else least), without a branch on the sign.
            const Group positive = x.max(0.0), negative = x.min(0.0);
            rise_bound += positive * greatest_step_[a] + negative * least_step_[a];
            fall_bound += positive * least_step_[a] + negative * greatest_step_[a];
            size += x.abs() * largest_[a];
        }
        // In money: a month's change is its weight (at least weight_floor) times the bound, and
        // only a falling bound's top and a rising one's bottom are read.
        Eigen::Map<Group>(greatest_rise + i) = rise_bound * weight_floor_;
        Eigen::Map<Group>(least_rise + i) = fall_bound * weight_floor_;
        Eigen::Map<Group>(scale + i) = size;
    }
    at_month(end_, 0, features, first);
    at_month(end_, months - 1, features, last);

    // Each lane's state and guess: where it would cross if it kept the shape (reaching).
    enum State : unsigned char { settled, never, guessed, stepped };
    State state[lanes];
    alignas(32) double month[lanes];
    alignas(32) std::int64_t row[lanes];
    alignas(32) double crossing[lanes];  // on the shape's scale: in a loop of its own, which the compiler vectorizes
    for (std::size_t i = 0; i < lanes; ++i) crossing[i] = first[i] / (first[i] - last[i]);
    for (std::size_t i = 0; i < lanes; ++i) {
        const bool falling = greatest_rise[i] <= -1e-9 * scale[i];
        const bool never_falls = least_rise[i] >= 1e-9 * scale[i];
        const bool first_crosses = Search::crosses(first[i]);
        state[i] = (falling && !Search::crosses(last[i])) || (never_falls && !first_crosses) ? never
                   : (falling || never_falls) && first_crosses                     ? settled
                   : falling                                                       ? guessed
                                                                                   : stepped;
        month[i] = state[i] == guessed ? static_cast<double>(reaching(crossing[i])) : 0.0;
        row[i] = static_cast<std::int64_t>(month[i]) * static_cast<std::int64_t>(width);
    }
    // The guesses checked: a guess g that ends at or below zero is the month when g - 1 ends above
    // zero. As the gap falls by at least -greatest_rise a month, g - 1 ended at or above
    // gap(g) - greatest_rise, which settles most without computing it.
    alignas(32) double month_end[lanes], before[lanes];
    at_rows(end_, row, features, month_end);
    bool unsure = false;
    for (std::size_t i = 0; i < lanes; ++i)
        unsure = unsure || (state[i] == guessed && Search::crosses(month_end[i]) && !(month_end[i] - greatest_rise[i] > 1e-9 * scale[i]));
    if (unsure) {
        alignas(32) std::int64_t row_before[lanes];
        for (std::size_t i = 0; i < lanes; ++i) row_before[i] = std::max<std::int64_t>(row[i] - static_cast<std::int64_t>(width), 0);
        at_rows(end_, row_before, features, before);
    }
    for (std::size_t i = 0; i < lanes; ++i) {
        if (state[i] != guessed) continue;
        if (Search::crosses(month_end[i]) && (month_end[i] - greatest_rise[i] > 1e-9 * scale[i] || before[i] > 0.0)) {
            state[i] = settled;
            continue;
        }
        // A wrong guess: up to the first month at or below zero (the last one is), or down to it.
        auto m = static_cast<std::size_t>(month[i]);
        double end = month_end[i];
        for (; !Search::crosses(end) && m + 1 < months; end = gap(end_, m, i)) ++m;
        for (double prior; m > 0 && Search::crosses(prior = gap(end_, m - 1, i)); end = prior) --m;
        state[i] = Search::crosses(end) ? settled : never;
        month[i] = static_cast<double>(m);
        month_end[i] = end;
    }

    // The lanes stepped through month by month, every one at once, as the engine steps: a month's
    // coefficients serve every lane, and the others count as found already.
    auto stepping = CrossingSearch<LaneBlock>::start(LaneBlock::Zero());
    for (std::size_t i = 0; i < lanes; ++i) stepping.found[static_cast<Eigen::Index>(i)] = state[i] != stepped;
    for (std::size_t m = 0; m < months && !stepping.found.all(); ++m) {
        LaneBlock here_start, here_end;
        at_month(start_, m, features, here_start.data());
        at_month(end_, m, features, here_end.data());
        stepping.step(static_cast<int>(m) + 1, here_start, here_end);
    }

    // Where in its month each lane crosses.
    alignas(32) double at_start[lanes];
    for (std::size_t i = 0; i < lanes; ++i) {
        if (state[i] == settled && month[i] == 0.0) month_end[i] = first[i];
        row[i] = state[i] == settled ? static_cast<std::int64_t>(month[i]) * static_cast<std::int64_t>(width) : 0;
    }
    at_rows(start_, row, features, at_start);
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i)
        out[i] = state[i] == settled   ? Search::at(month[i] + 1.0, at_start[i], month_end[i])
                 : state[i] == stepped ? stepping.months[static_cast<Eigen::Index>(i)]  // NaN where never
                                       : std::numeric_limits<double>::quiet_NaN();
}

// A block's paybacks when every gap follows the shape: gap(m) = first + (last - first)·shape(m) at
// the months' ends, and likewise at their starts, with shape rising from 0 to 1. A gap above zero
// at its first month's end crosses where the shape first reaches first / (first - last), if the
// last month ends at or below zero; never otherwise. No month but the first and the last is
// computed, and no bound is needed: the shape is the same for every sample.
void GapSearch::paybacks_along_shape(const std::vector<LaneBlock>& features, double* out, Eigen::Index n) const {
    const std::size_t months = months_;
    alignas(32) double first[lanes], last[lanes], first_start[lanes], last_start[lanes];
    at_month(end_, 0, features, first);
    at_month(end_, months - 1, features, last);
    at_month(start_, 0, features, first_start);
    at_month(start_, months - 1, features, last_start);
    for (std::size_t i = 0; i < static_cast<std::size_t>(n); ++i) {
        if (!Search::crosses(first[i]) && !Search::crosses(last[i])) {  // above zero at the first month's end and the last's
            out[i] = std::numeric_limits<double>::quiet_NaN();
            continue;
        }
        // Above zero at the first month's end: the first month the shape reaches the crossing.
        const std::size_t month = Search::crosses(first[i]) ? 0 : reaching(first[i] / (first[i] - last[i]));
        const double end = first[i] + (last[i] - first[i]) * shape_[month];
        const double start = first_start[i] + (last_start[i] - first_start[i]) * start_shape_[month];
        out[i] = Search::at(static_cast<double>(month) + 1.0, start, end);
    }
}

}  // namespace payback
