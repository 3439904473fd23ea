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
    {"straight_line", ResaleMethod::straight_line}};

const std::vector<std::pair<std::string, WhenNotTraining>> idle_modes = {
    {"idle", WhenNotTraining::idle}, {"off", WhenNotTraining::off}};

// Currencies in which a kWh costs well under 2 units; a larger figure there is almost surely cents.
bool kwh_priced_in_units(const std::string& currency) {
    for (const char* c : {"USD", "EUR", "GBP", "CHF", "CAD", "AUD", "NZD", "SGD"})
        if (currency == c) return true;
    return false;
}

ResaleCurve<double> read_resale(const TomlReader& part) {
    ResaleCurve<double> curve;
    const auto resale = part.table("resale", false);
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
    }
    resale->finish();
    return curve;
}

Part read_part(const TomlReader& in) {
    Part part;
    part.kind = in.choice("kind", part_kinds);
    part.name = in.string("name");
    part.price = units::money(in.number("price", NumberRule::non_negative()));
    part.count = static_cast<int>(in.integer_or("count", 1, 1, 1000));
    part.idle_power = units::watts(in.number_or("idle_watts", 0.0, NumberRule::non_negative()));
    part.load_power = units::watts(in.number_or("load_watts", 0.0, NumberRule::non_negative()));
    part.resale = read_resale(in);
    in.finish();
    return part;
}

Rig read_rig(const TomlReader& in) {
    Rig rig;
    rig.name = in.string_or("name", rig.name);
    rig.when_not_training = in.choice("when_not_training", idle_modes, std::optional(WhenNotTraining::idle));
    rig.psu_efficiency = in.number_or("psu_efficiency", 1.0, NumberRule::positive_fraction());
    for (const auto& part : in.array_of_tables("parts", true)) rig.parts.push_back(read_part(part));
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
        in.finish();
        clouds.push_back(cloud);
    }
    return clouds;
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
        s.discount_rate = meta->number_or("discount_rate", 0.0, NumberRule::rate());
        meta->finish();
    } else {
        s.name = stem_of(source);
    }

    const auto workload = root.table("workload", true);
    s.training_per_month = units::hours(
        workload->number("gpu_hours_per_month", NumberRule::between(0.0, conventions::hours_per_month)));
    workload->finish();

    s.rig = read_rig(*root.table("rig", true));

    const auto electricity = root.table("electricity", true);
    const double price_per_kwh = electricity->number("price_per_kwh", NumberRule::non_negative());
    if (kwh_priced_in_units(s.currency) && price_per_kwh >= 2.0)
        throw electricity->error(
            "price_per_kwh",
            fmt::format("must be in {} per kWh, got {} (cents? write {} for {} cents)", s.currency,
                        price_per_kwh, price_per_kwh / 100.0, price_per_kwh));
    s.electricity_price = units::money_per_kwh(price_per_kwh);
    electricity->finish();

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

const char* to_string(WhenNotTraining mode) { return mode == WhenNotTraining::idle ? "idle" : "off"; }

}  // namespace payback
