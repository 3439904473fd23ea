// payback backtest SCENARIO --decided DATE [--until DATE] [--set k=v]... [--json] [-o FILE]
#include <cmath>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/base/error.hpp"
#include "payback/market/catalog.hpp"
#include "payback/market/price_dates.hpp"
#include "payback/whatif/backtest.hpp"

namespace payback::cli {

namespace {

struct BacktestArgs {
    ScenarioArgs scenario;
    std::string decided;
    std::string until;
    Output output;
};

// A date option, checked: "YYYY-MM-DD".
std::string checked_date(const std::string& option, const std::string& text) {
    try {
        days_between(text, text);
    } catch (const std::invalid_argument& e) {
        throw InputError(option, 0, "", e.what());
    }
    return text;
}

nlohmann::json side_json(const BacktestSide& side) {
    return {{"npv_savings", side.npv_savings},
            {"payback_months", side.payback_months ? nlohmann::json(*side.payback_months) : nlohmann::json(nullptr)}};
}

nlohmann::json to_json(const BacktestResult& r) {
    nlohmann::json options = nlohmann::json::array();
    for (const BacktestOption& o : r.options) {
        nlohmann::json attribution = nlohmann::json::array();
        for (const BacktestAttribution& a : o.attribution)
            attribution.push_back({{"input", a.input}, {"npv_savings_change", a.npv_savings_change}});
        options.push_back({{"cloud", o.cloud},
                           {"predicted", side_json(o.predicted)},
                           {"realized", side_json(o.realized)},
                           {"npv_savings_change", o.realized.npv_savings - o.predicted.npv_savings},
                           {"attribution", attribution}});
    }
    return {{"decided", r.decided}, {"until", r.until}, {"options", options}};
}

std::string months(const std::optional<double>& value) {
    return value ? fmt::format("{:.1f}", *value) : "never";
}

std::string text_report(const Scenario& s, const BacktestResult& r) {
    std::string out = fmt::format("{}: decided {}, observed until {}\n", s.name, r.decided, r.until);
    for (const BacktestOption& o : r.options) {
        out += fmt::format("\nAgainst {}\n", o.cloud);
        out += fmt::format("  {:<24}{:>14}{:>14}\n", "", "predicted", "realized");
        out += fmt::format("  {:<24}{:>14}{:>14}\n", "NPV savings (" + s.currency + ")", amount(o.predicted.npv_savings),
                           amount(o.realized.npv_savings));
        out += fmt::format("  {:<24}{:>14}{:>14}\n", "Payback (months)", months(o.predicted.payback_months),
                           months(o.realized.payback_months));
        for (const BacktestAttribution& a : o.attribution)
            out += fmt::format("  observed {} alone: NPV savings {}{}\n", a.input, a.npv_savings_change < 0 ? "-" : "+",
                               amount(std::abs(a.npv_savings_change)));
    }
    return out;
}

}  // namespace

void add_backtest_command(CLI::App& app) {
    auto args = std::make_shared<BacktestArgs>();
    CLI::App* command = app.add_subcommand(
        "backtest", "Replay a decision: the answer with the prices known on the day against what the prices "
                    "observed afterwards made of it");
    command->add_option("scenario", args->scenario.path, "Scenario file (TOML)")->required();
    command->add_option("--set", args->scenario.assignments, "Override a scenario value, as for compare (repeatable)");
    command->add_option("--decided", args->decided, "The day of the decision (YYYY-MM-DD): the catalog prices in "
                                                    "effect then, and the used prices known by then")
        ->required();
    command->add_option("--until", args->until,
                        "The last day observed (YYYY-MM-DD; default today): later prices are the last known");
    command->add_option("--db", args->scenario.db,
                        "Read prices from this price history (SQLite) before the catalogs, for the decision and "
                        "the observed cloud prices (default: $PAYBACK_DB, else the default history when it exists)");
    add_output_options(*command, args->output, {Format::table, Format::json});
    add_example(*command, {"payback backtest scenarios/lab-3090-2021.toml --decided 2021-10-15 --until 2023-10-15"});
    command->callback([args] {
        args->scenario.as_of = checked_date("--decided", args->decided);
        const std::string until = args->until.empty() ? today() : checked_date("--until", args->until);
        const Scenario known = load(args->scenario);
        const BacktestResult r = backtest(known, known.prices.catalogs(), args->decided, until);
        if (args->output.format == Format::json)
            emit(args->output, to_json(r).dump(2) + "\n");
        else
            emit(args->output, text_report(known, r));
    });
}

}  // namespace payback::cli
