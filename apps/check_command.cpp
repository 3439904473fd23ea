// payback check SCENARIO [--set k=v]...: validate, and print the scenario as resolved.
#include <memory>

#include "command_common.hpp"
#include "commands.hpp"

namespace payback::cli {

void add_check_command(CLI::App& app) {
    auto args = std::make_shared<ScenarioArgs>();
    CLI::App* command =
        app.add_subcommand("check", "Validate a scenario and print it with every default filled in");
    add_scenario_args(*command, *args, false);
    add_example(*command, {"payback check scenarios/venus-2019.toml",
                           "payback check my.toml --set electricity.price_per_kwh=0.3"});
    command->callback([args] {
        const Scenario scenario = load(*args);
        emit("# " + scenario.source + ": valid\n" + to_toml(scenario));
    });
}

}  // namespace payback::cli
