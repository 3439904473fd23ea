// The quantile of a distribution already checked, at u in (0, 1): distribution.cpp's, for the
// QuantileFunction (quantile_function.cpp) that falls back on it.
#pragma once

#include "payback/base/distribution.hpp"

namespace payback::detail {

double quantile_unchecked(const Distribution& d, double u);

}  // namespace payback::detail
