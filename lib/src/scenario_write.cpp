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

std::string resale_inline(const Part& part) {
    const ResaleCurve<double>& curve = part.resale;
    std::string out = fmt::format("{{ method = \"{}\"", to_string(curve.method));
    if (curve.method == ResaleMethod::declining_balance)
        out += ", annual_rate = " + number(curve.annual_rate);
    if (curve.method == ResaleMethod::straight_line)
        out += ", life_years = " + number(curve.life_years) +
               ", salvage_fraction = " + number(curve.salvage_fraction);
    if (curve.method == ResaleMethod::price_performance)
        out += ", half_life_years = " + number(curve.half_life_years);
    if (curve.method == ResaleMethod::observed)
        out += ", file = " + quoted(part.observed_file) + ", item = " + quoted(part.observed_prices->item);
    return out + " }";
}

}  // namespace

std::string to_toml(const Scenario& s) {
    std::string out;
    out += "[scenario]\n";
    out += "name = " + quoted(s.name) + "\n";
    out += "currency = " + quoted(s.currency) + "\n";
    out += fmt::format("horizon_months = {}\n", s.horizon_months);
    if (s.real_discount_rate)
        out += "real_discount_rate = " + number(*s.real_discount_rate) + "\n";
    else
        out += "discount_rate = " + number(s.discount_rate) + "\n";
    out += "inflation = " + number(s.inflation) + "\n";
    if (s.start) out += "start = " + quoted(*s.start) + "\n";
    out += fmt::format("perspective = \"{}\"\n", to_string(s.perspective));

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
        out += fmt::format("purchase_month = {}\n", p.purchase_month);
        if (p.retire_month) out += fmt::format("retire_month = {}\n", *p.retire_month);
        out += "resale = " + resale_inline(p) + "\n";
    }

    out += "\n[electricity]\n";
    out += "price_per_kwh = " + number(units::in_money_per_kwh(s.electricity_price)) + "\n";
    out += "escalation = " + number(s.electricity_escalation) + "\n";

    out += "\n[running_costs]\n";
    out += "maintenance_per_year = " + number(units::in_money(s.running_costs.maintenance_per_year)) + "\n";
    out += "repair_reserve = " + number(s.running_costs.repair_reserve) + "\n";

    if (s.financing) {
        out += "\n[financing]\n";
        out += "down_payment = " + number(units::in_money(s.financing->down_payment)) + "\n";
        out += "apr = " + number(s.financing->apr) + "\n";
        out += fmt::format("term_months = {}\n", s.financing->term_months);
    }
    if (s.tax) {
        out += "\n[tax]\n";
        out += "income_tax_rate = " + number(s.tax->income_tax_rate) + "\n";
        out += fmt::format("depreciation = \"{}\"\n", finance::to_string(s.tax->depreciation));
        out += fmt::format("life_years = {}\n", s.tax->life_years);
        if (s.tax->depreciation == finance::TaxDepreciation::custom) {
            std::string shares;
            for (double share : s.tax->custom_schedule) shares += (shares.empty() ? "" : ", ") + number(share);
            out += "custom_schedule = [" + shares + "]\n";
        }
        out += fmt::format("deduct_running_costs = {}\n", s.tax->deduct_running_costs);
    }

    for (const CloudOption& c : s.clouds) {
        out += "\n[[cloud]]\n";
        out += "name = " + quoted(c.name) + "\n";
        out += "price_per_hour = " + number(units::in_money_per_hour(c.price)) + "\n";
        out += "speedup = " + number(c.speedup) + "\n";
        out += "escalation = " + number(c.escalation) + "\n";
        out += "storage_per_month = " + number(units::in_money(c.storage_per_month)) + "\n";
    }
    return out;
}

}  // namespace payback
