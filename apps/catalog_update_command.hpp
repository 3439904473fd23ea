// `payback catalog update`: registered under the catalog command (catalog_command.cpp).
#pragma once

#include <CLI/CLI.hpp>

namespace payback::cli {

void add_catalog_update_command(CLI::App& catalog);

}  // namespace payback::cli
