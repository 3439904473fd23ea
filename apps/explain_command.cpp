// payback explain [SCENARIO] [--against NAME] [--set k=v]... [--format table|json] [-o FILE]
// Why the answer is what it is, in sentences (payback/report/explanation.hpp).
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/report/explanation.hpp"
#include "terminal.hpp"

namespace payback::cli {

namespace {

struct ExplainArgs {
    ScenarioArgs scenario;
    std::string against;
    Output output;
};

}  // namespace

void add_explain_command(CLI::App& app) {
    auto args = std::make_shared<ExplainArgs>();
    CLI::App* command = app.add_subcommand(
        "explain", "Why the answer is what it is: which costs dominate, and what would flip it, in sentences");
    add_scenario_args(*command, args->scenario, true);
    command->add_option("--against", args->against, "The cloud option (default: the one closest to beating the rig)");
    add_output_options(*command, args->output, {Format::table, Format::json});
    add_example(*command, {"payback explain scenarios/venus-2019.toml",
                           "payback explain scenarios/rtx3080-home.toml --against \"Lambda 1x A100 40 GB\""});
    command->callback([args] {
        const Scenario scenario = load(args->scenario);
        const Explanation e = explain(scenario, args->against.empty() ? std::nullopt
                                                                      : std::optional<std::string>(args->against));
        if (args->output.format == Format::json) {
            nlohmann::json out = e.json;
            add_price_age(out, price_age_of(scenario, args->scenario));
            emit(args->output, out.dump(2) + "\n");
            return;
        }
        warn_if_stale(price_age_of(scenario, args->scenario));
        const Style style = Style::for_stdout(args->output.to_terminal());
        std::string text = style.bold(wrapped(e.sentences.front()));
        for (std::size_t i = 1; i < e.sentences.size(); ++i) text += "\n" + wrapped(e.sentences[i]);
        emit(args->output, text);
    });
}

}  // namespace payback::cli
