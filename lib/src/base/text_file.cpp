#include "payback/base/text_file.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "payback/base/error.hpp"

namespace payback::detail {

std::string read_text_file(const std::string& path, const std::string& what) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        throw InputError(path, 0, "", std::filesystem::exists(path, error) ? "not a regular file" : "no such " + what);
    // Checked before reading: a wrong path to a disk image must not exhaust memory first.
    const auto size = std::filesystem::file_size(path, error);
    if (!error && size > max_text_file_bytes)
        throw InputError(path, 0, "",
                         fmt::format("the {} is {:.1f} {}, more than the {} MiB an input file may be", what,
                                     static_cast<double>(size) / (size >> 30 ? 1 << 30 : 1 << 20),
                                     size >> 30 ? "GiB" : "MiB", max_text_file_bytes >> 20));
    std::ifstream file(path, std::ios::binary);
    if (!file) throw InputError(path, 0, "", "cannot open the " + what);
    std::ostringstream text;
    text << file.rdbuf();
    if (file.bad()) throw InputError(path, 0, "", "cannot read the " + what);
    return text.str();
}

int line_of_offset(std::string_view text, std::size_t offset) {
    const auto end = text.begin() + static_cast<std::ptrdiff_t>(std::min(offset, text.size()));
    return 1 + static_cast<int>(std::count(text.begin(), end, '\n'));
}

}  // namespace payback::detail
