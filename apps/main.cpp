// payback: build a rig, or rent? The command-line front end.
// Exit codes: 0 success, 2 bad input (one line on stderr naming the file, line and key), 1 a bug.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "help_formatter.hpp"
#include "payback/base/error.hpp"
#include "payback/base/isa.hpp"
#include "payback/base/suggest.hpp"
#include "payback/base/version.hpp"
#include "payback/report/option_names.hpp"

// CLI11 throws while the commands are set up only for a programming error (an option named twice),
// which every test would hit; the parse and the commands run inside the try below.
int main(int argc, char** argv) {  // NOLINT(bugprone-exception-escape)
    CLI::App app{"payback: build a GPU rig, or rent? Costs, payback and break-even from a scenario file.",
                 "payback"};  // named, so --help reads the same however the program was started
    app.formatter(std::make_shared<payback::cli::HelpFormatter>());  // before the subcommands: they copy it
    app.require_subcommand(1);
    // The version (the CMake project's), and which instruction set the hot paths run (payback/base/isa.hpp).
    app.set_version_flag("--version",
                         [] { return std::string("payback ") + payback::version() + "\nhot paths: " + payback::describe_isa(); });
    app.footer("Start with `payback init > my.toml`, then `payback compare my.toml` and `payback explain my.toml`.\n"
               "Each command's --help has its options and an example.");
    payback::cli::add_compare_command(app);
    payback::cli::add_explain_command(app);
    payback::cli::add_cashflow_command(app);
    payback::cli::add_check_command(app);
    payback::cli::add_init_command(app);
    payback::cli::add_breakeven_command(app);
    payback::cli::add_backtest_command(app);
    payback::cli::add_catalog_command(app);
    payback::cli::add_predict_command(app);
    payback::cli::add_bench_command(app);
    payback::cli::add_montecarlo_command(app);
    payback::cli::add_sweep_command(app);
    payback::cli::add_tornado_command(app);
    payback::cli::add_report_command(app);
    payback::cli::add_completion_command(app);
    payback::cli::add_docs_command(app);
    std::vector<std::string> names;
    for (const CLI::App* command : app.get_subcommands({})) names.push_back(command->get_name());
    if (argc > 1 && argv[1][0] != '-' && std::find(names.begin(), names.end(), argv[1]) == names.end()) {
        // A likely typo gets the one command it was meant to be; anything else gets the list.
        if (const std::string hint = payback::detail::closest_match(argv[1], names); !hint.empty()) {
            std::fprintf(stderr, "payback: unknown command \"%s\"; did you mean \"%s\"?\n", argv[1], hint.c_str());
            return 2;
        }
        std::string list;
        for (std::size_t i = 0; i < names.size(); ++i)
            list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
        std::fprintf(stderr, "payback: unknown command \"%s\"; the commands are %s\n", argv[1], list.c_str());
        return 2;
    }
    try {
        (void)payback::active_isa();  // a bad PAYBACK_ISA is bad input, refused before any work
        app.parse(argc, argv);  // the chosen subcommand's callback runs inside
        return 0;
    } catch (const CLI::Success& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "payback: %s\n", e.what());
        return 2;
    } catch (const payback::InputError& e) {
        std::fprintf(stderr, "payback: %s\n", payback::with_option_names(e).what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "payback: internal error: %s\n", e.what());
        return 1;
    }
}
