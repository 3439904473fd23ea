#include "payback/report/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "payback/base/format.hpp"
#include "payback/model/cost_breakdown.hpp"

namespace payback {

namespace {

std::size_t option_index(const Comparison& c, const std::string& name) {
    for (std::size_t i = 0; i < c.options.size(); ++i)
        if (c.options[i].name == name) return i;
    return 0;
}

std::string money(double amount, const std::string& currency) {
    return fmt::format("{} {}", format_amount(amount), currency);
}

}  // namespace

std::string verdict(const Comparison& c, const Scenario& s) {
    const auto pair = headline_pair(c);
    if (!pair) return "No cloud options to compare the rig with.";
    const VersusResult* best = &c.versus[*pair];
    const std::string rig = best->rig == s.rig.name ? "the rig" : best->rig;
    const std::string horizon = fmt::format("{} months", s.horizon_months);
    if (best->npv_savings > 0) {
        std::string line = fmt::format(
            "Build: over {} {} costs {} less in present value than the cheapest cloud option ({})",
            horizon, rig, money(best->npv_savings, s.currency), best->cloud);
        if (best->payback_months)
            line += fmt::format(", and pays for itself in {:.1f} months", *best->payback_months);
        return line + ".";
    }
    std::string line = fmt::format("Rent {}: over {} it costs {} less in present value than building",
                                   best->cloud, horizon, money(-best->npv_savings, s.currency));
    if (best->breakeven_gpu_hours_per_month)
        line += fmt::format("; building wins above {:.0f} GPU-hours a month",
                            *best->breakeven_gpu_hours_per_month);
    return line + ".";
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
