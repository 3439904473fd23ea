// payback check SCENARIO [--set k=v]...: validate, and print the scenario as resolved, each value
// with its unit from the key table (payback/scenario/keys.hpp).
#include <memory>
#include <string>

#include "command_common.hpp"
#include "commands.hpp"
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

}  // namespace

void add_check_command(CLI::App& app) {
    auto args = std::make_shared<ScenarioArgs>();
    CLI::App* command = app.add_subcommand(
        "check", "Validate a scenario and print it with every default filled in, each value with its unit");
    add_scenario_args(*command, *args, false);
    add_example(*command, {"payback check scenarios/venus-2019.toml",
                           "payback check my.toml --set electricity.price_per_kwh=0.3"});
    command->callback([args] {
        const Scenario scenario = load(*args);
        emit("# " + scenario.source + ": valid\n" + with_units(to_toml(scenario), scenario.currency));
    });
}

}  // namespace payback::cli
