// A per-token API as an option: its prices per million tokens and what a month of a token workload
// costs on it. The rows of pricing/api-prices.csv that `api = "provider:model"` names are the
// catalog's (Catalog::api_prices, catalog.hpp).
#pragma once

#include <optional>
#include <string>

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

}  // namespace payback
