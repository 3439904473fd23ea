#include "payback/model/cost_breakdown.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace payback {

namespace {

struct GroupDefinition {
    const char* name;
    std::vector<const std::vector<double> CashFlows::*> items;
};

const std::vector<GroupDefinition>& group_definitions() {
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

}  // namespace

std::vector<CostGroup> cost_breakdown(const Comparison& c) {
    std::vector<CostGroup> out;
    for (const GroupDefinition& group : group_definitions()) {
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

}  // namespace payback
