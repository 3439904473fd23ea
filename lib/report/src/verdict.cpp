#include "payback/report/verdict.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "payback/base/format.hpp"
#include "payback/model/cashflow.hpp"
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

// A monthly figure: cents while they matter.
std::string money_a_month(double amount, const std::string& currency) {
    return fmt::format("{} {}", format_amount(amount, std::fabs(amount) < 100.0 ? 2 : 0), currency);
}

// An option's undiscounted costs over the horizon, split into what buying the parts takes (capital),
// what the parts give back when sold (resale), and the rest as an average month (running): energy,
// upkeep, cloud bills, rental income and fees, loan interest and tax. The loan's proceeds and
// principal only move the capital in time, so they are neither.
struct RunningAndCapital {
    double capital = 0.0;
    double resale = 0.0;
    double running_per_month = 0.0;
};

RunningAndCapital running_and_capital(const CashFlows& t) {
    RunningAndCapital out;
    const auto total = [&](const std::string& item) {
        double sum = 0.0;
        for (double v : t.column(item)) sum += v;
        return sum;
    };
    double running = 0.0;
    for (const std::string& item : CashFlows::line_item_names()) {
        if (item == "capex") out.capital = -total(item);
        else if (item == "resale") out.resale = total(item);
        else if (item != "loan_proceeds" && item != "loan_principal") running -= total(item);
    }
    if (t.months() > 0) out.running_per_month = running / static_cast<double>(t.months());
    return out;
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
    const CashFlows& rig = c.cashflows[option_index(c, pair.rig)];
    const CashFlows& cloud = c.cashflows[option_index(c, pair.cloud)];
    const RunningAndCapital on_rig = running_and_capital(rig), on_cloud = running_and_capital(cloud);
    const auto a_month = [&](double amount) { return money_a_month(amount, s.currency); };
    const std::string rig_name = pair.rig == s.rig.name ? "the rig" : pair.rig;
    std::string out = fmt::format("Running {} costs {} a month against {} for {}", rig_name,
                                  a_month(on_rig.running_per_month), a_month(on_cloud.running_per_month), pair.cloud);
    const double capital = on_rig.capital - on_cloud.capital;
    const double difference = on_cloud.running_per_month - on_rig.running_per_month;
    if (capital <= 0.0) {
        out += "; building needs no capital up front";
    } else if (difference < 0.005) {  // under half a cent: equal months, up to rounding
        out += fmt::format("; at no saving a month, the {} of parts is never recovered", money(capital, s.currency));
    } else {
        const double months = capital / difference;
        out += fmt::format("; the {} saved a month recovers the {} of parts in {:.1f} months, {} the {}-month horizon",
                           a_month(difference), money(capital, s.currency), months,
                           months <= s.horizon_months ? "within" : "beyond", s.horizon_months);
    }
    if (on_rig.resale <= 0.0) return out + ", and selling the parts gives nothing back.";
    out += fmt::format(". Selling the parts gives back {}", money(on_rig.resale, s.currency));
    if (capital > on_rig.resale && difference > 0.0)
        out += fmt::format(", so the capital net of resale is recovered in {:.1f} months",
                           (capital - on_rig.resale) / difference);
    return out + ".";
}

}  // namespace payback
