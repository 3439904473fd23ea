// The one error type for bad input: it knows the file, line and key path it is about,
// and prints as one line: "file:line: key.path: what was expected, got what was found".
#pragma once

#include <stdexcept>
#include <string>

namespace payback {

class InputError : public std::runtime_error {
public:
    /// `line` is 0 when the input has no line (a command-line override, a missing file).
    InputError(std::string source, int line, std::string key_path, std::string message);

    const std::string& source() const { return source_; }
    int line() const { return line_; }
    const std::string& key_path() const { return key_path_; }
    const std::string& message() const { return message_; }

private:
    std::string source_;
    int line_;
    std::string key_path_;
    std::string message_;
};

}  // namespace payback
