// Numeric keys of a resolved scenario, named as --set names them ("rig.parts[0].price"): what
// break-even, sweeps and [uncertainty] may vary.
#pragma once

#include <string>

#include "payback/scenario/scenario.hpp"

namespace payback::detail {

/// The key's value in the resolved scenario (defaults filled in). Throws InputError(source, line,
/// key, ...) for a key that does not exist (with the closest one), a whole number or a non-number.
double numeric_key_value(const Scenario& scenario, const std::string& key, const std::string& source, int line = 0);

}  // namespace payback::detail
