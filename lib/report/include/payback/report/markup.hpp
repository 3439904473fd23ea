// Text placed in HTML or SVG: every string that comes from an input (a scenario's names, a file
// path, a catalog's text) goes through here, so it can never be read as markup.
#pragma once

#include <string>
#include <string_view>

namespace payback {

/// & < > " ' as character references; everything else as it is (UTF-8 passes through).
std::string escape_html(std::string_view text);

}  // namespace payback
