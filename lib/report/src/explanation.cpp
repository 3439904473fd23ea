#include "payback/report/explanation.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "payback/base/error.hpp"
#include "payback/base/format.hpp"
#include "payback/model/comparison.hpp"
#include "payback/report/verdict.hpp"
#include "payback/scenario/assumptions.hpp"
#include "payback/whatif/breakeven.hpp"
#include "payback/whatif/sweep.hpp"

namespace payback {

namespace {

// The line items in words.
std::string item_label(const std::string& item) {
    static const std::vector<std::pair<std::string, std::string>> labels = {
        {"capex", "buying the parts"},      {"energy", "electricity"},          {"maintenance", "maintenance"},
        {"repair", "the repair reserve"},   {"cloud", "cloud hours"},           {"storage", "cloud storage"},
        {"rental_income", "rental income"}, {"rental_fees", "marketplace fees"}, {"resale", "selling the parts"},
        {"loan_proceeds", "the loan"},      {"loan_interest", "loan interest"}, {"loan_principal", "loan repayments"},
        {"tax", "tax"}};
    for (const auto& [name, label] : labels)
        if (name == item) return label;
    return item;
}

struct ItemTotal {
    std::string item;
    double total;  ///< signed, over the horizon: costs negative
};

// Each non-zero line item's sum over the horizon, largest magnitude first.
std::vector<ItemTotal> item_totals(const CashFlows& t) {
    std::vector<ItemTotal> totals;
    for (const auto& item : CashFlows::line_item_names()) {
        double sum = 0.0;
        for (double v : t.column(item)) sum += v;
        if (std::abs(sum) >= 0.5) totals.push_back({item, sum});
    }
    std::stable_sort(totals.begin(), totals.end(),
                     [](const ItemTotal& a, const ItemTotal& b) { return std::abs(a.total) > std::abs(b.total); });
    return totals;
}

// "Over 36 months the money for Venus rig goes on buying the parts, 3,141 USD (76 % of its costs)
// and electricity, 1,002 USD (24 %); it gets back 1,052 USD from selling the parts."
std::string costs_sentence(const CashFlows& t, const std::vector<ItemTotal>& totals, const std::string& currency,
                           int months) {
    double costs = 0.0;
    for (const auto& x : totals)
        if (x.total < 0) costs -= x.total;
    std::vector<std::string> spent, back;
    for (const auto& x : totals) {
        if (x.total < 0)
            spent.push_back(fmt::format("{}, {} {} ({:.0f} %{})", item_label(x.item), format_amount(-x.total), currency,
                                        100.0 * -x.total / costs, spent.empty() ? " of its costs" : ""));
        else
            back.push_back(fmt::format("{} {} from {}", format_amount(x.total), currency, item_label(x.item)));
    }
    const auto listed = [](const std::vector<std::string>& parts) {
        std::string out;
        for (std::size_t i = 0; i < parts.size(); ++i)
            out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
        return out;
    };
    if (spent.empty()) return fmt::format("Over {} months {} costs nothing.", months, t.option);
    std::string out = fmt::format("Over {} months the money for {} goes on {}", months, t.option, listed(spent));
    if (!back.empty()) out += "; it gets back " + listed(back);
    return out + ".";
}

std::string number(double v) { return std::abs(v) >= 1000 ? format_amount(v) : fmt::format("{:.4g}", v); }

struct Flip {
    std::string key;
    std::string label;
    double current;
    double value;
};

// The inputs whose break-even explain looks for, with their labels.
std::vector<std::pair<std::string, std::string>> flip_candidates(const Scenario& s, std::size_t cloud) {
    const std::string option = option_key_path(s, cloud);
    std::vector<std::pair<std::string, std::string>> keys = {
        {"workload.gpu_hours_per_month", "your training, in GPU-hours a month,"},
        {"electricity.price_per_kwh", "the electricity price per kWh"},
        s.clouds[cloud].api ? std::pair(option + ".price_per_million_output",
                                        s.clouds[cloud].name + "'s price per million output tokens")
                            : std::pair(option + ".price_per_hour", s.clouds[cloud].name + "'s price per hour"),
        {"scenario.discount_rate", "the discount rate"}};
    if (s.tokens) {  // the volume served: output first, where most of the time or the bill goes
        keys.emplace_back("workload.tokens.output_tokens_per_month", "your output tokens a month");
        keys.emplace_back("workload.tokens.input_tokens_per_month", "your input tokens a month");
    }
    // The dearest part, where most of the rig's price is.
    std::size_t dearest = 0;
    for (std::size_t p = 0; p < s.rig.parts.size(); ++p)
        if (units::in_money(s.rig.parts[p].price) > units::in_money(s.rig.parts[dearest].price)) dearest = p;
    if (!s.rig.parts.empty() && units::in_money(s.rig.parts[dearest].price) > 0)
        keys.emplace_back(fmt::format("rig.parts[{}].price", dearest), "the price of the " + s.rig.parts[dearest].name);
    return keys;
}

// The break-evens that exist, nearest to the current value (relatively) first, and the inputs that
// flip nothing within the ranges searched (breakeven.hpp's defaults), with those ranges.
std::pair<std::vector<Flip>, std::vector<std::string>> find_flips(const Scenario& s, std::size_t cloud) {
    std::vector<Flip> flips;
    std::vector<std::string> steady;
    for (const auto& [key, label] : flip_candidates(s, cloud)) {
        BreakevenQuery query;
        query.key = key;
        query.against = s.clouds[cloud].name;
        BreakevenResult r;
        try {
            r = breakeven(s, query);
        } catch (const InputError&) {
            continue;  // a key this scenario does not have (a tariff instead of a price, a usage schedule)
        }
        if (r.value) flips.push_back({key, label, r.current, *r.value});
        else steady.push_back(fmt::format("{} between {} and {}", label, number(r.range.first), number(r.range.second)));
    }
    const auto distance = [](const Flip& f) {
        return f.current != 0.0 ? std::abs(f.value - f.current) / std::abs(f.current) : std::abs(f.value);
    };
    std::stable_sort(flips.begin(), flips.end(), [&](const Flip& a, const Flip& b) { return distance(a) < distance(b); });
    return {flips, steady};
}

std::string flip_sentence(const Flip& f, bool build_wins, const std::string& cloud) {
    const bool up = f.value > f.current;
    const std::string change =
        f.current != 0.0 ? fmt::format(", {:.0f} % {}", 100.0 * std::abs(f.value - f.current) / std::abs(f.current),
                                       up ? "more" : "less")
                         : "";
    return fmt::format("If {} {} from {} to {}{}, {} would win.", f.label, up ? "rose" : "fell", number(f.current),
                       number(f.value), change, build_wins ? "renting " + cloud : "building");
}

}  // namespace

Explanation explain(const Scenario& s, const std::optional<std::string>& named) {
    const std::size_t cloud = against_index(s, named);
    const Comparison c = compare(s);
    const CashFlows& rig = c.cashflows.front();
    const auto found = std::find_if(c.cashflows.begin(), c.cashflows.end(),
                                    [&](const CashFlows& t) { return t.option == s.clouds[cloud].name; });
    const VersusResult& versus = *std::find_if(c.versus.begin(), c.versus.end(), [&](const VersusResult& v) {
        return v.rig == rig.option && v.cloud == s.clouds[cloud].name;
    });
    const bool build_wins = versus.npv_savings > 0;

    Explanation e;
    e.sentences.push_back(verdict(c, s));
    nlohmann::json costs = nlohmann::json::array();
    for (const CashFlows* t : {&rig, &*found}) {
        const auto totals = item_totals(*t);
        e.sentences.push_back(costs_sentence(*t, totals, s.currency, s.horizon_months));
        nlohmann::json items = nlohmann::json::array();
        for (const auto& x : totals) items.push_back({{"item", x.item}, {"total", x.total}});
        costs.push_back({{"option", t->option}, {"items", items}});
    }
    e.sentences.push_back(fmt::format("Against {}, building {} {} {} in present value over {} months.", found->option,
                                      build_wins ? "saves" : "loses", format_amount(std::abs(versus.npv_savings)), s.currency,
                                      s.horizon_months));

    const auto [flips, steady] = find_flips(s, cloud);
    nlohmann::json flips_json = nlohmann::json::array();
    for (std::size_t i = 0; i < flips.size(); ++i) {
        if (i < 3) e.sentences.push_back(flip_sentence(flips[i], build_wins, found->option));
        flips_json.push_back({{"key", flips[i].key}, {"current", flips[i].current}, {"break_even", flips[i].value}});
    }
    if (flips.empty())
        e.sentences.push_back("No single input flips the answer within its range: it holds firm.");
    if (!steady.empty()) {
        std::string listed;
        for (std::size_t i = 0; i < steady.size(); ++i)
            listed += (i == 0 ? "" : i + 1 == steady.size() ? " nor " : ", ") + steady[i];
        e.sentences.push_back(fmt::format("{} {} flips it.", steady.size() == 1 ? "No value of" : "Neither", listed));
    }
    e.json = {{"scenario", s.name}, {"currency", s.currency},     {"verdict", e.sentences.front()},
              {"against", found->option}, {"npv_savings", versus.npv_savings}, {"costs", costs},
              {"flips", flips_json}, {"sentences", e.sentences}};
    return e;
}

}  // namespace payback
