// payback cashflow SCENARIO [--option NAME] [--csv | --json]
#include <algorithm>
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

// The line items that are non-zero somewhere (a plain rig shows no loan or tax columns), then the sums.
std::string text_table(const CashFlows& t, const std::string& currency) {
    std::vector<std::string> columns;
    for (const auto& item : CashFlows::line_item_names()) {
        const auto& values = t.column(item);
        if (std::any_of(values.begin(), values.end(), [](double v) { return v != 0.0; })) columns.push_back(item);
    }
    for (const char* sum : {"net", "cumulative", "discounted", "cumulative_discounted"}) columns.push_back(sum);
    if (t.kind == OptionKind::diy) columns.insert(columns.end(), {"energy_kwh", "asset_value"});

    std::string out = fmt::format("{} ({}), cash flows in {}: costs negative, income positive\n\n", t.option,
                                  to_string(t.kind), currency);
    out += fmt::format("{:>5}", "month");
    for (const auto& column : columns) {
        const std::string header = column == "cumulative_discounted" ? "cum. disc." : column;
        out += fmt::format(" {:>{}}", header, std::max<std::size_t>(header.size(), 10));
    }
    out += "\n";
    for (std::size_t r = 0; r < t.months(); ++r) {
        out += fmt::format("{:>5}", t.month[r]);
        for (const auto& column : columns) {
            const std::size_t width = std::max<std::size_t>(column == "cumulative_discounted" ? 10 : column.size(), 10);
            const int decimals = column == "energy_kwh" ? 1 : (column.find("cumulative") == 0 ? 0 : 2);
            out += fmt::format(" {:>{}}", amount(t.value(column, r), decimals), width);
        }
        out += "\n";
    }
    return out;
}

// Every column, then one capex column per part ("capex:RTX 3090").
std::string csv_table(const CashFlows& t) {
    std::string out;
    for (const auto& column : CashFlows::column_names()) out += (out.empty() ? "" : ",") + column;
    for (const auto& part : t.capex_by_part) out += "," + csv_field("capex:" + part.part);
    out += "\n";
    for (std::size_t r = 0; r < t.months(); ++r) {
        std::string row;
        for (const auto& column : CashFlows::column_names())
            row += fmt::format("{}{}", row.empty() ? "" : ",", t.value(column, r));
        for (const auto& part : t.capex_by_part) row += fmt::format(",{}", part.capex[r]);
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
