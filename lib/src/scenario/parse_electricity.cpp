// The [electricity] table: one tariff (a flat price, block tiers over the household's base load,
// an OpenEI URDB record, or time-of-use periods with 12 × 24 schedules), its escalation, and the
// grid's carbon intensity.
#include <cmath>

#include <fmt/format.h>

#include "payback/energy/urdb.hpp"
#include "payback/market/catalog.hpp"
#include "scenario/scenario_readers.hpp"

namespace payback::detail {

namespace {

std::vector<Tier> read_tiers(const TomlReader& in, std::string_view key, const std::string& currency) {
    std::vector<Tier> tiers;
    const auto tables = in.array_of_tables(key, true);
    if (tables.empty()) throw in.error(key, "expected at least one tier");
    for (std::size_t i = 0; i < tables.size(); ++i) {
        const TomlReader& t = tables[i];
        Tier tier;
        tier.rate = read_kwh_price(t, "price", currency);
        if (t.contains("up_to_kwh")) tier.max_kwh = t.number("up_to_kwh");
        if (!tier.max_kwh && i + 1 < tables.size())
            throw t.error("up_to_kwh", "missing required key: every tier but the last needs up_to_kwh");
        if (tier.max_kwh && !tiers.empty() && tiers.back().max_kwh && *tier.max_kwh <= *tiers.back().max_kwh)
            throw t.error("up_to_kwh", fmt::format("must grow from tier to tier, got {} after {}", *tier.max_kwh,
                                                   *tiers.back().max_kwh));
        t.finish();
        tiers.push_back(tier);
    }
    return tiers;
}

MonthHourMatrix read_matrix(const TomlReader& in, std::string_view key, int periods) {
    const auto rows = in.integer_matrix(key, 12, 24, 0, periods - 1);
    MonthHourMatrix matrix{};
    for (std::size_t m = 0; m < 12; ++m)
        for (std::size_t h = 0; h < 24; ++h) matrix[m][h] = rows[m][h];
    return matrix;
}

Tariff read_tou(const TomlReader& in, const std::string& currency) {
    Tariff tariff;
    tariff.name = "time-of-use";
    for (const auto& p : in.array_of_tables("periods", true)) {
        TouPeriod period;
        period.name = p.string("name");
        if (p.contains("price") == p.contains("tiers"))
            throw p.error("price", "give a period either price or tiers");
        if (p.contains("price"))
            period.tiers.push_back({std::nullopt, read_kwh_price(p, "price", currency)});
        else
            period.tiers = read_tiers(p, "tiers", currency);
        p.finish();
        tariff.periods.push_back(period);
    }
    if (tariff.periods.empty()) throw in.error("periods", "expected at least one period");
    const int count = static_cast<int>(tariff.periods.size());
    tariff.weekday = read_matrix(in, "weekday_schedule", count);
    tariff.weekend = in.contains("weekend_schedule") ? read_matrix(in, "weekend_schedule", count) : tariff.weekday;
    return tariff;
}

}  // namespace

double read_kwh_price(const TomlReader& in, std::string_view key, const std::string& currency) {
    const double price = in.number(key);
    if (major_currency(currency) && price >= 2.0)
        throw in.error(key, fmt::format("must be in {} per kWh, got {} (cents? write {} for {} cents)", currency,
                                        price, price / 100.0, price));
    return price;
}

void read_electricity(const TomlReader& in, const ReadContext& context, Scenario& s) {
    const char* kinds[] = {"price_per_kwh", "region", "tiers", "urdb", "periods"};
    int given = 0;
    for (const char* kind : kinds) given += in.contains(kind) ? 1 : 0;
    if (given != 1)
        throw in.error(given == 0 ? "price_per_kwh" : "tiers",
                       given == 0 ? "missing required key (a number; or region, tiers, urdb or periods)"
                                  : "give one tariff: price_per_kwh, region, tiers, urdb or periods");
    if (in.contains("price_per_kwh")) {
        const double price = read_kwh_price(in, "price_per_kwh", s.currency);
        s.electricity_price = units::money_per_kwh(price);
        s.tariff = flat_tariff(price);
        s.tariff_kind = "flat";
    } else if (in.contains("region")) {
        // The latest average price of a region in pricing/electricity-prices.csv.
        s.electricity_region = in.string("region");
        try {
            const ElectricityRate& rate = context.catalog().rate(s.electricity_region, context.prices_at);
            if (rate.currency != s.currency)
                throw InputError("pricing", 0, "region", fmt::format("{} is priced in {}, the scenario is in {}",
                                                                     rate.region, rate.currency, s.currency));
            s.electricity_price = units::money_per_kwh(rate.price_per_kwh);
            s.electricity_origin = rate.origin.describe();
            context.used_price_of(rate.origin.as_of);
            s.tariff = flat_tariff(rate.price_per_kwh);
            s.tariff_kind = "region";
        } catch (const InputError& e) {
            throw in.error("region", e.message());
        }
    } else if (in.contains("tiers")) {
        s.tariff = tiered_tariff(read_tiers(in, "tiers", s.currency));
        s.tariff_kind = "tiered";
    } else if (in.contains("urdb")) {
        s.tariff_file = in.string("urdb");
        const std::filesystem::path file(s.tariff_file);
        const std::filesystem::path path = file.is_absolute() ? file : (context.scenario_dir / file).lexically_normal();
        s.tariff = load_urdb_tariff(path.string());
        s.tariff_kind = "urdb";
    } else {
        s.tariff = read_tou(in, s.currency);
        s.tariff_kind = "tou";
    }
    s.tariff.base_load_kwh_per_month = in.number_or("base_load_kwh_per_month");
    s.electricity_escalation = in.number_or("escalation");

    if (in.contains("grid_region") && in.contains("co2_kg_per_kwh"))
        throw in.error("grid_region", "give grid_region (looked up in pricing/grid-carbon.csv) or co2_kg_per_kwh, "
                                      "not both");
    // The grid of the price region, when the carbon file has it and nothing else is said.
    if (!s.electricity_region.empty() && !in.contains("grid_region") && !in.contains("co2_kg_per_kwh")) try {
            s.grid_co2_kg_per_kwh = Catalog::shipped().grid_carbon().find(s.electricity_region).kg_co2_per_kwh;
            s.grid_region = s.electricity_region;
        } catch (const InputError&) {
        }
    if (in.contains("grid_region")) {
        s.grid_region = in.string("grid_region");
        const GridCarbonTable& grids = Catalog::shipped().grid_carbon();  // a bad catalog names its own file
        try {
            s.grid_co2_kg_per_kwh = grids.find(s.grid_region).kg_co2_per_kwh;
        } catch (const InputError& e) {
            throw in.error("grid_region", e.message());
        }
    }
    s.grid_co2_kg_per_kwh = in.number_or("co2_kg_per_kwh", s.grid_co2_kg_per_kwh);
    in.finish();
}

}  // namespace payback::detail
