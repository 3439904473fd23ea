// The batch's payback searches (superposition.hpp): a sample's operating gap at the end of each
// month is a dot product of its features with that month's coefficients, and its payback is the
// first month whose gap ends at or below zero, interpolated within the month as the engine's
// CrossingSearch does. GapSearch finds it for a block of samples at once without going through
// the months one by one: the coefficients bound how each sample's gap can move from month to
// month, and the scenario's own gap says where to look.
#pragma once

#include <cstdint>
#include <vector>

#include "payback/whatif/lanes.hpp"

namespace payback {

class GapSearch {
public:
    /// One search's gaps from the coefficient rows (over every feature, the first the constant 1:
    /// the scenario's own gap) of each month's gap at its start and at its end.
    GapSearch(const std::vector<const std::vector<double>*>& start, const std::vector<const std::vector<double>*>& end);

    /// The paybacks of the first `n` lanes of a block, into out[0..n): `features` in the rows'
    /// order; NaN where the gap never ends a month at or below zero.
    void paybacks(const std::vector<LaneBlock>& features, double* out, Eigen::Index n) const;

    /// Whether every sample's gap follows the scenario's own shape, so that its crossing is read
    /// off the shape (constant monthly flows, nominal or discounted); else bounds and guesses.
    bool along_shape() const { return along_shape_; }

private:
    void paybacks_along_shape(const std::vector<LaneBlock>& features, double* out, Eigen::Index n) const;
    /// The first month after the first whose shape reaches `crossing` (in (0, 1]; at most the
    /// last month): where a gap that keeps the shape crosses zero.
    std::size_t reaching(double crossing) const;
    /// Each lane's gap at the end (coefficients end_) or start (start_) of month m, into gap[16].
    void at_month(const std::vector<double>& coefficients, std::size_t m, const std::vector<LaneBlock>& features,
                  double* gap) const;
    /// The same at each lane's own month, row[i] / (the features' count).
    void at_rows(const std::vector<double>& coefficients, const std::int64_t* row, const std::vector<LaneBlock>& features,
                 double* gap) const;

    std::size_t months_;
    /// The features any month uses, and their coefficients month-major (month m's in
    /// [m · width, (m + 1) · width), width the number of those features).
    std::vector<int> feature_;
    std::vector<double> start_, end_;
    /// Per feature: the least and greatest change of its end-of-month coefficient from one month
    /// to the next (over that month's weight), and its largest coefficient: they bound how a
    /// sample's gap can move.
    std::vector<double> least_step_, greatest_step_, largest_;
    double weight_floor_ = 1.0;  ///< the least of the months' weights
    std::vector<double> shape_;  ///< per month, where the guesses look
    /// Per bucket of the shape's scale [0, 1] (8 a month): how many months after the first lie
    /// below the bucket's bottom.
    std::vector<std::uint32_t> months_below_;
    /// Every feature's gap is first + (last - first) · shape_ at the months' ends and the same
    /// with start_shape_ at their starts (to 1e-11 of its largest coefficient): constant monthly
    /// flows, nominal or discounted.
    bool along_shape_ = false;
    std::vector<double> start_shape_;
};

}  // namespace payback
