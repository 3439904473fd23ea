// The subcommands of `payback`; each registers itself, with its options and its callback, on the app.
#pragma once

#include <CLI/CLI.hpp>

namespace payback::cli {

void add_compare_command(CLI::App& app);
void add_explain_command(CLI::App& app);
void add_cashflow_command(CLI::App& app);
void add_check_command(CLI::App& app);
void add_init_command(CLI::App& app);
void add_breakeven_command(CLI::App& app);
void add_backtest_command(CLI::App& app);
void add_catalog_command(CLI::App& app);
void add_bench_command(CLI::App& app);
void add_montecarlo_command(CLI::App& app);
void add_sweep_command(CLI::App& app);
void add_tornado_command(CLI::App& app);
void add_report_command(CLI::App& app);
void add_completion_command(CLI::App& app);
void add_docs_command(CLI::App& app);
void add_predict_command(CLI::App& app);

}  // namespace payback::cli
