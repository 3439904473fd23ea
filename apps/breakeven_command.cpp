// payback breakeven SCENARIO --for KEY [--range LO:HI] [--against NAME] [--set k=v]... [--format table|json|csv] [-o FILE]
#include <charconv>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/base/error.hpp"
#include "payback/whatif/breakeven.hpp"

namespace payback::cli {

namespace {

struct BreakevenArgs {
    ScenarioArgs scenario;
    std::string key;
    std::string range;
    std::string against;
    Output output;
};

double parse_number(const std::string& text, const std::string& whole) {
    double value = 0.0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || error != std::errc() || stop != end || !std::isfinite(value))
        throw InputError("--range", 0, "", fmt::format("expected LO:HI with two numbers, got \"{}\"", whole));
    return value;
}

std::pair<double, double> parse_range(const std::string& text) {
    const auto colon = text.find(':');
    if (colon == std::string::npos)
        throw InputError("--range", 0, "", fmt::format("expected LO:HI with two numbers, got \"{}\"", text));
    return {parse_number(text.substr(0, colon), text), parse_number(text.substr(colon + 1), text)};
}

}  // namespace

void add_breakeven_command(CLI::App& app) {
    auto args = std::make_shared<BreakevenArgs>();
    CLI::App* command = app.add_subcommand(
        "breakeven", "Solve for the value of a scenario key at which building and renting cost the same (NPV)");
    add_scenario_args(*command, args->scenario, false);
    command->add_option("--for", args->key, "The numeric key to solve for, e.g. electricity.price_per_kwh")
        ->required();
    command->add_option("--range", args->range, "The interval to search, LO:HI (default: 0 to 10x the current value)");
    command->add_option("--against", args->against, "The cloud option (default: the one closest to beating the rig)");
    add_output_options(*command, args->output, {Format::table, Format::json, Format::csv});
    add_example(*command, {"payback breakeven scenarios/venus-2019.toml --for electricity.price_per_kwh",
                           "payback breakeven scenarios/venus-2019.toml --for workload.gpu_hours_per_month "
                           "--range 0:730 --format json"});
    command->callback([args] {
        const Scenario scenario = load(args->scenario);
        BreakevenQuery query;
        query.key = args->key;
        if (!args->range.empty()) query.range = parse_range(args->range);
        if (!args->against.empty()) query.against = args->against;
        const BreakevenResult r = breakeven(scenario, query);
        if (args->output.format != Format::table) {
            nlohmann::json out = {{"key", r.key},
                                        {"value", r.value ? nlohmann::json(*r.value) : nlohmann::json(nullptr)},
                                        {"range", {r.range.first, r.range.second}},
                                        {"metric", r.metric},
                                        {"against", r.against},
                                        {"current", r.current},
                                        {"npv_savings_at_range", {r.savings_at_low, r.savings_at_high}},
                                        {"more_roots", r.more_roots},
                                        {"message", r.message}};
            if (args->output.format == Format::json) {
                add_price_age(out, price_age_of(scenario, args->scenario));
                emit(args->output, out.dump(2) + "\n");
                return;
            }
            nlohmann::json row = out;  // the ranges' ends as columns of their own
            row["range_low"] = r.range.first;
            row["range_high"] = r.range.second;
            row["npv_savings_at_low"] = r.savings_at_low;
            row["npv_savings_at_high"] = r.savings_at_high;
            emit(args->output, records_csv(nlohmann::json::array({row}),
                                           {"key", "value", "current", "range_low", "range_high", "metric", "against",
                                            "npv_savings_at_low", "npv_savings_at_high", "more_roots", "message"}));
        } else {
            warn_if_stale(price_age_of(scenario, args->scenario));
            emit(args->output, wrapped(r.message));
        }
    });
}

}  // namespace payback::cli
