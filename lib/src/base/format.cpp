#include "payback/base/format.hpp"

#include <cmath>

#include <fmt/format.h>

namespace payback {

std::string format_amount(double value, int decimals) {
    if (!std::isfinite(value)) return "-";
    const std::string digits = fmt::format("{:.{}f}", std::fabs(value), decimals);
    const auto point = digits.find('.');
    std::string whole = digits.substr(0, point);
    for (int i = static_cast<int>(whole.size()) - 3; i > 0; i -= 3) whole.insert(static_cast<std::size_t>(i), 1, ',');
    // A value that rounds to zero prints without a sign.
    const bool negative = value < 0 && digits.find_first_not_of("0.") != std::string::npos;
    return fmt::format("{}{}{}", negative ? "-" : "", whole, point == std::string::npos ? "" : digits.substr(point));
}

}  // namespace payback
