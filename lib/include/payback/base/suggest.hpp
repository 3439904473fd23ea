// "Did you mean" hints: the closest of a set of known words to a misspelt or partial one.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace payback::detail {

/// Edit distance (insertions, deletions, substitutions) between two words.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// The known word closest to `word` if it is close enough to be a likely typo (case aside), else the
/// known name sharing the most of its words ("DGX Spark": "GB10 DGX Spark"), else "".
std::string closest_match(std::string_view word, const std::vector<std::string>& known);

}  // namespace payback::detail
