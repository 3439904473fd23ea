#include "payback/report/html_report.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "payback/base/format.hpp"
#include "payback/report/markup.hpp"
#include "payback/report/svg_chart.hpp"
#include "payback/scenario/keys.hpp"

namespace payback {

namespace {

using svg::Frame;
using svg::Rule;
using svg::Series;

// Screen and print: a readable column, tables with rules, charts as wide as the text. Colours in
// charts carry no meaning alone (dashes, markers and hatching do too), so grey print loses nothing.
constexpr const char* style = R"(
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; color: #111;
       background: #fff; max-width: 980px; margin: 0 auto; padding: 1.5rem; line-height: 1.45; }
h1 { font-size: 1.7rem; margin: 0 0 .2rem; }
h2 { font-size: 1.25rem; margin: 2rem 0 .6rem; border-bottom: 2px solid #111; padding-bottom: .2rem; }
.meta, figcaption, .note { color: #444; font-size: .9rem; }
#answer { border: 2px solid #111; padding: 1rem 1.2rem; margin-top: 1rem; }
.decision { font-size: 2rem; font-weight: 700; margin: 0; }
.decision.build::before { content: "\2714\00a0"; }
.decision.rent::before { content: "\279C\00a0"; }
dl.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); gap: .6rem 1.2rem; margin: 1rem 0; }
dl.figures div { border-left: 4px solid #0072B2; padding-left: .6rem; }
dl.figures dt { font-size: .85rem; color: #444; }
dl.figures dd { margin: 0; font-size: 1.35rem; font-weight: 700; }
table { border-collapse: collapse; width: 100%; margin: .6rem 0 1rem; font-size: .9rem; }
th, td { border-bottom: 1px solid #bbb; padding: .3rem .45rem; text-align: left; vertical-align: top; }
th { border-bottom: 2px solid #111; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
td.n { white-space: nowrap; }
tbody th { border-bottom: 1px solid #bbb; font-weight: 600; }
td.source { color: #333; font-size: .82rem; word-break: break-word; }
figure { margin: 1rem 0; }
svg.chart { width: 100%; height: auto; display: block; }
.warning { font-weight: 700; border-left: 4px solid #D55E00; padding-left: .5rem; }
.gauge { width: 100%; max-width: 420px; height: 14px; border: 1px solid #111; position: relative; }
.gauge span { display: block; height: 100%; background: repeating-linear-gradient(45deg, #0072B2 0 6px, #56B4E9 6px 12px); }
.gauge.over span { background: repeating-linear-gradient(45deg, #D55E00 0 6px, #E69F00 6px 12px); }
code { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: .88em; }
@media print {
  body { max-width: none; padding: 0; font-size: 10pt; }
  h2 { break-after: avoid; }
  figure, table, #answer { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
)";

std::string e(const std::string& text) { return escape_html(text); }

std::string money(double value, const Scenario& s) { return format_amount(value) + " " + e(s.currency); }

std::string months(const std::optional<double>& value, int horizon) {
    return value ? format_amount(*value, 1) + " months" : fmt::format("not within {} months", horizon);
}

// A key figure's element: the number as shown, with attributes naming it for scripts and tests.
std::string figure(const std::string& metric, const std::string& shown, const std::string& option = "",
                   const std::string& rig = "") {
    std::string attributes = fmt::format(" data-metric=\"{}\"", e(metric));
    if (!option.empty()) attributes += fmt::format(" data-option=\"{}\"", e(option));
    if (!rig.empty()) attributes += fmt::format(" data-rig=\"{}\"", e(rig));
    return fmt::format("<span{}>{}</span>", attributes, shown);
}

std::string number_cell(const std::string& content) { return "<td class=\"n\">" + content + "</td>"; }

std::string optional_amount(const std::optional<double>& value, int decimals) {
    return value ? format_amount(*value, decimals) : "-";
}

std::string section(const std::string& id, const std::string& title, const std::string& body) {
    return fmt::format("<section id=\"{}\">\n<h2>{}</h2>\n{}</section>\n", id, e(title), body);
}

std::string chart_figure(const std::string& svg, const std::string& caption) {
    return "<figure>\n" + svg + "<figcaption>" + caption + "</figcaption>\n</figure>\n";
}

std::string answer(const ReportData& d) {
    const Scenario& s = d.scenario;
    const Comparison& c = d.comparison;
    if (!d.headline) return section("answer", "The answer", "<p>" + e(d.verdict) + "</p>\n");
    const VersusResult& v = c.versus[*d.headline];
    const bool build = v.npv_savings > 0.0;
    std::string out = fmt::format("<p class=\"decision {}\" data-metric=\"decision\">{}</p>\n", build ? "build" : "rent",
                                  build ? "Build" : "Rent");
    out += "<p id=\"verdict\">" + e(d.verdict) + "</p>\n<dl class=\"figures\">\n";
    const auto item = [&](const std::string& term, const std::string& value) {
        out += "<div><dt>" + term + "</dt><dd>" + value + "</dd></div>\n";
    };
    item("Payback of " + e(v.rig) + " against " + e(v.cloud),
         v.payback_months ? figure("payback_months", format_amount(*v.payback_months, 1), v.cloud, v.rig) + " months"
                          : fmt::format("not within {} months", s.horizon_months));
    item(fmt::format("NPV of building instead of renting, at {:.1f} %/yr", s.discount_rate * 100.0),
         figure("npv_savings", format_amount(v.npv_savings), v.cloud, v.rig) + " " + e(s.currency));
    item("Discounted payback", months(v.discounted_payback_months, s.horizon_months));
    if (v.breakeven_gpu_hours_per_month)
        item("Break-even workload", format_amount(*v.breakeven_gpu_hours_per_month, 1) + " GPU-hours a month");
    if (d.montecarlo)
        for (std::size_t k = 0; k < d.montecarlo->clouds.size(); ++k)
            if (d.montecarlo->clouds[k] == v.cloud)
                item(fmt::format("Chance building wins ({} samples)", format_amount(d.samples)),
                     figure("probability_build_wins", fmt::format("{:.1f}", 100.0 * d.montecarlo->probability_build_wins[k]),
                            v.cloud) + " %");
    out += "</dl>\n<p id=\"reason\"><strong>Why:</strong> " + e(d.reason) + "</p>\n";
    return section("answer", "The answer", out);
}

std::string options_tables(const ReportData& d) {
    const Scenario& s = d.scenario;
    const Comparison& c = d.comparison;
    std::string out = fmt::format(
        "<table>\n<thead><tr><th>Option</th><th>Kind</th><th class=\"n\">Total cost ({0})</th>"
        "<th class=\"n\">Present value ({0})</th><th class=\"n\">Per GPU-hour</th><th class=\"n\">Energy (kWh)</th>"
        "<th class=\"n\">CO<sub>2</sub> (kg)</th></tr></thead>\n<tbody>\n",
        e(s.currency));
    for (const OptionResult& o : c.options)
        out += "<tr><td>" + e(o.name) + "</td><td>" + to_string(o.kind) + "</td>" +
               number_cell(figure("total_cost", format_amount(o.total_cost), o.name)) +
               number_cell(figure("npv_cost", format_amount(o.npv_cost), o.name)) +
               number_cell(optional_amount(o.cost_per_gpu_hour, 2)) +
               number_cell(o.kind == OptionKind::diy ? format_amount(o.energy_kwh) : "") +
               number_cell(o.co2_kg_total > 0 ? format_amount(o.co2_kg_total) : "-") + "</tr>\n";
    out += "</tbody>\n</table>\n";
    if (c.versus.empty()) return section("options", "The options", out);
    out += fmt::format(
        "<table>\n<thead><tr><th>Building</th><th>instead of</th><th class=\"n\">Payback (months)</th>"
        "<th class=\"n\">If sold (months)</th><th class=\"n\">Discounted (months)</th><th class=\"n\">NPV savings ({})</th>"
        "<th class=\"n\">IRR/yr</th><th class=\"n\">Break-even (h/month)</th></tr></thead>\n<tbody>\n",
        e(s.currency));
    for (const VersusResult& v : c.versus)
        out += "<tr><td>" + e(v.rig) + "</td><td>" + e(v.cloud) + "</td>" +
               number_cell(figure("payback_months", optional_amount(v.payback_months, 1), v.cloud, v.rig)) +
               number_cell(optional_amount(v.payback_months_if_sold, 1)) +
               number_cell(optional_amount(v.discounted_payback_months, 1)) +
               number_cell(figure("npv_savings", format_amount(v.npv_savings), v.cloud, v.rig)) +
               number_cell(v.irr ? fmt::format("{:.1f} %", *v.irr * 100.0) : "-") +
               number_cell(optional_amount(v.breakeven_gpu_hours_per_month, 1)) + "</tr>\n";
    out += "</tbody>\n</table>\n<p class=\"note\">Payback counts operating flows (no loan, no resale); "
           "\"if sold\" counts the hardware at its resale value. NPV savings are the present value of building "
           "minus that of renting: positive means building is cheaper.</p>\n";
    return section("options", "The options", out);
}

// With [workload] tokens: each option's rates, cost per million tokens and energy per token, as a
// table and as bars.
std::string tokens_section(const ReportData& d) {
    const Scenario& s = d.scenario;
    if (!s.tokens) return "";
    const TokenWorkload& t = *s.tokens;
    std::string out = fmt::format("<p>Serving {} at {}: {} input and {} output tokens a month, {:.0f} % of the input "
                                  "cached, {} at once, {} tokens of context.</p>\n",
                                  e(t.model), e(t.quant), format_amount(t.volume.input_per_month),
                                  format_amount(t.volume.output_per_month), t.volume.cached_input_share * 100.0,
                                  t.concurrency, t.context);
    svg::StackedBarChart chart;
    chart.frame = Frame{"tokens", "Cost per million tokens of each option", "",
                        s.currency + " per million tokens (input and output)"};
    chart.net_decimals = 3;
    Series bars{"cost per million tokens", {}, {}};
    std::string table = fmt::format(
        "<table>\n<thead><tr><th>Option</th><th>Kind</th><th class=\"n\">Per million tokens ({0})</th>"
        "<th class=\"n\">Per million input</th><th class=\"n\">Per million output</th>"
        "<th class=\"n\">Decode (tokens/s)</th><th class=\"n\">Prefill (tokens/s)</th>"
        "<th class=\"n\">Serving (h/month)</th><th class=\"n\">J/token</th>"
        "<th class=\"n\">CO<sub>2</sub> (g/Mtok)</th></tr></thead>\n<tbody>\n",
        e(s.currency));
    std::string origins;
    for (const OptionResult& o : d.comparison.options) {
        if (!o.tokens) continue;
        const TokenCosts& c = *o.tokens;
        chart.categories.push_back(o.name);
        bars.y.push_back(c.cost_per_million_tokens);
        table += "<tr><td>" + e(o.name) + "</td><td>" + to_string(o.kind) + "</td>" +
                 number_cell(figure("cost_per_million_tokens", format_amount(c.cost_per_million_tokens, 3), o.name)) +
                 number_cell(optional_amount(c.cost_per_million_input_tokens, 3)) +
                 number_cell(optional_amount(c.cost_per_million_output_tokens, 3)) +
                 number_cell(optional_amount(c.tokens_per_second, 1)) +
                 number_cell(optional_amount(c.prefill_tokens_per_second, 0)) +
                 number_cell(optional_amount(c.serving_hours_per_month, 1)) +
                 number_cell(optional_amount(c.joules_per_token, 2)) +
                 number_cell(optional_amount(c.co2_g_per_million_tokens, 1)) + "</tr>\n";
        if (!c.tokens_per_second_origin.empty())
            origins += "<li>" + e(o.name) + ": " + e(c.tokens_per_second_origin) + "</li>\n";
    }
    chart.stacks.push_back(std::move(bars));
    table += "</tbody>\n</table>\n";
    if (!origins.empty()) table += "<p class=\"note\">Where the rates come from:</p>\n<ul class=\"note\">\n" + origins + "</ul>\n";
    return section("tokens", "Cost per million tokens",
                   out +
                       chart_figure(svg::render(chart),
                                    fmt::format("Each option's total cost over the {} months (net of resale) over every "
                                                "token it serves in them, input and output together.",
                                                s.horizon_months)) +
                       table);
}

// With [workload] tokens: each option's present-value cost a month against the output tokens a month,
// the crossings from the break-even solver.
std::string token_breakeven_chart(const ReportData& d) {
    const Scenario& s = d.scenario;
    const TokenVolumeSweep& t = *d.token_volume;
    svg::LineChart chart;
    chart.frame = Frame{"token-breakeven", "Cost a month of each option by output tokens a month",
                        "output tokens a month (millions)",
                        "present value of cost a month (" + s.currency + ")"};
    std::vector<double> millions;
    for (double x : t.output_tokens) millions.push_back(x / 1e6);
    for (std::size_t k = 0; k < t.options.size(); ++k) chart.series.push_back({t.options[k], millions, t.cost_per_month[k]});
    const double now = s.tokens->volume.output_per_month / 1e6;
    chart.rules.push_back({now, "now: " + format_amount(now, now == std::round(now) ? 0 : 1) + " M"});
    std::string list;
    for (std::size_t k = 0; k < t.breakeven.size(); ++k) {
        const std::string& cloud = t.options[k + 1];
        if (!t.breakeven[k]) {
            list += "<li>against " + e(cloud) + ": no crossing in the range the rig can serve</li>\n";
            continue;
        }
        const double x = *t.breakeven[k];
        // On the rig's line, between the sweep's points around the crossing.
        const auto& xs = t.output_tokens;
        const auto& ys = t.cost_per_month.front();
        const auto above = std::upper_bound(xs.begin(), xs.end(), x);
        const std::size_t i = std::clamp<std::size_t>(static_cast<std::size_t>(above - xs.begin()), 1, xs.size() - 1);
        const double y = ys[i - 1] + (ys[i] - ys[i - 1]) * (x - xs[i - 1]) / (xs[i] - xs[i - 1]);
        if (x <= xs.back()) chart.points.push_back({x / 1e6, y, fmt::format("{} M", format_amount(x / 1e6, 1))});
        list += "<li>against " + e(cloud) + ": " +
                figure("breakeven_output_tokens_per_month", format_amount(x / 1e6, 2), cloud) +
                " million output tokens a month</li>\n";
    }
    return section("breakeven", "Break-even token volume",
                   chart_figure(svg::render(chart),
                                "What a month costs on each option in present value (its NPV of cost over the months "
                                "of the horizon) as the output tokens a month change, the input as it is; the "
                                "circles are where the rig's line crosses a cloud option's (payback breakeven --for "
                                "workload.tokens.output_tokens_per_month --against NAME).") +
                       "<ul>\n" + list + "</ul>\n");
}

std::string cumulative_chart(const ReportData& d) {
    const Scenario& s = d.scenario;
    const Comparison& c = d.comparison;
    svg::LineChart chart;
    chart.frame = Frame{"cumulative", "Cumulative cost of each option by month", "months from the start",
                        "cumulative cost (" + s.currency + ")"};
    for (const CashFlows& t : c.cashflows) {
        Series series{t.option, {0.0}, {-(t.capex.front() + t.loan_proceeds.front())}};
        for (std::size_t m = 0; m < t.months(); ++m) {
            series.x.push_back(static_cast<double>(t.month[m]));
            series.y.push_back(-t.cumulative[m]);
        }
        chart.series.push_back(std::move(series));
    }
    chart.x_step = s.horizon_months <= 24 ? 3.0 : s.horizon_months <= 60 ? 6.0 : 12.0;
    std::string marked;
    for (const VersusResult& v : c.versus) {
        if (!v.payback_months || chart.rules.size() >= 4) continue;
        const std::string label = c.versus.size() == 1 ? fmt::format("payback {:.1f} months", *v.payback_months)
                                                       : fmt::format("{} vs {}: {:.1f} mo", v.rig, v.cloud, *v.payback_months);
        chart.rules.push_back({*v.payback_months, label});
    }
    return section("cumulative", "Cumulative cost over time",
                   chart_figure(svg::render(chart),
                                fmt::format("What each option has cost by the end of each month ({}), hardware "
                                            "bought at the start, resold at its end (the last month's drop). The dashed "
                                            "lines mark where the rig has paid for itself.",
                                            e(s.currency))));
}

std::string breakdown_chart(const ReportData& d) {
    const Scenario& s = d.scenario;
    const Comparison& c = d.comparison;
    svg::StackedBarChart chart;
    chart.frame = Frame{"breakdown", "Average monthly cost of each option by kind", "",
                        s.currency + " a month (average over " + std::to_string(s.horizon_months) + " months)"};
    for (const OptionResult& o : c.options) chart.categories.push_back(o.name);
    const double per_month = 1.0 / s.horizon_months;
    std::string table = "<table>\n<thead><tr><th>Per month (" + e(s.currency) + ")</th>";
    for (const OptionResult& o : c.options) table += "<th class=\"n\">" + e(o.name) + "</th>";
    table += "</tr></thead>\n<tbody>\n";
    for (const CostGroup& g : d.costs) {
        Series series{g.name, {}, {}};
        table += "<tr><td>" + e(g.name) + "</td>";
        for (double total : g.per_option) {
            series.y.push_back(total * per_month);
            table += number_cell(format_amount(total * per_month));
        }
        table += "</tr>\n";
        chart.stacks.push_back(std::move(series));
    }
    table += "<tr><th>net</th>";
    for (const OptionResult& o : c.options)
        table += "<th class=\"n\">" + figure("monthly_cost", format_amount(o.total_cost * per_month), o.name) + "</th>";
    table += "</tr>\n</tbody>\n</table>\n";
    return section("breakdown", "Monthly cost breakdown",
                   chart_figure(svg::render(chart),
                                "What a month costs on each option, on average over the horizon: hardware is its "
                                "price less its resale, spread over the months; income (renting out, tax saved) "
                                "goes below zero. The black tick is the net.") +
                       table);
}

std::string breakeven_chart(const ReportData& d) {
    const Scenario& s = d.scenario;
    if (d.token_volume) return token_breakeven_chart(d);
    if (!d.hours) return section("breakeven", "Break-even workload", "<p class=\"note\">" + e(d.hours_note) + "</p>\n");
    svg::LineChart chart;
    chart.frame = Frame{"breakeven", "NPV savings of building against each cloud option by monthly workload",
                        "workload (GPU-hours a month)", "NPV savings of building (" + s.currency + ")"};
    for (std::size_t k = 0; k < d.hours->clouds.size(); ++k)
        chart.series.push_back({"building instead of " + d.hours->clouds[k], d.hours->hours, d.hours->npv_savings[k]});
    chart.zero_line = true;
    const double now = units::in_hours(s.training_per_month);
    chart.rules.push_back({now, fmt::format("now: {} h", format_amount(now, now == std::round(now) ? 0 : 1))});
    for (const VersusResult& v : d.comparison.versus)
        if (v.rig == s.rig.name && v.breakeven_gpu_hours_per_month)
            chart.points.push_back({*v.breakeven_gpu_hours_per_month, 0.0,
                                    fmt::format("break-even {} h", format_amount(*v.breakeven_gpu_hours_per_month, 1))});
    return section("breakeven", "Break-even workload",
                   chart_figure(svg::render(chart),
                                "Above zero, building is cheaper in present value. Every point is the whole "
                                "scenario with only the monthly hours changed; the circles are where the lines "
                                "cross zero (payback breakeven --for workload.gpu_hours_per_month)."));
}

std::string uncertainty_section(const ReportData& d) {
    if (!d.montecarlo || !d.tornado) return "";
    const Scenario& s = d.scenario;
    const MonteCarloResult& mc = *d.montecarlo;
    const TornadoResult& t = *d.tornado;
    std::string out = fmt::format(
        "<p>{} Monte Carlo samples (seed {}) of the {} inputs in the scenario's [uncertainty] table; {}.</p>\n",
        format_amount(d.samples), d.seed, mc.keys.size(), e(mc.path_note));
    for (const MetricSummary& m : mc.summaries) {
        if (m.metric != "npv_savings" || m.option != t.against) continue;
        svg::HistogramChart chart;
        chart.frame = Frame{"histogram", "Distribution of the NPV savings of building against " + m.option,
                            "NPV savings of building (" + s.currency + ")", "samples"};
        chart.edges = m.histogram.edges;
        chart.counts.assign(m.histogram.counts.begin(), m.histogram.counts.end());
        chart.rules = {{m.summary.p10, "P10 " + format_amount(m.summary.p10)},
                       {m.summary.p50, "P50 " + format_amount(m.summary.p50)},
                       {m.summary.p90, "P90 " + format_amount(m.summary.p90)}};
        if (!chart.edges.empty() && chart.edges.front() < 0.0 && chart.edges.back() > 0.0)
            chart.rules.push_back({0.0, "break-even"});
        out += chart_figure(svg::render(chart), "How the NPV savings spread over the samples; right of zero, "
                                                "building is cheaper.");
    }
    out += fmt::format("<table>\n<thead><tr><th>Metric</th><th>Option</th><th class=\"n\">Mean</th>"
                       "<th class=\"n\">P10</th><th class=\"n\">P50</th><th class=\"n\">P90</th>"
                       "<th class=\"n\">Reached in</th></tr></thead>\n<tbody>\n");
    for (const MetricSummary& m : mc.summaries) {
        out += "<tr><td>" + e(m.metric) + "</td><td>" + e(m.option) + "</td>" +
               number_cell(format_amount(m.summary.mean, 1)) +
               number_cell(figure(m.metric + ".p10", format_amount(m.summary.p10, 1), m.option)) +
               number_cell(figure(m.metric + ".p50", format_amount(m.summary.p50, 1), m.option)) +
               number_cell(figure(m.metric + ".p90", format_amount(m.summary.p90, 1), m.option)) +
               number_cell(fmt::format("{:.1f} %", 100.0 * m.share_defined)) + "</tr>\n";
    }
    out += "</tbody>\n</table>\n";

    svg::TornadoChart chart;
    chart.frame = Frame{"tornado", "What moves the NPV savings of building against " + t.against,
                        "NPV savings of building (" + s.currency + ")", ""};
    chart.frame.height = std::max(220.0, 110.0 + 44.0 * static_cast<double>(t.bars.size()));
    chart.base = t.base;
    chart.base_label = "now " + format_amount(t.base);
    for (const TornadoBar& b : t.bars) chart.bars.push_back({b.key, b.metric_at_low, b.metric_at_high});
    out += chart_figure(svg::render(chart), "Each input from its low to its high value (P10 and P90 of its "
                                            "distribution), the others as they are; the largest swing on top.");
    out += fmt::format("<table>\n<thead><tr><th>Input</th><th class=\"n\">Now</th><th class=\"n\">Low</th>"
                       "<th class=\"n\">High</th><th class=\"n\">At low ({0})</th><th class=\"n\">At high ({0})</th>"
                       "<th class=\"n\">Rank correlation</th></tr></thead>\n<tbody>\n",
                       e(s.currency));
    for (const TornadoBar& b : t.bars) {
        const auto rank = std::find_if(t.global.begin(), t.global.end(), [&](const GlobalRank& g) { return g.key == b.key; });
        out += "<tr><td><code>" + e(b.key) + "</code></td>" + number_cell(fmt::format("{:.4g}", b.current)) +
               number_cell(fmt::format("{:.4g}", b.low_value)) + number_cell(fmt::format("{:.4g}", b.high_value)) +
               number_cell(format_amount(b.metric_at_low)) + number_cell(format_amount(b.metric_at_high)) +
               number_cell(rank == t.global.end() || std::isnan(rank->rho) ? "-" : fmt::format("{:+.2f}", rank->rho)) +
               "</tr>\n";
    }
    out += "</tbody>\n</table>\n<p class=\"note\">Rank correlation: Spearman's, of each input with the NPV savings "
           "over the Monte Carlo samples, every input varying at once.</p>\n";
    return section("uncertainty", "How certain is it", out);
}

std::string hardware_section(const ReportData& d) {
    const Scenario& s = d.scenario;
    const RigReport& r = d.comparison.rig;
    const auto training = static_cast<std::size_t>(PowerState::training);
    const auto idle = static_cast<std::size_t>(PowerState::idle);
    const CircuitCheck& check = r.circuit_check;
    std::string out = fmt::format("<p class=\"{}\">{}</p>\n", check.over ? "warning" : "", e(check.message));
    out += fmt::format("<div class=\"gauge{}\" role=\"img\" aria-label=\"circuit load {:.0f} %\"><span style=\"width:"
                       "{:.1f}%\"></span></div>\n",
                       check.over ? " over" : "", check.load_fraction * 100.0,
                       std::clamp(check.load_fraction * 100.0, 0.0, 100.0));
    out += "<table>\n<tbody>\n";
    const auto row = [&](const std::string& what, const std::string& value) {
        out += "<tr><th scope=\"row\">" + what + "</th>" + number_cell(value) + "</tr>\n";
    };
    row("Peak draw at the wall", figure("peak_wall_watts", format_amount(r.peak_wall_watts)) + " W");
    row("Circuit", fmt::format("{} V, {} A breaker", format_amount(r.circuit.volts), format_amount(r.circuit.breaker_amps)));
    row("Continuous limit of the circuit", format_amount(check.limit_watts) + " W");
    row("Load on the circuit", figure("circuit_load_fraction", fmt::format("{:.0f}", check.load_fraction * 100.0)) + " %");
    row("Heat while training", fmt::format("{} W ({} BTU/h)", format_amount(r.heat_watts[training]),
                                           format_amount(r.heat_btu_per_hour[training])));
    if (s.rig.when_not_training == WhenNotTraining::idle)
        row("Heat while idle", fmt::format("{} W ({} BTU/h)", format_amount(r.heat_watts[idle]),
                                           format_amount(r.heat_btu_per_hour[idle])));
    row("Energy a month, cooling included",
        figure("energy_kwh_per_month", format_amount(r.energy_kwh_per_month)) + " kWh");
    for (const auto& [period, kwh] : r.energy_kwh_by_period)
        if (r.energy_kwh_by_period.size() > 1)
            row("&nbsp;&nbsp;in " + e(period), format_amount(kwh / s.horizon_months) + " kWh a month");
    row("Grid intensity", s.grid_co2_kg_per_kwh > 0 ? fmt::format("{} kg CO<sub>2</sub>/kWh", s.grid_co2_kg_per_kwh)
                                                     : "not given");
    for (const OptionResult& o : d.comparison.options)
        row(fmt::format("CO<sub>2</sub> over {} months: {}", s.horizon_months, e(o.name)),
            o.co2_kg_total > 0 ? figure("co2_kg_total", format_amount(o.co2_kg_total), o.name) + " kg" : "unknown");
    if (r.naive_energy_cost)
        row("Deferrable training in the cheapest hours saves",
            money(*r.naive_energy_cost - *r.scheduled_energy_cost, s) + " over the horizon");
    if (d.comparison.scaling.gpus > 1)
        row("GPUs training together", fmt::format("{} at {:.0f} % efficiency: {:.2f} effective", d.comparison.scaling.gpus,
                                                  d.comparison.scaling.efficiency * 100.0,
                                                  d.comparison.scaling.effective_gpus()));
    out += "</tbody>\n</table>\n";
    return section("hardware", "Power, circuit, heat and carbon", out);
}

std::string assumptions_section(const ReportData& d) {
    std::string out = "<p class=\"note\">Every value the answer rests on, with defaults filled in. Source: the scenario "
                      "file and line, a <code>--set</code> override, a catalog row under <code>pricing/</code> with "
                      "its date, or payback's default. Change any of them with <code>--set KEY=VALUE</code>.</p>\n";
    out += "<table>\n<thead><tr><th>Key</th><th>Value</th><th>Unit</th><th>Source</th></tr></thead>\n<tbody>\n";
    for (const Assumption& a : d.assumptions)  // units from the key table (payback/scenario/keys.hpp)
        out += "<tr><td><code>" + e(a.key) + "</code></td><td>" + e(a.value) + "</td><td>" +
               e(unit_of(a.key, d.scenario.currency)) + "</td><td class=\"source\">" + e(a.source) + "</td></tr>\n";
    out += "</tbody>\n</table>\n";
    return section("assumptions", "Assumptions and their sources", out);
}

}  // namespace

std::string html_report(const ReportData& d) {
    const Scenario& s = d.scenario;
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out += "<title>" + e(s.name) + ": build or rent (payback)</title>\n<style>" + style + "</style>\n</head>\n<body>\n";
    out += "<header>\n<h1>" + e(s.name) + "</h1>\n";
    out += fmt::format("<p class=\"meta\">Scenario <code>{}</code>; {} months, {} GPU-hours of training a month, "
                       "discount rate {:.1f} %/yr, {}{}.</p>\n</header>\n",
                       e(s.source), s.horizon_months, fmt::format("{:.4g}", units::in_hours(s.training_per_month)),
                       s.discount_rate * 100.0, e(s.currency),
                       s.perspective == Perspective::business ? ", business (after tax)" : "");
    if (d.prices.stale) out += "<p class=\"warning\">" + e(d.prices.warning()) + "</p>\n";
    out += answer(d) + options_tables(d) + tokens_section(d) + cumulative_chart(d) + breakdown_chart(d) + breakeven_chart(d) +
           uncertainty_section(d) + hardware_section(d) + assumptions_section(d);
    out += "<footer class=\"note\"><p>Made by payback from the scenario and the catalogs it names; the "
           "numbers are those of <code>payback compare</code> on the same scenario.</p></footer>\n</body>\n</html>\n";
    return out;
}

}  // namespace payback
