#include "text_file.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "payback/error.hpp"

namespace payback::detail {

std::string read_text_file(const std::string& path, const std::string& what) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        throw InputError(path, 0, "", std::filesystem::exists(path, error) ? "not a regular file" : "no such " + what);
    std::ifstream file(path, std::ios::binary);
    if (!file) throw InputError(path, 0, "", "cannot open the " + what);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
}

}  // namespace payback::detail
