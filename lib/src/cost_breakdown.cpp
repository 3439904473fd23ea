#include "payback/cost_breakdown.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "payback/format.hpp"

namespace payback {

namespace {

struct GroupDefinition {
    const char* name;
    std::vector<const std::vector<double> CashFlows::*> items;
};

const std::vector<GroupDefinition>& groups() {
    static const std::vector<GroupDefinition> list = {
        {"hardware less resale", {&CashFlows::capex, &CashFlows::resale}},
        {"electricity", {&CashFlows::energy}},
        {"maintenance and repairs", {&CashFlows::maintenance, &CashFlows::repair}},
        {"loan interest", {&CashFlows::loan_proceeds, &CashFlows::loan_interest, &CashFlows::loan_principal}},
        {"income tax", {&CashFlows::tax}},
        {"cloud instances", {&CashFlows::cloud}},
        {"cloud storage", {&CashFlows::storage}},
        {"renting out, less fees", {&CashFlows::rental_income, &CashFlows::rental_fees}},
    };
    return list;
}

double total_of(const CashFlows& table, const GroupDefinition& group) {
    double sum = 0.0;
    for (const auto item : group.items) sum += std::accumulate((table.*item).begin(), (table.*item).end(), 0.0);
    return -sum;  // line items are cash to the owner; a cost is its negative
}

std::size_t option_index(const Comparison& c, const std::string& name) {
    for (std::size_t i = 0; i < c.options.size(); ++i)
        if (c.options[i].name == name) return i;
    return 0;
}

}  // namespace

std::vector<CostGroup> cost_breakdown(const Comparison& c) {
    std::vector<CostGroup> out;
    for (const GroupDefinition& group : groups()) {
        CostGroup g{group.name, {}};
        for (const CashFlows& table : c.cashflows) g.per_option.push_back(total_of(table, group));
        // The loan's proceeds and principal cancel; a few cents of rounding are not a group.
        const bool any = std::any_of(g.per_option.begin(), g.per_option.end(), [](double v) { return std::fabs(v) > 0.005; });
        if (any) out.push_back(std::move(g));
    }
    return out;
}

std::optional<std::size_t> headline_pair(const Comparison& c) {
    if (c.versus.empty()) return std::nullopt;
    std::vector<std::size_t> per_cloud;  // the better rig against each cloud option
    for (std::size_t k = 0; k < c.versus.size(); ++k) {
        auto same = std::find_if(per_cloud.begin(), per_cloud.end(),
                                 [&](std::size_t p) { return c.versus[p].cloud == c.versus[k].cloud; });
        if (same == per_cloud.end()) per_cloud.push_back(k);
        else if (c.versus[k].npv_savings > c.versus[*same].npv_savings) *same = k;
    }
    return *std::min_element(per_cloud.begin(), per_cloud.end(), [&](std::size_t a, std::size_t b) {
        return c.versus[a].npv_savings < c.versus[b].npv_savings;
    });
}

std::string biggest_reason(const Scenario& s, const Comparison& c, const VersusResult& pair) {
    const std::size_t rig = option_index(c, pair.rig), cloud = option_index(c, pair.cloud);
    const std::vector<CostGroup> list = cost_breakdown(c);
    if (list.empty()) return "Neither option costs anything.";
    // The group with the largest gap, in whichever direction it points.
    const CostGroup& g = *std::max_element(list.begin(), list.end(), [&](const CostGroup& a, const CostGroup& b) {
        return std::fabs(a.per_option[rig] - a.per_option[cloud]) < std::fabs(b.per_option[rig] - b.per_option[cloud]);
    });
    const double on_rig = g.per_option[rig], on_cloud = g.per_option[cloud];
    return fmt::format("The largest difference is {}: {} {} for {} against {} {} for {} over {} months.", g.name,
                       format_amount(on_rig), s.currency, pair.rig, format_amount(on_cloud), s.currency, pair.cloud,
                       s.horizon_months);
}

}  // namespace payback
