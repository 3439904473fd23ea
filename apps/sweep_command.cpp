// payback sweep [SCENARIO] --vary KEY=LO:HI:STEP [--vary KEY2=LO:HI:STEP] [--against NAME]
//               [--set k=v]... [--format table|json|csv] [-o FILE]
// The scenario's metrics over a 1-D or 2-D grid of numeric keys; for a 2-D grid, the break-even
// contour, where the NPV savings cross zero.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/base/error.hpp"
#include "payback/whatif/sweep.hpp"
#include "terminal.hpp"
#include "text_table.hpp"

namespace payback::cli {

namespace {

struct SweepArgs {
    ScenarioArgs scenario;
    std::vector<std::string> axes;
    std::string against;
    Output output;
};

// A key's value in a table: short, but every digit the grid's steps need.
std::string key_value(double v) { return fmt::format("{:.6g}", v); }

std::string months(double v) { return std::isnan(v) ? "-" : amount(v, 1); }

std::string text_1d(const Scenario& s, const SweepResult& r, const std::vector<std::size_t>& clouds, const Style& style) {
    const SweepAxis& axis = r.axes[0];
    std::string out = wrapped(fmt::format("{}: NPV savings and payback of building, as {} goes from {} to {} ({}).",
                                          s.name, axis.key, key_value(axis.low), key_value(axis.high), s.currency)) +
                      "\n";
    std::vector<TextTable::Column> columns{{axis.key}};
    for (std::size_t c : clouds) {
        columns.push_back({"NPV vs " + r.clouds[c]});
        columns.push_back({"payback mo vs " + r.clouds[c]});
    }
    TextTable table(columns);
    for (std::size_t p = 0; p < r.values[0].size(); ++p) {
        std::vector<std::string> cells{key_value(r.values[0][p])};
        for (std::size_t c : clouds) {
            cells.push_back(amount(r.metrics.npv_savings[c][p]));
            cells.push_back(months(r.metrics.payback_months[c][p]));
        }
        table.add_row(std::move(cells));
    }
    return out + table.render(style);
}

std::string text_2d(const Scenario& s, const SweepResult& r, std::size_t cloud, const Style& style) {
    const auto& xs = r.values[0];
    const auto& ys = r.values[1];
    const std::vector<double>& savings = r.metrics.npv_savings[cloud];
    std::string out = wrapped(fmt::format("{}: NPV savings of building against {} ({}), {} down, {} across.",
                                          s.name, r.clouds[cloud], s.currency, r.axes[0].key, r.axes[1].key)) +
                      "\n";
    std::vector<TextTable::Column> columns{{r.axes[0].key}};
    for (double y : ys) columns.push_back({key_value(y)});
    TextTable table(columns);
    for (std::size_t i = 0; i < xs.size(); ++i) {
        std::vector<std::string> cells{key_value(xs[i])};
        for (std::size_t j = 0; j < ys.size(); ++j) cells.push_back(amount(savings[i * ys.size() + j]));
        table.add_row(std::move(cells));
    }
    out += table.render(style);

    const ContourLine& contour = r.contours[cloud];
    if (contour.polylines.empty()) {
        const bool wins = std::all_of(savings.begin(), savings.end(), [](double v) { return v > 0.0; });
        out += "\n" + wrapped(fmt::format("No break-even against {} on this grid: {} at every point.", r.clouds[cloud],
                                         wins ? "building wins" : "renting wins (or ties)"));
        return out;
    }
    out += "\n" + wrapped(fmt::format("Break-even against {} (NPV savings = 0), interpolated linearly between grid "
                                     "points:",
                                     r.clouds[cloud]));
    const std::size_t x_width = std::max<std::size_t>(r.axes[0].key.size(), 10);
    for (std::size_t l = 0; l < contour.polylines.size(); ++l) {
        if (contour.polylines.size() > 1) out += fmt::format("line {}:\n", l + 1);
        out += fmt::format("  {:>{}}  {}\n", r.axes[0].key, x_width, r.axes[1].key);
        for (const auto& [x, y] : contour.polylines[l]) out += fmt::format("  {:>{}.6g}  {:.6g}\n", x, x_width, y);
    }
    return out;
}

std::string csv_report(const SweepResult& r) {
    std::string out;
    for (const SweepAxis& axis : r.axes) out += csv_field(axis.key) + ",";
    out += "rig_total_cost,rig_npv_cost";
    for (const std::string& cloud : r.clouds)
        for (const char* metric : {"total_cost", "npv_savings", "payback_months", "discounted_payback_months"})
            out += fmt::format(",{}", csv_field(fmt::format("{}:{}", metric, cloud)));
    out += "\n";
    // 12 significant digits: the batch is exact to 1e-9, and its last bits are noise a reader
    // should not see (-1718.9999999999998 for -1719).
    const auto cell = [](double v) { return std::isfinite(v) ? fmt::format("{:.12g}", v) : std::string(); };
    const std::size_t ny = r.values.size() == 2 ? r.values[1].size() : 1;
    const SampleMetrics& m = r.metrics;
    for (std::size_t p = 0; p < r.points(); ++p) {
        out += fmt::format("{},", r.values[0][p / ny]);
        if (r.values.size() == 2) out += fmt::format("{},", r.values[1][p % ny]);
        out += cell(m.rig_total_cost[p]) + "," + cell(m.rig_npv_cost[p]);
        for (std::size_t c = 0; c < r.clouds.size(); ++c)
            out += fmt::format(",{},{},{},{}", cell(m.cloud_total_cost[c][p]), cell(m.npv_savings[c][p]),
                               cell(m.payback_months[c][p]), cell(m.discounted_payback_months[c][p]));
        out += "\n";
    }
    return out;
}

nlohmann::json json_report(const Scenario& s, const SweepResult& r, const std::string& against) {
    nlohmann::json axes = nlohmann::json::array();
    for (std::size_t a = 0; a < r.axes.size(); ++a)
        axes.push_back({{"key", r.axes[a].key},
                        {"low", r.axes[a].low},
                        {"high", r.axes[a].high},
                        {"step", r.axes[a].step},
                        {"values", r.values[a]}});
    const std::size_t ny = r.values.size() == 2 ? r.values[1].size() : 1;
    const SampleMetrics& m = r.metrics;
    nlohmann::json points = nlohmann::json::array();
    for (std::size_t p = 0; p < r.points(); ++p) {
        nlohmann::json at = {r.values[0][p / ny]};
        if (r.values.size() == 2) at.push_back(r.values[1][p % ny]);
        nlohmann::json total = nlohmann::json::array(), savings = nlohmann::json::array(),
                       payback = nlohmann::json::array(), discounted = nlohmann::json::array();
        for (std::size_t c = 0; c < r.clouds.size(); ++c) {
            total.push_back(number_or_null(m.cloud_total_cost[c][p]));
            savings.push_back(number_or_null(m.npv_savings[c][p]));
            payback.push_back(number_or_null(m.payback_months[c][p]));
            discounted.push_back(number_or_null(m.discounted_payback_months[c][p]));
        }
        points.push_back({{"at", at},
                          {"rig_total_cost", number_or_null(m.rig_total_cost[p])},
                          {"rig_npv_cost", number_or_null(m.rig_npv_cost[p])},
                          {"cloud_total_cost", total},
                          {"npv_savings", savings},
                          {"payback_months", payback},
                          {"discounted_payback_months", discounted}});
    }
    nlohmann::json contours = nlohmann::json::array();
    for (const ContourLine& line : r.contours) {
        nlohmann::json polylines = nlohmann::json::array();
        for (const auto& polyline : line.polylines) {
            nlohmann::json points_of_line = nlohmann::json::array();
            for (const auto& [x, y] : polyline) points_of_line.push_back({x, y});
            polylines.push_back(points_of_line);
        }
        contours.push_back({{"cloud", line.cloud}, {"polylines", polylines}});
    }
    return {{"scenario", s.name}, {"currency", s.currency}, {"axes", axes},         {"clouds", r.clouds},
            {"against", against}, {"points", points},       {"contours", contours}, {"path", r.path_note}};
}

// The sweep, with progress on a terminal (a grid that must be evaluated exactly takes a while) and
// Ctrl-C stopping it cleanly, as payback montecarlo does.
SweepResult evaluate_grid(const Scenario& scenario, const std::vector<SweepAxis>& axes) {
    EvaluationOptions options;
    ProgressBar bar("sweep");
    if (bar.shown()) options.progress = [&bar](double done) { bar.update(done); };
    SweepResult r;
    run_interruptible("sweep", bar, [&](std::atomic<bool>& cancel) {
        options.cancel = &cancel;
        r = sweep(scenario, axes, options);
    });
    return r;
}

}  // namespace

void add_sweep_command(CLI::App& app) {
    auto args = std::make_shared<SweepArgs>();
    CLI::App* command = app.add_subcommand(
        "sweep",
        "NPV savings and payback over a grid of one or two numeric keys; for two, the break-even contour");
    add_scenario_args(*command, args->scenario, true);
    command
        ->add_option("--vary", args->axes,
                     "KEY=LO:HI:STEP: a numeric key and its grid, LO to HI (both included) in steps of STEP, at most "
                     "10,000 values; once for a 1-D sweep, twice for a 2-D grid")
        ->allow_extra_args(false)  // one value each time, so the scenario may follow
        ->required();
    command->add_option("--against", args->against,
                        "The cloud option of the text report (default: every one for 1-D; for 2-D, the one closest "
                        "to beating the rig)");
    add_output_options(*command, args->output, {Format::table, Format::json, Format::csv});
    add_example(*command, {"payback sweep scenarios/venus-2019.toml --vary workload.gpu_hours_per_month=50:700:50",
                           "payback sweep scenarios/venus-2019.toml --vary workload.gpu_hours_per_month=50:700:50 "
                           "--vary electricity.price_per_kwh=0.1:0.5:0.05 --format csv -o grid.csv"});
    command->callback([args] {
        std::vector<SweepAxis> axes;
        for (const auto& text : args->axes) axes.push_back(parse_axis(text));
        if (axes.size() > 2)
            throw InputError("--vary", 0, "", fmt::format("at most two keys (a 2-D grid), got {}", axes.size()));
        const Scenario scenario = load(args->scenario);
        const std::optional<std::string> named =
            args->against.empty() ? std::nullopt : std::optional<std::string>(args->against);
        const std::size_t against = against_index(scenario, named);
        const SweepResult r = evaluate_grid(scenario, axes);
        const Output& output = args->output;
        const Style style = Style::for_stdout(output.to_terminal());
        if (output.format == Format::json) {
            nlohmann::json out = json_report(scenario, r, r.clouds[against]);
            add_price_age(out, price_age_of(scenario, args->scenario));
            emit(output, out.dump(2) + "\n");
        } else if (output.format == Format::csv) {
            emit(output, csv_report(r));
        } else {
            warn_if_stale(price_age_of(scenario, args->scenario));
            std::string text;
            if (axes.size() == 1) {
                std::vector<std::size_t> clouds;
                for (std::size_t c = 0; c < r.clouds.size(); ++c)
                    if (!named || c == against) clouds.push_back(c);
                text = text_1d(scenario, r, clouds, style);
            } else {
                text = text_2d(scenario, r, against, style);
            }
            emit(output, text + "\n" + wrapped("(" + r.path_note + ")"));
        }
    });
}

}  // namespace payback::cli
