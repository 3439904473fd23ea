// A per-token API as an option: its prices per million tokens, what a month of a token workload
// costs on it, and the rows of pricing/api-prices.csv that `api = "provider:model"` names.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "payback/market/catalog.hpp"
#include "payback/market/token_serving.hpp"

namespace payback {

struct ApiPricing {
    double input_per_million = 0.0;
    double output_per_million = 0.0;
    std::optional<double> cached_input_per_million;  ///< none: cached input costs the input price
    /// Tokens sent in the off-peak hours get the discount: their share of every token (spread evenly
    /// over the week) and the discount on their price.
    double off_peak_share = 0.0;
    double off_peak_discount = 0.0;
    std::string off_peak_schedule;  ///< as written ("daily 16-24"); empty: none
};

/// A month's bill at month-1 prices: (input × (1 - cached) × input price + input × cached × cached
/// price + output × output price) / 10^6, the off-peak share of it discounted.
double api_month_cost(const ApiPricing& pricing, const TokenVolume& volume);

/// The part of that bill that pays for input (the rest pays for output).
double api_month_input_cost(const ApiPricing& pricing, const TokenVolume& volume);

/// One row of pricing/api-prices.csv: a provider's list prices for one model, per million tokens.
struct ApiPriceRow {
    std::string provider;
    std::string model;
    double input_per_million = 0.0;
    double output_per_million = 0.0;
    std::optional<double> cached_input_per_million;
    std::optional<double> context_tokens;
    RowOrigin origin;
    std::string key() const { return provider + ":" + model; }
};

/// Loads and checks the file (prices, dates and sources on every row, no repeated provider:model);
/// InputError naming the file, line and column.
std::vector<ApiPriceRow> load_api_prices(const std::string& csv_path);

/// The row "provider:model"; InputError (key "api") with the closest names on a miss.
const ApiPriceRow& find_api_price(const std::vector<ApiPriceRow>& rows, const std::string& provider_and_model);

}  // namespace payback
