// payback cashflow SCENARIO [--option NAME] [--format table|csv|json] [-o FILE]
#include <algorithm>
#include <memory>
#include <utility>

#include <fmt/format.h>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/base/error.hpp"
#include "payback/model/comparison.hpp"
#include "payback/report/report_json.hpp"
#include "text_table.hpp"

namespace payback::cli {

namespace {

struct CashflowArgs {
    ScenarioArgs scenario;
    std::string option;
    Output output;
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

// The line items that are non-zero somewhere (a plain rig shows no loan or tax columns), then the
// sums; on an 80-column terminal the columns that do not fit come in further blocks of months.
std::string text_table(const CashFlows& t, const std::string& currency, const Style& style) {
    std::vector<std::string> columns;
    for (const auto& item : CashFlows::line_item_names()) {
        const auto& values = t.column(item);
        if (std::any_of(values.begin(), values.end(), [](double v) { return v != 0.0; })) columns.push_back(item);
    }
    for (const char* sum : {"net", "cumulative", "discounted", "cumulative_discounted"}) columns.push_back(sum);
    if (t.kind == OptionKind::diy) columns.insert(columns.end(), {"energy_kwh", "asset_value"});

    std::vector<TextTable::Column> headers{{"month"}};
    for (const auto& column : columns) headers.push_back({column == "cumulative_discounted" ? "cum. disc." : column});
    TextTable table(headers);
    for (std::size_t r = 0; r < t.months(); ++r) {
        std::vector<std::string> cells{std::to_string(t.month[r])};
        for (const auto& column : columns) {
            const int decimals = column == "energy_kwh" ? 1 : (column.find("cumulative") == 0 ? 0 : 2);
            cells.push_back(amount(t.value(column, r), decimals));
        }
        table.add_row(std::move(cells));
    }
    return wrapped(fmt::format("{} ({}), cash flows in {}: costs negative, income positive", t.option,
                               to_string(t.kind), currency)) +
           "\n" + table.render(style);
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
    add_output_options(*command, args->output, {Format::table, Format::csv, Format::json});
    add_example(*command, {"payback cashflow scenarios/venus-2019.toml",
                           "payback cashflow scenarios/venus-2019.toml --option \"AWS p3.2xlarge (V100) on-demand\" "
                           "--format csv -o flows.csv"});
    command->callback([args] {
        const Scenario scenario = load(args->scenario);
        const std::vector<CashFlows> tables = cash_flows(scenario);
        const CashFlows& table = pick(tables, args->option);
        const Output& output = args->output;
        if (output.format == Format::csv)
            emit(output, csv_table(table));
        else if (output.format == Format::json) {
            nlohmann::json out = cashflow_json(table);
            add_price_age(out, price_age_of(scenario, args->scenario));
            emit(output, out.dump(2) + "\n");
        } else {
            warn_if_stale(price_age_of(scenario, args->scenario));
            emit(output, text_table(table, scenario.currency, Style::for_stdout(output.to_terminal())));
        }
    });
}

}  // namespace payback::cli
