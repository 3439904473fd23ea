// What every subcommand shares: the scenario argument, --set overrides, its example in --help, and
// how results are written: as a table, JSON or CSV, to stdout or to a file, all at once after
// everything is computed, so a failure leaves nothing half-written.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>

#include "payback/market/price_dates.hpp"
#include "payback/scenario/scenario.hpp"

namespace payback::cli {

struct ScenarioArgs {
    std::string path;
    std::vector<std::string> assignments;  ///< raw "key=value" from --set
    std::string as_of;                     ///< --as-of YYYY-MM-DD: the catalog prices in effect then
    std::string db;                        ///< --db FILE: the price history to read prices from too
    int max_age_days = 90;                 ///< --max-age: older prices are stale
};

/// Adds `[SCENARIO]` (optional when `optional` is true), `--set`, `--as-of`, `--db` and `--max-age` to a subcommand.
void add_scenario_args(CLI::App& command, ScenarioArgs& args, bool optional);

/// The default scenario: $PAYBACK_DEFAULT_SCENARIO, else venus-2019.toml of the shipped scenarios.
std::string default_scenario_path();

/// The --set assignments of `args`, parsed. Throws InputError.
std::vector<Override> parsed_overrides(const ScenarioArgs& args);

/// Loads the scenario named by `args` (or the default) with its overrides and the prices --as-of and
/// --db choose (choose_prices; docs/markets.md, "The price history in the scenario commands").
/// Throws InputError.
Scenario load(const ScenarioArgs& args);

/// How old the catalog prices `scenario` used are, at --max-age (docs/markets.md, "How old prices are"):
/// price_age_of(scenario, max_age_days), judged on --as-of's day, else today.
PriceAge price_age_of(const Scenario& scenario, const ScenarioArgs& args);

/// Adds "prices_as_of" (a date, or null when no catalog price was used) and "stale" to a JSON object.
void add_price_age(nlohmann::json& out, const PriceAge& age);

/// Writes the stale-prices warning line to stderr when the prices are stale (text outputs).
void warn_if_stale(const PriceAge& age);

/// Sets the command's --help footer to its example(s), one command line each; a line too long for
/// 80 columns is continued with a backslash, so it still pastes into a shell.
void add_example(CLI::App& command, const std::vector<std::string>& examples);

enum class Format { table, json, csv };

/// Where and how a command writes its result.
struct Output {
    Format format = Format::table;
    std::string path;  ///< --output; empty: stdout
    bool to_terminal() const;  ///< stdout is a terminal (and no --output)
};

/// The width of text tables: unlimited with `wide`, the terminal's on a terminal, else 80 columns.
std::size_t table_width(const Output& output, bool wide);

/// Adds --format with the formats the command has (the first is the default), --json and --csv as
/// shorthands where the command has them, and -o/--output FILE.
void add_output_options(CLI::App& command, Output& output, const std::vector<Format>& formats);

/// Writes the whole text in one go: atomically to --output when given, else to stdout.
void emit(const Output& output, const std::string& text);
/// Writes the whole text to stdout in one go.
void emit(const std::string& text);

/// Writes `text` to `path` atomically: a temporary file beside it, then a rename, so an interrupted
/// run leaves the old file or none, never half of the new one. Throws InputError when it cannot.
void write_file_atomically(const std::string& path, const std::string& text);

/// A number for tables: thousands separated, fixed decimals; "-" when absent.
std::string amount(double value, int decimals = 0);
std::string amount(const std::optional<double>& value, int decimals = 0);

/// Prose cut into lines of at most `width` columns at spaces (a longer word stays whole), ending in a newline.
std::string wrapped(const std::string& text, std::size_t width = 80);

/// CSV field quoting per RFC 4180.
std::string csv_field(const std::string& text);

/// A number for JSON output, or null where it is not finite (a payback never reached, an empty sample).
nlohmann::json number_or_null(double value);

/// A CSV table of JSON records: a header of `columns`, then one line per record; null or missing is
/// an empty cell, a string is quoted as needed, anything else is written as JSON.
std::string records_csv(const nlohmann::json& records, const std::vector<std::string>& columns);

}  // namespace payback::cli
