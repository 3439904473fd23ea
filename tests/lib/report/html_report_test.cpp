#include <catch2/catch.hpp>

#include <string>

#include <fmt/format.h>

#include "payback/base/format.hpp"
#include "payback/report/html_report.hpp"
#include "payback/report/markup.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {

std::size_t count(const std::string& text, const std::string& piece) {
    std::size_t n = 0;
    for (auto at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) ++n;
    return n;
}

bool has(const std::string& text, const std::string& piece) { return text.find(piece) != std::string::npos; }

std::string scenario_path(const std::string& name) { return std::string(PAYBACK_SOURCE_DIR) + "/scenarios/" + name; }

// A page that opens from disk: nothing fetched, nothing run.
void check_self_contained(const std::string& page) {
    CHECK_FALSE(has(page, "<script"));
    CHECK_FALSE(has(page, " src="));
    CHECK_FALSE(has(page, "<link"));
    CHECK_FALSE(has(page, "href=\"http"));
    CHECK_FALSE(has(page, "url(http"));
    CHECK_FALSE(has(page, "@import"));
    for (const char* tag : {"section", "svg", "table", "figure", "tr", "td", "p"})
        CHECK(count(page, fmt::format("<{} ", tag)) + count(page, fmt::format("<{}>", tag)) ==
              count(page, fmt::format("</{}>", tag)));
}

}  // namespace

TEST_CASE("the report of a scenario without uncertainty: answer, charts, hardware, assumptions", "[report]") {
    const Scenario s = load_scenario(scenario_path("venus-2019.toml"));
    const ReportData d = report_data(s, {});
    const std::string page = html_report(d);
    CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
    check_self_contained(page);
    for (const char* id : {"answer", "options", "cumulative", "breakdown", "breakeven", "hardware", "assumptions"})
        CHECK(has(page, fmt::format("<section id=\"{}\">", id)));
    CHECK_FALSE(has(page, "<section id=\"uncertainty\">"));
    CHECK(count(page, "<svg") == 3);

    const VersusResult& v = d.comparison.versus.at(0);
    CHECK(has(page, "<p class=\"decision build\" data-metric=\"decision\">Build</p>"));
    CHECK(has(page, escape_html(d.verdict)));
    CHECK(has(page, fmt::format("data-metric=\"npv_savings\" data-option=\"{}\" data-rig=\"{}\">{}</span>",
                                escape_html(v.cloud), escape_html(v.rig), format_amount(v.npv_savings))));
    CHECK(has(page, fmt::format("data-metric=\"payback_months\" data-option=\"{}\" data-rig=\"{}\">{}</span>",
                                escape_html(v.cloud), escape_html(v.rig), format_amount(*v.payback_months, 1))));
    CHECK(has(page, escape_html(d.reason)));
    CHECK(d.assumptions.size() > 50);
    // Each value with its unit from the key table: a part's price in the scenario's currency.
    CHECK(has(page, "<thead><tr><th>Key</th><th>Value</th><th>Unit</th><th>Source</th></tr></thead>"));
    CHECK(has(page, "<tr><td><code>rig.parts[0].price</code></td><td>"));
}

TEST_CASE("the workload sweep agrees with the comparison and brackets the break-even", "[report]") {
    const Scenario s = load_scenario(scenario_path("venus-2019.toml"));
    const ReportData d = report_data(s, {});
    REQUIRE(d.hours);
    const HoursSweep& h = *d.hours;
    REQUIRE(h.hours.size() == 74);  // 0, 10, ..., 730
    CHECK(h.hours[20] == 200.0);    // the scenario's hours
    const VersusResult& v = d.comparison.versus.at(0);
    CHECK(h.npv_savings[0][20] == Approx(v.npv_savings).epsilon(1e-6));
    // The break-even (35.8 h a month) lies between the points at 30 and 40 h.
    REQUIRE(v.breakeven_gpu_hours_per_month);
    CHECK(*v.breakeven_gpu_hours_per_month > 30.0);
    CHECK(*v.breakeven_gpu_hours_per_month < 40.0);
    CHECK(h.npv_savings[0][3] < 0.0);
    CHECK(h.npv_savings[0][4] > 0.0);
}

TEST_CASE("with [uncertainty] the report adds the histogram and the tornado", "[report]") {
    const Scenario s = load_scenario(scenario_path("venus-2019-uncertain.toml"));
    ReportOptions options;
    options.samples = 2000;
    const ReportData d = report_data(s, options);
    REQUIRE(d.montecarlo);
    REQUIRE(d.tornado);
    CHECK(d.montecarlo->metrics.npv_savings.at(0).size() == 2000);
    const std::string page = html_report(d);
    check_self_contained(page);
    CHECK(has(page, "<section id=\"uncertainty\">"));
    CHECK(count(page, "<svg") == 5);
    CHECK(has(page, "aria-labelledby=\"histogram-title\""));
    CHECK(has(page, "aria-labelledby=\"tornado-title\""));
    CHECK(has(page, fmt::format("data-metric=\"probability_build_wins\" data-option=\"{}\">{:.1f}</span>",
                                escape_html(d.montecarlo->clouds[0]), 100.0 * d.montecarlo->probability_build_wins[0])));
    for (const TornadoBar& b : d.tornado->bars) CHECK(has(page, "<code>" + escape_html(b.key) + "</code>"));
}

TEST_CASE("names from the scenario are escaped in the page", "[report]") {
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml",
                                      {{"scenario.name", "\"<script>alert('x')</script> & co\""},
                                       {"cloud[0].name", "\"<b>cloud</b>\""}});
    const std::string page = html_report(report_data(s, {}));
    CHECK_FALSE(has(page, "<script>"));
    CHECK_FALSE(has(page, "<b>cloud</b>"));
    CHECK(has(page, "<h1>&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co</h1>"));
    CHECK(has(page, "&lt;b&gt;cloud&lt;/b&gt;"));
    check_self_contained(page);
}

TEST_CASE("renting wins: the answer says Rent and why", "[report]") {
    // 10 h a month: the cloud costs 10 / 2 × $2 × 24 = $240 against the rig's $1,500 of parts.
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml", {{"workload.gpu_hours_per_month", "10"}});
    const ReportData d = report_data(s, {});
    const std::string page = html_report(d);
    CHECK(has(page, "<p class=\"decision rent\" data-metric=\"decision\">Rent</p>"));
    CHECK(has(page, "not within 24 months"));
    // Why: the rig's month is 10 h × 500 W + 720 h × 62.5 W = 50 kWh at $0.20 = $10, the cloud's 5 h × $2 = $10:
    // nothing saved a month to recover the parts with.
    CHECK(has(page, "Running the rig costs 10.00 USD a month against 10.00 USD for cloud; at no saving a month, "
                    "the 1,500 USD of parts is never recovered"));
}

TEST_CASE("with a [workload] job the hours are not an input: a note instead of the break-even chart", "[report]") {
    const Scenario s = parse_scenario(
        test::hand_scenario(), "hand.toml",
        {{"workload", "{ job = { model = \"cifar10-tutorial\", samples_per_epoch = 50000, epochs = 2, "
                      "runs_per_month = 40, batch = 64, samples_per_second = 1000 } }"}});
    const ReportData d = report_data(s, {});
    CHECK_FALSE(d.hours);
    const std::string page = html_report(d);
    CHECK(has(page, "<p class=\"note\">The workload is given as training jobs"));
    CHECK_FALSE(has(page, "aria-labelledby=\"breakeven-title\""));
    CHECK(count(page, "<svg") == 2);
}
