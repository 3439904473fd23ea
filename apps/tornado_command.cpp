// payback tornado [SCENARIO] [--vary KEY[=LO:HI]]... [--against NAME] [--swing F] [--samples N]
//                 [--seed S] [--set k=v]... [--format table|json|csv] [-o FILE]
// Which inputs move the NPV savings most: each from its low to its high value with the others as
// they are (a tornado chart), then, with an [uncertainty] table, a global ranking by rank
// correlation over a Monte Carlo run.
#include <algorithm>
#include <cmath>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/base/error.hpp"
#include "payback/whatif/tornado.hpp"
#include "terminal.hpp"
#include "text_table.hpp"

namespace payback::cli {

namespace {

struct TornadoArgs {
    ScenarioArgs scenario;
    std::vector<std::string> inputs;
    std::string against;
    double swing = 0.2;
    int samples = 2000;
    std::uint64_t seed = 1;
    Output output;
};

constexpr std::size_t key_width = 28;  // the chart's lines: 28 + 1 + 25 + 1 + 21 = 76 columns
constexpr int half_bar = 12;


// A key cut to the chart's column from the left, where key paths share their least.
std::string short_key(const std::string& key) {
    return key.size() <= key_width ? key : ".." + key.substr(key.size() - (key_width - 2));
}

std::string short_source(const std::string& source) {
    const auto cut = source.find(", cut");
    return cut == std::string::npos ? source : source.substr(0, cut) + " cut*";
}

// The bar of one input: '=' from the centre to the metric at the low value, '#' to the metric at
// the high value, each proportional to its distance from the base (the longer drawn first).
std::string bar(const TornadoBar& b, double base, double scale) {
    std::string out(2 * half_bar + 1, ' ');
    out[half_bar] = '|';
    const auto offset = [&](double metric) {
        if (scale <= 0.0 || metric == base) return 0;
        const int cells = static_cast<int>(std::lround(half_bar * std::abs(metric - base) / scale));
        return std::clamp(cells, 1, half_bar) * (metric > base ? 1 : -1);
    };
    std::vector<std::pair<int, char>> ends{{offset(b.metric_at_low), '='}, {offset(b.metric_at_high), '#'}};
    std::stable_sort(ends.begin(), ends.end(),
                     [](const auto& a, const auto& c) { return std::abs(a.first) > std::abs(c.first); });
    for (const auto& [cells, mark] : ends)
        for (int k = 1; k <= std::abs(cells); ++k) out[half_bar + (cells > 0 ? k : -k)] = mark;
    return out;
}

std::string text_report(const Scenario& s, const TornadoArgs& args, const TornadoResult& r, const Style& style) {
    std::string out = wrapped(fmt::format("{}: what moves the NPV savings of building against {} ({}).", s.name,
                                          r.against, s.currency));
    out += wrapped(fmt::format("Base {} at the scenario's values. Each input from its low to its high value, the "
                               "others as they are: '=' the savings at the low value, '#' at the high value.",
                               amount(r.base))) +
           "\n";
    if (r.bars.empty()) return out + "No inputs to swing.\n";
    double scale = 0.0;
    for (const TornadoBar& b : r.bars)
        scale = std::max({scale, std::abs(b.metric_at_low - r.base), std::abs(b.metric_at_high - r.base)});
    out += fmt::format("{:<{}} {:<{}}|{:>{}} {:>10} {:>10}\n", "", key_width, amount(r.base - scale), half_bar,
                       amount(r.base + scale), half_bar, "at low", "at high");
    for (const TornadoBar& b : r.bars)
        out += fmt::format("{:<{}} {} {:>10} {:>10}\n", short_key(b.key), key_width, bar(b, r.base, scale),
                           amount(b.metric_at_low), amount(b.metric_at_high));

    using A = TextTable::Align;
    TextTable inputs({{"input", A::left}, {"now"}, {"low"}, {"high"}, {"swing"}, {"from", A::left}});
    bool cut = false;
    for (const TornadoBar& b : r.bars) {
        inputs.add_row({short_key(b.key), fmt::format("{:.4g}", b.current), fmt::format("{:.4g}", b.low_value),
                        fmt::format("{:.4g}", b.high_value), amount(b.swing), short_source(b.source)});
        cut = cut || b.source.find(", cut") != std::string::npos;
    }
    out += "\n" + inputs.render(style);
    if (cut) out += "* cut to the values the key allows\n";

    if (r.samples == 0) {
        out += s.uncertainty.empty() ? "\nNo global ranking: the scenario has no [uncertainty] table to sample.\n"
                                     : "\nNo global ranking (--samples 0).\n";
        return out;
    }
    out += "\n" + wrapped(fmt::format("Global ranking: Spearman rank correlation of each uncertain input with the NPV "
                                     "savings over {} Monte Carlo samples (seed {}), the other inputs varying too:",
                                     amount(static_cast<double>(r.samples)), args.seed));
    for (const GlobalRank& g : r.global) {
        const int cells = std::isnan(g.rho) ? 0 : static_cast<int>(std::lround(30.0 * std::abs(g.rho)));
        out += fmt::format("{:<{}} {:>6}  {}\n", short_key(g.key), key_width,
                           std::isnan(g.rho) ? std::string("-") : fmt::format("{:+.2f}", g.rho),
                           std::string(static_cast<std::size_t>(cells), '#'));
    }
    return out;
}

nlohmann::json json_report(const Scenario& s, const TornadoResult& r) {
    nlohmann::json bars = nlohmann::json::array();
    for (const TornadoBar& b : r.bars)
        bars.push_back({{"key", b.key},
                        {"current", b.current},
                        {"low", b.low_value},
                        {"high", b.high_value},
                        {"npv_savings_at_low", number_or_null(b.metric_at_low)},
                        {"npv_savings_at_high", number_or_null(b.metric_at_high)},
                        {"swing", number_or_null(b.swing)},
                        {"from", b.source}});
    nlohmann::json global = nullptr;
    if (r.samples > 0) {
        nlohmann::json ranking = nlohmann::json::array();
        for (const GlobalRank& g : r.global) ranking.push_back({{"key", g.key}, {"rho", number_or_null(g.rho)}});
        global = {{"method", "spearman"},
                  {"samples", r.samples},
                  {"seed", r.seed},
                  {"path", r.global_path_note},
                  {"ranking", ranking}};
    }
    return {{"scenario", s.name},
            {"currency", s.currency},
            {"metric", r.metric},
            {"against", r.against},
            {"base", number_or_null(r.base)},
            {"bars", bars},
            {"global", global},
            {"path", r.path_note}};
}

}  // namespace

void add_tornado_command(CLI::App& app) {
    auto args = std::make_shared<TornadoArgs>();
    CLI::App* command = app.add_subcommand(
        "tornado",
        "Which inputs move the NPV savings most: one at a time from low to high (P10/P90 of [uncertainty], or "
        "+-20 %), ranked, and a global rank-correlation ranking");
    add_scenario_args(*command, args->scenario, true);
    command->add_option("--vary", args->inputs,
                        "KEY or KEY=LO:HI: swing this key (repeatable); without it, every key of [uncertainty], "
                        "else the scenario's main figures (hours, electricity and cloud prices, part prices, resale, "
                        "discount rate)")
        ->allow_extra_args(false);
    command->add_option("--against", args->against, "The cloud option (default: the one closest to beating the rig)");
    command
        ->add_option("--swing", args->swing,
                     "The relative swing of a key with neither a distribution nor a range (default 0.2: +-20 %)")
        ->check(CLI::Range(0.001, 0.999));
    command
        ->add_option("--samples", args->samples, "Monte Carlo samples of the global ranking (default 2,000; 0: none)")
        ->check(CLI::Range(0, 10000000));
    command->add_option("--seed", args->seed, "Seed of the Monte Carlo draw (default 1)");
    add_output_options(*command, args->output, {Format::table, Format::json, Format::csv});
    add_example(*command, {"payback tornado scenarios/venus-2019-uncertain.toml --samples 5000",
                           "payback tornado scenarios/venus-2019.toml --vary electricity.price_per_kwh=0.1:0.4 "
                           "--samples 0 --format csv"});
    command->callback([args] {
        TornadoOptions options;
        for (const auto& text : args->inputs) options.inputs.push_back(parse_tornado_input(text));
        if (!args->against.empty()) options.against = args->against;
        options.relative_swing = args->swing;
        options.samples = args->samples;
        options.seed = args->seed;
        const Scenario scenario = load(args->scenario);
        const TornadoResult r = tornado(scenario, options);
        const Output& output = args->output;
        if (output.format == Format::json) {
            nlohmann::json out = json_report(scenario, r);
            add_price_age(out, price_age_of(scenario, args->scenario));
            emit(output, out.dump(2) + "\n");
        } else if (output.format == Format::csv) {
            emit(output, records_csv(json_report(scenario, r)["bars"],
                                     {"key", "current", "low", "high", "npv_savings_at_low", "npv_savings_at_high",
                                      "swing", "from"}));
        } else {
            warn_if_stale(price_age_of(scenario, args->scenario));
            emit(output, text_report(scenario, *args, r, Style::for_stdout(output.to_terminal())));
        }
    });
}

}  // namespace payback::cli
