// The loaders against pricing/datapackage.json: for every resource, every field the descriptor
// marks required is blanked, and every typed or constrained field gets a value the descriptor
// forbids, one row at a time; the loader of that file must refuse it with an InputError naming
// the file, the row's line and the column. So the descriptor cannot promise a check the C++
// side does not make.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <regex>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "base/csv_reader.hpp"
#include "payback/base/error.hpp"
#include "payback/energy/carbon.hpp"
#include "payback/market/catalog.hpp"
#include "payback/market/price_import.hpp"
#include "payback/market/price_schedule.hpp"
#include "support/input_errors.hpp"
#include "support/temp_dir.hpp"

using namespace payback;
using detail::CsvTable;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path pricing = fs::path(PAYBACK_SOURCE_DIR) / "pricing";

json descriptor() {
    std::ifstream in(pricing / "datapackage.json");
    REQUIRE(in.good());
    return json::parse(in);
}

// Loads the file of `resource` from `dir` the way payback does; the lookups name the first data
// row, because every loader checks all rows before it looks anything up.
void load(const std::string& resource, const fs::path& dir, const CsvTable& shipped) {
    const std::string path = (dir / (resource + ".csv")).string();
    if (resource == "grid-carbon") {
        load_grid_intensity(path, shipped.text(0, "region"));
    } else if (resource == "cloud-regions") {
        load_cloud_region(path, shipped.text(0, "provider"), shipped.text(0, "region"));
    } else if (resource == "used-gpu-prices") {
        load_price_schedule(path, shipped.text(0, "item"));
    } else if (resource == "gpu-aliases") {
        const Catalog catalog = Catalog::load(dir.string());
        std::vector<std::string> gpus;
        for (const GpuSpec& gpu : catalog.gpus()) gpus.push_back(gpu.name);
        GpuAliases::load(path, gpus);
    } else {
        Catalog::load(dir.string());
    }
}

// The table written back as CSV, every field quoted (RFC 4180), so each row keeps its line.
std::string written(const CsvTable& table, std::size_t row, const std::string& column, const std::string& value) {
    const auto quoted = [](const std::string& field) {
        std::string out = "\"";
        for (const char c : field) {
            if (c == '"') out += '"';
            out += c;
        }
        return out + "\"";
    };
    std::string text;
    const auto line = [&](const std::function<std::string(const std::string&)>& cell) {
        for (std::size_t c = 0; c < table.columns().size(); ++c) {
            if (c > 0) text += ',';
            text += cell(table.columns()[c]);
        }
        text += "\n";
    };
    line([&](const std::string& name) { return quoted(name); });
    for (std::size_t r = 0; r < table.rows(); ++r)
        line([&](const std::string& name) { return quoted(r == row && name == column ? value : table.text(r, name)); });
    return text;
}

// Every shipped CSV copied to a fresh directory, the one of `resource` with one cell changed;
// the loader must refuse it, naming the file, the line of that row and the column.
void check_refused(const std::string& resource, const std::string& column, const std::string& value) {
    const CsvTable shipped = CsvTable::load((pricing / (resource + ".csv")).string());
    const std::size_t row = shipped.rows() / 2;  // a row from the middle, not only the first
    test::TempDir dir;
    for (const auto& entry : fs::directory_iterator(pricing))
        if (entry.path().extension() == ".csv") fs::copy_file(entry.path(), dir.path() / entry.path().filename());
    dir.write(resource + ".csv", written(shipped, row, column, value));
    INFO(resource << ".csv line " << shipped.line_of(row) << ", " << column << " = \"" << value << "\"");
    const InputError e = test::input_error([&] { load(resource, dir.path(), shipped); });
    CHECK(fs::path(e.source()).filename() == resource + ".csv");
    CHECK(e.line() == shipped.line_of(row));
    CHECK(e.key_path() == column);
}

// A number just outside [minimum, maximum], written as the loaders read numbers.
std::string outside(double bound, double step) { return fmt::format("{}", bound + step); }

}  // namespace

TEST_CASE("every required field of the descriptor is required by its loader", "[catalog][datapackage]") {
    const json package = descriptor();
    for (const auto& resource : package["resources"])
        for (const auto& field : resource["schema"]["fields"])
            if (field.value("/constraints/required"_json_pointer, false))
                check_refused(resource["name"], field["name"], "");
}

TEST_CASE("every typed or constrained field of the descriptor is checked by its loader", "[catalog][datapackage]") {
    int checked = 0;
    const json package = descriptor();
    for (const auto& resource : package["resources"]) {
        for (const auto& field : resource["schema"]["fields"]) {
            const std::string type = field["type"];
            const json constraints = field.value("constraints", json::object());
            // "abc" is no number, integer, true/false, enum member or value of the patterns used.
            bool not_a_value = type == "number" || type == "integer" || type == "boolean" || constraints.contains("enum");
            if (constraints.contains("pattern"))
                not_a_value = !std::regex_match("abc", std::regex(constraints["pattern"].get<std::string>()));
            if (not_a_value) {
                check_refused(resource["name"], field["name"], "abc");
                ++checked;
            }
            if (type == "integer") check_refused(resource["name"], field["name"], "2.5");
            if (constraints.contains("minimum"))
                check_refused(resource["name"], field["name"], outside(constraints["minimum"].get<double>(), -1));
            if (constraints.contains("maximum"))
                check_refused(resource["name"], field["name"], outside(constraints["maximum"].get<double>(), 1));
        }
    }
    CHECK(checked >= 40);  // 55 today: the loops above must not check nothing
}

TEST_CASE("the descriptor lists each shipped file's columns in order", "[catalog][datapackage]") {
    const json package = descriptor();
    std::vector<std::string> described;
    for (const auto& resource : package["resources"]) {
        const std::string name = resource["name"];
        described.push_back(name + ".csv");
        CHECK(resource["path"] == name + ".csv");
        std::vector<std::string> fields;
        for (const auto& field : resource["schema"]["fields"]) fields.push_back(field["name"]);
        INFO(name);
        CHECK(CsvTable::load((pricing / (name + ".csv")).string()).columns() == fields);
    }
    std::vector<std::string> shipped;
    for (const auto& entry : fs::directory_iterator(pricing))
        if (entry.path().extension() == ".csv") shipped.push_back(entry.path().filename().string());
    std::sort(described.begin(), described.end());
    std::sort(shipped.begin(), shipped.end());
    CHECK(described == shipped);
}
