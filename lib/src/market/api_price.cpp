#include "payback/market/api_price.hpp"

#include <cmath>
#include <map>

#include <fmt/format.h>

#include "base/csv_reader.hpp"
#include "payback/base/calendar.hpp"
#include "payback/base/suggest.hpp"

namespace payback {

namespace {

// No list price per million tokens reaches this; a larger one is per thousand, or a typo.
constexpr double max_price_per_million = 10'000.0;

const std::vector<std::string> columns = {"provider", "model",   "input", "output", "cached_input",
                                          "context",  "as_of", "source"};

double price(const detail::CsvTable& table, std::size_t row, std::string_view column) {
    const double value = table.number(row, column);
    if (value < 0.0 || value > max_price_per_million)
        throw table.error(row, column,
                          fmt::format("expected a price per million tokens from 0 to {}, got {}", max_price_per_million,
                                      value));
    return value;
}

// The whole input bill and the part of it paid for the cached share.
double input_cost(const ApiPricing& p, const TokenVolume& v) {
    const double cached_price = p.cached_input_per_million.value_or(p.input_per_million);
    return v.input_per_month * (1.0 - v.cached_input_share) * p.input_per_million +
           v.input_per_month * v.cached_input_share * cached_price;
}

double off_peak_factor(const ApiPricing& p) { return 1.0 - p.off_peak_share * p.off_peak_discount; }

}  // namespace

double api_month_input_cost(const ApiPricing& pricing, const TokenVolume& volume) {
    return input_cost(pricing, volume) / 1e6 * off_peak_factor(pricing);
}

double api_month_cost(const ApiPricing& pricing, const TokenVolume& volume) {
    const double output = volume.output_per_month * pricing.output_per_million;
    return (input_cost(pricing, volume) + output) / 1e6 * off_peak_factor(pricing);
}

std::vector<ApiPriceRow> load_api_prices(const std::string& csv_path) {
    const auto table = detail::CsvTable::load(csv_path);
    table.require_columns(columns);
    std::vector<ApiPriceRow> rows;
    std::map<std::string, int> lines;
    for (std::size_t r = 0; r < table.rows(); ++r) {
        ApiPriceRow row;
        row.provider = table.required(r, "provider");
        row.model = table.required(r, "model");
        row.input_per_million = price(table, r, "input");
        row.output_per_million = price(table, r, "output");
        if (!detail::is_blank(table.text(r, "cached_input"))) row.cached_input_per_million = price(table, r, "cached_input");
        if (!detail::is_blank(table.text(r, "context"))) {
            const double context = table.number(r, "context");
            if (context < 1.0 || context != std::floor(context))
                throw table.error(r, "context", fmt::format("expected a whole number of tokens >= 1, got {}", context));
            row.context_tokens = context;
        }
        row.origin = {csv_path, table.line_of(r), table.required(r, "as_of"), table.required(r, "source")};
        if (!parse_date(row.origin.as_of))
            throw table.error(r, "as_of", "expected a date YYYY-MM-DD or YYYY-MM, got \"" + row.origin.as_of + "\"");
        const auto [earlier, is_new] = lines.try_emplace(row.key(), row.origin.line);
        if (!is_new)
            throw table.error(r, "model", fmt::format("\"{}\" is already listed on line {}", row.key(), earlier->second));
        rows.push_back(std::move(row));
    }
    return rows;
}

const ApiPriceRow& find_api_price(const std::vector<ApiPriceRow>& rows, const std::string& provider_and_model) {
    std::vector<std::string> keys;
    for (const ApiPriceRow& row : rows) {
        if (row.key() == provider_and_model) return row;
        keys.push_back(row.key());
    }
    const std::string hint = detail::closest_match(provider_and_model, keys);
    throw InputError("pricing", 0, "api",
                     fmt::format("no API row \"{}\" in pricing/api-prices.csv{}", provider_and_model,
                                 hint.empty() ? "; rows are written PROVIDER:MODEL, as in the file"
                                              : "; did you mean \"" + hint + "\"?"));
}

}  // namespace payback
