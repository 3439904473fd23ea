// The scenario schema: which tables and keys a scenario has, their types, ranges and defaults.
#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "payback/base/calendar.hpp"
#include "payback/base/conventions.hpp"
#include "payback/base/text_file.hpp"
#include "payback/energy/carbon.hpp"
#include "payback/market/catalog.hpp"
#include "payback/scenario/rig_links.hpp"
#include "payback/scenario/scenario.hpp"
#include "scenario/key_paths.hpp"
#include "scenario/overrides.hpp"
#include "scenario/scenario_readers.hpp"
#include "scenario/toml_reader.hpp"

namespace payback {

using detail::TomlReader;
using detail::read_rig;

namespace {

const std::vector<std::pair<std::string, Perspective>> perspectives = {
    {"hobbyist", Perspective::hobbyist}, {"business", Perspective::business}};

const std::vector<std::pair<std::string, finance::TaxDepreciation>> tax_depreciations = {
    {"none", finance::TaxDepreciation::none},
    {"straight_line", finance::TaxDepreciation::straight_line},
    {"double_declining_balance", finance::TaxDepreciation::double_declining_balance},
    {"sum_of_years_digits", finance::TaxDepreciation::sum_of_years_digits},
    {"macrs_5", finance::TaxDepreciation::macrs_5},
    {"custom", finance::TaxDepreciation::custom}};

// [rental]: renting the untrained hours out. A market from pricing/rental-markets.csv gives the
// price, fee and occupancy for the rig's GPU (gpu = "..."); the table's own keys override them.
std::optional<Rental> read_rental(const TomlReader& root, const detail::ReadContext& context, const Rig& rig) {
    const std::string& currency = context.currency;
    const auto in = root.table("rental", false);
    if (!in) return std::nullopt;
    Rental r;
    const RentalMarket* row = nullptr;
    if (in->contains("market")) {
        r.market = in->string("market");
        std::string gpu;
        for (const Part& part : rig.parts)
            if (!part.catalog_gpu.empty() && gpu.empty()) gpu = part.catalog_gpu;
        try {
            row = &context.catalog().rental_market(r.market, gpu, context.prices_at);
        } catch (const InputError& e) {
            throw in->error("market", gpu.empty() ? "the rig's GPU must come from the catalog (gpu = \"...\") to look "
                                                    "up its market price" : e.message());
        }
        if (row->currency != currency)
            throw in->error("market", "the market's prices are in " + row->currency + ", the scenario is in " + currency);
    }
    const std::string origin = row ? row->origin.describe() : std::string();
    if (row && row->host_price_per_hour && !in->contains("price_per_gpu_hour")) context.used_price_of(row->origin.as_of);
    auto from = [&](std::string_view key, std::optional<double> catalog) {
        return detail::number_or_catalog(*in, key, catalog, origin, r.from_catalog);
    };
    r.terms.price_per_gpu_hour = from("price_per_gpu_hour", row ? row->host_price_per_hour : std::nullopt);
    r.terms.occupancy = from("occupancy", row ? row->occupancy : std::nullopt);
    r.terms.platform_fee = from("platform_fee", row ? row->platform_fee : std::nullopt);
    r.terms.halving_years = in->number_or("halving_years");
    r.terms.extra_income_per_month = in->number_or("extra_income_per_month");
    r.terms.wear_per_1000_hours = in->number_or("wear_per_1000_hours");
    for (const auto& booking : in->array_of_tables("reserved", false)) {
        ReservedBooking b{booking.number("share"), 0.0};
        if (booking.contains("discount")) {
            b.discount = booking.number("discount");
        } else {
            if (!booking.contains("months"))
                throw booking.error("months", "missing required key: give months (a catalog discount) or discount");
            const auto months = booking.integer_or("months", 0);
            bool found = false;
            for (const auto& d : Catalog::shipped().rental_discounts())
                if (d.market == r.market && d.months == months) {
                    b.discount = d.discount;
                    found = true;
                }
            if (!found)
                throw booking.error("months", fmt::format("no {}-month discount for market \"{}\" in the catalog: give "
                                                          "discount", months, r.market));
        }
        booking.finish();
        r.bookings.push_back(b);
    }
    try {
        r.terms.reserved_discount = blended_reserved_discount(r.bookings);
    } catch (const std::invalid_argument& e) {
        throw in->error("reserved", e.what());
    }
    in->finish();
    return r;
}

RunningCosts read_running_costs(const TomlReader& root) {
    RunningCosts costs;
    const auto in = root.table("running_costs", false);
    if (!in) return costs;
    costs.maintenance_per_year = units::money(in->number_or("maintenance_per_year"));
    costs.repair_reserve = in->number_or("repair_reserve");
    in->finish();
    return costs;
}

std::optional<Financing> read_financing(const TomlReader& root) {
    const auto in = root.table("financing", false);
    if (!in) return std::nullopt;
    Financing loan;
    loan.down_payment = units::money(in->number_or("down_payment"));
    loan.apr = in->number("apr");
    loan.term_months = static_cast<int>(in->integer_or("term_months"));
    in->finish();
    return loan;
}

std::optional<TaxRules> read_tax(const TomlReader& root, Perspective perspective) {
    const auto in = root.table("tax", false);
    if (perspective == Perspective::hobbyist) {
        if (in) throw root.error("tax", "taxes apply to the business perspective: set scenario.perspective = \"business\"");
        return std::nullopt;
    }
    if (!in) throw root.error("tax", "missing required table (scenario.perspective = \"business\" needs a [tax] table)");
    TaxRules tax;
    tax.income_tax_rate = in->number("income_tax_rate");
    tax.depreciation = in->choice("depreciation", tax_depreciations, std::optional(tax.depreciation));
    tax.life_years = static_cast<int>(in->integer_or("life_years"));
    if (tax.depreciation == finance::TaxDepreciation::custom) {
        tax.custom_schedule = in->numbers("custom_schedule");
        double sum = 0.0;
        for (double share : tax.custom_schedule) sum += share;
        if (tax.custom_schedule.empty() || sum > 1.0 + 1e-9)
            throw in->error("custom_schedule", fmt::format("must list the share deducted each year, adding up "
                                                           "to at most 1, got a sum of {}", sum));
    }
    tax.deduct_running_costs = in->boolean_or("deduct_running_costs");
    in->finish();
    return tax;
}

// The owner's training hours a month: as given, or as the rig's schedule has them (both must agree).
double training_hours(const TomlReader& root, const std::optional<TomlReader>& workload,
                      std::optional<double> given, const Rig& rig, bool serves_tokens) {
    if (rig.schedule.empty()) {
        if (!given && serves_tokens) return 0.0;  // the rig serves and does not train
        if (!given) {
            if (!workload) throw root.error("workload", "missing required key (a table, or rig.schedule)");
            throw workload->error("gpu_hours_per_month", "missing required key (a number, or give rig.schedule)");
        }
        return *given;
    }
    const PowerState otherwise = rig.when_not_training == WhenNotTraining::idle ? PowerState::idle : PowerState::off;
    const double scheduled = parse_schedule(rig.schedule, otherwise).hours_per_month(PowerState::training);
    if (given && std::abs(*given - scheduled) > 0.05)
        throw workload->error("gpu_hours_per_month",
                              fmt::format("is {} but rig.schedule trains {:.2f} h a month: give one or make them agree",
                                          *given, scheduled));
    return scheduled;
}

std::string stem_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    if (const auto dot = name.rfind('.'); dot != std::string::npos && dot > 0) name.resize(dot);
    return name;
}

Scenario read_scenario(const toml::table& root_table, const std::string& source,
                       const PriceChoice& prices) {
    // Money's plausible limits scale with the currency (scenario/keys.hpp): look at it first.
    const auto* currency = root_table.at_path("scenario.currency").as_string();
    const double money_scale = currency && !major_currency(currency->get()) ? minor_currency_scale : 1.0;
    const TomlReader root(root_table, source, "", 0, "", money_scale);
    Scenario s;
    s.source = source;

    if (const auto meta = root.table("scenario", false)) {
        s.name = meta->string_or("name", stem_of(source));
        s.currency = meta->string_or("currency", s.currency);
        const auto is_capital = [](char c) { return c >= 'A' && c <= 'Z'; };
        if (s.currency.size() != 3 || !std::all_of(s.currency.begin(), s.currency.end(), is_capital))
            throw meta->error("currency", "expected a three-letter ISO 4217 code such as \"USD\", got \"" +
                                              s.currency + "\"");
        s.horizon_months = static_cast<int>(
            meta->integer_or("horizon_months"));
        s.inflation = meta->number_or("inflation");
        if (meta->contains("discount_rate") && meta->contains("real_discount_rate"))
            throw meta->error("real_discount_rate", "give discount_rate (nominal) or real_discount_rate, not both");
        if (meta->contains("real_discount_rate")) {
            s.real_discount_rate = meta->number("real_discount_rate");
            s.discount_rate = finance::nominal_rate(*s.real_discount_rate, s.inflation);
        } else {
            s.discount_rate = meta->number_or("discount_rate");
        }
        if (meta->contains("start")) {
            s.start = meta->string("start");
            if (!is_year_month(*s.start))
                throw meta->error("start", "expected a calendar month \"YYYY-MM\", got \"" + *s.start + "\"");
        }
        s.perspective = meta->choice("perspective", perspectives, std::optional(Perspective::hobbyist));
        meta->finish();
    } else {
        s.name = stem_of(source);
    }

    // The workload may be left out when the rig's schedule says when it trains.
    const auto workload = root.table("workload", false);
    std::optional<double> hours;
    if (workload && workload->contains("gpu_hours_per_month"))
        hours = workload->number("gpu_hours_per_month");
    if (workload) {
        s.deferrable_training = workload->boolean_or("deferrable");
        if (workload->contains("job_hours")) s.job_hours = workload->number("job_hours");
    }

    s.prices = prices;
    const detail::ReadContext context{std::filesystem::path(source).parent_path(), s.currency, s.start,
                                      s.horizon_months, prices.at, &prices.catalogs(), &s.price_dates};
    s.rig = read_rig(*root.table("rig", true), context);
    RigScaling scaling = rig_scaling(s);
    if (workload && workload->contains("job")) {
        if (hours) throw workload->error("job", "give gpu_hours_per_month or job, not both");
        s.job = detail::read_job(*workload, context, s.rig, scaling);
        hours = s.job->runs_per_month * s.job->rig_hours_per_run();
        if (*hours > conventions::hours_per_month)
            throw workload->error("job", fmt::format("takes {:.1f} h a month on the rig ({:.0f} samples/s), more than "
                                                     "the month's 730 h",
                                                     *hours, s.job->rig_samples_per_second()));
        if (!s.job_hours) s.job_hours = s.job->rig_hours_per_run();
        scaling.efficiency = s.job->scaling_efficiency;  // the rig's GPUs on this model
    } else if (workload && workload->contains("calibration")) {
        throw workload->error("calibration", "needs workload.job: the runs the profile is to time");
    }
    if (workload && workload->contains("tokens")) s.tokens = detail::read_tokens(*workload);
    if (workload) workload->finish();
    s.training_per_month = units::hours(training_hours(root, workload, hours, s.rig, s.tokens.has_value()));
    if (s.tokens) {
        detail::predict_rig_rates(root, context, s, scaling.link_gb_per_s);
        s.serving_hours_per_month = detail::rig_serving_hours(root, s);
    }
    else if (s.rig.tokens_per_second)
        throw root.table("rig", true)->error("tokens_per_second", "needs workload.tokens: the tokens to serve");

    detail::read_electricity(*root.table("electricity", true), context, s);

    s.running_costs = read_running_costs(root);
    s.financing = read_financing(root);
    s.tax = read_tax(root, s.perspective);
    s.rental = read_rental(root, context, s.rig);
    s.clouds = detail::read_clouds(root, context, s.rig, s.job ? &*s.job : nullptr, s.tokens ? &*s.tokens : nullptr);
    for (CloudOption& api : detail::read_apis(root, context, s)) s.clouds.push_back(std::move(api));
    s.uncertainty = detail::read_uncertainty(root);
    root.finish();
    const ScalingWorkload scaling_workload = s.job ? detail::job_scaling_workload(*s.job) : default_scaling_workload();
    for (CloudOption& cloud : s.clouds)
        if (cloud.per_gpu_speedup)
            cloud.speedup = cloud_speedup(*cloud.per_gpu_speedup, cloud.gpus, cloud.interconnect_gb_per_s, scaling,
                                          scaling_workload);
    detail::check_rig(root, s);
    for (const UncertainInput& input : s.uncertainty.inputs)  // each must name a key that can vary
        (void)detail::numeric_key_value(s, input.key, source, input.line);
    return s;
}

}  // namespace

const Catalog& PriceChoice::catalogs() const { return catalog ? *catalog : Catalog::shipped(); }

Scenario parse_scenario(const std::string& toml_text, const std::string& source,
                        const std::vector<Override>& overrides, const PriceChoice& prices) {
    toml::table root;
    try {
        root = toml::parse(toml_text, source);
    } catch (const toml::parse_error& e) {
        throw InputError(source, static_cast<int>(e.source().begin.line), "",
                         "syntax error: " + std::string(e.description()));
    }
    if (root.empty() && overrides.empty())
        throw InputError(source, 0, "", "the scenario is empty: it needs at least [rig] with its parts and "
                                        "[electricity] (see scenarios/ for examples)");
    for (const auto& o : overrides) detail::apply_override(root, o);
    return read_scenario(root, source, prices);
}

Scenario load_scenario(const std::string& path, const std::vector<Override>& overrides,
                       const PriceChoice& prices) {
    return parse_scenario(detail::read_text_file(path, "scenario file"), path, overrides, prices);
}

const char* to_string(Perspective perspective) {
    return perspective == Perspective::hobbyist ? "hobbyist" : "business";
}


}  // namespace payback
