// The scenario schema: which tables and keys a scenario has, their types, ranges and defaults.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "overrides.hpp"
#include "payback/conventions.hpp"
#include "payback/scenario.hpp"
#include "toml_reader.hpp"

namespace payback {

using detail::NumberRule;
using detail::TomlReader;

namespace {

const std::vector<std::pair<std::string, PartKind>> part_kinds = {
    {"cpu", PartKind::cpu},         {"gpu", PartKind::gpu},       {"ram", PartKind::ram},
    {"storage", PartKind::storage}, {"motherboard", PartKind::motherboard},
    {"psu", PartKind::psu},         {"case", PartKind::case_},    {"cooler", PartKind::cooler},
    {"network", PartKind::network}, {"other", PartKind::other}};

const std::vector<std::pair<std::string, ResaleMethod>> resale_methods = {
    {"none", ResaleMethod::none},
    {"declining_balance", ResaleMethod::declining_balance},
    {"straight_line", ResaleMethod::straight_line},
    {"price_performance", ResaleMethod::price_performance},
    {"observed", ResaleMethod::observed}};

const std::vector<std::pair<std::string, Perspective>> perspectives = {
    {"hobbyist", Perspective::hobbyist}, {"business", Perspective::business}};

const std::vector<std::pair<std::string, finance::TaxDepreciation>> tax_depreciations = {
    {"none", finance::TaxDepreciation::none},
    {"straight_line", finance::TaxDepreciation::straight_line},
    {"double_declining_balance", finance::TaxDepreciation::double_declining_balance},
    {"sum_of_years_digits", finance::TaxDepreciation::sum_of_years_digits},
    {"macrs_5", finance::TaxDepreciation::macrs_5},
    {"custom", finance::TaxDepreciation::custom}};

// An escalation or inflation rate per year: above -100 %, at most +100 %.
NumberRule annual_change() { return NumberRule::rate(); }

// What the part readers need to know of the scenario read so far.
struct PartContext {
    std::filesystem::path scenario_dir;  ///< observed price files are relative to the scenario file
    std::string currency;
    std::optional<std::string> start;
    int horizon_months;
};

const std::vector<std::pair<std::string, WhenNotTraining>> idle_modes = {
    {"idle", WhenNotTraining::idle}, {"off", WhenNotTraining::off}};

// Currencies in which a kWh costs well under 2 units; a larger figure there is almost surely cents.
bool kwh_priced_in_units(const std::string& currency) {
    for (const char* c : {"USD", "EUR", "GBP", "CHF", "CAD", "AUD", "NZD", "SGD"})
        if (currency == c) return true;
    return false;
}

void read_observed(const TomlReader& resale, const PartContext& context, Part& part) {
    part.observed_file = resale.string("file");
    const std::string item = resale.string("item");
    if (!context.start)
        throw resale.error("method", "the observed method needs scenario.start = \"YYYY-MM\", the calendar month "
                                     "that month 1 is");
    const std::filesystem::path file(part.observed_file);
    const std::string path = file.is_absolute() ? file.string() : (context.scenario_dir / file).lexically_normal().string();
    PriceSchedule schedule = load_price_schedule(path, item);
    if (schedule.currency != context.currency)
        throw resale.error("item", fmt::format("{} prices \"{}\" in {}, the scenario is in {}", path, item,
                                               schedule.currency, context.currency));
    part.observed_prices = std::move(schedule);
}

ResaleCurve<double> read_resale(const TomlReader& part_table, const PartContext& context, Part& part) {
    ResaleCurve<double> curve;
    const auto resale = part_table.table("resale", false);
    if (!resale) return curve;
    curve.method = resale->choice("method", resale_methods);
    switch (curve.method) {
        case ResaleMethod::none: break;
        case ResaleMethod::declining_balance:
            curve.annual_rate = resale->number("annual_rate", NumberRule::fraction());
            break;
        case ResaleMethod::straight_line:
            curve.life_years = resale->number("life_years", NumberRule::positive());
            curve.salvage_fraction = resale->number_or("salvage_fraction", 0.0, NumberRule::fraction());
            break;
        case ResaleMethod::price_performance:
            curve.half_life_years = resale->number("half_life_years", NumberRule::positive());
            break;
        case ResaleMethod::observed:
            read_observed(*resale, context, part);
            break;
    }
    resale->finish();
    return curve;
}

Part read_part(const TomlReader& in, const PartContext& context) {
    Part part;
    part.kind = in.choice("kind", part_kinds);
    part.name = in.string("name");
    part.price = units::money(in.number("price", NumberRule::non_negative()));
    part.count = static_cast<int>(in.integer_or("count", 1, 1, 1000));
    part.idle_power = units::watts(in.number_or("idle_watts", 0.0, NumberRule::non_negative()));
    part.load_power = units::watts(in.number_or("load_watts", 0.0, NumberRule::non_negative()));
    part.purchase_month = static_cast<int>(in.integer_or("purchase_month", 1, 1, context.horizon_months));
    if (in.contains("retire_month"))
        part.retire_month = static_cast<int>(
            in.integer_or("retire_month", 0, part.purchase_month, conventions::max_horizon_months));
    part.resale = read_resale(in, context, part);
    in.finish();
    return part;
}

Rig read_rig(const TomlReader& in, const PartContext& context) {
    Rig rig;
    rig.name = in.string_or("name", rig.name);
    rig.when_not_training = in.choice("when_not_training", idle_modes, std::optional(WhenNotTraining::idle));
    rig.psu_efficiency = in.number_or("psu_efficiency", 1.0, NumberRule::positive_fraction());
    for (const auto& part : in.array_of_tables("parts", true)) rig.parts.push_back(read_part(part, context));
    if (rig.parts.empty()) throw in.error("parts", "expected at least one part, got an empty list");
    in.finish();
    return rig;
}

std::vector<CloudOption> read_clouds(const TomlReader& root, const std::string& rig_name) {
    std::vector<CloudOption> clouds;
    for (const auto& in : root.array_of_tables("cloud", false)) {
        CloudOption cloud;
        cloud.name = in.string("name");
        if (cloud.name == rig_name) throw in.error("name", "\"" + cloud.name + "\" is the rig's name too");
        for (const auto& other : clouds)
            if (other.name == cloud.name)
                throw in.error("name", "duplicate cloud option \"" + cloud.name + "\"");
        cloud.price = units::money_per_hour(in.number("price_per_hour", NumberRule::non_negative()));
        cloud.speedup = in.number_or("speedup", 1.0, NumberRule::positive());
        cloud.escalation = in.number_or("escalation", 0.0, annual_change());
        cloud.storage_per_month = units::money(in.number_or("storage_per_month", 0.0, NumberRule::non_negative()));
        in.finish();
        clouds.push_back(cloud);
    }
    return clouds;
}

RunningCosts read_running_costs(const TomlReader& root) {
    RunningCosts costs;
    const auto in = root.table("running_costs", false);
    if (!in) return costs;
    costs.maintenance_per_year = units::money(in->number_or("maintenance_per_year", 0.0, NumberRule::non_negative()));
    costs.repair_reserve = in->number_or("repair_reserve", 0.0, NumberRule::fraction());
    in->finish();
    return costs;
}

std::optional<Financing> read_financing(const TomlReader& root) {
    const auto in = root.table("financing", false);
    if (!in) return std::nullopt;
    Financing loan;
    loan.down_payment = units::money(in->number_or("down_payment", 0.0, NumberRule::non_negative()));
    loan.apr = in->number("apr", NumberRule::fraction());
    loan.term_months = static_cast<int>(in->integer_or("term_months", loan.term_months, 1, conventions::max_horizon_months));
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
    tax.income_tax_rate = in->number("income_tax_rate", {0.0, 1.0, false, true, true});
    tax.depreciation = in->choice("depreciation", tax_depreciations, std::optional(tax.depreciation));
    tax.life_years = static_cast<int>(in->integer_or("life_years", tax.life_years, 1, 50));
    if (tax.depreciation == finance::TaxDepreciation::custom) {
        tax.custom_schedule = in->numbers("custom_schedule", NumberRule::fraction());
        double sum = 0.0;
        for (double share : tax.custom_schedule) sum += share;
        if (tax.custom_schedule.empty() || sum > 1.0 + 1e-9)
            throw in->error("custom_schedule", fmt::format("must list the share deducted each year, adding up "
                                                           "to at most 1, got a sum of {}", sum));
    }
    tax.deduct_running_costs = in->boolean_or("deduct_running_costs", tax.deduct_running_costs);
    in->finish();
    return tax;
}

// "YYYY-MM" with a real month.
bool is_year_month(const std::string& text) {
    if (text.size() != 7 || text[4] != '-') return false;
    for (std::size_t i : {0, 1, 2, 3, 5, 6})
        if (text[i] < '0' || text[i] > '9') return false;
    const int month = std::stoi(text.substr(5, 2));
    return month >= 1 && month <= 12;
}

std::string stem_of(const std::string& path) {
    const auto slash = path.find_last_of('/');
    std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    if (const auto dot = name.rfind('.'); dot != std::string::npos && dot > 0) name.resize(dot);
    return name;
}

Scenario read_scenario(const toml::table& root_table, const std::string& source) {
    const TomlReader root(root_table, source, "", 0);
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
            meta->integer_or("horizon_months", s.horizon_months, 1, conventions::max_horizon_months));
        s.inflation = meta->number_or("inflation", 0.0, annual_change());
        if (meta->contains("discount_rate") && meta->contains("real_discount_rate"))
            throw meta->error("real_discount_rate", "give discount_rate (nominal) or real_discount_rate, not both");
        if (meta->contains("real_discount_rate")) {
            s.real_discount_rate = meta->number("real_discount_rate", NumberRule::rate());
            s.discount_rate = finance::nominal_rate(*s.real_discount_rate, s.inflation);
        } else {
            s.discount_rate = meta->number_or("discount_rate", 0.0, NumberRule::rate());
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

    const auto workload = root.table("workload", true);
    s.training_per_month = units::hours(
        workload->number("gpu_hours_per_month", NumberRule::between(0.0, conventions::hours_per_month)));
    workload->finish();

    const std::filesystem::path scenario_dir = std::filesystem::path(source).parent_path();
    s.rig = read_rig(*root.table("rig", true), {scenario_dir, s.currency, s.start, s.horizon_months});

    const auto electricity = root.table("electricity", true);
    const double price_per_kwh = electricity->number("price_per_kwh", NumberRule::non_negative());
    if (kwh_priced_in_units(s.currency) && price_per_kwh >= 2.0)
        throw electricity->error(
            "price_per_kwh",
            fmt::format("must be in {} per kWh, got {} (cents? write {} for {} cents)", s.currency,
                        price_per_kwh, price_per_kwh / 100.0, price_per_kwh));
    s.electricity_price = units::money_per_kwh(price_per_kwh);
    s.electricity_escalation = electricity->number_or("escalation", 0.0, annual_change());
    electricity->finish();

    s.running_costs = read_running_costs(root);
    s.financing = read_financing(root);
    s.tax = read_tax(root, s.perspective);
    s.clouds = read_clouds(root, s.rig.name);
    root.finish();
    return s;
}

}  // namespace

Scenario parse_scenario(const std::string& toml_text, const std::string& source,
                        const std::vector<Override>& overrides) {
    toml::table root;
    try {
        root = toml::parse(toml_text, source);
    } catch (const toml::parse_error& e) {
        throw InputError(source, static_cast<int>(e.source().begin.line), "",
                         "syntax error: " + std::string(e.description()));
    }
    for (const auto& o : overrides) detail::apply_override(root, o);
    return read_scenario(root, source);
}

Scenario load_scenario(const std::string& path, const std::vector<Override>& overrides) {
    std::error_code error;
    if (!std::filesystem::is_regular_file(path, error))
        throw InputError(path, 0, "", std::filesystem::exists(path, error) ? "not a regular file"
                                                                        : "no such scenario file");
    std::ifstream file(path, std::ios::binary);
    if (!file) throw InputError(path, 0, "", "cannot open the scenario file");
    std::ostringstream text;
    text << file.rdbuf();
    return parse_scenario(text.str(), path, overrides);
}

const char* to_string(PartKind kind) {
    for (const auto& [name, value] : part_kinds)
        if (value == kind) return name.c_str();
    return "other";
}

const char* to_string(ResaleMethod method) {
    for (const auto& [name, value] : resale_methods)
        if (value == method) return name.c_str();
    return "none";
}

const char* to_string(Perspective perspective) {
    return perspective == Perspective::hobbyist ? "hobbyist" : "business";
}

const char* to_string(WhenNotTraining mode) { return mode == WhenNotTraining::idle ? "idle" : "off"; }

}  // namespace payback
