#include "payback/cashflow.hpp"

#include <stdexcept>

namespace payback {

const char* to_string(OptionKind kind) { return kind == OptionKind::diy ? "diy" : "cloud"; }

const std::vector<std::string>& CashFlows::column_names() {
    static const std::vector<std::string> names = {
        "month", "capex", "energy", "cloud", "resale", "net", "cumulative", "discounted",
        "cumulative_discounted", "energy_kwh", "asset_value"};
    return names;
}

double CashFlows::value(const std::string& column, std::size_t row) const {
    if (column == "month") return month.at(row);
    const std::vector<double>* columns[] = {&capex, &energy, &cloud, &resale, &net, &cumulative,
                                            &discounted, &cumulative_discounted, &energy_kwh, &asset_value};
    const auto& names = column_names();
    for (std::size_t i = 1; i < names.size(); ++i)
        if (names[i] == column) return columns[i - 1]->at(row);
    throw std::out_of_range("no cash-flow column named " + column);
}

CashFlowRecorder::CashFlowRecorder(const ModelInputs<double>& in, const std::string& rig_name,
                                   const std::vector<std::string>& cloud_names)
    : discount_rate_(in.discount_rate) {
    auto add_table = [this](const std::string& option, OptionKind kind) {
        CashFlows& table = tables_.emplace_back();
        table.option = option;
        table.kind = kind;
    };
    add_table(rig_name, OptionKind::diy);
    for (const auto& name : cloud_names) add_table(name, OptionKind::cloud);
}

void CashFlowRecorder::operator()(const MonthFlows<double>& f) {
    const double discount_start = discount_factor(discount_rate_, f.month - 1.0);
    const double discount_end = discount_factor(discount_rate_, f.month);
    for (std::size_t t = 0; t < tables_.size(); ++t) {
        CashFlows& table = tables_[t];
        const bool rig = t == 0;
        // Costs are negative; 0.0 - x rather than -x keeps negative zeros out of the table.
        const double capex = rig ? 0.0 - f.rig.capex : 0.0;
        const double energy = rig ? 0.0 - f.rig.energy_cost : 0.0;
        const double cloud = rig ? 0.0 : 0.0 - f.cloud_spend[t - 1];
        const double resale = rig ? f.rig.resale : 0.0;
        const double net = capex + energy + cloud + resale;
        const double discounted = capex * discount_start + (energy + cloud + resale) * discount_end;
        table.month.push_back(f.month);
        table.capex.push_back(capex);
        table.energy.push_back(energy);
        table.cloud.push_back(cloud);
        table.resale.push_back(resale);
        table.net.push_back(net);
        table.cumulative.push_back((table.cumulative.empty() ? 0.0 : table.cumulative.back()) + net);
        table.discounted.push_back(discounted);
        table.cumulative_discounted.push_back(
            (table.cumulative_discounted.empty() ? 0.0 : table.cumulative_discounted.back()) + discounted);
        table.energy_kwh.push_back(rig ? f.rig.energy_kwh : 0.0);
        table.asset_value.push_back(rig ? f.rig.asset_value_end : 0.0);
    }
}

std::vector<CashFlows> CashFlowRecorder::tables() && { return std::move(tables_); }

}  // namespace payback
