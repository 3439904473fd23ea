// payback init's guided start: on a terminal, without flags, it asks for the GPU, the electricity
// price (a rate or a region of pricing/electricity-prices.csv), the hours a month and the instance to
// rent, suggesting catalog rows and taking the default on an empty answer, then shows what the
// catalogs filled in. The questions go to `out` (stderr), the answers come from `in` (stdin).
#pragma once

#include <iosfwd>
#include <optional>
#include <string>

#include "payback/market/catalog.hpp"

namespace payback::cli {

/// What `payback init` writes a scenario from, by flag or by answer.
struct InitChoices {
    std::string gpu = "RTX 4090";
    std::string cloud = "aws:p5.4xlarge";
    std::optional<double> rate;  ///< per kWh; none: the region's price
    std::string region = "US";   ///< a region of pricing/electricity-prices.csv, in USD
    double hours = 200;
};

/// Asks for each choice in turn until the catalog knows the answer (its suggestion shown otherwise),
/// `defaults` on an empty answer. Throws InputError when `in` ends before the last answer.
InitChoices ask_init_choices(std::istream& in, std::ostream& out, const Catalog& catalog, const InitChoices& defaults);

/// The catalog rows the choices name, in a few lines: what the scenario takes from each.
std::string filled_in(const InitChoices& choices, const Catalog& catalog);

}  // namespace payback::cli
