#include "payback/market/token_serving.hpp"

namespace payback {

namespace {

double input_hours(const TokenVolume& volume, const TokenRates& rates) {
    return volume.input_per_month / rates.prefill / 3600.0;
}

double output_hours(const TokenVolume& volume, const TokenRates& rates) {
    return volume.output_per_month / rates.decode / 3600.0;
}

}  // namespace

double serving_hours_per_month(const TokenVolume& volume, const TokenRates& rates) {
    return input_hours(volume, rates) + output_hours(volume, rates);
}

double input_share_of_serving(const TokenVolume& volume, const TokenRates& rates) {
    const double hours = serving_hours_per_month(volume, rates);
    return hours > 0 ? input_hours(volume, rates) / hours : 0.0;
}

}  // namespace payback
