// A scenario back to TOML with every default filled in: what `payback check` prints, and a
// round trip (to_toml then parse_scenario gives the same scenario). Written by hand rather than
// with toml++'s printer to keep the schema's key order and the shortest exact form of each number
// (0.1, not 0.10000000000000001).
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "payback/scenario/scenario.hpp"

namespace payback {

namespace {

std::string quoted(const std::string& text) {
    std::ostringstream out;
    out << toml::value<std::string>(text);  // toml++ escapes and quotes
    return out.str();
}

// Shortest form that reads back to the same double; always with a point or exponent, so TOML
// keeps it a float.
std::string toml_number(double value) {
    std::string text = fmt::format("{}", value);
    if (text.find_first_of(".eEn") == std::string::npos) text += ".0";
    return text;
}

std::string resale_inline(const Part& part) {
    const ResaleCurve<double>& curve = part.resale;
    std::string out = fmt::format("{{ method = \"{}\"", to_string(curve.method));
    if (curve.method == ResaleMethod::declining_balance)
        out += ", annual_rate = " + toml_number(curve.annual_rate);
    if (curve.method == ResaleMethod::straight_line)
        out += ", life_years = " + toml_number(curve.life_years) +
               ", salvage_fraction = " + toml_number(curve.salvage_fraction);
    if (curve.method == ResaleMethod::price_performance)
        out += ", half_life_years = " + toml_number(curve.half_life_years);
    if (curve.method == ResaleMethod::observed)
        out += ", file = " + quoted(part.observed_file) + ", item = " + quoted(part.observed_prices->item);
    return out + " }";
}

std::string toml_numbers(const auto& values) {
    std::string out;
    for (double v : values) out += (out.empty() ? "" : ", ") + toml_number(v);
    return "[" + out + "]";
}

std::string link(int generation, int lanes) {
    return fmt::format("{{ generation = {}, lanes = {} }}", generation, lanes);
}

std::string tiers(const std::vector<Tier>& list) {
    std::string out;
    for (const Tier& t : list) {
        out += out.empty() ? "" : ", ";
        out += t.max_kwh ? fmt::format("{{ up_to_kwh = {}, price = {} }}", toml_number(*t.max_kwh), toml_number(t.rate))
                         : fmt::format("{{ price = {} }}", toml_number(t.rate));
    }
    return "[" + out + "]";
}

std::string matrix(const MonthHourMatrix& m) {
    std::string out = "[\n";
    for (const auto& row : m) out += fmt::format("    [{}],\n", fmt::join(row, ", "));
    return out + "]";
}

std::string part_power(const Part& p) {
    std::string out;
    out += "off_watts = " + toml_number(units::in_watts(p.off_power)) + "\n";
    out += "idle_watts = " + toml_number(units::in_watts(p.idle_power)) + "\n";
    out += "load_watts = " + toml_number(units::in_watts(p.load_power)) + "\n";
    if (p.rented_power) out += "rented_watts = " + toml_number(units::in_watts(*p.rented_power)) + "\n";
    if (p.power_limit) out += "power_limit_watts = " + toml_number(units::in_watts(*p.power_limit)) + "\n";
    if (p.pcie_lanes) out += fmt::format("pcie_lanes = {}\n", *p.pcie_lanes);
    if (!p.pcie_slots.empty()) {
        std::vector<std::string> slots;
        for (const auto& slot : p.pcie_slots) slots.push_back(link(slot.generation, slot.lanes));
        out += fmt::format("pcie_slots = [{}]\n", fmt::join(slots, ", "));
    }
    if (p.pcie) out += "pcie = " + link(p.pcie->generation, p.pcie->lanes) + "\n";
    if (p.nvlink_gb_per_s > 0) out += "nvlink_gb_per_s = " + toml_number(p.nvlink_gb_per_s) + "\n";
    return out;
}

std::string rig_power(const Rig& rig) {
    std::string out;
    if (rig.psu)
        out += fmt::format("psu = {{ rating = \"{}\", capacity_watts = {}, mains_volts = {} }}\n",
                           to_string(rig.psu->rating), toml_number(rig.psu->capacity_watts), toml_number(rig.psu->mains_volts));
    else
        out += "psu_efficiency = " + toml_number(rig.psu_efficiency) + "\n";
    if (!rig.schedule.empty()) {
        std::vector<std::string> rules;
        for (const auto& rule : rig.schedule) rules.push_back(quoted(rule));
        out += fmt::format("schedule = [{}]\n", fmt::join(rules, ", "));
    }
    out += fmt::format("cooling = {{ overhead_fraction = {}, cop_by_month = {} }}\n",
                       toml_number(rig.cooling.overhead_fraction), toml_numbers(rig.cooling.cop_by_month));
    if (rig.circuit)
        out += fmt::format("circuit = {{ volts = {}, breaker_amps = {}, continuous_fraction = {} }}\n",
                           toml_number(rig.circuit->volts), toml_number(rig.circuit->breaker_amps),
                           toml_number(rig.circuit->continuous_fraction));
    return out;
}

std::string electricity(const Scenario& s) {
    std::string out = "\n[electricity]\n";
    if (s.tariff_kind == "flat") out += "price_per_kwh = " + toml_number(units::in_money_per_kwh(s.electricity_price)) + "\n";
    if (s.tariff_kind == "region")
        out += "region = " + quoted(s.electricity_region) + "  # " + toml_number(units::in_money_per_kwh(s.electricity_price)) +
               " per kWh, " + s.electricity_origin + "\n";
    if (s.tariff_kind == "tiered") out += "tiers = " + tiers(s.tariff.periods.at(0).tiers) + "\n";
    if (s.tariff_kind == "urdb") out += "urdb = " + quoted(s.tariff_file) + "\n";
    if (s.tariff_kind == "tou") {
        std::vector<std::string> periods;
        for (const auto& p : s.tariff.periods)
            periods.push_back(fmt::format("{{ name = {}, tiers = {} }}", quoted(p.name), tiers(p.tiers)));
        out += fmt::format("periods = [{}]\n", fmt::join(periods, ", "));
        out += "weekday_schedule = " + matrix(s.tariff.weekday) + "\n";
        out += "weekend_schedule = " + matrix(s.tariff.weekend) + "\n";
    }
    out += "base_load_kwh_per_month = " + toml_number(s.tariff.base_load_kwh_per_month) + "\n";
    out += "escalation = " + toml_number(s.electricity_escalation) + "\n";
    if (!s.grid_region.empty())
        out += "grid_region = " + quoted(s.grid_region) + "\n";
    else
        out += "co2_kg_per_kwh = " + toml_number(s.grid_co2_kg_per_kwh) + "\n";
    return out;
}

// Each "key = value" line whose key a catalog row filled gets the row as a comment, so
// `payback check` shows where every value came from.
std::string annotated(const std::string& block, const std::vector<std::pair<std::string, std::string>>& from_catalog) {
    std::string out;
    std::size_t start = 0;
    while (start < block.size()) {
        const std::size_t end = block.find('\n', start);
        std::string line = block.substr(start, end - start);
        const std::string key = line.substr(0, line.find(" = "));
        for (const auto& [filled, origin] : from_catalog)
            if (filled == key) line += "  # " + origin;
        out += line + "\n";
        start = end + 1;
    }
    return out;
}

std::string rates_inline(const TokenRates& r) {
    return "{ prefill = " + toml_number(r.prefill) + ", decode = " + toml_number(r.decode) + " }";
}

std::string cloud_table(const CloudOption& c) {
    std::string out = "name = " + quoted(c.name) + "\n";
    if (!c.instance.empty()) out += "instance = " + quoted(c.instance) + "\n";
    out += fmt::format("mode = \"{}\"\n", to_string(c.mode));
    out += "price_per_hour = " + toml_number(units::in_money_per_hour(c.price)) + "\n";
    if (c.per_gpu_speedup) {
        out += "per_gpu_speedup = " + toml_number(*c.per_gpu_speedup) + "\n";
        out += fmt::format("gpus = {}\n", c.gpus);
        out += "interconnect_gb_per_s = " + toml_number(c.interconnect_gb_per_s) + "\n";
    } else {
        out += "speedup = " + toml_number(c.speedup) + "\n";
    }
    out += fmt::format("billing = {{ increment_seconds = {}, minimum_seconds = {} }}\n",
                       toml_number(c.billing.increment_seconds), toml_number(c.billing.minimum_seconds));
    if (c.spot)
        out += "interruptions_per_hour = " + toml_number(c.spot->interruptions_per_hour) + "\n" +
               "checkpoint_interval_hours = " + toml_number(c.spot->checkpoint_interval_hours) + "\n" +
               "restart_hours = " + toml_number(c.spot->restart_hours) + "\n" +
               "checkpoint_cost_hours = " + toml_number(c.spot->checkpoint_cost_hours) + "\n";
    if (c.mode == CloudMode::reserved_1y || c.mode == CloudMode::reserved_3y)
        out += "committed_hours_per_month = " + toml_number(c.committed_hours_per_month) + "\n" +
               "on_demand_price_per_hour = " + toml_number(units::in_money_per_hour(c.on_demand_price)) + "\n";
    out += "escalation = " + toml_number(c.escalation) + "\n";
    out += "storage_per_month = " + toml_number(units::in_money(c.storage_per_month)) + "\n";
    out += "egress_gb_per_month = " + toml_number(c.egress_gb_per_month) + "\n";
    out += "egress_price_per_gb = " + toml_number(c.egress_price_per_gb) + "\n";
    out += "power_watts = " + toml_number(units::in_watts(c.power)) + "\n";
    if (c.tokens_per_second && !c.tokens_per_second->predicted) out += "tokens_per_second = " + rates_inline(*c.tokens_per_second) + "\n";
    if (c.always_on) out += "always_on = true\n";
    if (!c.region.empty()) {
        out += "region = " + quoted(c.region) + "\n";
    } else {
        if (!c.instance.empty()) out += "region = " + quoted(c.price_region) + "\n";
        out += "pue = " + toml_number(c.pue) + "\n";
        out += "co2_kg_per_kwh = " + toml_number(c.co2_kg_per_kwh) + "\n";
    }
    return annotated(out, c.from_catalog);
}

// An [[api]] option with its prices as resolved (a catalog row's noted beside them).
std::string api_table(const CloudOption& c) {
    const ApiPricing& p = *c.api;
    std::string out = "name = " + quoted(c.name) + "\n";
    out += "price_per_million_input = " + toml_number(p.input_per_million) + "\n";
    out += "price_per_million_output = " + toml_number(p.output_per_million) + "\n";
    if (p.cached_input_per_million)
        out += "price_per_million_cached_input = " + toml_number(*p.cached_input_per_million) + "\n";
    out += "escalation = " + toml_number(c.escalation) + "\n";
    if (!p.off_peak_schedule.empty())
        out += "off_peak = { schedule = " + quoted(p.off_peak_schedule) + ", discount = " +
               toml_number(p.off_peak_discount) + " }\n";
    return annotated(out, c.from_catalog);
}

std::string rental_table(const Rental& r) {
    std::string out = "\n[rental]\n";
    std::string body;
    if (!r.market.empty()) body += "market = " + quoted(r.market) + "\n";
    body += "price_per_gpu_hour = " + toml_number(r.terms.price_per_gpu_hour) + "\n";
    body += "occupancy = " + toml_number(r.terms.occupancy) + "\n";
    body += "platform_fee = " + toml_number(r.terms.platform_fee) + "\n";
    body += "halving_years = " + toml_number(r.terms.halving_years) + "\n";
    body += "extra_income_per_month = " + toml_number(r.terms.extra_income_per_month) + "\n";
    body += "wear_per_1000_hours = " + toml_number(r.terms.wear_per_1000_hours) + "\n";
    std::vector<std::string> bookings;
    for (const auto& b : r.bookings)
        bookings.push_back(fmt::format("{{ share = {}, discount = {} }}", toml_number(b.share), toml_number(b.discount)));
    if (!bookings.empty()) body += fmt::format("reserved = [{}]\n", fmt::join(bookings, ", "));
    return out + annotated(body, r.from_catalog);
}

}  // namespace

std::string to_toml(const Scenario& s) {
    std::string out;
    out += "[scenario]\n";
    out += "name = " + quoted(s.name) + "\n";
    out += "currency = " + quoted(s.currency) + "\n";
    out += fmt::format("horizon_months = {}\n", s.horizon_months);
    if (s.real_discount_rate)
        out += "real_discount_rate = " + toml_number(*s.real_discount_rate) + "\n";
    else
        out += "discount_rate = " + toml_number(s.discount_rate) + "\n";
    out += "inflation = " + toml_number(s.inflation) + "\n";
    if (s.start) out += "start = " + quoted(*s.start) + "\n";
    out += fmt::format("perspective = \"{}\"\n", to_string(s.perspective));

    out += "\n[workload]\n";
    if (s.job) {
        // The resolved throughput, so the text stands alone; where it came from as a comment.
        const TrainingJob& j = *s.job;
        out += "# " + j.gpu_origin + "; " + toml_number(units::in_hours(s.training_per_month)) + " h a month on the rig\n";
        out += fmt::format("job = {{ model = {}, samples_per_epoch = {}, epochs = {}, runs_per_month = {}, batch = {}, "
                           "samples_per_second = {} }}\n",
                           quoted(j.model), toml_number(j.samples_per_epoch), toml_number(j.epochs), toml_number(j.runs_per_month),
                           j.batch, toml_number(j.gpu_samples_per_second));
    } else {
        out += "gpu_hours_per_month = " + toml_number(units::in_hours(s.training_per_month)) + "\n";
    }
    if (s.tokens) {
        const TokenWorkload& t = *s.tokens;
        out += fmt::format("tokens = {{ model = {}, quant = {}, input_tokens_per_month = {}, output_tokens_per_month = {}, "
                           "cached_input_share = {}, concurrency = {}, context = {}{} }}\n",
                           quoted(t.model), quoted(t.quant), toml_number(t.volume.input_per_month),
                           toml_number(t.volume.output_per_month), toml_number(t.volume.cached_input_share),
                           t.concurrency, t.context, t.profile.empty() ? "" : ", profile = " + quoted(t.profile));
    }
    out += fmt::format("deferrable = {}\n", s.deferrable_training);
    if (s.job_hours) out += "job_hours = " + toml_number(*s.job_hours) + "\n";

    out += "\n[rig]\n";
    out += "name = " + quoted(s.rig.name) + "\n";
    out += fmt::format("when_not_training = \"{}\"\n", to_string(s.rig.when_not_training));
    out += rig_power(s.rig);
    if (s.rig.tokens_per_second && !s.rig.tokens_per_second->predicted) out += "tokens_per_second = " + rates_inline(*s.rig.tokens_per_second) + "\n";
    for (const Part& p : s.rig.parts) {
        out += "\n[[rig.parts]]\n";
        std::string part;
        if (!p.catalog_gpu.empty()) part += "gpu = " + quoted(p.catalog_gpu) + "\n";
        if (!p.catalog_part.empty()) part += "part = " + quoted(p.catalog_part) + "\n";
        part += fmt::format("kind = \"{}\"\n", to_string(p.kind));
        part += "name = " + quoted(p.name) + "\n";
        part += "price = " + toml_number(units::in_money(p.price)) + "\n";
        part += fmt::format("count = {}\n", p.count);
        part += part_power(p);
        part += fmt::format("purchase_month = {}\n", p.purchase_month);
        if (p.retire_month) part += fmt::format("retire_month = {}\n", *p.retire_month);
        part += "resale = " + resale_inline(p) + "\n";
        out += annotated(part, p.from_catalog);
    }

    out += electricity(s);

    out += "\n[running_costs]\n";
    out += "maintenance_per_year = " + toml_number(units::in_money(s.running_costs.maintenance_per_year)) + "\n";
    out += "repair_reserve = " + toml_number(s.running_costs.repair_reserve) + "\n";

    if (s.financing) {
        out += "\n[financing]\n";
        out += "down_payment = " + toml_number(units::in_money(s.financing->down_payment)) + "\n";
        out += "apr = " + toml_number(s.financing->apr) + "\n";
        out += fmt::format("term_months = {}\n", s.financing->term_months);
    }
    if (s.tax) {
        out += "\n[tax]\n";
        out += "income_tax_rate = " + toml_number(s.tax->income_tax_rate) + "\n";
        out += fmt::format("depreciation = \"{}\"\n", finance::to_string(s.tax->depreciation));
        out += fmt::format("life_years = {}\n", s.tax->life_years);
        if (s.tax->depreciation == finance::TaxDepreciation::custom) {
            std::string shares;
            for (double share : s.tax->custom_schedule) shares += (shares.empty() ? "" : ", ") + toml_number(share);
            out += "custom_schedule = [" + shares + "]\n";
        }
        out += fmt::format("deduct_running_costs = {}\n", s.tax->deduct_running_costs);
    }

    if (s.rental) out += rental_table(*s.rental);
    for (const CloudOption& c : s.clouds)
        if (!c.api) out += "\n[[cloud]]\n" + cloud_table(c);
    for (const CloudOption& c : s.clouds)
        if (c.api) out += "\n[[api]]\n" + api_table(c);
    if (!s.uncertainty.empty()) {
        out += "\n[uncertainty]\n";
        for (const UncertainInput& input : s.uncertainty.inputs)
            out += quoted(input.key) + " = " + describe(input.distribution) + "\n";
        if (!s.uncertainty.correlations.empty()) {
            out += "correlations = [\n";
            for (const RankCorrelation& c : s.uncertainty.correlations)
                out += fmt::format("  {{ between = [{}, {}], rank = {} }},\n", quoted(c.a), quoted(c.b), toml_number(c.rank));
            out += "]\n";
        }
    }
    return out;
}

}  // namespace payback
