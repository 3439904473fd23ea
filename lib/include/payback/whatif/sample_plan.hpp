// What a batch run evaluates: the rows of key values, and how its sample model is set up. Monte
// Carlo and sweeps are each a plan, the model's evaluation of the plan's rows, then a result made
// of the joined metrics; apart, the rows can be evaluated in parts elsewhere (the Python package
// spreads them over Dask workers) with the same numbers, since a row's metrics depend on that row
// alone and every part's model is verified on the same rows, so takes the same path.
#pragma once

#include <string>
#include <vector>

#include "payback/scenario/scenario.hpp"
#include "payback/whatif/sample_model.hpp"
#include "payback/whatif/sampling.hpp"

namespace payback {

struct SamplePlan {
    std::vector<std::string> keys;
    SampleMatrix rows;             ///< the rows to evaluate: samples × keys
    std::vector<double> probes;    ///< where the sample model measures its slopes, one per key
    std::vector<double> checks;    ///< rows its fast path is verified on (row-major, keys wide)

    /// The sample model for the rows: built from the keys and probes, every row checked to be
    /// admitted by its keys (InputError otherwise), then verified on `checks`.
    SampleModel model(const Scenario& scenario) const;

    /// The plan with only rows [first, first + count): what one part of a split run evaluates.
    SamplePlan part(int first, int count) const;
};

}  // namespace payback
