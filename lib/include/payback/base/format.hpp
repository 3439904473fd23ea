// Numbers as people read them in tables and sentences.
#pragma once

#include <string>

namespace payback {

/// Fixed decimals with thousands separated by commas: 12345.678, 1 -> "12,345.7"; "-" if not finite.
std::string format_amount(double value, int decimals = 0);

}  // namespace payback
