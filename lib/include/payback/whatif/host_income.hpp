// Renting the rig out when the market's host price is a spread, not one number: a rental market row
// with the P10, median and P90 of its offers (a vast-offers import) gives the host price a
// distribution for Monte Carlo, and the net host income a month at its quantiles; the scenario's own
// occupancy range is drawn with it (docs/markets.md, "Host income as a distribution").
#pragma once

#include <cstdint>
#include <optional>

#include "payback/base/distribution.hpp"
#include "payback/market/catalog.hpp"
#include "payback/scenario/scenario.hpp"

namespace payback {

/// The host price of a market row with quantiles: a lognormal with the row's median and the log-spread
/// of its P10 and P90, sigma = ln(P90 / P10) / (2 z90), z90 = 1.2815515655446004 (so P10 and P90 are
/// exact when the median is their geometric mean). A lognormal because prices are positive and skewed
/// to the right, and it needs no bounds the data do not give. None without quantiles, and none when
/// P10 = P90: nothing to draw, the median is the price.
std::optional<Distribution> host_price_distribution(const RentalMarket& row);

/// The market row a scenario's [rental] priced its host price from, when the scenario did not give
/// price_per_gpu_hour itself; none otherwise.
std::optional<RentalMarket> rental_market_row(const Scenario& scenario, const Catalog& catalog);

/// Net host income a month (after fees, power, wear and tax): the horizon's undiscounted net cash
/// flow of the rig renting out less that of the rig alone, over the horizon's months.
double host_income_per_month(const Scenario& scenario);

struct HostIncomeQuantiles {
    double p10 = 0.0;
    double p50 = 0.0;
    double p90 = 0.0;
};

/// host_income_per_month at the host price's P10, median and P90, the rest of the scenario as it is.
/// Income rises with the host price, so these are the income's own quantiles over the price's
/// distribution, whatever its shape between them. Throws std::invalid_argument without [rental].
HostIncomeQuantiles host_income_quantiles(const Scenario& scenario, double p10, double p50, double p90);

/// The P10/P50/P90 of host_income_per_month over `samples` Latin hypercube draws (seeded by `seed`)
/// of the month-1 host price from `price` (none: the scenario's price) and the occupancy from
/// `occupancy`, drawn independently, the rest of the scenario as it is. Income rises with both but
/// is not a function of one of them, so its quantiles come from the draws (summarize(), NumPy's
/// linear percentiles), not from the inputs' quantiles. Throws std::invalid_argument without
/// [rental], for samples < 2, or for a distribution check() refuses (naming it).
HostIncomeQuantiles host_income_drawn(const Scenario& scenario, const std::optional<Distribution>& price,
                                      const Distribution& occupancy, int samples, std::uint64_t seed);

}  // namespace payback
