// payback completion bash: a bash completion script, generated from the commands and options the
// program has (so it cannot fall behind them): commands, each command's options, the choices of
// options and arguments that have a fixed set (--format, --device, catalog's lists), and file
// names everywhere else.
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "command_common.hpp"
#include "commands.hpp"

namespace payback::cli {

namespace {

// The choices of an option with a fixed set, read from its validator's description in the type
// name ("TEXT:{cpu,cuda,all}", or "{csv->2,json->1}" for a transform): empty when it has none.
std::vector<std::string> choices(const CLI::Option& option) {
    const std::string type = option.get_type_name();
    const auto open = type.find('{'), close = type.find('}', open == std::string::npos ? 0 : open);
    if (open == std::string::npos || close == std::string::npos) return {};
    std::vector<std::string> out;
    std::size_t start = open + 1;
    while (start <= close) {
        auto end = type.find_first_of(",}", start);
        std::string item = type.substr(start, end - start);
        if (const auto arrow = item.find("->"); arrow != std::string::npos) item.resize(arrow);
        if (!item.empty()) out.push_back(item);
        start = end + 1;
    }
    return out;
}

std::string words(const std::vector<std::string>& list) {
    std::string out;
    for (const auto& w : list) out += (out.empty() ? "" : " ") + w;
    return out;
}

// One command's (or subcommand's, keyed "catalog/import") cases in the script.
struct CommandCases {
    std::string options, values, positionals;
};

void add_cases(const CLI::App& command, const std::string& key, CommandCases& cases, std::string& nested) {
    std::vector<std::string> names{"--help"}, positional_values, subcommands;
    for (const CLI::App* sub : command.get_subcommands({})) {
        subcommands.push_back(sub->get_name());
        nested += fmt::format("{}|", key + "/" + sub->get_name());
        add_cases(*sub, key + "/" + sub->get_name(), cases, nested);
    }
    for (const CLI::Option* option : command.get_options({})) {
        if (option->get_positional()) {
            const auto values = choices(*option);
            positional_values.insert(positional_values.end(), values.begin(), values.end());
            continue;
        }
        std::vector<std::string> spellings;
        for (const auto& s : option->get_snames()) spellings.push_back("-" + s);
        for (const auto& l : option->get_lnames()) spellings.push_back("--" + l);
        for (const auto& s : spellings)
            if (s != "--help" && s != "-h") names.push_back(s);
        if (const auto values = choices(*option); !values.empty())
            for (const auto& s : spellings) cases.values += fmt::format("        {}:{}) values=\"{}\" ;;\n", key, s, words(values));
    }
    // A command with subcommands offers their names where it takes a word (catalog: its lists, import, ...).
    positional_values.insert(positional_values.end(), subcommands.begin(), subcommands.end());
    if (!positional_values.empty())
        cases.positionals += fmt::format("        {}) values=\"{}\" ;;\n", key, words(positional_values));
    cases.options += fmt::format("        {}) options=\"{}\" ;;\n", key, words(names));
}

std::string bash_script(const CLI::App& root) {
    std::vector<std::string> commands;
    CommandCases cases;
    std::string nested;  // "catalog/import|catalog/update|...|": the subcommands, as a bash case pattern
    for (const CLI::App* command : root.get_subcommands({})) {
        commands.push_back(command->get_name());
        add_cases(*command, command->get_name(), cases, nested);
    }
    if (!nested.empty()) nested.pop_back();
    return fmt::format(R"(# bash completion for payback, written by `payback completion bash` from the program's own
# commands and options. Load it with
#   source <(payback completion bash)
# or save it as ~/.local/share/bash-completion/completions/payback.
_payback() {{
    local cur=${{COMP_WORDS[COMP_CWORD]}} prev=${{COMP_WORDS[COMP_CWORD-1]}}
    local command="" word options="" values="" i
    for ((i = 1; i < COMP_CWORD; i++)); do
        word=${{COMP_WORDS[i]}}
        [[ $word == -* ]] && continue
        if [[ -z $command ]]; then command=$word; continue; fi
        case "$command/$word" in {}) command=$command/$word ;; esac
    done
    COMPREPLY=()
    if [[ -z $command ]]; then
        COMPREPLY=($(compgen -W "{} --help --version" -- "$cur"))
        return
    fi
    case "$command:$prev" in
{}    esac
    if [[ -z $values && $cur == -* ]]; then
        case "$command" in
{}        esac
        values=$options
    elif [[ -z $values && $prev != -* ]]; then
        case "$command" in
{}        esac
    fi
    # Nothing to offer: bash falls back to file names (complete -o default).
    [[ -n $values ]] && COMPREPLY=($(compgen -W "$values" -- "$cur"))
}}
complete -o default -F _payback payback
)",
                       nested.empty() ? "''" : nested, words(commands), cases.values, cases.options, cases.positionals);
}

}  // namespace

void add_completion_command(CLI::App& app) {
    auto shell = std::make_shared<std::string>();
    CLI::App* command = app.add_subcommand("completion", "Print a shell completion script for payback");
    command->add_option("shell", *shell, "The shell: bash")->required()->check(CLI::IsMember({"bash"}));
    add_example(*command, {"source <(payback completion bash)",
                           "payback completion bash > ~/.local/share/bash-completion/completions/payback"});
    // The callback owns `shell`: the option writes into it when the command line is parsed, after
    // this function has returned (ASan caught the use after free when nothing held it).
    command->callback([command, shell] { emit(bash_script(*command->get_parent())); });
}

}  // namespace payback::cli
