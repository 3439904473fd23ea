#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "payback/report/svg_chart.hpp"

using namespace payback::svg;

namespace {

// The frame every coordinate below is worked out in: 720 × 360, so with one legend row the plot
// runs from x 76 to 700 (margins 76 and 20) and from y 14 down to 294 (360 - 46 - 20).
Frame frame(const std::string& id) { return Frame{id, "a chart", "x (units)", "y (units)", 720.0, 360.0}; }

bool has(const std::string& svg, const std::string& piece) { return svg.find(piece) != std::string::npos; }

std::size_t count(const std::string& text, const std::string& piece) {
    std::size_t n = 0;
    for (auto at = text.find(piece); at != std::string::npos; at = text.find(piece, at + 1)) ++n;
    return n;
}

}  // namespace

TEST_CASE("nice_ticks steps by 1, 2 or 5 times a power of ten and widens to whole steps", "[svg]") {
    // 14,033 / 5 intervals = 2,806.6: magnitude 1,000, residual 2.8 -> 5: a step of 5,000.
    const Ticks cost = nice_ticks(0.0, 14033.0);
    CHECK(cost.step == 5000.0);
    CHECK(cost.lo == 0.0);
    CHECK(cost.hi == 15000.0);
    CHECK(cost.values == std::vector<double>{0.0, 5000.0, 10000.0, 15000.0});

    // -1,234 .. 10,300: 11,534 / 5 = 2,306.8 -> 5,000; floor(-0.25) = -1 and ceil(2.06) = 3 steps.
    const Ticks both = nice_ticks(-1234.0, 10300.0);
    CHECK(both.values == std::vector<double>{-5000.0, 0.0, 5000.0, 10000.0, 15000.0});

    // 0 .. 0.3 in 3: a step of 0.1 whose multiples land on 0.3 despite 0.1 not being exact.
    const Ticks fine = nice_ticks(0.0, 0.3, 3);
    CHECK(fine.step == Approx(0.1));
    REQUIRE(fine.values.size() == 4);
    CHECK(fine.values.back() == Approx(0.3));

    // A single value is widened by 10 % each way: 90 .. 110, 20 / 5 = 4 -> a step of 5.
    const Ticks single = nice_ticks(100.0, 100.0);
    CHECK(single.lo == 90.0);
    CHECK(single.hi == 110.0);
    CHECK(single.step == 5.0);
}

TEST_CASE("tight ticks keep the range and take the multiples inside it; a forced step is kept", "[svg]") {
    // -3.2 .. 7.9: 11.1 / 5 = 2.22 -> a step of 5; inside: 0 and 5.
    const Ticks t = nice_ticks(-3.2, 7.9, 5, true);
    CHECK(t.lo == -3.2);
    CHECK(t.hi == 7.9);
    CHECK(t.values == std::vector<double>{0.0, 5.0});

    const Ticks months = nice_ticks(0.0, 36.0, 6, true, 6.0);
    CHECK(months.values == std::vector<double>{0.0, 6.0, 12.0, 18.0, 24.0, 30.0, 36.0});
}

TEST_CASE("tick labels carry the decimals their step needs, with thousands separated", "[svg]") {
    CHECK(tick_label(2500.0, 500.0) == "2,500");
    CHECK(tick_label(-15000.0, 5000.0) == "-15,000");
    CHECK(tick_label(0.25, 0.05) == "0.25");
    CHECK(tick_label(1.5, 0.5) == "1.5");
    CHECK(tick_label(-1e-17, 0.1) == "0.0");  // rounding noise at zero prints without a sign
}

TEST_CASE("a linear scale maps its domain onto its range, y downwards", "[svg]") {
    const LinearScale y{0.0, 15000.0, 330.0, 30.0};
    CHECK(y(0.0) == 330.0);
    CHECK(y(15000.0) == 30.0);
    CHECK(y(5000.0) == Approx(230.0));  // a third of the way up 300 px
}

TEST_CASE("the first eight series differ in colour, dash, marker and hatch; the ninth repeats the first", "[svg]") {
    std::set<std::string> colours, dashes, markers, hatches;
    for (std::size_t i = 0; i < 8; ++i) {
        const SeriesStyle s = series_style(i);
        colours.insert(s.colour), dashes.insert(s.dash), markers.insert(s.marker), hatches.insert(s.hatch);
    }
    CHECK(colours.size() == 8);
    CHECK(dashes.size() == 8);
    CHECK(markers.size() == 8);
    CHECK(hatches.size() == 8);
    CHECK(series_style(8).colour == series_style(0).colour);
    CHECK(series_style(0).colour == "#0072B2");  // Okabe-Ito blue
}

TEST_CASE("legend items wrap onto rows that fit the frame", "[svg]") {
    const Frame f = frame("legend");
    CHECK(legend_rows(f, {}) == 0);
    CHECK(legend_rows(f, {"ten chars.", "ten chars."}) == 1);
    // An item of 40 characters is 30 + 6 + 6.6 × 40 + 18 = 318 px: from x 76, two fit before 700.
    const std::string forty(40, 'x');
    CHECK(legend_rows(f, std::vector<std::string>(8, forty)) == 4);
    const PlotArea a = plot_area(f, 2);
    CHECK(a.bottom == 360.0 - 46.0 - 2 * 20.0);
}

TEST_CASE("a line chart puts its points, ticks and labels where the scales say", "[svg]") {
    LineChart chart;
    chart.frame = frame("line");
    chart.series = {{"a", {0.0, 10.0}, {0.0, 100.0}}};
    chart.rules = {{5.0, "half way"}};
    const std::string svg = render(chart);
    // x: tight 0..10 onto 76..700; y: 0..100 (step 20) onto 294..14.
    CHECK(has(svg, "points=\"76.0,294.0 700.0,14.0\""));
    CHECK(has(svg, "<text x=\"70.0\" y=\"18.0\" text-anchor=\"end\">100</text>"));     // the top y tick
    CHECK(has(svg, "<text x=\"700.0\" y=\"312.0\" text-anchor=\"middle\">10</text>"));  // the last x tick
    CHECK(has(svg, "x1=\"388.0\" y1=\"14.0\" x2=\"388.0\" y2=\"294.0\""));             // the rule at x = 5
    CHECK(has(svg, ">half way</text>"));
    CHECK(has(svg, ">x (units)</text>"));
    CHECK(has(svg, ">y (units)</text>"));
    CHECK(has(svg, "<title id=\"line-title\">a chart</title>"));
    CHECK(count(svg, "<svg") == 1);
    CHECK(count(svg, "</svg>") == 1);
}

TEST_CASE("text from inputs is escaped in charts", "[svg]") {
    LineChart chart;
    chart.frame = frame("esc");
    chart.frame.title = "<script>alert(1)</script>";
    chart.series = {{"A & <B>", {0.0, 1.0}, {1.0, 2.0}}};
    const std::string svg = render(chart);
    CHECK_FALSE(has(svg, "<script>"));
    CHECK_FALSE(has(svg, "<B>"));
    CHECK(has(svg, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    CHECK(has(svg, "data-name=\"A &amp; &lt;B&gt;\""));
}

TEST_CASE("stacked bars stack positives up and negatives down from zero, with the net marked", "[svg]") {
    StackedBarChart chart;
    chart.frame = frame("bars");
    chart.categories = {"A", "B"};
    chart.stacks = {{"s1", {}, {100.0, 50.0}}, {"s2", {}, {-20.0, 30.0}}};
    const std::string svg = render(chart);
    // y: -20..100 -> ticks of 50 from -50 to 100, onto 294..14: y(v) = 294 - (v + 50) / 150 × 280,
    // so y(100) = 14, y(80) = 51.33, y(50) = 107.33, y(0) = 200.67, y(-20) = 238.
    // Bands of 624 / 2 = 312 px, bars 120 px wide centred at 232 and 544.
    CHECK(has(svg, "x=\"172.0\" y=\"14.0\" width=\"120.0\" height=\"186.7\""));   // A: s1, 0 -> 100
    CHECK(has(svg, "x=\"172.0\" y=\"200.7\" width=\"120.0\" height=\"37.3\""));    // A: s2, 0 -> -20
    CHECK(has(svg, "x=\"484.0\" y=\"107.3\" width=\"120.0\" height=\"93.3\""));    // B: s1, 0 -> 50
    CHECK(has(svg, "x=\"484.0\" y=\"51.3\" width=\"120.0\" height=\"56.0\""));     // B: s2, 50 -> 80
    CHECK(has(svg, "y1=\"51.3\" x2=\"298.0\" y2=\"51.3\""));                        // A's net, 80
    CHECK(has(svg, ">net 80</text>"));
    CHECK(count(svg, "<pattern ") == 2);
    CHECK(has(svg, "fill=\"url(#bars-hatch-1)\""));
}

TEST_CASE("a histogram draws one bar per bin on a tight x axis", "[svg]") {
    HistogramChart chart;
    chart.frame = frame("hist");
    chart.edges = {0.0, 1.0, 2.0};
    chart.counts = {1.0, 3.0};
    chart.rules = {{1.0, "P50"}};
    const std::string svg = render(chart);
    // No legend: the plot runs down to 314. x: 0..2 onto 76..700; y: 0..3 (step 1) onto 314..14.
    CHECK(has(svg, "x=\"76.0\" y=\"214.0\" width=\"312.0\" height=\"100.0\""));
    CHECK(has(svg, "x=\"388.0\" y=\"14.0\" width=\"312.0\" height=\"300.0\""));
    CHECK(has(svg, "x1=\"388.0\" y1=\"14.0\" x2=\"388.0\" y2=\"314.0\""));  // the P50 rule
}

TEST_CASE("a tornado chart draws each side from the base, the longer first", "[svg]") {
    TornadoChart chart;
    chart.frame = frame("tornado");
    chart.base = 100.0;
    chart.base_label = "now 100";
    chart.bars = {{"key", 50.0, 200.0}};
    const std::string svg = render(chart);
    // x: 50..200 padded by 12 % of 150 each way, 32..218, in steps of 50: 0..250 onto 76..700,
    // 2.496 px a unit: x(50) = 200.8, x(100) = 325.6, x(200) = 575.2.
    const auto high = svg.find("<rect class=\"bar\" x=\"325.6\" y=");
    const auto low = svg.find("<rect class=\"bar\" x=\"200.8\" y=");
    REQUIRE(high != std::string::npos);
    REQUIRE(low != std::string::npos);
    CHECK(high < low);  // the high side swings further, so it is drawn first
    CHECK(has(svg, "width=\"249.6\""));
    CHECK(has(svg, "width=\"124.8\""));
    CHECK(has(svg, "<text x=\"579.2\" y=\"158.0\" text-anchor=\"start\" class=\"bar-value\">200</text>"));
    CHECK(has(svg, ">now 100</text>"));
    CHECK(has(svg, ">input at its high value</text>"));
}

TEST_CASE("a tornado bar with both ends on one side prints the shorter end's value across the base", "[svg]") {
    TornadoChart chart;
    chart.frame = frame("tornado");
    chart.base = 100.0;
    chart.bars = {{"key", 120.0, 150.0}};
    const std::string svg = render(chart);
    // 100..150 padded by 6 each way, 94..156, in steps of 20: 80..160 onto 76..700, 7.8 px a unit:
    // x(100) = 232, x(150) = 622. The label of 150 follows its end; that of 120 sits left of the base.
    CHECK(has(svg, "<text x=\"626.0\" y=\"158.0\" text-anchor=\"start\" class=\"bar-value\">150</text>"));
    CHECK(has(svg, "<text x=\"228.0\" y=\"158.0\" text-anchor=\"end\" class=\"bar-value\">120</text>"));
}
