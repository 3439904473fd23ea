// A copy of the shipped pricing catalogs for a test that changes some of their rows: the test points
// PAYBACK_PRICING_DIR (or a scenario's relative path) at <dir>/pricing.
#pragma once

#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "support/run_cli.hpp"

namespace payback::test {

/// Copies the repository's pricing/*.csv into `dir`/pricing; returns that directory.
inline std::filesystem::path copy_shipped_catalogs(const std::filesystem::path& dir) {
    const std::filesystem::path pricing = dir / "pricing";
    std::filesystem::create_directories(pricing);
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(PAYBACK_SOURCE_DIR) / "pricing"))
        if (entry.path().extension() == ".csv") std::filesystem::copy_file(entry.path(), pricing / entry.path().filename());
    return pricing;
}

/// `file` (a catalog) with its first row that starts `row_start` replaced by `rows` (whole lines).
inline void replace_catalog_row(const std::filesystem::path& file, const std::string& row_start, const std::string& rows) {
    const std::string text = read_file(file);
    const std::size_t found = text.find('\n' + row_start);
    REQUIRE(found != std::string::npos);
    const std::size_t row = found + 1, row_end = text.find('\n', row) + 1;
    write_file(file, text.substr(0, row) + rows + text.substr(row_end));
}

/// The shipped catalogs copied into `dir`/pricing with the row of tests/fixtures/predictor/gpu-without-bandwidth.csv
/// (shared with the Python tests: a gpus.csv row as a user may add one, "Mystery Card", without a memory bandwidth,
/// which the predictor has nothing to go on for) at the end of gpus.csv; returns the directory.
inline std::filesystem::path catalogs_with_gpu_without_bandwidth(const std::filesystem::path& dir) {
    const std::filesystem::path pricing = copy_shipped_catalogs(dir);
    const std::string gpus = read_file(pricing / "gpus.csv");
    const std::string fixture =
        read_file(std::filesystem::path(PAYBACK_SOURCE_DIR) / "tests/fixtures/predictor/gpu-without-bandwidth.csv");
    const std::size_t header_end = fixture.find('\n') + 1;
    REQUIRE(fixture.substr(0, header_end) == gpus.substr(0, gpus.find('\n') + 1));  // the fixture follows the columns
    write_file(pricing / "gpus.csv", gpus + fixture.substr(header_end));
    return pricing;
}

}  // namespace payback::test
