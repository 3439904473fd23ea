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
#include "payback/market/catalog.hpp"
#include "payback/market/price_import.hpp"
#include "payback/workload/model_catalog.hpp"
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

// The GPU names of the catalog in `dir`, which gpu-aliases.csv must map to.
std::vector<std::string> gpu_names(const fs::path& dir) {
    std::vector<std::string> names;
    const Catalog catalog = Catalog::load(dir.string());  // kept: the loop reads its rows
    for (const GpuSpec& gpu : catalog.gpus()) names.push_back(gpu.name);
    return names;
}

// Every shipped CSV copied to a fresh directory, the one of `resource` with one cell changed;
// the catalog loader, which reads every file (the grid, cloud-region and used-price files with the
// others), must refuse it, naming the file, the line of that row and the column.
void check_refused(const std::string& resource, const std::string& column, const std::string& value) {
    const CsvTable shipped = CsvTable::load((pricing / (resource + ".csv")).string());
    const std::size_t row = shipped.rows() / 2;  // a row from the middle, not only the first
    test::TempDir dir;
    for (const auto& entry : fs::directory_iterator(pricing))
        if (entry.path().extension() == ".csv") fs::copy_file(entry.path(), dir.path() / entry.path().filename());
    dir.write(resource + ".csv", written(shipped, row, column, value));
    INFO(resource << ".csv line " << shipped.line_of(row) << ", " << column << " = \"" << value << "\"");
    // The model and quantization tables are the workload layer's catalog (payback/workload/model_catalog.hpp).
    const bool model_table = resource == "models" || resource == "quants";
    const InputError e = test::input_error([&] {
        if (model_table) ModelCatalog::load(dir.path().string());
        else if (resource == "gpu-aliases") GpuAliases::load((dir.path() / "gpu-aliases.csv").string(), gpu_names(dir.path()));
        else Catalog::load(dir.path().string());
    });
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
    CHECK(checked >= 40);  // 56 today: the loops above must not check nothing
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
