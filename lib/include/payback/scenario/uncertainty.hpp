// A scenario's [uncertainty] table: a distribution for any numeric key, and rank correlations
// between them (docs/whatif.md).
//
//   [uncertainty]
//   "workload.gpu_hours_per_month" = { dist = "triangular", low = 40, mode = 120, high = 300 }
//   "electricity.price_per_kwh"    = { dist = "uniform", low = 0.10, high = 0.40 }
//   correlations = [ { between = ["workload.gpu_hours_per_month", "electricity.price_per_kwh"], rank = 0.3 } ]
#pragma once

#include <string>
#include <vector>

#include "payback/base/distribution.hpp"

namespace payback {

struct UncertainInput {
    std::string key;  ///< a numeric key path, as for --set
    Distribution distribution;
    int line = 0;     ///< where the scenario file gives it
};

struct RankCorrelation {
    std::string a, b;
    double rank = 0.0;  ///< Spearman's, in (-1, 1)
};

struct Uncertainty {
    std::vector<UncertainInput> inputs;
    std::vector<RankCorrelation> correlations;

    bool empty() const { return inputs.empty(); }
    /// inputs × inputs, unit diagonal; empty when no correlations are given.
    std::vector<std::vector<double>> rank_matrix() const;
};

}  // namespace payback
