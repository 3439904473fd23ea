// A number typed on the command line ("LO:HI:STEP", "KEY=LO:HI"): surrounding blanks and a leading
// '+' allowed, nothing else; finite.
#pragma once

#include <charconv>
#include <cmath>
#include <optional>
#include <string>

namespace payback::detail {

inline std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    const auto last = text.find_last_not_of(" \t");
    return text.substr(first, last - first + 1);
}

inline std::optional<double> number_from_text(std::string text) {
    text = trimmed(text);
    if (!text.empty() && text.front() == '+') text.erase(0, 1);
    double value = 0.0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end || !std::isfinite(value)) return std::nullopt;
    return value;
}

}  // namespace payback::detail
