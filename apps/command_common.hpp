// What every subcommand shares: the scenario argument, --set overrides, and how results are
// written (all at once, after everything is computed, so a failure leaves nothing half-written).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "payback/scenario.hpp"

namespace payback::cli {

struct ScenarioArgs {
    std::string path;
    std::vector<std::string> assignments;  ///< raw "key=value" from --set
};

/// Adds `[SCENARIO]` (optional when `optional` is true) and `--set` to a subcommand.
void add_scenario_args(CLI::App& command, ScenarioArgs& args, bool optional);

/// The default scenario: $PAYBACK_DEFAULT_SCENARIO, else scenarios/venus-2019.toml in the source tree.
std::string default_scenario_path();

/// Loads the scenario named by `args` (or the default) with its overrides. Throws InputError.
Scenario load(const ScenarioArgs& args);

/// Writes the whole text to stdout in one go.
void emit(const std::string& text);

/// Writes `text` to `path` atomically: a temporary file beside it, then a rename, so an interrupted
/// run leaves the old file or none, never half of the new one. Throws InputError when it cannot.
void write_file_atomically(const std::string& path, const std::string& text);

/// A number for tables: thousands separated, fixed decimals; "-" when absent.
std::string amount(double value, int decimals = 0);
std::string amount(const std::optional<double>& value, int decimals = 0);

/// Prose cut into lines of at most 80 columns at spaces (a longer word stays whole), ending in a newline.
std::string wrapped(const std::string& text);

/// CSV field quoting per RFC 4180.
std::string csv_field(const std::string& text);

}  // namespace payback::cli
