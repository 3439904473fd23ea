// payback cashflow SCENARIO [--option NAME] [--csv | --json]
#include <memory>

#include <fmt/format.h>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/comparison.hpp"
#include "payback/error.hpp"
#include "report_json.hpp"

namespace payback::cli {

namespace {

struct CashflowArgs {
    ScenarioArgs scenario;
    std::string option;
    bool csv = false;
    bool json = false;
};

const CashFlows& pick(const std::vector<CashFlows>& tables, const std::string& name) {
    if (name.empty()) return tables.front();
    std::string names;
    for (const auto& t : tables) {
        if (t.option == name) return t;
        names += (names.empty() ? "\"" : ", \"") + t.option + "\"";
    }
    throw InputError("--option", 0, "", "no option named \"" + name + "\"; the options are " + names);
}

std::string text_table(const CashFlows& t, const std::string& currency) {
    std::string out = fmt::format("{} ({}), cash flows in {}: costs negative, income positive\n\n", t.option,
                                  to_string(t.kind), currency);
    out += fmt::format("{:>5} {:>10} {:>9} {:>9} {:>10} {:>10} {:>11} {:>10} {:>11} {:>8} {:>10}\n", "month",
                       "capex", "energy", "cloud", "resale", "net", "cumulative", "discounted", "cum. disc.",
                       "kWh", "value");
    for (std::size_t r = 0; r < t.months(); ++r)
        out += fmt::format("{:>5} {:>10} {:>9} {:>9} {:>10} {:>10} {:>11} {:>10} {:>11} {:>8} {:>10}\n",
                           t.month[r], amount(t.capex[r]), amount(t.energy[r], 2), amount(t.cloud[r], 2),
                           amount(t.resale[r]), amount(t.net[r], 2), amount(t.cumulative[r]),
                           amount(t.discounted[r], 2), amount(t.cumulative_discounted[r]),
                           amount(t.energy_kwh[r], 1), amount(t.asset_value[r]));
    return out;
}

std::string csv_table(const CashFlows& t) {
    std::string out;
    for (const auto& column : CashFlows::column_names()) out += (out.empty() ? "" : ",") + column;
    out += "\n";
    for (std::size_t r = 0; r < t.months(); ++r) {
        std::string row;
        for (const auto& column : CashFlows::column_names())
            row += (row.empty() ? "" : ",") + fmt::format("{}", t.value(column, r));
        out += row + "\n";
    }
    return out;
}

}  // namespace

void add_cashflow_command(CLI::App& app) {
    auto args = std::make_shared<CashflowArgs>();
    CLI::App* command = app.add_subcommand("cashflow", "Print an option's month-by-month cash-flow table");
    add_scenario_args(*command, args->scenario, false);
    command->add_option("--option", args->option, "Which option (default: the rig)");
    auto* csv = command->add_flag("--csv", args->csv, "Print CSV");
    command->add_flag("--json", args->json, "Print JSON")->excludes(csv);
    command->callback([args] {
        const Scenario scenario = load(args->scenario);
        const std::vector<CashFlows> tables = cash_flows(scenario);
        const CashFlows& table = pick(tables, args->option);
        if (args->csv)
            emit(csv_table(table));
        else if (args->json)
            emit(cashflow_json(table).dump(2) + "\n");
        else
            emit(text_table(table, scenario.currency));
    });
}

}  // namespace payback::cli
