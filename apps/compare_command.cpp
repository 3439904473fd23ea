// payback compare [SCENARIO] [--set k=v]... [--cloud FILTER] [--format table|json|csv] [-o FILE]
#include <algorithm>
#include <memory>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/base/error.hpp"
#include "payback/market/catalog.hpp"
#include "payback/market/cloud_cost.hpp"
#include "payback/market/instance_filter.hpp"
#include "payback/model/comparison.hpp"
#include "payback/model/metric_table.hpp"
#include "payback/model/model_inputs.hpp"
#include "payback/report/report_json.hpp"
#include "payback/report/verdict.hpp"
#include "terminal.hpp"
#include "text_table.hpp"

namespace payback::cli {

namespace {

struct CompareArgs {
    ScenarioArgs scenario;
    std::string cloud_filter;
    Output output;
    bool wide = false;
};

// The IRR for a table cell: a rate, or why there is none.
std::string irr_cell(const VersusResult& v) {
    if (v.irr) return fmt::format("{:.1f}%", *v.irr * 100.0);
    if (v.irr_status == "multiple_roots") return fmt::format("{} roots", v.irr_roots.size());
    if (v.irr_status == "not_converged") return "not found";
    return "-";
}

// A metric's cell in the text tables: "-" where absent, fractions and rates as percentages.
std::string text_cell(const Metric& metric, const MetricValue& value) {
    if (const double* x = std::get_if<double>(&value)) {
        if (metric.unit == "fraction" || metric.unit == "/yr") return fmt::format("{:.{}f}%", *x * 100.0, metric.decimals);
        return amount(*x, metric.decimals);
    }
    if (const int* n = std::get_if<int>(&value)) return std::to_string(*n);
    if (const std::string* text = std::get_if<std::string>(&value)) return *text;
    return "-";  // absent: lists and numbers by name have no column in the tables
}

// The metric table's rows of one scope that the text tables show, in its order.
std::vector<const Metric*> shown(MetricScope scope) {
    std::vector<const Metric*> out;
    for (const Metric* m : metrics_of(scope))
        if (!m->header.empty()) out.push_back(m);
    return out;
}

// Metrics down, options across: each answer is read along one row, each option's name heads its
// column (wrapped, never cut), and the table widens only with the number of options.
class MetricsByOption {
public:
    MetricsByOption(const std::string& corner, const std::vector<std::string>& options)
        : table_(columns(corner, options)) {
        table_.wrap_headers_at(16);  // two or three short lines for "AWS p3.2xlarge (V100) on-demand"
    }
    void add(const std::string& label, std::vector<std::string> cells) {
        cells.insert(cells.begin(), label);
        table_.add_row(std::move(cells));
    }
    std::string render(const Style& style, std::size_t width) const { return table_.render(style, width); }

private:
    static std::vector<TextTable::Column> columns(const std::string& corner, const std::vector<std::string>& options) {
        std::vector<TextTable::Column> out{{corner, TextTable::Align::left}};
        for (const auto& name : options) out.push_back({name});
        return out;
    }
    TextTable table_;
};

// The rig as hardware, in a few sentences: circuit, heat, energy, carbon, scheduling, scaling.
std::string hardware_text(const Scenario& s, const Comparison& c, const Style& style) {
    const RigReport& r = c.rig;
    const auto training = static_cast<std::size_t>(PowerState::training);
    const auto idle = static_cast<std::size_t>(PowerState::idle);
    std::string out = "\n" + (r.circuit_check.over ? style.warning("WARNING: ") : std::string()) +
                      wrapped(r.circuit_check.message);
    std::string energy = fmt::format("Heat: {} W ({} BTU/h) while training", amount(r.heat_watts[training]),
                                     amount(r.heat_btu_per_hour[training]));
    if (s.rig.when_not_training == WhenNotTraining::idle) energy += fmt::format(", {} W idle", amount(r.heat_watts[idle]));
    energy += fmt::format(". Energy: {} kWh a month", amount(r.energy_kwh_per_month));
    if (r.energy_kwh_by_period.size() > 1) {
        std::vector<std::string> periods;
        for (const auto& [name, kwh] : r.energy_kwh_by_period)
            periods.push_back(fmt::format("{} {}", name, amount(kwh / s.horizon_months)));
        energy += fmt::format(" ({})", fmt::join(periods, ", "));
    }
    out += wrapped(energy + ".");
    const bool any_co2 = std::any_of(c.options.begin(), c.options.end(), [](const OptionResult& o) { return o.co2_kg_total > 0; });
    if (any_co2) {
        std::string co2 = fmt::format("CO2 over {} months: {} {}", s.horizon_months, s.rig.name,
                                      s.grid_co2_kg_per_kwh > 0 ? amount(r.co2_kg_total) + " kg" : "unknown (no grid intensity)");
        for (std::size_t i = 1; i < c.options.size(); ++i)
            if (c.options[i].co2_kg_total > 0)
                co2 += fmt::format(", {} {} kg", c.options[i].name, amount(c.options[i].co2_kg_total));
        out += wrapped(co2 + ".");
    }
    if (r.naive_energy_cost)
        out += wrapped(fmt::format("Deferrable training in the cheapest hours: {} {} of electricity over the horizon "
                                   "instead of {} (saves {}).",
                                   amount(*r.scheduled_energy_cost), s.currency, amount(*r.naive_energy_cost),
                                   amount(*r.naive_energy_cost - *r.scheduled_energy_cost)));
    if (c.scaling.gpus > 1)
        out += wrapped(fmt::format("{} GPUs at {:.0f} % data-parallel efficiency on {:.1f} GB/s links: {:.2f} "
                                   "effective GPUs.",
                                   c.scaling.gpus, c.scaling.efficiency * 100.0, c.scaling.link_gb_per_s,
                                   c.scaling.effective_gpus()));
    return out;
}

// With a [workload] job: what a run costs on each option, and where each throughput came from.
std::string job_text(const Scenario& s, const Comparison& c, const Style& style, std::size_t width) {
    if (!s.job || c.options.empty() || !c.options.front().job) return "";
    const TrainingJob& j = *s.job;
    std::string out = "\n" + wrapped(fmt::format("A run: {} epochs of {} samples of {} (batch {}), {} runs a month",
                                                 amount(j.epochs, 2), amount(j.samples_per_epoch), j.model, j.batch,
                                                 amount(j.runs_per_month, 1)));
    std::vector<std::string> names;
    for (const OptionResult& o : c.options) names.push_back(o.name);
    MetricsByOption table("a run", names);
    for (const Metric* m : shown(MetricScope::job)) {
        std::vector<std::string> cells;
        for (const OptionResult& o : c.options) cells.push_back(text_cell(*m, metric_value(*m, o)));
        table.add(std::string(m->header), std::move(cells));
    }
    out += table.render(style, width);
    out += wrapped("Throughput: " + s.rig.name + " " + j.gpu_origin);
    for (const CloudOption& cloud : s.clouds)
        if (!cloud.throughput_origin.empty()) out += wrapped("Throughput: " + cloud.name + " " + cloud.throughput_origin);
    return out;
}

// With [workload] tokens: what a million tokens costs on each option, and how fast and clean it is served.
std::string tokens_text(const Scenario& s, const Comparison& c, const Style& style, std::size_t width) {
    if (!s.tokens) return "";
    const TokenWorkload& t = *s.tokens;
    std::string out = "\n" + wrapped(fmt::format("Serving {} at {}: {} input and {} output tokens a month, {:.0f} % of the "
                                                 "input cached, {} at once",
                                                 t.model, t.quant, amount(t.volume.input_per_month),
                                                 amount(t.volume.output_per_month), t.volume.cached_input_share * 100.0,
                                                 t.concurrency));
    std::vector<std::string> names;
    for (const OptionResult& o : c.options) names.push_back(o.name);
    MetricsByOption table("tokens", names);
    for (const Metric* m : shown(MetricScope::tokens)) {
        std::vector<std::string> cells;
        for (const OptionResult& o : c.options) cells.push_back(text_cell(*m, metric_value(*m, o)));
        table.add(std::string(m->header), std::move(cells));
    }
    out += table.render(style, width);
    for (const OptionResult& o : c.options)
        if (o.tokens && !o.tokens->tokens_per_second_origin.empty())
            out += wrapped("Throughput: " + o.name + " " + o.tokens->tokens_per_second_origin);
    return out;
}

std::string text_report(const Scenario& s, const Comparison& c, const Style& style, std::size_t width) {
    std::string out = wrapped(fmt::format("{}: {} months, {:.4g} GPU-hours of training a month, discount rate "
                                          "{:.1f}%/yr, {}{}",
                                          s.name, s.horizon_months, units::in_hours(s.training_per_month),
                                          s.discount_rate * 100.0, s.currency,
                                          s.perspective == Perspective::business ? ", business (after tax)" : "")) +
                      "\n";
    std::vector<std::string> names;
    for (const OptionResult& o : c.options) names.push_back(o.name);
    MetricsByOption options("option", names);
    std::vector<std::string> kinds;
    for (const OptionResult& o : c.options) kinds.push_back(to_string(o.kind));
    options.add("kind", std::move(kinds));
    for (const Metric* m : shown(MetricScope::option)) {
        std::vector<std::string> cells;
        for (const OptionResult& o : c.options)  // a cloud option's kWh (0: none of the rig's) stays blank
            cells.push_back(m->name == "energy_kwh" && o.kind != OptionKind::diy ? "" : text_cell(*m, metric_value(*m, o)));
        options.add(std::string(m->header), std::move(cells));
    }
    out += options.render(style, width);
    out += job_text(s, c, style, width);
    out += tokens_text(s, c, style, width);
    out += hardware_text(s, c, style);
    // One table for each way of building (the rig alone, then renting it out): its cloud options across.
    std::vector<std::string> rigs;
    for (const VersusResult& v : c.versus)
        if (std::find(rigs.begin(), rigs.end(), v.rig) == rigs.end()) rigs.push_back(v.rig);
    for (const std::string& rig : rigs) {
        std::vector<const VersusResult*> pairs;
        std::vector<std::string> clouds;
        for (const VersusResult& v : c.versus)
            if (v.rig == rig) {
                pairs.push_back(&v);
                clouds.push_back(v.cloud);
            }
        MetricsByOption versus(rig + " against", clouds);
        for (const Metric* m : shown(MetricScope::pair)) {
            std::vector<std::string> cells;
            for (const VersusResult* v : pairs)  // the IRR, or why there is none
                cells.push_back(m->name == "irr" ? irr_cell(*v) : text_cell(*m, metric_value(*m, *v)));
            versus.add(std::string(m->header), std::move(cells));
        }
        out += "\n" + versus.render(style, width);
    }
    return out + "\n" + style.bold(wrapped(verdict(c, s)));
}

// A metric's CSV cell: empty where absent, a list's numbers separated by semicolons.
std::string csv_cell(const MetricValue& value) {
    return std::visit(
        [](const auto& v) -> std::string {
            using T = std::decay_t<decltype(v)>;
            if constexpr (std::is_same_v<T, double> || std::is_same_v<T, int>) {
                return fmt::format("{}", v);
            } else if constexpr (std::is_same_v<T, std::string>) {
                return v;
            } else if constexpr (std::is_same_v<T, std::vector<double>>) {
                return fmt::format("{}", fmt::join(v, ";"));
            } else {
                return "";  // absent; numbers by name are in no column
            }
        },
        value);
}

// One row per option: its metrics, then the rig against it (empty for the rig and for the rig
// renting out), then its job's and its tokens'; the columns are the metric table's rows marked csv,
// in its order, the tokens' only for a scenario that serves tokens.
std::string csv_report(const Comparison& c) {
    const bool tokens = !c.options.empty() && c.options.front().tokens;
    const auto column = [&](const Metric& m) { return m.csv && (tokens || m.scope != MetricScope::tokens); };
    std::string out = "name,kind";
    for (const Metric& m : metric_table())
        if (column(m)) out += "," + std::string(m.name);
    out += "\n";
    for (const OptionResult& o : c.options) {
        const auto found = std::find_if(c.versus.begin(), c.versus.end(), [&](const VersusResult& v) {
            return v.rig == c.options.front().name && v.cloud == o.name;
        });
        out += csv_field(o.name) + "," + to_string(o.kind);
        for (const Metric& m : metric_table()) {
            if (!column(m)) continue;
            if (m.scope != MetricScope::pair) out += "," + csv_cell(metric_value(m, o));
            else out += "," + (found == c.versus.end() ? std::string() : csv_cell(metric_value(m, *found)));
        }
        out += "\n";
    }
    return out;
}

// The scenario with its cloud options replaced by every catalog instance the filter matches (on
// demand, in its catalog region, its price in effect --as-of from the catalogs and any --db history),
// cheapest per hour of the owner's work first. Instances whose speed
// against the rig the GPU catalog cannot give are left out, and said so on stderr.
Scenario with_matching_instances(const ScenarioArgs& args, const Scenario& scenario, const std::string& filter) {
    const Catalog& catalog = scenario.prices.catalogs();  // with the history's rows when --db reads one
    const GpuSpec* rig_gpu = nullptr;
    for (const Part& part : scenario.rig.parts)
        if (!part.catalog_gpu.empty() && !rig_gpu) rig_gpu = &catalog.gpu(part.catalog_gpu);
    if (!rig_gpu || !rig_gpu->resnet50_amp_img_s)
        throw InputError("--cloud", 0, "", "needs the rig's GPU from the catalog, with a measured throughput "
                                           "(gpu = \"RTX 3090\" in a part), to set each instance's speed");
    const auto [usable, skipped] = match_instances(catalog, filter, scenario.currency, scenario.prices.at);
    if (skipped > 0)
        std::fprintf(stderr, "payback: --cloud: %d matching instances left out (no on-demand price in %s, or no "
                             "measured throughput for their GPU)\n", skipped, scenario.currency.c_str());
    auto options = [&](const std::vector<const CloudInstance*>& list) {
        std::vector<std::string> tables;
        for (const CloudInstance* i : list)
            tables.push_back(fmt::format("{{ name = \"{} {}\", instance = \"{}\", region = \"{}\" }}", i->key(), i->region,
                                         i->key(), i->region));
        std::vector<Override> overrides;
        for (const auto& a : args.assignments) overrides.push_back(parse_override(a));
        overrides.push_back({"cloud", fmt::format("[{}]", fmt::join(tables, ", "))});
        return load_scenario(args.path.empty() ? default_scenario_path() : args.path, overrides, scenario.prices);
    };
    Scenario all = options(usable);
    // Rank by what an hour of the owner's work costs on each.
    std::vector<std::pair<double, const CloudInstance*>> ranked;
    const double work = model_inputs(all).training_hours;
    for (std::size_t k = 0; k < usable.size(); ++k)
        ranked.emplace_back(cloud_month(all.clouds[k], work, all.job_hours).effective_price_per_work_hour, usable[k]);
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<const CloudInstance*> order;
    for (const auto& entry : ranked) order.push_back(entry.second);
    return options(order);
}

}  // namespace

void add_compare_command(CLI::App& app) {
    auto args = std::make_shared<CompareArgs>();
    CLI::App* command = app.add_subcommand(
        "compare", "Compare building the rig with each cloud option: costs, payback, NPV, break-even");
    add_scenario_args(*command, args->scenario, true);
    command->add_option("--cloud", args->cloud_filter,
                        "Compare with every catalog instance matching, e.g. \"gpu_memory_gb>=24,provider==aws\", "
                        "cheapest per hour of work first");
    add_output_options(*command, args->output, {Format::table, Format::json, Format::csv});
    command->add_flag("--wide", args->wide,
                      "Tables as wide as they need, for a file (default: the terminal's width, else 80 columns)");
    add_example(*command, {"payback compare scenarios/venus-2019.toml",
                           "payback compare scenarios/venus-2019.toml --set workload.gpu_hours_per_month=400 --format csv",
                           "payback compare scenarios/rtx3080-home.toml --cloud \"gpu_memory_gb>=24,provider==aws\""});
    command->callback([args] {
        const Scenario loaded = load(args->scenario);
        const Scenario scenario =
            args->cloud_filter.empty() ? loaded : with_matching_instances(args->scenario, loaded, args->cloud_filter);
        const Comparison comparison = compare(scenario);
        const PriceAge age = price_age_of(scenario, args->scenario);
        const Output& output = args->output;
        if (output.format == Format::json) {
            nlohmann::json out = comparison_json(scenario, comparison);
            add_price_age(out, age);
            emit(output, out.dump(2) + "\n");
        } else if (output.format == Format::csv) {
            emit(output, csv_report(comparison));
        } else {
            warn_if_stale(age);
            emit(output, text_report(scenario, comparison, Style::for_stdout(output.to_terminal()),
                                     table_width(output, args->wide)));
        }
    });
}

}  // namespace payback::cli
