// `--set key.path=value`: change a scenario's TOML before it is validated, so an override is
// checked exactly as the same value written in the file would be.
#pragma once

#include <toml++/toml.h>

#include "payback/scenario/scenario.hpp"

namespace payback::detail {

/// Writes the override into `root`, creating tables on the way; array elements must exist.
/// The new node's source is the override itself, so validation errors name it.
void apply_override(toml::table& root, const Override& override);

}  // namespace payback::detail
