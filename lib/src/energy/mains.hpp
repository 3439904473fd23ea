// The split between low-line mains (100-127 V, North America) and high-line mains (220-240 V,
// Europe), shared by the PSU's 80 PLUS tables and the circuit's defaults.
#pragma once

namespace payback::detail {

/// 80 PLUS tests at 115 V and at 230 V; 180 V is our own split point, roughly midway, not an
/// 80 PLUS figure: every 100-127 V mains falls below it, every 220-240 V mains above.
inline constexpr double high_line_volts = 180.0;

}  // namespace payback::detail
