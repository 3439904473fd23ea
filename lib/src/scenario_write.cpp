// A scenario back to TOML with every default filled in: what `payback check` prints, and a
// round trip (to_toml then parse_scenario gives the same scenario). Written by hand rather than
// with toml++'s printer to keep the schema's key order and the shortest exact form of each number
// (0.1, not 0.10000000000000001).
#include <sstream>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "payback/scenario.hpp"

namespace payback {

namespace {

std::string quoted(const std::string& text) {
    std::ostringstream out;
    out << toml::value<std::string>(text);  // toml++ escapes and quotes
    return out.str();
}

// Shortest form that reads back to the same double; always with a point or exponent, so TOML
// keeps it a float.
std::string number(double value) {
    std::string text = fmt::format("{}", value);
    if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
    return text;
}

std::string resale_inline(const ResaleCurve<double>& curve) {
    std::string out = fmt::format("{{ method = \"{}\"", to_string(curve.method));
    if (curve.method == ResaleMethod::declining_balance)
        out += ", annual_rate = " + number(curve.annual_rate);
    if (curve.method == ResaleMethod::straight_line)
        out += ", life_years = " + number(curve.life_years) +
               ", salvage_fraction = " + number(curve.salvage_fraction);
    return out + " }";
}

}  // namespace

std::string to_toml(const Scenario& s) {
    std::string out;
    out += "[scenario]\n";
    out += "name = " + quoted(s.name) + "\n";
    out += "currency = " + quoted(s.currency) + "\n";
    out += fmt::format("horizon_months = {}\n", s.horizon_months);
    out += "discount_rate = " + number(s.discount_rate) + "\n";

    out += "\n[workload]\n";
    out += "gpu_hours_per_month = " + number(units::in_hours(s.training_per_month)) + "\n";

    out += "\n[rig]\n";
    out += "name = " + quoted(s.rig.name) + "\n";
    out += fmt::format("when_not_training = \"{}\"\n", to_string(s.rig.when_not_training));
    out += "psu_efficiency = " + number(s.rig.psu_efficiency) + "\n";
    for (const Part& p : s.rig.parts) {
        out += "\n[[rig.parts]]\n";
        out += fmt::format("kind = \"{}\"\n", to_string(p.kind));
        out += "name = " + quoted(p.name) + "\n";
        out += "price = " + number(units::in_money(p.price)) + "\n";
        out += fmt::format("count = {}\n", p.count);
        out += "idle_watts = " + number(units::in_watts(p.idle_power)) + "\n";
        out += "load_watts = " + number(units::in_watts(p.load_power)) + "\n";
        out += "resale = " + resale_inline(p.resale) + "\n";
    }

    out += "\n[electricity]\n";
    out += "price_per_kwh = " + number(units::in_money_per_kwh(s.electricity_price)) + "\n";

    for (const CloudOption& c : s.clouds) {
        out += "\n[[cloud]]\n";
        out += "name = " + quoted(c.name) + "\n";
        out += "price_per_hour = " + number(units::in_money_per_hour(c.price)) + "\n";
        out += "speedup = " + number(c.speedup) + "\n";
    }
    return out;
}

}  // namespace payback
