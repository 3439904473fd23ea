#include "payback/base/data_directory.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <optional>
#include <system_error>
#include <vector>

#include <fmt/format.h>

#include "payback/base/error.hpp"

namespace payback {

namespace fs = std::filesystem;

namespace {

std::mutex package_mutex;
fs::path package_directory;  // guarded by package_mutex; empty until the Python package registers it

// The program or shared object this code was linked into: the address of a variable of its own
// tells dladdr which. The main program may be reported by the name it was started with, so it is
// read from /proc/self/exe instead.
std::optional<fs::path> running_binary() {
    static const int anchor = 0;
    Dl_info info{};
    std::error_code error;
    if (dladdr(&anchor, &info) != 0 && info.dli_fname != nullptr && info.dli_fname[0] == '/') {
        const fs::path path = fs::canonical(info.dli_fname, error);
        if (!error) return path;
    }
    const fs::path self = fs::canonical("/proc/self/exe", error);
    if (!error) return self;
    return std::nullopt;
}

const char* folder_name(ShippedData which) { return which == ShippedData::pricing ? "pricing" : "scenarios"; }

bool existing_directory(const fs::path& path) {
    std::error_code error;
    return fs::is_directory(path, error);
}

}  // namespace

void set_package_data_directory(const fs::path& directory) {
    const std::lock_guard lock(package_mutex);
    package_directory = directory;
}

DataDirectory find_data_directory(ShippedData which) {
    const std::string name = folder_name(which);
    std::vector<std::string> tried;

    if (which == ShippedData::pricing) {
        const char* variable = std::getenv("PAYBACK_PRICING_DIR");
        if (variable != nullptr && *variable != '\0') {
            // Set on purpose: a wrong value is an error, not a reason to look elsewhere.
            if (existing_directory(variable)) return {variable, "$PAYBACK_PRICING_DIR"};
            throw InputError("PAYBACK_PRICING_DIR", 0, "",
                             fmt::format("\"{}\" is not a directory; set it to a directory of price catalogs "
                                         "(such as pricing/ of payback's source) or unset it",
                                         variable));
        }
        tried.emplace_back("$PAYBACK_PRICING_DIR (not set)");
    }

    if (const auto binary = running_binary()) {
        const fs::path beside = binary->parent_path().parent_path() / "share" / "payback" / name;
        if (existing_directory(beside)) {
            // A build tree's link names the source tree's folder, as messages about its files should.
            std::error_code error;
            if (fs::is_symlink(beside, error))
                if (const fs::path target = fs::canonical(beside, error); !error)
                    return {target, fmt::format("beside {}: a developer build, linked to the source tree", binary->string())};
            return {beside, fmt::format("beside {}", binary->string())};
        }
        tried.push_back(fmt::format("{} (beside {})", beside.string(), binary->string()));
    }

    fs::path package;
    {
        const std::lock_guard lock(package_mutex);
        package = package_directory;
    }
    if (!package.empty()) {
        if (existing_directory(package / name)) return {package / name, "the Python package's data"};
        tried.push_back(fmt::format("{} (the Python package's data)", (package / name).string()));
    } else {
        tried.emplace_back("the Python package's data (not imported)");
    }

    std::string places;
    for (const auto& place : tried) places += (places.empty() ? "" : ", ") + place;
    throw InputError(which == ShippedData::pricing ? "PAYBACK_PRICING_DIR" : name, 0, "",
                     fmt::format("no {} directory found; tried {}; {}", name, places,
                                 which == ShippedData::pricing ? "set PAYBACK_PRICING_DIR to a directory of price catalogs"
                                                               : "name a scenario file"));
}

}  // namespace payback
