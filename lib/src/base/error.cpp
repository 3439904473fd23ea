#include "payback/base/error.hpp"

#include <fmt/format.h>

namespace payback {

namespace {
// "SOURCE:LINE: KEY: MESSAGE", each part left out when empty (an option's value has no file: "quant: ...").
std::string one_line(const std::string& source, int line, const std::string& key_path,
                     const std::string& message) {
    std::string where = source + (line > 0 ? fmt::format(":{}", line) : "");
    if (!key_path.empty()) where += (where.empty() ? "" : ": ") + key_path;
    return where.empty() ? message : where + ": " + message;
}
}  // namespace

InputError::InputError(std::string source, int line, std::string key_path, std::string message)
    : std::runtime_error(one_line(source, line, key_path, message)),
      source_(std::move(source)),
      line_(line),
      key_path_(std::move(key_path)),
      message_(std::move(message)) {}

}  // namespace payback
