// Where the shipped data is found (payback/base/data_directory.hpp): $PAYBACK_PRICING_DIR first,
// then ../share/payback/ beside the running program (this test program's build tree links it to
// the source tree), then the Python package's data; an error naming every place otherwise.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "payback/base/data_directory.hpp"
#include "payback/base/error.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using payback::DataDirectory;
using payback::find_data_directory;
using payback::InputError;
using payback::ShippedData;

namespace {

// Sets (or unsets) $PAYBACK_PRICING_DIR for one test and puts back what was there.
class PricingVariable {
public:
    explicit PricingVariable(const std::optional<std::string>& value) {
        if (const char* old = std::getenv("PAYBACK_PRICING_DIR")) old_ = old;
        if (value) setenv("PAYBACK_PRICING_DIR", value->c_str(), 1);
        else unsetenv("PAYBACK_PRICING_DIR");
    }
    ~PricingVariable() {
        if (old_) setenv("PAYBACK_PRICING_DIR", old_->c_str(), 1);
        else unsetenv("PAYBACK_PRICING_DIR");
    }
    PricingVariable(const PricingVariable&) = delete;
    PricingVariable& operator=(const PricingVariable&) = delete;

private:
    std::optional<std::string> old_;
};

}  // namespace

TEST_CASE("$PAYBACK_PRICING_DIR wins when it names a directory", "[data_directory]") {
    const payback::test::TempDir dir;
    const PricingVariable set(dir.path().string());
    const DataDirectory found = find_data_directory(ShippedData::pricing);
    CHECK(found.path == dir.path());
    CHECK(found.reason == "$PAYBACK_PRICING_DIR");
    // The variable is about catalogs only: the scenarios are still the shipped ones.
    CHECK(find_data_directory(ShippedData::scenarios).path.filename() == "scenarios");
}

TEST_CASE("$PAYBACK_PRICING_DIR naming no directory is an error, not a reason to look elsewhere", "[data_directory]") {
    const PricingVariable set("/nonexistent/pricing");
    CHECK_THROWS_WITH(find_data_directory(ShippedData::pricing),
                      "PAYBACK_PRICING_DIR: \"/nonexistent/pricing\" is not a directory; set it to a directory of "
                      "price catalogs (such as pricing/ of payback's source) or unset it");
}

TEST_CASE("without the variable, the build tree's share/payback beside the program: the source tree", "[data_directory]") {
    const PricingVariable unset(std::nullopt);
    for (const auto which : {ShippedData::pricing, ShippedData::scenarios}) {
        const DataDirectory found = find_data_directory(which);
        const std::string name = which == ShippedData::pricing ? "pricing" : "scenarios";
        // This test program runs from <build>/bin/, and <build>/share/payback/<name> links
        // (CMakeLists.txt) to the source tree's folder, which is what is returned.
        CHECK(found.path == fs::canonical(fs::path(PAYBACK_SOURCE_DIR) / name));
        CHECK(found.reason == "beside " + fs::canonical("/proc/self/exe").string() +
                                  ": a developer build, linked to the source tree");
    }
}
