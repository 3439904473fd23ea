// payback docs: the command-line reference as Markdown, made from the program's own --help texts;
// payback docs --keys: every scenario key, from the key table (payback/scenario/keys.hpp);
// payback docs --metrics: every figure compare reports, from the metric table (payback/model/metric_table.hpp).
// docs/cli.md, docs/keys.md and docs/model.md's metric list are their outputs, and tests fail when
// they differ, so none drifts.
#include <memory>
#include <string>

#include <fmt/format.h>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/model/metric_table.hpp"
#include "payback/scenario/keys.hpp"

namespace payback::cli {

namespace {

std::string markdown(const CLI::App& root) {
    std::string out =
        "# The payback command line\n\n"
        "<!-- Written by `payback docs > docs/cli.md` from the program's --help; tests/apps/docs_command_test.cpp\n"
        "     fails when this page and the program disagree. Edit the help texts in apps/, not this page. -->\n\n"
        "Every command prints its help with `--help`, with an example. Commands that print results take\n"
        "`--format table|json|csv` (`--json` and `--csv` are shorthands) and `-o FILE`, which writes the\n"
        "whole result or nothing (a temporary file, then a rename). Tables fit 80 columns; colour is used\n"
        "only on a terminal and never when `NO_COLOR` is set; progress bars (bench, montecarlo, sweep)\n"
        "appear only when stderr is a terminal. Exit codes: 0 success, 2 bad input (one line on stderr\n"
        "naming the file, line and key), 1 a bug. Bash completion: `source <(payback completion bash)`.\n\n"
        "| command | what it does |\n|---|---|\n";
    for (const CLI::App* command : root.get_subcommands({}))
        out += fmt::format("| [`{0}`](#payback-{0}) | {1} |\n", command->get_name(), command->get_description());
    // root.help() would show the help of the command running now (docs): the formatter shows the root's.
    out += fmt::format("\n## payback\n\n```text\n{}```\n",
                       root.get_formatter()->make_help(&root, root.get_name(), CLI::AppFormatMode::Normal));
    for (const CLI::App* command : root.get_subcommands({})) {
        out += fmt::format("\n## payback {}\n\n```text\n{}```\n", command->get_name(), command->help("payback"));
        for (const CLI::App* sub : command->get_subcommands({}))  // catalog import
            out += fmt::format("\n## payback {} {}\n\n```text\n{}```\n", command->get_name(), sub->get_name(),
                               sub->help("payback " + command->get_name()));
    }
    return out;
}

// Where compare --json has a metric of each scope.
std::string json_place(MetricScope scope) {
    switch (scope) {
        case MetricScope::option: return "`options[]`";
        case MetricScope::pair: return "`versus[]`";
        case MetricScope::job: return "`options[].job`";
        case MetricScope::tokens: return "`options[].tokens`";
    }
    return "";
}

std::string metrics_markdown() {
    std::string out =
        "<!-- Written by `payback docs --metrics` from the metric table (lib/src/model/metric_table.cpp);\n"
        "     tests/apps/docs_command_test.cpp fails when this list and the table disagree. -->\n\n"
        "| metric | unit | in compare --json | in CSV | meaning |\n|---|---|---|---|---|\n";
    for (const Metric& m : metric_table())
        out += fmt::format("| `{}` | {} | {} | {} | {} |\n", m.name, m.unit.empty() ? "text" : m.unit,
                           json_place(m.scope), m.csv ? "yes" : "no", m.description);
    return out;
}

}  // namespace

void add_docs_command(CLI::App& app) {
    CLI::App* command =
        app.add_subcommand("docs", "Print the reference of every command as Markdown (it is docs/cli.md)");
    auto keys = std::make_shared<bool>(false);
    auto metrics = std::make_shared<bool>(false);
    CLI::Option* keys_flag = command->add_flag(
        "--keys", *keys, "Print every scenario key instead: type, unit, range, default (docs/keys.md)");
    command
        ->add_flag("--metrics", *metrics,
                   "Print the metric table instead: every figure compare reports, its unit and meaning (the list "
                   "in docs/model.md)")
        ->excludes(keys_flag);
    add_example(*command,
                {"payback docs > docs/cli.md", "payback docs --keys > docs/keys.md", "payback docs --metrics"});
    command->callback([command, keys, metrics] {
        emit(*keys ? keys_markdown() : *metrics ? metrics_markdown() : markdown(*command->get_parent()));
    });
}

}  // namespace payback::cli
