#include "report_json.hpp"

#include "payback/units.hpp"

namespace payback::cli {

namespace {
nlohmann::json optional_number(const std::optional<double>& value) {
    return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}
}  // namespace

nlohmann::json comparison_json(const Scenario& s, const Comparison& c) {
    nlohmann::json options = nlohmann::json::array();
    for (std::size_t i = 0; i < c.options.size(); ++i) {
        const OptionResult& o = c.options[i];
        options.push_back({{"name", o.name},
                           {"kind", to_string(o.kind)},
                           {"total_cost", o.total_cost},
                           {"npv_cost", o.npv_cost},
                           {"npv", o.npv},
                           {"cost_per_gpu_hour", optional_number(o.cost_per_gpu_hour)},
                           {"levelized_cost_per_gpu_hour", optional_number(o.levelized_cost_per_gpu_hour)},
                           {"energy_kwh", o.energy_kwh},
                           {"monthly_net", c.cashflows[i].net}});
    }
    nlohmann::json versus = nlohmann::json::array();
    for (const VersusResult& v : c.versus)
        versus.push_back({{"cloud", v.cloud},
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
            {"options", options},
            {"versus", versus},
            {"verdict", c.verdict}};
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

}  // namespace payback::cli
