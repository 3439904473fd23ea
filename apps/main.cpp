// payback: build a rig, or rent? The command-line front end.
// Exit codes: 0 success, 2 bad input (one line on stderr naming the file, line and key), 1 a bug.
#include <cstdio>
#include <exception>

#include <CLI/CLI.hpp>

#include "commands.hpp"
#include "payback/error.hpp"

int main(int argc, char** argv) {
    CLI::App app{"payback: build a GPU rig, or rent? Costs, payback and break-even from a scenario file."};
    app.require_subcommand(1);
    app.set_version_flag("--version", "payback 0.1.0");
    payback::cli::add_compare_command(app);
    payback::cli::add_cashflow_command(app);
    payback::cli::add_check_command(app);
    payback::cli::add_breakeven_command(app);
    payback::cli::add_catalog_command(app);
    payback::cli::add_bench_command(app);
    payback::cli::add_montecarlo_command(app);
    payback::cli::add_sweep_command(app);
    payback::cli::add_tornado_command(app);
    payback::cli::add_report_command(app);
    const auto known = [&](const char* word) {
        for (const auto* command : app.get_subcommands({}))
            if (command->get_name() == word) return true;
        return false;
    };
    if (argc > 1 && argv[1][0] != '-' && !known(argv[1])) {
        std::fprintf(stderr, "payback: unknown command \"%s\"; the commands are compare, cashflow, check, breakeven, catalog, bench, montecarlo, sweep, tornado and report\n",
                     argv[1]);
        return 2;
    }
    try {
        app.parse(argc, argv);  // the chosen subcommand's callback runs inside
        return 0;
    } catch (const CLI::Success& e) {
        return app.exit(e);
    } catch (const CLI::ParseError& e) {
        std::fprintf(stderr, "payback: %s\n", e.what());
        return 2;
    } catch (const payback::InputError& e) {
        std::fprintf(stderr, "payback: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "payback: internal error: %s\n", e.what());
        return 1;
    }
}
