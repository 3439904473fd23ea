// Every value a scenario's answer rests on, and where each came from: the scenario file (its line),
// a --set override, a catalog row (file, line and as-of date), a calibration, or payback's default.
// The report's assumptions table (`payback report`) is this list.
#pragma once

#include <string>
#include <vector>

#include "payback/scenario/scenario.hpp"

namespace payback {

struct Assumption {
    std::string key;     ///< a key path as for --set: "rig.parts[4].price", "cloud[0].speedup"
    std::string value;   ///< as TOML writes it; strings unquoted
    std::string source;  ///< "scenarios/x.toml:64", "--set", "pricing/gpus.csv:14, as of 2025-06-01", "default"
};

/// The scenario's values with every default filled in (as `payback check` prints them), in the
/// schema's order, each with its source; `overrides` are the --set assignments it was loaded with.
/// Values looked up from a region (an electricity price, a grid's or a cloud region's intensity)
/// follow the key that named the region; token rates derived rather than given (predicted, or scaled
/// from a measured profile) follow the name of the option that serves at them. The scenario file is read again for its line numbers;
/// when it cannot be read (a scenario parsed from text), a value not from elsewhere is "scenario".
std::vector<Assumption> assumptions(const Scenario& scenario, const std::vector<Override>& overrides);

/// The key path of scenario.clouds[i] as the file writes it: "cloud[2]" for a [[cloud]] table,
/// "api[0]" for an [[api]] table (the [[api]] options follow the [[cloud]] ones).
std::string option_key_path(const Scenario& scenario, std::size_t i);

}  // namespace payback
