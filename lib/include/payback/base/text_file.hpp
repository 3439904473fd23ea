// Reading an input file whole, with the one-line errors every input gets: no such file, not a
// regular file, cannot open it, too large. Scenarios, CSV catalogs and URDB tariffs all read through here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace payback::detail {

/// The largest input file read: scenarios, catalogs and tariffs are kilobytes, a URDB download a
/// few megabytes; anything near this is the wrong file.
inline constexpr std::uintmax_t max_text_file_bytes = std::uintmax_t{16} << 20;

/// The file's bytes. `what` names the kind of file in messages ("scenario file" gives
/// "no such scenario file"). Throws InputError(path, 0, "", message).
std::string read_text_file(const std::string& path, const std::string& what = "file");

/// The 1-based line holding byte `offset` of `text` (an offset past the end counts as the end), for
/// messages about a parser error reported as a byte offset (JSON parsers do).
int line_of_offset(std::string_view text, std::size_t offset);

}  // namespace payback::detail
