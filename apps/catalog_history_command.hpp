// `payback catalog history`, and the price history database every command that writes or reads it
// opens (catalog import appends to it).
#pragma once

#include <filesystem>
#include <string>

#include <CLI/CLI.hpp>

#include "payback/market/price_history.hpp"

namespace payback::cli {

/// --db when given, else default_price_history_path() ($PAYBACK_DB first).
std::filesystem::path price_history_path(const std::string& db_option);

/// The --db help text, the same on every command.
extern const char* const db_option_help;

/// The history at price_history_path(db_option), created with the shipped catalogs when new.
PriceHistory open_price_history(const std::string& db_option);

void add_catalog_history_command(CLI::App& catalog);

}  // namespace payback::cli
