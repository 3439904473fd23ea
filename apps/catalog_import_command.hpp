// `payback catalog import`: registered under the catalog command (catalog_command.cpp), and the import
// step `catalog update` shares.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "payback/market/price_import.hpp"

namespace payback::cli {

void add_catalog_import_command(CLI::App& catalog);

/// Imports `files` (read whole already) with the shipped GPU aliases, writes OUT atomically, appends the
/// prices to the history at `db_option` (empty: the default database) and prints the summary (or its
/// JSON): what `catalog import` and `catalog update` do once they hold the files.
void run_price_import(const std::string& format, const std::vector<PriceFile>& files, const ImportOptions& options,
                      const std::string& out, const std::string& db_option, bool json);

}  // namespace payback::cli
