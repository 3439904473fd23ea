// Where the shipped data (the price catalogs, the example scenarios) is found at run time. No path is
// compiled in: a build tree, an installed prefix and a Python wheel each find their own copy, and one
// that moves keeps finding it.
#pragma once

#include <filesystem>
#include <string>

namespace payback {

/// Which shipped data: the price catalogs (share/payback/pricing) or the example scenarios
/// (share/payback/scenarios).
enum class ShippedData { pricing, scenarios };

/// A data directory found, and why that one (for `payback catalog --where`).
struct DataDirectory {
    std::filesystem::path path;
    std::string reason;
};

/// Looks in order: $PAYBACK_PRICING_DIR (the catalogs only); ../share/payback/<name> beside the
/// program or shared object running this code (an installed prefix, or a build tree, whose
/// share/payback links into its source tree: then the source tree's folder is returned); the
/// Python package's own data, which the package
/// registers on import. InputError naming every place tried, and the variable to set, when none exists.
DataDirectory find_data_directory(ShippedData which);

/// The Python package hands over the directory that holds its pricing/ and scenarios/
/// (importlib.resources); until then that place is skipped.
void set_package_data_directory(const std::filesystem::path& directory);

}  // namespace payback
