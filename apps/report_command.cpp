// payback report [SCENARIO] -o FILE [--samples N] [--seed S] [--set k=v]...
// One self-contained HTML page: the answer, charts of cost over time, the monthly breakdown, the
// break-even workload, uncertainty when the scenario has any, the rig's power, circuit, heat and
// carbon, and every assumption with its source (docs/report.md). "-o -" writes it to stdout.
#include <memory>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/report/html_report.hpp"

namespace payback::cli {

namespace {

struct ReportArgs {
    ScenarioArgs scenario;
    std::string output;
    int samples = 10000;
    std::uint64_t seed = 1;
};

}  // namespace

void add_report_command(CLI::App& app) {
    auto args = std::make_shared<ReportArgs>();
    CLI::App* command = app.add_subcommand(
        "report", "Write one self-contained HTML page with the answer, charts and every assumption's source.");
    add_example(*command, {"payback report scenarios/venus-2019-uncertain.toml -o report.html"});
    add_scenario_args(*command, args->scenario, true);
    command->add_option("-o,--output", args->output, "The HTML file to write (\"-\": standard output)")->required();
    command
        ->add_option("--samples", args->samples,
                     "Monte Carlo samples when the scenario has [uncertainty] (default 10,000)")
        ->check(CLI::Range(100, 10000000));
    command->add_option("--seed", args->seed, "Seed of the Monte Carlo draw (default 1)");
    command->callback([args] {
        const Scenario scenario = load(args->scenario);
        ReportOptions options;
        for (const auto& assignment : args->scenario.assignments) options.overrides.push_back(parse_override(assignment));
        options.samples = args->samples;
        options.seed = args->seed;
        ReportData data = report_data(scenario, options);
        data.prices = price_age_of(scenario, args->scenario);
        const std::string page = html_report(data);
        if (args->output == "-")
            emit(page);
        else
            write_file_atomically(args->output, page);
    });
}

}  // namespace payback::cli
