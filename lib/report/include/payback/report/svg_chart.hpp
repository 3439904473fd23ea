// Charts as inline SVG text for the HTML report (`payback report`): line charts, stacked bars,
// tornado bars and histograms, each with axes, ticks, axis labels with units and a legend. Series
// differ by colour (the Okabe-Ito palette, safe for colour-blind readers) and also by dash pattern,
// marker shape or hatching, so they stay apart in grey print. No scripts, no external references.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace payback::svg {

/// Axis ticks at multiples of 1, 2 or 5 × 10^k, about `target` intervals over [lo, hi].
struct Ticks {
    double lo = 0.0;    ///< the axis's ends: [lo, hi] widened to whole steps, or as given when tight
    double hi = 1.0;
    double step = 1.0;
    std::vector<double> values;  ///< the ticks, ascending, all within [lo, hi]
};

/// `tight`: the axis keeps [lo, hi] and gets the multiples of the step inside it. lo == hi is
/// widened by 10 % of its size each way (0.5 at 0). `step` forces the step (months by the year, say).
Ticks nice_ticks(double lo, double hi, int target = 5, bool tight = false, std::optional<double> step = std::nullopt);

/// A tick's label: thousands separated, as many decimals as the step needs ("2,500", "0.25").
std::string tick_label(double value, double step);

/// Maps [domain_lo, domain_hi] linearly onto [range_lo, range_hi] (pixels; y runs downwards).
struct LinearScale {
    double domain_lo, domain_hi, range_lo, range_hi;
    double operator()(double value) const;
};

/// How series `index` is drawn: the palette cycles through 8 colours, the dashes and markers
/// through their own lists, so the first 8 series all differ in colour and in shape.
struct SeriesStyle {
    std::string colour;   ///< "#0072B2"
    std::string dash;     ///< stroke-dasharray; empty: solid
    std::string marker;   ///< circle, square, triangle, diamond, cross, ...
    std::string hatch;    ///< for filled shapes: none, diagonal, back-diagonal, horizontal, ...
};
SeriesStyle series_style(std::size_t index);

/// What every chart has: an id unique in the page (it prefixes the SVG's internal ids), a title
/// (the SVG's <title>, read by screen readers), axis labels that say the units, and a size in
/// pixels (the SVG scales to its container; these set its proportions and text size).
struct Frame {
    std::string id;
    std::string title;
    std::string x_label;
    std::string y_label;
    double width = 720.0;
    double height = 360.0;
};

/// The plot area inside a frame: what is left after the axes' labels and the legend rows.
struct PlotArea {
    double left, top, right, bottom;
};
inline constexpr double margin_left = 76.0, margin_right = 20.0, margin_top = 14.0, margin_bottom = 46.0;
inline constexpr double legend_row_height = 20.0;
/// The legend's rows when its items are laid out left to right across the frame's width.
int legend_rows(const Frame& frame, const std::vector<std::string>& names);
PlotArea plot_area(const Frame& frame, int legend_rows);

struct Series {
    std::string name;
    std::vector<double> x;
    std::vector<double> y;
};

/// A labelled vertical line across the plot (a payback month, a percentile, today's value).
struct Rule {
    double x;
    std::string label;
};

/// A labelled point (a break-even, where a line crosses zero).
struct Point {
    double x, y;
    std::string label;
};

struct LineChart {
    Frame frame;
    std::vector<Series> series;
    std::vector<Rule> rules;
    std::vector<Point> points;
    std::optional<double> x_step;  ///< forced tick step on x; none: nice ticks
    bool y_from_zero = true;       ///< the y axis includes 0
    bool zero_line = false;        ///< a heavier line at y = 0
};
std::string render(const LineChart& chart);

/// Bars of categories, each split into stacked segments; positive values stack upwards from 0,
/// negative ones downwards, and each bar's net total is marked with a tick and its value.
struct StackedBarChart {
    Frame frame;
    std::vector<std::string> categories;
    std::vector<Series> stacks;  ///< one per segment kind; y holds one value per category, x is unused
    int net_decimals = 0;        ///< of the net's label (3: a cost per million tokens in cents and less)
};
std::string render(const StackedBarChart& chart);

/// One input of a tornado chart: the metric with the input at its low and at its high value.
struct TornadoBar {
    std::string label;
    double at_low;
    double at_high;
};

/// Horizontal bars from the base value to the metric at each end, largest swing at the top.
struct TornadoChart {
    Frame frame;
    double base = 0.0;
    std::string base_label;
    std::vector<TornadoBar> bars;  ///< in the order drawn, top first
};
std::string render(const TornadoChart& chart);

/// Counts over bins (edges has one more entry than counts), with labelled rules (P10, P50, P90, 0).
struct HistogramChart {
    Frame frame;
    std::vector<double> edges;
    std::vector<double> counts;
    std::vector<Rule> rules;
};
std::string render(const HistogramChart& chart);

}  // namespace payback::svg
