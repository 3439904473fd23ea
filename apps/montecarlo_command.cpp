// payback montecarlo [SCENARIO] [--samples N] [--seed S] [--lhs] [--threads N] [--bins N]
//                    [--metrics NAME,...] [--set k=v]... [--format table|json|csv] [-o FILE]
// Monte Carlo over the scenario's [uncertainty]: mean, P10/P50/P90 and standard error of each
// metric, the chance that building beats each cloud option, histograms. Ctrl-C stops cleanly.
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/base/error.hpp"
#include "payback/market/catalog.hpp"
#include "payback/whatif/host_income.hpp"
#include "payback/whatif/montecarlo.hpp"
#include "terminal.hpp"
#include "text_table.hpp"

namespace payback::cli {
namespace {

struct MonteCarloArgs {
    ScenarioArgs scenario;
    int samples = 10000;
    std::uint64_t seed = 1;
    bool lhs = false;
    int threads = 0;
    int bins = 30;
    std::vector<std::string> metrics;  ///< empty: all
    Output output;
};


nlohmann::json to_json(const MonteCarloArgs& args, const MonteCarloResult& r) {
    nlohmann::json metrics = nlohmann::json::array();
    for (const MetricSummary& m : r.summaries) {
        const Summary& s = m.summary;
        metrics.push_back({{"metric", m.metric},
                           {"option", m.option},
                           {"mean", number_or_null(s.mean)},
                           {"sd", number_or_null(s.sd)},
                           {"standard_error", number_or_null(s.standard_error)},
                           {"p10", number_or_null(s.p10)},
                           {"p50", number_or_null(s.p50)},
                           {"p90", number_or_null(s.p90)},
                           {"min", number_or_null(s.min)},
                           {"max", number_or_null(s.max)},
                           {"count", s.count},
                           {"share_defined", m.share_defined},
                           {"histogram", {{"edges", m.histogram.edges}, {"counts", m.histogram.counts}}}});
    }
    nlohmann::json wins = nlohmann::json::object();
    // Empty when npv_savings was not selected.
    for (std::size_t c = 0; c < r.probability_build_wins.size(); ++c) wins[r.clouds[c]] = r.probability_build_wins[c];
    return {{"keys", r.keys},
            {"samples", args.samples},
            {"seed", args.seed},
            {"method", args.lhs ? "latin_hypercube" : "monte_carlo"},
            {"path", r.path_note},
            {"isa", r.isa},
            {"seconds", r.seconds},
            {"metrics", metrics},
            {"probability_build_wins", wins}};
}

std::string text_report(const Scenario& s, const MonteCarloArgs& args, const MonteCarloResult& r, const Style& style) {
    std::string out = wrapped(fmt::format("{}: {} {} samples of {} uncertain inputs (seed {})", s.name,
                                          amount(args.samples), args.lhs ? "Latin hypercube" : "Monte Carlo",
                                          r.keys.size(), args.seed)) +
                      "\n";
    using A = TextTable::Align;
    TextTable table({{"metric", A::left}, {"option", A::left}, {"mean"}, {"P10"}, {"P50"}, {"P90"}, {"std err"},
                     {"reached", A::left}});
    for (const MetricSummary& m : r.summaries) {
        const Summary& x = m.summary;
        const std::string option = m.option.size() > 24 ? m.option.substr(0, 23) + "~" : m.option;
        table.add_row({m.metric, option, amount(x.mean, 1), amount(x.p10, 1), amount(x.p50, 1), amount(x.p90, 1),
                       amount(x.standard_error, 2),
                       m.share_defined < 1.0 ? fmt::format("{:.1f} %", 100.0 * m.share_defined) : ""});
    }
    out += table.render(style) + "\n";
    for (std::size_t c = 0; c < r.probability_build_wins.size(); ++c)
        out += wrapped(fmt::format("Building beats {} in {:.1f} % of samples (NPV savings > 0).", r.clouds[c],
                                   100.0 * r.probability_build_wins[c]));
    return out;
}

std::string csv_report(const MonteCarloArgs& args, const MonteCarloResult& r) {
    nlohmann::json rows = to_json(args, r)["metrics"];
    return records_csv(rows, {"metric", "option", "mean", "sd", "standard_error", "p10", "p50", "p90", "min", "max",
                              "count", "share_defined"});
}

// A rental market row with P10/median/P90 host prices draws the host price (host_income.hpp), unless
// the scenario's [uncertainty] gives it a distribution of its own.
Scenario with_host_price_drawn(Scenario s, const std::optional<RentalMarket>& market) {
    const auto distribution = market ? host_price_distribution(*market) : std::nullopt;
    const std::string key = "rental.price_per_gpu_hour";
    const auto& inputs = s.uncertainty.inputs;
    if (distribution && std::none_of(inputs.begin(), inputs.end(), [&](const auto& i) { return i.key == key; }))
        s.uncertainty.inputs.push_back({key, *distribution, 0});
    return s;
}

// Host income over draws is a full cash flow of the rig with and without renting per draw: 4,000 Latin
// hypercube draws put a uniform occupancy's P10 and P90 within one stratum, 1/4,000 of its range, of
// their limits, in a fraction of the run's own time.
constexpr int host_income_draws = 4000;

std::optional<Distribution> drawn(const Scenario& s, const std::string& key) {
    for (const UncertainInput& input : s.uncertainty.inputs)
        if (input.key == key) return input.distribution;
    return std::nullopt;
}

// Net host income a month: over the draws of the host price and occupancy when the scenario's
// [uncertainty] draws the occupancy (income is then no function of the price alone), else exactly at
// the market row's price quantiles; none when neither is drawn.
std::optional<HostIncomeQuantiles> host_income(const Scenario& scenario, const std::optional<RentalMarket>& market,
                                               const MonteCarloArgs& args) {
    if (!scenario.rental) return std::nullopt;
    if (const auto occupancy = drawn(scenario, "rental.occupancy"))
        return host_income_drawn(scenario, drawn(scenario, "rental.price_per_gpu_hour"), *occupancy,
                                 std::clamp(args.samples, 2, host_income_draws), args.seed);
    if (market && market->host_price_p10_per_hour)
        return host_income_quantiles(scenario, *market->host_price_p10_per_hour, *market->host_price_per_hour,
                                     *market->host_price_p90_per_hour);
    return std::nullopt;
}

void run(const MonteCarloArgs& args) {
    const Scenario loaded = load(args.scenario);
    const std::optional<RentalMarket> market = rental_market_row(loaded, loaded.prices.catalogs());
    const Scenario scenario = with_host_price_drawn(loaded, market);
    MonteCarloOptions options;
    options.samples = args.samples;
    options.seed = args.seed;
    options.method = args.lhs ? SamplingMethod::latin_hypercube : SamplingMethod::monte_carlo;
    options.histogram_bins = args.bins;
    options.evaluation.threads = args.threads;
    if (!args.metrics.empty()) options.evaluation.metrics = MetricSelection::only(args.metrics);
    ProgressBar bar("montecarlo");
    if (bar.shown()) options.evaluation.progress = [&bar](double done) { bar.update(done); };
    MonteCarloResult r;
    run_interruptible("montecarlo", bar, [&](std::atomic<bool>& cancel) {
        options.evaluation.cancel = &cancel;
        r = montecarlo(scenario, options);
    });
    bar.clear();
    std::fprintf(stderr, "montecarlo: %s; %s; %.3f s\n", r.path_note.c_str(), r.isa.c_str(), r.seconds);
    const PriceAge age = price_age_of(scenario, args.scenario);
    const std::optional<HostIncomeQuantiles> income = host_income(scenario, market, args);
    const Output& output = args.output;
    if (output.format == Format::json) {
        nlohmann::json out = to_json(args, r);
        add_price_age(out, age);
        if (income) out["host_income_per_month"] = {{"p10", income->p10}, {"p50", income->p50}, {"p90", income->p90}};
        emit(output, out.dump(2) + "\n");
    } else if (output.format == Format::csv) {
        emit(output, csv_report(args, r));
    } else {
        warn_if_stale(age);
        std::string text = text_report(scenario, args, r, Style::for_stdout(output.to_terminal()));
        if (income)
            text += fmt::format("\nNet host income a month {}:\n"
                                "  {} / {} / {} {}\n",
                                drawn(scenario, "rental.occupancy")
                                    ? "(P10 / P50 / P90 over the host price and occupancy drawn)"
                                    : "at the market's P10 / median / P90 host price",
                                amount(income->p10), amount(income->p50), amount(income->p90), scenario.currency);
        emit(output, text);
    }
}

}  // namespace

void add_montecarlo_command(CLI::App& app) {
    auto args = std::make_shared<MonteCarloArgs>();
    CLI::App* command = app.add_subcommand(
        "montecarlo", "Monte Carlo over the scenario's [uncertainty]: P10/P50/P90 of payback, NPV and costs");
    add_scenario_args(*command, args->scenario, true);
    command->add_option("--samples", args->samples, "Number of samples (default 10,000)")->check(CLI::Range(1, 100000000));
    command->add_option("--seed", args->seed, "Seed of the random draw (default 1); the same seed gives the same answer");
    command->add_flag("--lhs", args->lhs, "Latin hypercube sampling instead of plain Monte Carlo");
    command->add_option("--threads", args->threads, "Threads (default: every hardware thread)")->check(CLI::Range(1, 1024));
    command->add_option("--bins", args->bins, "Histogram bins (default 30)")->check(CLI::Range(1, 10000));
    command
        ->add_option("--metrics", args->metrics,
                     "Only these metrics, comma-separated (default all; fewer is faster): total_cost, npv_savings, "
                     "payback_months, discounted_payback_months")
        ->delimiter(',')
        ->check(CLI::Validator(
            [](std::string& name) -> std::string {
                for (const char* known : {"total_cost", "npv_savings", "payback_months", "discounted_payback_months"})
                    if (name == known) return {};
                return name + " is not one of total_cost, npv_savings, payback_months, discounted_payback_months";
            },
            "NAME"));
    add_output_options(*command, args->output, {Format::table, Format::json, Format::csv});
    add_example(*command, {"payback montecarlo scenarios/venus-2019-uncertain.toml --samples 100000 --lhs",
                           "payback montecarlo scenarios/venus-2019-uncertain.toml --format csv -o summary.csv"});
    command->callback([args] { run(*args); });
}

}  // namespace payback::cli
