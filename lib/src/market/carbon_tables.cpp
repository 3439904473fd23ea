#include "payback/market/carbon_tables.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "base/csv_reader.hpp"
#include "payback/base/calendar.hpp"
#include "payback/base/error.hpp"
#include "payback/base/suggest.hpp"

namespace payback {

namespace {

using detail::is_blank;

// Intensities above this are almost surely grams per kWh written in the kilogram column: the most
// carbon-intense national grids are about 1.3 kg/kWh.
constexpr double max_kg_per_kwh = 2.0;
// PUE above this is no data centre's fleet figure (the industry average is about 1.6).
constexpr double max_pue = 3.0;
// The first year with grid intensity data worth reading for this model.
constexpr int first_year = 1990;

bool is_upper_or_digit(char c) { return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

// "US", "DE", "EU", "WORLD", "US-CA", "CA-QC": two or more capital letters, then optionally a
// hyphen and one to three capital letters or digits (the ISO 3166-2 subdivision part).
bool is_region_code(const std::string& code) {
    const auto hyphen = code.find('-');
    const std::string_view head = std::string_view(code).substr(0, hyphen);
    if (head.size() < 2 ||
        !std::all_of(head.begin(), head.end(), [](char c) { return c >= 'A' && c <= 'Z'; }))
        return false;
    if (hyphen == std::string::npos) return true;
    const std::string_view tail = std::string_view(code).substr(hyphen + 1);
    return !tail.empty() && tail.size() <= 3 && std::all_of(tail.begin(), tail.end(), is_upper_or_digit);
}

std::string lowercase(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

// A "did you mean" for `word` among `known`: a match ignoring case first, then a likely typo.
std::string hint_for(const std::string& word, const std::vector<std::string>& known) {
    for (const auto& candidate : known)
        if (lowercase(candidate) == lowercase(word)) return candidate;
    return detail::closest_match(word, known);
}

std::string listed(const std::vector<std::string>& names) {
    std::string out;
    for (const auto& name : names) {
        if (!out.empty()) out += ", ";
        out += name;
    }
    return out;
}

// "; did you mean "X"?", else "; <list_intro>: a, b, c", or a note that the file has no rows.
std::string unknown_suffix(const std::string& word, const std::vector<std::string>& known,
                           const std::string& list_intro) {
    const std::string hint = hint_for(word, known);
    if (!hint.empty()) return fmt::format("; did you mean \"{}\"?", hint);
    if (known.empty()) return "; the file has no data rows";
    return fmt::format("; {}: {}", list_intro, listed(known));
}

// The checks both catalogs share: an intensity in kg/kWh, a dated as_of, a source. Returns the
// year of as_of.
int check_common(const detail::CsvTable& table, std::size_t row) {
    const double kg = table.number(row, "kg_co2_per_kwh");
    if (kg < 0.0)
        throw table.error(row, "kg_co2_per_kwh", fmt::format("expected an intensity >= 0, got {}", kg));
    if (kg > max_kg_per_kwh)
        throw table.error(row, "kg_co2_per_kwh",
                          fmt::format("expected kg CO2 per kWh, at most {}, got {}: is it grams per kWh? "
                                      "Divide by 1000",
                                      max_kg_per_kwh, kg));

    const std::string& as_of = table.text(row, "as_of");
    if (is_blank(as_of))
        throw table.error(row, "as_of", "empty: every row must say when its figure was read");
    const auto as_of_date = parse_date(as_of);
    if (!as_of_date)
        throw table.error(row, "as_of",
                          fmt::format("expected a date YYYY-MM-DD or YYYY-MM, got \"{}\"", as_of));
    if (is_blank(table.text(row, "source")))
        throw table.error(row, "source", "empty: every row must say where its figure came from");
    return as_of_date->year;
}

void check_region_code(const detail::CsvTable& table, std::size_t row, const std::string& column) {
    const std::string& code = table.text(row, column);
    if (is_blank(code)) throw table.error(row, column, "empty: every row must name its grid region");
    if (!is_region_code(code))
        throw table.error(
            row, column,
            fmt::format("expected an ISO 3166 style code such as US, US-CA, DE or EU, got \"{}\"", code));
}

const std::vector<std::string> grid_columns = {"region", "name", "kg_co2_per_kwh", "year", "as_of", "source"};
const std::vector<std::string> cloud_columns = {"provider", "region", "grid_region", "kg_co2_per_kwh",
                                                "pue",      "as_of",  "source"};


// Every row of a grid file, checked: codes, names, intensities, years, dates, sources, no region twice.
std::vector<GridIntensity> read_grid_rows(const detail::CsvTable& table) {
    table.require_columns(grid_columns);
    std::map<std::string, int> lines;  // region -> line of its row
    std::vector<GridIntensity> rows;
    for (std::size_t row = 0; row < table.rows(); ++row) {
        check_region_code(table, row, "region");
        const std::string& code = table.text(row, "region");
        if (is_blank(table.text(row, "name")))
            throw table.error(row, "name", "empty: every row must name its region, such as \"California\"");
        const int as_of_year = check_common(table, row);

        const double year = table.number(row, "year");
        if (year != std::floor(year))
            throw table.error(row, "year", fmt::format("expected a whole year, got {}", year));
        if (year < first_year || year > as_of_year)
            throw table.error(row, "year",
                              fmt::format("expected a year from {} to the as_of year {}, got {}", first_year,
                                          as_of_year, year));

        const auto [earlier, is_new] = lines.try_emplace(code, table.line_of(row));
        if (!is_new)
            throw table.error(row, "region",
                              fmt::format("\"{}\" is already listed on line {}", code, earlier->second));
        rows.push_back({code, table.text(row, "name"), table.number(row, "kg_co2_per_kwh"), static_cast<int>(year)});
    }
    return rows;
}

// Every row of a cloud-regions file, checked: names, grid codes, intensities, PUEs, dates, sources,
// no (provider, region) twice.
std::vector<CloudRegion> read_cloud_rows(const detail::CsvTable& table) {
    table.require_columns(cloud_columns);
    std::map<std::pair<std::string, std::string>, int> lines;  // (provider, region) -> line
    std::vector<CloudRegion> rows;
    for (std::size_t row = 0; row < table.rows(); ++row) {
        const std::string& name = table.text(row, "provider");
        if (is_blank(name))
            throw table.error(row, "provider", "empty: every row must name its cloud provider");
        const std::string& code = table.text(row, "region");
        if (is_blank(code))
            throw table.error(row, "region", "empty: every row must name the provider's region");
        check_region_code(table, row, "grid_region");
        check_common(table, row);
        const double pue = table.number(row, "pue");
        if (pue < 1.0 || pue > max_pue)
            throw table.error(row, "pue",
                              fmt::format("expected a PUE from 1 (no overhead) to {}, got {}", max_pue, pue));

        const auto [earlier, is_new] = lines.try_emplace(std::pair(name, code), table.line_of(row));
        if (!is_new)
            throw table.error(
                row, "region",
                fmt::format("{} \"{}\" is already listed on line {}", name, code, earlier->second));
        rows.push_back({name, code, table.number(row, "kg_co2_per_kwh"), pue});
    }
    return rows;
}

}  // namespace

GridCarbonTable GridCarbonTable::load(const std::string& csv_path) {
    GridCarbonTable t;
    t.rows_ = read_grid_rows(detail::CsvTable::load(csv_path));
    t.path_ = csv_path;
    return t;
}

GridCarbonTable GridCarbonTable::parse(std::string_view text, const std::string& csv_path) {
    GridCarbonTable t;
    t.rows_ = read_grid_rows(detail::CsvTable::parse(text, csv_path));
    t.path_ = csv_path;
    return t;
}

const GridIntensity& GridCarbonTable::find(const std::string& region) const {
    for (const GridIntensity& row : rows_)
        if (row.region == region) return row;
    std::vector<std::string> regions;  // in file order, for the hint
    for (const GridIntensity& row : rows_) regions.push_back(row.region);
    throw InputError(path_, 0, "region",
                     fmt::format("no row for region \"{}\"", region) + unknown_suffix(region, regions, "the file has"));
}

CloudRegionTable CloudRegionTable::load(const std::string& csv_path) {
    CloudRegionTable t;
    t.rows_ = read_cloud_rows(detail::CsvTable::load(csv_path));
    t.path_ = csv_path;
    return t;
}

CloudRegionTable CloudRegionTable::parse(std::string_view text, const std::string& csv_path) {
    CloudRegionTable t;
    t.rows_ = read_cloud_rows(detail::CsvTable::parse(text, csv_path));
    t.path_ = csv_path;
    return t;
}

const CloudRegion& CloudRegionTable::find(const std::string& provider, const std::string& region) const {
    for (const CloudRegion& row : rows_)
        if (row.provider == provider && row.region == region) return row;

    std::vector<std::string> providers;                          // distinct, in file order
    std::map<std::string, std::vector<std::string>> regions_of;  // provider -> its regions
    for (const CloudRegion& row : rows_) {
        auto [own, first_of_provider] = regions_of.try_emplace(row.provider);
        if (first_of_provider) providers.push_back(row.provider);
        own->second.push_back(row.region);
    }
    const auto own = regions_of.find(provider);
    if (own == regions_of.end())
        throw InputError(path_, 0, "provider",
                         fmt::format("no provider \"{}\"", provider) + unknown_suffix(provider, providers, "the file has"));
    std::string message = fmt::format("{} has no region \"{}\"", provider, region);
    std::vector<std::string> elsewhere;
    for (const auto& other : providers) {
        const auto& theirs = regions_of.at(other);
        if (other != provider && std::find(theirs.begin(), theirs.end(), region) != theirs.end())
            elsewhere.push_back(other);
    }
    if (!elsewhere.empty()) message += fmt::format(" (\"{}\" is a region of {})", region, listed(elsewhere));
    throw InputError(path_, 0, "region", message + unknown_suffix(region, own->second, provider + " has"));
}

}  // namespace payback
