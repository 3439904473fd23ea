// A scenario back to TOML with every default filled in: what `payback check` prints, and a
// round trip (to_toml then parse_scenario gives the same scenario).
#include <sstream>

#include <toml++/toml.h>

#include "payback/scenario.hpp"

namespace payback {

namespace {

toml::table resale_table(const ResaleCurve<double>& curve) {
    toml::table t{{"method", to_string(curve.method)}};
    if (curve.method == ResaleMethod::declining_balance) t.insert("annual_rate", curve.annual_rate);
    if (curve.method == ResaleMethod::straight_line) {
        t.insert("life_years", curve.life_years);
        t.insert("salvage_fraction", curve.salvage_fraction);
    }
    return t;
}

}  // namespace

std::string to_toml(const Scenario& s) {
    toml::array parts;
    for (const Part& p : s.rig.parts) {
        toml::table part{{"kind", to_string(p.kind)},
                         {"name", p.name},
                         {"price", units::in_money(p.price)},
                         {"count", p.count},
                         {"idle_watts", units::in_watts(p.idle_power)},
                         {"load_watts", units::in_watts(p.load_power)}};
        auto resale = resale_table(p.resale);
        resale.is_inline(true);
        part.insert("resale", std::move(resale));
        parts.push_back(std::move(part));
    }
    toml::array clouds;
    for (const CloudOption& c : s.clouds)
        clouds.push_back(toml::table{{"name", c.name},
                                     {"price_per_hour", units::in_money_per_hour(c.price)},
                                     {"speedup", c.speedup}});

    toml::table root{
        {"scenario", toml::table{{"name", s.name},
                                 {"currency", s.currency},
                                 {"horizon_months", s.horizon_months},
                                 {"discount_rate", s.discount_rate}}},
        {"workload", toml::table{{"gpu_hours_per_month", units::in_hours(s.training_per_month)}}},
        {"rig", toml::table{{"name", s.rig.name},
                            {"when_not_training", to_string(s.rig.when_not_training)},
                            {"psu_efficiency", s.rig.psu_efficiency},
                            {"parts", std::move(parts)}}},
        {"electricity", toml::table{{"price_per_kwh", units::in_money_per_kwh(s.electricity_price)}}},
    };
    if (!clouds.empty()) root.insert("cloud", std::move(clouds));
    std::ostringstream out;
    out << root << '\n';
    return out.str();
}

}  // namespace payback
