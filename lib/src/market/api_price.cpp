#include "payback/market/api_price.hpp"

namespace payback {

namespace {

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

}  // namespace payback
