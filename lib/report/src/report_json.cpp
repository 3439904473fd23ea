#include "payback/report/report_json.hpp"

#include "payback/base/units.hpp"
#include "payback/report/verdict.hpp"

namespace payback {

namespace {
nlohmann::json optional_number(const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
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
        nlohmann::json periods = nlohmann::json::object();
        for (const auto& [period, kwh] : o.energy_kwh_by_period) periods[period] = kwh;
        options.push_back({{"name", o.name},
                           {"kind", to_string(o.kind)},
                           {"total_cost", o.total_cost},
                           {"npv_cost", o.npv_cost},
                           {"npv", o.npv},
                           {"cost_per_gpu_hour", optional_number(o.cost_per_gpu_hour)},
                           {"levelized_cost_per_gpu_hour", optional_number(o.levelized_cost_per_gpu_hour)},
                           {"energy_kwh", o.energy_kwh},
                           {"energy_kwh_by_period", periods},
                           {"co2_kg_total", o.co2_kg_total},
                           {"monthly_net", c.cashflows[i].net}});
        if (o.job)
            options.back()["job"] = {{"samples_per_second", o.job->samples_per_second},
                                     {"throughput_origin", o.job->throughput_origin},
                                     {"hours_per_run", o.job->hours_per_run},
                                     {"cost_per_run", o.job->cost_per_run},
                                     {"cost_per_epoch", o.job->cost_per_epoch},
                                     {"cost_per_million_samples", o.job->cost_per_million_samples},
                                     {"kwh_per_run", optional_number(o.job->kwh_per_run)}};
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
    for (const VersusResult& v : c.versus)
        versus.push_back({{"rig", v.rig},
                          {"cloud", v.cloud},
                          {"payback_months", optional_number(v.payback_months)},
                          {"payback_months_if_sold", optional_number(v.payback_months_if_sold)},
                          {"discounted_payback_months", optional_number(v.discounted_payback_months)},
                          {"npv_savings", v.npv_savings},
                          {"roi", optional_number(v.roi)},
                          {"irr", optional_number(v.irr)},
                          {"irr_status", v.irr_status},
                          {"irr_roots", v.irr_roots},
                          {"optimal_sale_month", v.optimal_sale_month},
                          {"optimal_sale_npv_savings", v.optimal_sale_npv_savings},
                          {"breakeven_gpu_hours_per_month", optional_number(v.breakeven_gpu_hours_per_month)}});
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
