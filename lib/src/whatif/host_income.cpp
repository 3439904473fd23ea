#include "payback/whatif/host_income.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "payback/model/comparison.hpp"
#include "payback/whatif/sampling.hpp"

namespace payback {

namespace {

constexpr double z90 = 1.2815515655446004;  // the standard normal's 90th percentile

}  // namespace

std::optional<Distribution> host_price_distribution(const RentalMarket& row) {
    if (!row.host_price_p10_per_hour || !row.host_price_p90_per_hour || !row.host_price_per_hour ||
        *row.host_price_p10_per_hour == *row.host_price_p90_per_hour)
        return std::nullopt;
    dist::Lognormal shape;
    shape.median = *row.host_price_per_hour;
    shape.sigma = std::log(*row.host_price_p90_per_hour / *row.host_price_p10_per_hour) / (2.0 * z90);
    return Distribution{shape};
}

std::optional<RentalMarket> rental_market_row(const Scenario& scenario, const Catalog& catalog) {
    if (!scenario.rental || scenario.rental->market.empty()) return std::nullopt;
    const auto& sources = scenario.rental->from_catalog;
    if (std::none_of(sources.begin(), sources.end(), [](const auto& s) { return s.first == "price_per_gpu_hour"; }))
        return std::nullopt;
    for (const Part& part : scenario.rig.parts)  // the rig's first catalog GPU, as the scenario reader looks it up
        if (!part.catalog_gpu.empty())
            return catalog.rental_market(scenario.rental->market, part.catalog_gpu, scenario.prices.at);
    return std::nullopt;
}

double host_income_per_month(const Scenario& scenario) {
    if (!scenario.rental) throw std::invalid_argument("the scenario has no [rental]");
    const std::vector<CashFlows> tables = cash_flows(scenario);  // the rig, then the rig renting out
    return (tables.at(1).cumulative.back() - tables.at(0).cumulative.back()) / scenario.horizon_months;
}

HostIncomeQuantiles host_income_quantiles(const Scenario& scenario, double p10, double p50, double p90) {
    if (!scenario.rental) throw std::invalid_argument("the scenario has no [rental]");
    const auto at = [&](double price) {
        Scenario s = scenario;
        s.rental->terms.price_per_gpu_hour = price;
        return host_income_per_month(s);
    };
    return {at(p10), at(p50), at(p90)};
}

HostIncomeQuantiles host_income_drawn(const Scenario& scenario, const std::optional<Distribution>& price,
                                      const Distribution& occupancy, int samples, std::uint64_t seed) {
    if (!scenario.rental) throw std::invalid_argument("the scenario has no [rental]");
    if (samples < 2) throw std::invalid_argument("host income needs at least 2 draws, got " + std::to_string(samples));
    std::vector<Distribution> inputs = {occupancy};
    if (price) inputs.push_back(*price);
    const SampleMatrix draws = draw(inputs, samples, SamplingMethod::latin_hypercube, seed);
    std::vector<double> income(static_cast<std::size_t>(samples));
    Scenario s = scenario;
    for (int k = 0; k < samples; ++k) {
        s.rental->terms.occupancy = draws.at(k, 0);
        if (price) s.rental->terms.price_per_gpu_hour = draws.at(k, 1);
        income[static_cast<std::size_t>(k)] = host_income_per_month(s);
    }
    const Summary summary = summarize(std::move(income));
    return {summary.p10, summary.p50, summary.p90};
}

}  // namespace payback
