// payback check SCENARIO [--set k=v]...: validate, and print the scenario as resolved, each value
// with its unit from the key table (payback/scenario/keys.hpp); --json gives each value's source too
// (the report's assumptions table, payback/scenario/assumptions.hpp).
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/scenario/assumptions.hpp"
#include "payback/scenario/keys.hpp"

namespace payback::cli {

namespace {

// to_toml's text with "# unit" after each value whose key has one: "price = 250.0  # currency".
std::string with_units(const std::string& toml, const std::string& currency) {
    std::string out, table;
    std::size_t start = 0;
    while (start < toml.size()) {
        const std::size_t end = toml.find('\n', start);
        std::string line = toml.substr(start, end == std::string::npos ? std::string::npos : end - start);
        start = end == std::string::npos ? toml.size() : end + 1;
        if (line.rfind("[[", 0) == 0) table = line.substr(2, line.find("]]") - 2) + "[]";
        else if (line.rfind('[', 0) == 0) table = line.substr(1, line.find(']') - 1);
        else if (const auto eq = line.find(" = "); eq != std::string::npos && line.find('{') == std::string::npos) {
            const std::string key = (table.empty() ? "" : table + ".") + line.substr(0, eq);
            if (const std::string unit = unit_of(key, currency); !unit.empty()) line += "  # " + unit;
        }
        out += line + "\n";
    }
    return out;
}

// Every value with its unit and source: the same rows as the report's assumptions table.
std::string assumptions_json(const Scenario& scenario, const std::vector<Override>& overrides) {
    nlohmann::ordered_json values = nlohmann::ordered_json::array();
    for (const Assumption& a : assumptions(scenario, overrides))
        values.push_back({{"key", a.key}, {"value", a.value}, {"unit", unit_of(a.key, scenario.currency)},
                          {"source", a.source}});
    const nlohmann::ordered_json out = {{"scenario", scenario.source}, {"valid", true}, {"currency", scenario.currency},
                                {"values", values}};
    return out.dump(2) + "\n";
}

}  // namespace

void add_check_command(CLI::App& app) {
    struct Args {
        ScenarioArgs scenario;
        Output output;
    };
    auto args = std::make_shared<Args>();
    CLI::App* command = app.add_subcommand(
        "check", "Validate a scenario and print it with every default filled in, each value with its unit "
                 "(--json: and its source: file line, --set, catalog row and date, or default)");
    add_scenario_args(*command, args->scenario, false);
    add_output_options(*command, args->output, {Format::table, Format::json});
    add_example(*command, {"payback check scenarios/venus-2019.toml",
                           "payback check my.toml --set electricity.price_per_kwh=0.3",
                           "payback check my.toml --json"});
    command->callback([args] {
        const Scenario scenario = load(args->scenario);
        if (args->output.format == Format::json) {
            emit(args->output, assumptions_json(scenario, parsed_overrides(args->scenario)));
            return;
        }
        emit(args->output, "# " + scenario.source + ": valid\n" + with_units(to_toml(scenario), scenario.currency));
    });
}

}  // namespace payback::cli
