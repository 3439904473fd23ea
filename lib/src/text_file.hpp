// Reading an input file whole, with the one-line errors every input gets: no such file, not a
// regular file, cannot open it. Scenarios, CSV catalogs and URDB tariffs all read through here.
#pragma once

#include <string>

namespace payback::detail {

/// The file's bytes. `what` names the kind of file in messages ("scenario file" gives
/// "no such scenario file"). Throws InputError(path, 0, "", message).
std::string read_text_file(const std::string& path, const std::string& what = "file");

}  // namespace payback::detail
