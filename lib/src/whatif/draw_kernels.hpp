// The draw's hot path (sampling.cpp): each cell of a block of rows turned from a uniform number into
// its input's quantile. draw_rows.cpp compiles it once per instruction set (isa_dispatch.hpp).
#pragma once

#include <cstdint>
#include <vector>

#include "payback/base/distribution.hpp"
#include "payback/whatif/sampling.hpp"

namespace payback {

struct DrawKernels {
    /// Rows [first, last) of `m`: cell (s, i) becomes quantile[i] of its uniform number, which is
    /// the cell itself (Latin hypercube) or uniform01(seed, i, s) (plain Monte Carlo).
    void (*quantile_rows)(const std::vector<QuantileFunction>& quantile, bool latin, std::uint64_t seed,
                          SampleMatrix& m, int first, int last);
};

/// The active instruction set's table (payback/base/isa.hpp).
const DrawKernels& draw_kernels();

}  // namespace payback
