#include "payback/report/report_json.hpp"

#include <string>
#include <type_traits>
#include <variant>

#include "payback/base/units.hpp"
#include "payback/model/metric_table.hpp"
#include "payback/report/verdict.hpp"

namespace payback {

namespace {
nlohmann::json optional_number(const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

// A metric's value: null where absent, numbers by name as an object.
nlohmann::json metric_json(const MetricValue& value) {
    return std::visit(
        [](const auto& v) -> nlohmann::json {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, std::monostate>) {
                return nullptr;
            } else if constexpr (std::is_same_v<T, std::vector<std::pair<std::string, double>>>) {
                nlohmann::json out = nlohmann::json::object();
                for (const auto& [name, number] : v) out[name] = number;
                return out;
            } else {
                return v;
            }
        },
        value);
}

// The metrics of one scope (the metric table's rows) added to `out`.
template <class Result>
void add_metrics(nlohmann::json& out, MetricScope scope, const Result& result) {
    for (const Metric* m : metrics_of(scope)) out[std::string(m->name)] = metric_json(metric_value(*m, result));
}
}  // namespace

nlohmann::json by_state(const std::array<double, power_states>& values) {
    nlohmann::json out = nlohmann::json::object();
    for (int state = 0; state < power_states; ++state)
        out[to_string(static_cast<PowerState>(state))] = values[static_cast<std::size_t>(state)];
    return out;
}

// The rig as hardware: power, circuit, heat, hours, energy, carbon, scheduling and scaling.
nlohmann::json rig_json(const Comparison& c) {
    const RigReport& r = c.rig;
    nlohmann::json out = {
        {"peak_wall_watts", r.peak_wall_watts},
        {"circuit",
         {{"volts", r.circuit.volts},
          {"breaker_amps", r.circuit.breaker_amps},
          {"continuous_limit_watts", r.circuit_check.limit_watts},
          {"load_fraction", r.circuit_check.load_fraction},
          {"gpus_that_fit", r.circuit_check.gpus_that_fit},
          {"over", r.circuit_check.over},
          {"message", r.circuit_check.message}}},
        {"circuit_load_fraction", r.circuit_check.load_fraction},
        {"heat_watts", by_state(r.heat_watts)},
        {"heat_btu_per_hour", by_state(r.heat_btu_per_hour)},
        {"rig_hours_per_month", r.rig_hours_per_month},
        {"work_hours_per_month", r.work_hours_per_month},
        {"rented_hours_per_month", r.rented_hours_per_month},
        {"throughput_factor", r.throughput_factor},
        {"energy_kwh_per_month", r.energy_kwh_per_month},
        {"energy_kwh_by_month", r.energy_kwh_by_month},
        {"co2_kg_total", r.co2_kg_total},
        {"gpus", c.scaling.gpus},
        {"scaling_efficiency", c.scaling.efficiency},
        {"effective_gpus", c.scaling.effective_gpus()}};
    if (r.naive_energy_cost) {
        out["deferrable_training"] = {{"energy_cost_as_given", *r.naive_energy_cost},
                                      {"energy_cost_scheduled", *r.scheduled_energy_cost},
                                      {"saving", *r.naive_energy_cost - *r.scheduled_energy_cost}};
    }
    return out;
}

nlohmann::json comparison_json(const Scenario& s, const Comparison& c) {
    nlohmann::json options = nlohmann::json::array();
    for (std::size_t i = 0; i < c.options.size(); ++i) {
        const OptionResult& o = c.options[i];
        nlohmann::json option = {{"name", o.name}, {"kind", to_string(o.kind)}, {"monthly_net", c.cashflows[i].net}};
        add_metrics(option, MetricScope::option, o);
        if (o.job) {
            nlohmann::json job = nlohmann::json::object();
            add_metrics(job, MetricScope::job, o);
            option["job"] = job;
        }
        if (o.tokens) {
            nlohmann::json tokens = nlohmann::json::object();
            add_metrics(tokens, MetricScope::tokens, o);
            option["tokens"] = tokens;
        }
        options.push_back(option);
        if (o.billing)
            options.back()["billing"] = {
                {"instance_hours_per_month", o.billing->instance_hours},
                {"billed_hours_per_month", o.billing->billed_hours},
                {"spend_per_month", o.billing->spend},
                {"effective_price_per_work_hour", o.billing->effective_price_per_work_hour},
                {"breakeven_interruptions_per_hour", optional_number(o.billing->breakeven_interruptions_per_hour)},
                {"breakeven_utilization", optional_number(o.billing->breakeven_utilization)}};
        if (o.kind == OptionKind::diy)  // the rig's hardware figures, beside its money
            for (const char* key : {"peak_wall_watts", "circuit_load_fraction", "energy_kwh_per_month"})
                options.back()[key] = rig_json(c)[key];
    }
    nlohmann::json versus = nlohmann::json::array();
    for (const VersusResult& v : c.versus) {
        nlohmann::json pair = {{"rig", v.rig}, {"cloud", v.cloud}};
        add_metrics(pair, MetricScope::pair, v);
        versus.push_back(pair);
    }
    return {{"scenario", s.name},
            {"source", s.source},
            {"currency", s.currency},
            {"horizon_months", s.horizon_months},
            {"discount_rate", s.discount_rate},
            {"inflation", s.inflation},
            {"perspective", to_string(s.perspective)},
            {"gpu_hours_per_month", units::in_hours(s.training_per_month)},
            {"rig", rig_json(c)},
            {"options", options},
            {"versus", versus},
            {"verdict", verdict(c, s)}};
}

nlohmann::json cashflow_json(const CashFlows& t) {
    nlohmann::json rows = nlohmann::json::array();
    for (std::size_t r = 0; r < t.months(); ++r) {
        nlohmann::json row = nlohmann::json::object();
        for (const auto& column : CashFlows::column_names()) row[column] = t.value(column, r);
        row["month"] = t.month[r];
        if (!t.capex_by_part.empty()) {
            nlohmann::json by_part = nlohmann::json::array();
            for (const auto& part : t.capex_by_part) by_part.push_back(part.capex[r]);
            row["capex_by_part"] = by_part;
        }
        rows.push_back(row);
    }
    nlohmann::json parts = nlohmann::json::array();
    for (const auto& part : t.capex_by_part) parts.push_back(part.part);
    return {{"option", t.option}, {"kind", to_string(t.kind)}, {"parts", parts}, {"months", rows}};
}

}  // namespace payback
