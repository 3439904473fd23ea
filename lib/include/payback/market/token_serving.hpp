// Serving a model: the tokens a month it reads and writes, and how fast an option serves them. The
// hours a month an option is busy serving follow from the two (docs/inference.md).
#pragma once

#include <string>

namespace payback {

/// Aggregate rates at the workload's concurrency, in tokens a second.
struct TokenRates {
    double prefill = 0.0;  ///< input tokens read
    double decode = 0.0;   ///< output tokens written
    /// Where they come from: "measured (given by hand)", or the predictor with its expected error.
    std::string origin;
    /// From the predictor: a scenario written back (to_toml) leaves them out, so they are predicted anew.
    bool predicted = false;
};

/// The tokens a month of a [workload] tokens table.
struct TokenVolume {
    double input_per_month = 0.0;
    double output_per_month = 0.0;
    double cached_input_share = 0.0;  ///< of the input, served from a provider's prompt cache

    double total_per_month() const { return input_per_month + output_per_month; }
};

/// Hours a month serving `volume` at `rates`: input / prefill / 3600 + output / decode / 3600.
double serving_hours_per_month(const TokenVolume& volume, const TokenRates& rates);

/// Of those hours, the share spent reading input (the rest writes output).
double input_share_of_serving(const TokenVolume& volume, const TokenRates& rates);

}  // namespace payback
