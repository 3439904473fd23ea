#include "payback/model/cashflow.hpp"

#include <stdexcept>

namespace payback {

namespace {

// The line items in output order, with where each lives in a table and in a month's flows.
struct LineItem {
    const char* name;
    std::vector<double> CashFlows::*column;
    double LineItems<double>::*item;
    bool at_start;
};

const std::vector<LineItem>& line_items() {
    using L = LineItems<double>;
    static const std::vector<LineItem> items = {
        {"capex", &CashFlows::capex, &L::capex, true},
        {"energy", &CashFlows::energy, &L::energy, false},
        {"maintenance", &CashFlows::maintenance, &L::maintenance, false},
        {"repair", &CashFlows::repair, &L::repair, false},
        {"cloud", &CashFlows::cloud, &L::cloud, false},
        {"storage", &CashFlows::storage, &L::storage, false},
        {"rental_income", &CashFlows::rental_income, &L::rental_income, false},
        {"rental_fees", &CashFlows::rental_fees, &L::rental_fees, false},
        {"resale", &CashFlows::resale, &L::resale, false},
        {"loan_proceeds", &CashFlows::loan_proceeds, &L::loan_proceeds, true},
        {"loan_interest", &CashFlows::loan_interest, &L::loan_interest, false},
        {"loan_principal", &CashFlows::loan_principal, &L::loan_principal, false},
        {"tax", &CashFlows::tax, &L::tax, false},
    };
    return items;
}

const std::vector<std::pair<const char*, std::vector<double> CashFlows::*>>& other_columns() {
    static const std::vector<std::pair<const char*, std::vector<double> CashFlows::*>> columns = {
        {"net", &CashFlows::net},
        {"cumulative", &CashFlows::cumulative},
        {"discounted", &CashFlows::discounted},
        {"cumulative_discounted", &CashFlows::cumulative_discounted},
        {"energy_kwh", &CashFlows::energy_kwh},
        {"asset_value", &CashFlows::asset_value},
        {"work_hours", &CashFlows::work_hours},
        {"tax_on_sale", &CashFlows::tax_on_sale},
        {"tax_on_interest", &CashFlows::tax_on_interest},
    };
    return columns;
}

double running(const std::vector<double>& column, double add) { return (column.empty() ? 0.0 : column.back()) + add; }

}  // namespace

const char* to_string(OptionKind kind) {
    switch (kind) {
        case OptionKind::diy: return "diy";
        case OptionKind::cloud: return "cloud";
        case OptionKind::api: return "api";
    }
    return "cloud";
}

const std::vector<std::string>& CashFlows::line_item_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const auto& item : line_items()) out.emplace_back(item.name);
        return out;
    }();
    return names;
}

const std::vector<std::string>& CashFlows::column_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out = {"month"};
        for (const auto& item : line_items()) out.emplace_back(item.name);
        for (const auto& [name, column] : other_columns()) out.emplace_back(name);
        return out;
    }();
    return names;
}

const std::vector<double>& CashFlows::column(const std::string& name) const {
    for (const auto& item : line_items())
        if (name == item.name) return this->*item.column;
    for (const auto& [column_name, column] : other_columns())
        if (name == column_name) return this->*column;
    throw std::out_of_range("no cash-flow column named " + name);
}

double CashFlows::value(const std::string& name, std::size_t row) const {
    if (name == "month") return month.at(row);
    return column(name).at(row);
}

CashFlowRecorder::CashFlowRecorder(const ModelInputs<double>& in, const std::string& rig_name,
                                   const std::vector<std::string>& part_names,
                                   const std::vector<std::string>& cloud_names)
    : discount_rate_(in.discount_rate) {
    auto add_table = [this](const std::string& option, OptionKind kind) {
        CashFlows& table = tables_.emplace_back();
        table.option = option;
        table.kind = kind;
    };
    add_table(rig_name, OptionKind::diy);
    for (const auto& name : part_names) tables_.front().capex_by_part.push_back({name, {}});
    for (const auto& name : cloud_names) add_table(name, OptionKind::cloud);
}

void CashFlowRecorder::operator()(const MonthFlows<double>& f) {
    const double discount_start = discount_factor(discount_rate_, f.month - 1.0);
    const double discount_end = discount_factor(discount_rate_, f.month);
    for (std::size_t t = 0; t < tables_.size(); ++t) {
        CashFlows& table = tables_[t];
        const bool rig = t == 0;
        const LineItems<double>& items = rig ? f.rig : f.clouds[t - 1];
        double net = 0.0, discounted = 0.0;
        for (const auto& item : line_items()) {
            // 0.0 + x turns a negative zero (0.0 * -1) into a plain zero for the printed table.
            const double value = 0.0 + items.*item.item;
            (table.*item.column).push_back(value);
            net += value;
            discounted += value * (item.at_start ? discount_start : discount_end);
        }
        table.month.push_back(f.month);
        table.net.push_back(net);
        table.cumulative.push_back(running(table.cumulative, net));
        table.discounted.push_back(discounted);
        table.cumulative_discounted.push_back(running(table.cumulative_discounted, discounted));
        table.energy_kwh.push_back(rig ? f.energy_kwh : 0.0);
        table.asset_value.push_back(rig ? f.asset_value_end : 0.0);
        table.work_hours.push_back(f.work_hours);
        table.tax_on_sale.push_back(0.0 + items.tax_on_sale);
        table.tax_on_interest.push_back(0.0 + items.tax_on_interest);
        if (rig)
            for (std::size_t p = 0; p < table.capex_by_part.size(); ++p)
                table.capex_by_part[p].capex.push_back(0.0 + f.rig_capex_by_part[p]);
    }
}

std::vector<CashFlows> CashFlowRecorder::tables() && { return std::move(tables_); }

std::vector<double> incremental_flows(const CashFlows& rig, const CashFlows& cloud) {
    std::vector<double> flows(rig.months() + 1, 0.0);
    for (std::size_t r = 0; r < rig.months(); ++r)
        for (const auto& item : line_items()) {
            const double difference = (rig.*item.column)[r] - (cloud.*item.column)[r];
            flows[item.at_start ? r : r + 1] += difference;
        }
    return flows;
}

}  // namespace payback
