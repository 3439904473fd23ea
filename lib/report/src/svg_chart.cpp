#include "payback/report/svg_chart.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "payback/base/format.hpp"
#include "payback/report/markup.hpp"

namespace payback::svg {

namespace {

// Text width at the charts' 12 px sans-serif: about 6.6 px a character, enough to lay out
// legends and labels without measuring fonts.
constexpr double char_width = 6.6;
constexpr double swatch_width = 30.0;
constexpr double legend_gap = 18.0;

// Pixel coordinates with one decimal: exact enough on screen, short in the file.
std::string px(double value) { return fmt::format("{:.1f}", value + 0.0); }

double legend_item_width(const std::string& name) {
    return swatch_width + 6.0 + char_width * static_cast<double>(name.size()) + legend_gap;
}

std::string open_svg(const Frame& f) {
    return fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" viewBox=\"0 0 {} {}\" role=\"img\" "
        "aria-labelledby=\"{}-title\" font-size=\"12\" font-family=\"sans-serif\">\n<title id=\"{}-title\">{}</title>\n",
        px(f.width), px(f.height), escape_html(f.id), escape_html(f.id), escape_html(f.title));
}

std::string text(double x, double y, const std::string& content, const char* anchor = "middle",
                 const std::string& extra = "") {
    return fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"{}\"{}>{}</text>\n", px(x), px(y), anchor, extra,
                       escape_html(content));
}

std::string hatch_id(const Frame& f, std::size_t index) { return fmt::format("{}-hatch-{}", f.id, index); }

// A fill pattern: the series' colour under black strokes of its hatch, so fills differ in grey too.
std::string hatch_pattern(const Frame& f, std::size_t index) {
    const SeriesStyle s = series_style(index);
    std::string marks;
    if (s.hatch == "diagonal") marks = "<path d=\"M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4\"/>";
    if (s.hatch == "back-diagonal") marks = "<path d=\"M-2,6 l4,4 M0,0 l8,8 M6,-2 l4,4\"/>";
    if (s.hatch == "horizontal") marks = "<path d=\"M0,4 h8\"/>";
    if (s.hatch == "vertical") marks = "<path d=\"M4,0 v8\"/>";
    if (s.hatch == "cross") marks = "<path d=\"M0,4 h8 M4,0 v8\"/>";
    if (s.hatch == "dots") marks = "<circle cx=\"4\" cy=\"4\" r=\"1.5\" fill=\"#000\" stroke=\"none\"/>";
    if (s.hatch == "grid") marks = "<path d=\"M0,0 l8,8 M8,0 l-8,8\"/>";
    return fmt::format("<pattern id=\"{}\" patternUnits=\"userSpaceOnUse\" width=\"8\" height=\"8\">"
                       "<rect width=\"8\" height=\"8\" fill=\"{}\"/><g stroke=\"#000\" stroke-opacity=\"0.45\" "
                       "stroke-width=\"1.2\">{}</g></pattern>\n",
                       escape_html(hatch_id(f, index)), s.colour, marks);
}

std::string marker(const std::string& shape, double x, double y, const std::string& colour) {
    constexpr double r = 4.0;
    const std::string fill = fmt::format("fill=\"{}\" stroke=\"{}\"", colour, colour);
    if (shape == "circle") return fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {}/>", px(x), px(y), px(r), fill);
    if (shape == "square")
        return fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {}/>", px(x - r), px(y - r), px(2 * r),
                           px(2 * r), fill);
    if (shape == "triangle")
        return fmt::format("<path d=\"M{},{} L{},{} L{},{} Z\" {}/>", px(x), px(y - r), px(x + r), px(y + r), px(x - r),
                           px(y + r), fill);
    if (shape == "diamond")
        return fmt::format("<path d=\"M{},{} L{},{} L{},{} L{},{} Z\" {}/>", px(x), px(y - r), px(x + r), px(y), px(x),
                           px(y + r), px(x - r), px(y), fill);
    if (shape == "triangle-down")
        return fmt::format("<path d=\"M{},{} L{},{} L{},{} Z\" {}/>", px(x), px(y + r), px(x + r), px(y - r), px(x - r),
                           px(y - r), fill);
    if (shape == "cross")
        return fmt::format("<path d=\"M{},{} L{},{} M{},{} L{},{}\" stroke=\"{}\" stroke-width=\"2\"/>", px(x - r),
                           px(y - r), px(x + r), px(y + r), px(x - r), px(y + r), px(x + r), px(y - r), colour);
    if (shape == "plus")
        return fmt::format("<path d=\"M{},{} L{},{} M{},{} L{},{}\" stroke=\"{}\" stroke-width=\"2\"/>", px(x - r),
                           px(y), px(x + r), px(y), px(x), px(y - r), px(x), px(y + r), colour);
    return fmt::format("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"#fff\" stroke=\"{}\" stroke-width=\"2\"/>", px(x),
                       px(y), px(r), colour);  // ring
}

std::string dash_attribute(const SeriesStyle& s) {
    return s.dash.empty() ? std::string() : fmt::format(" stroke-dasharray=\"{}\"", s.dash);
}

enum class Swatch { line, fill };

// The legend: items left to right, wrapping onto rows under the plot.
std::string legend(const Frame& f, const std::vector<std::string>& names, Swatch swatch) {
    const int rows = legend_rows(f, names);
    if (rows == 0) return "";
    std::string out = "<g class=\"legend\">\n";
    double x = margin_left;
    int row = 0;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const double width = legend_item_width(names[i]);
        if (x > margin_left && x + width - legend_gap > f.width - margin_right) {
            x = margin_left;
            ++row;
        }
        const double y = f.height - (rows - row) * legend_row_height + legend_row_height / 2.0;
        const SeriesStyle s = series_style(i);
        if (swatch == Swatch::line)
            out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"{}/>",
                               px(x), px(y), px(x + swatch_width), px(y), s.colour, dash_attribute(s)) +
                   marker(s.marker, x + swatch_width / 2.0, y, s.colour) + "\n";
        else
            out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"12\" fill=\"url(#{})\" stroke=\"#333\"/>\n",
                               px(x + 8.0), px(y - 6.0), px(14.0), escape_html(hatch_id(f, i)));
        out += text(x + swatch_width + 6.0, y + 4.0, names[i], "start");
        x += width;
    }
    return out + "</g>\n";
}

// Grid lines and tick labels on y, the axes, and both axis labels.
std::string y_axis(const Frame& f, const PlotArea& a, const Ticks& ticks, const LinearScale& y) {
    std::string out = "<g class=\"axis y\">\n";
    for (double v : ticks.values) {
        out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#ddd\"/>\n", px(a.left), px(y(v)),
                           px(a.right), px(y(v)));
        out += text(a.left - 6.0, y(v) + 4.0, tick_label(v, ticks.step), "end");
    }
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333\"/>\n", px(a.left), px(a.top),
                       px(a.left), px(a.bottom));
    if (!f.y_label.empty()) {
        const double cy = (a.top + a.bottom) / 2.0;
        out += text(14.0, cy, f.y_label, "middle", fmt::format(" transform=\"rotate(-90 14 {})\"", px(cy)));
    }
    return out + "</g>\n";
}

std::string x_axis(const Frame& f, const PlotArea& a, const Ticks& ticks, const LinearScale& x) {
    std::string out = "<g class=\"axis x\">\n";
    for (double v : ticks.values) {
        out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333\"/>\n", px(x(v)), px(a.bottom),
                           px(x(v)), px(a.bottom + 5.0));
        out += text(x(v), a.bottom + 18.0, tick_label(v, ticks.step));
    }
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333\"/>\n", px(a.left), px(a.bottom),
                       px(a.right), px(a.bottom));
    if (!f.x_label.empty()) out += text((a.left + a.right) / 2.0, a.bottom + 36.0, f.x_label);
    return out + "</g>\n";
}

// Labelled vertical rules; labels step down so that neighbours do not overlap.
std::string rules(const std::vector<Rule>& list, const PlotArea& a, const LinearScale& x) {
    std::string out;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const double at = x(list[i].x);
        const bool right_half = at > (a.left + a.right) / 2.0;
        out += fmt::format("<line class=\"rule\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\" "
                           "stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>\n",
                           px(at), px(a.top), px(at), px(a.bottom));
        out += text(at + (right_half ? -4.0 : 4.0), a.top + 12.0 + 14.0 * static_cast<double>(i % 4), list[i].label,
                    right_half ? "end" : "start", " class=\"rule-label\"");
    }
    return out;
}

std::pair<double, double> extent(const std::vector<double>& values) {
    double lo = INFINITY, hi = -INFINITY;
    for (double v : values)
        if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
    return {lo, hi};
}

std::vector<std::string> names_of(const std::vector<Series>& series) {
    std::vector<std::string> names;
    for (const Series& s : series) names.push_back(s.name);
    return names;
}

// A label cut into lines of at most `columns` characters at spaces (a longer word stays whole).
std::vector<std::string> wrap(const std::string& label, std::size_t columns) {
    std::vector<std::string> lines(1);
    std::size_t start = 0;
    while (start <= label.size()) {
        std::size_t end = label.find(' ', start);
        if (end == std::string::npos) end = label.size();
        const std::string word = label.substr(start, end - start);
        if (!lines.back().empty() && lines.back().size() + 1 + word.size() > columns) lines.emplace_back();
        lines.back() += (lines.back().empty() ? "" : " ") + word;
        start = end + 1;
    }
    return lines;
}

}  // namespace

Ticks nice_ticks(double lo, double hi, int target, bool tight, std::optional<double> forced_step) {
    if (hi < lo) std::swap(lo, hi);
    if (hi == lo) {
        const double half = lo == 0.0 ? 0.5 : std::fabs(lo) * 0.1;
        lo -= half;
        hi += half;
    }
    double step = 0.0;
    if (forced_step && *forced_step > 0.0) {
        step = *forced_step;
    } else {
        const double raw = (hi - lo) / std::max(1, target);
        const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
        const double residual = raw / magnitude;
        step = (residual <= 1.0 ? 1.0 : residual <= 2.0 ? 2.0 : residual <= 5.0 ? 5.0 : 10.0) * magnitude;
    }
    // Ticks are k × step, each computed afresh; a hair of slack keeps 0.30000000000000004 on the grid.
    const double slack = 1e-9;
    const double first = tight ? std::ceil(lo / step - slack) : std::floor(lo / step + slack);
    const double last = tight ? std::floor(hi / step + slack) : std::ceil(hi / step - slack);
    Ticks t;
    t.step = step;
    t.lo = tight ? lo : first * step + 0.0;
    t.hi = tight ? hi : last * step + 0.0;
    for (double k = first; k <= last; k += 1.0) t.values.push_back(k * step + 0.0);
    return t;
}

std::string tick_label(double value, double step) {
    const int decimals = std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)));
    return format_amount(value, decimals);
}

double LinearScale::operator()(double value) const {
    if (domain_hi == domain_lo) return (range_lo + range_hi) / 2.0;
    return range_lo + (value - domain_lo) / (domain_hi - domain_lo) * (range_hi - range_lo);
}

SeriesStyle series_style(std::size_t index) {
    // Okabe & Ito (2008), "Color Universal Design": distinguishable with every common colour-vision
    // deficiency. Yellow goes last: it is faint on white.
    static const char* const colours[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7",
                                          "#E69F00", "#56B4E9", "#000000", "#F0E442"};
    static const char* const dashes[] = {"", "8 4", "2 3", "10 3 2 3", "4 4", "12 3 2 3 2 3", "1 3", "6 2"};
    static const char* const markers[] = {"circle", "square", "triangle", "diamond",
                                          "triangle-down", "cross", "plus", "ring"};
    static const char* const hatches[] = {"none", "diagonal", "dots", "back-diagonal",
                                          "horizontal", "cross", "vertical", "grid"};
    const std::size_t k = index % 8;
    return {colours[k], dashes[k], markers[k], hatches[k]};
}

int legend_rows(const Frame& frame, const std::vector<std::string>& names) {
    if (names.empty()) return 0;
    int rows = 1;
    double x = margin_left;
    for (const std::string& name : names) {
        const double width = legend_item_width(name);
        if (x > margin_left && x + width - legend_gap > frame.width - margin_right) {
            ++rows;
            x = margin_left;
        }
        x += width;
    }
    return rows;
}

PlotArea plot_area(const Frame& frame, int rows) {
    return {margin_left, margin_top, frame.width - margin_right,
            frame.height - margin_bottom - rows * legend_row_height};
}

std::string render(const LineChart& c) {
    const Frame& f = c.frame;
    const auto names = names_of(c.series);
    const PlotArea a = plot_area(f, legend_rows(f, names));
    std::vector<double> xs, ys;
    for (const Series& s : c.series) {
        xs.insert(xs.end(), s.x.begin(), s.x.end());
        ys.insert(ys.end(), s.y.begin(), s.y.end());
    }
    for (const Point& p : c.points) ys.push_back(p.y);
    if (c.y_from_zero) ys.push_back(0.0);
    auto [x_lo, x_hi] = extent(xs);
    auto [y_lo, y_hi] = extent(ys);
    if (!std::isfinite(x_lo)) x_lo = 0.0, x_hi = 1.0;
    if (!std::isfinite(y_lo)) y_lo = 0.0, y_hi = 1.0;
    const Ticks xt = nice_ticks(x_lo, x_hi, 6, true, c.x_step);
    const Ticks yt = nice_ticks(y_lo, y_hi, 5);
    const LinearScale x{xt.lo, xt.hi, a.left, a.right};
    const LinearScale y{yt.lo, yt.hi, a.bottom, a.top};

    std::string out = open_svg(f) + y_axis(f, a, yt, y) + x_axis(f, a, xt, x);
    if (c.zero_line && yt.lo < 0.0 && yt.hi > 0.0)
        out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\" stroke-width=\"1.5\"/>\n",
                           px(a.left), px(y(0.0)), px(a.right), px(y(0.0)));
    for (std::size_t i = 0; i < c.series.size(); ++i) {
        const Series& s = c.series[i];
        const SeriesStyle style = series_style(i);
        std::string points;
        for (std::size_t k = 0; k < s.x.size() && k < s.y.size(); ++k)
            points += fmt::format("{}{},{}", points.empty() ? "" : " ", px(x(s.x[k])), px(y(s.y[k])));
        out += fmt::format("<g class=\"series\" data-name=\"{}\">\n<polyline fill=\"none\" stroke=\"{}\" "
                           "stroke-width=\"2\"{} points=\"{}\"/>\n",
                           escape_html(s.name), style.colour, dash_attribute(style), points);
        // A marker every few points, each series starting at its own offset, so coincident lines show.
        const std::size_t every = std::max<std::size_t>(1, s.x.size() / 8);
        for (std::size_t k = i % every; k < s.x.size() && k < s.y.size(); k += every)
            out += marker(style.marker, x(s.x[k]), y(s.y[k]), style.colour) + "\n";
        out += "</g>\n";
    }
    out += rules(c.rules, a, x);
    for (const Point& p : c.points) {
        out += fmt::format("<circle class=\"point\" cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"#fff\" stroke=\"#000\" "
                           "stroke-width=\"2\"/>\n",
                           px(x(p.x)), px(y(p.y)));
        out += text(x(p.x) + 8.0, y(p.y) - 8.0, p.label, "start", " class=\"point-label\"");
    }
    return out + legend(f, names, Swatch::line) + "</svg>\n";
}

std::string render(const StackedBarChart& c) {
    const Frame& f = c.frame;
    const auto names = names_of(c.stacks);
    const std::size_t n = c.categories.size();
    PlotArea a = plot_area(f, legend_rows(f, names));
    const double band = (a.right - a.left) / static_cast<double>(std::max<std::size_t>(1, n));
    const auto columns = static_cast<std::size_t>(std::max(8.0, band / char_width - 1.0));
    std::size_t label_lines = 1;
    for (const std::string& category : c.categories) label_lines = std::max(label_lines, wrap(category, columns).size());
    a.bottom -= 14.0 * static_cast<double>(label_lines - 1);  // room for category names on several lines

    std::vector<double> up(n, 0.0), down(n, 0.0);
    for (const Series& s : c.stacks)
        for (std::size_t k = 0; k < n && k < s.y.size(); ++k) (s.y[k] >= 0.0 ? up[k] : down[k]) += s.y[k];
    const double lo = *std::min_element(down.begin(), down.end());
    const double hi = *std::max_element(up.begin(), up.end());
    const Ticks yt = nice_ticks(std::min(lo, 0.0), std::max(hi, 0.0), 5);
    const LinearScale y{yt.lo, yt.hi, a.bottom, a.top};
    const double bar = std::min(band * 0.6, 120.0);

    std::string out = open_svg(f) + "<defs>\n";
    for (std::size_t i = 0; i < c.stacks.size(); ++i) out += hatch_pattern(f, i);
    out += "</defs>\n" + y_axis(f, a, yt, y);
    out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#333\"/>\n", px(a.left), px(y(0.0)),
                       px(a.right), px(y(0.0)));
    for (std::size_t k = 0; k < n; ++k) {
        const double centre = a.left + band * (static_cast<double>(k) + 0.5);
        double top = 0.0, bottom = 0.0;
        for (std::size_t i = 0; i < c.stacks.size(); ++i) {
            const double v = k < c.stacks[i].y.size() ? c.stacks[i].y[k] : 0.0;
            if (v == 0.0) continue;
            double& edge = v > 0.0 ? top : bottom;
            const double from = y(edge), to = y(edge + v);
            edge += v;
            out += fmt::format("<rect class=\"segment\" data-name=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" "
                               "fill=\"url(#{})\" stroke=\"#fff\" stroke-width=\"0.75\"><title>{}</title></rect>\n",
                               escape_html(c.stacks[i].name), px(centre - bar / 2.0), px(std::min(from, to)), px(bar),
                               px(std::fabs(to - from)), escape_html(hatch_id(f, i)),
                               escape_html(fmt::format("{}: {}", c.stacks[i].name, format_amount(v))));
        }
        const double net = top + bottom;
        out += fmt::format("<line class=\"net\" x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#000\" "
                           "stroke-width=\"2.5\"/>\n",
                           px(centre - bar / 2.0 - 6.0), px(y(net)), px(centre + bar / 2.0 + 6.0), px(y(net)));
        out += text(centre, y(top) - 6.0, "net " + format_amount(net, c.net_decimals), "middle", " font-weight=\"bold\"");
        const auto lines = wrap(c.categories[k], columns);
        for (std::size_t l = 0; l < lines.size(); ++l)
            out += text(centre, a.bottom + 18.0 + 14.0 * static_cast<double>(l), lines[l]);
    }
    if (!f.x_label.empty())
        out += text((a.left + a.right) / 2.0, a.bottom + 22.0 + 14.0 * static_cast<double>(label_lines), f.x_label);
    return out + legend(f, names, Swatch::fill) + "</svg>\n";
}

std::string render(const TornadoChart& c) {
    Frame f = c.frame;
    const std::vector<std::string> names{"input at its low value", "input at its high value"};
    PlotArea a = plot_area(f, legend_rows(f, names));
    std::size_t widest = 0;
    for (const TornadoBar& b : c.bars) widest = std::max(widest, b.label.size());
    a.left = std::clamp(12.0 + char_width * static_cast<double>(widest), a.left, f.width * 0.45);
    std::vector<double> values{c.base};
    for (const TornadoBar& b : c.bars) values.insert(values.end(), {b.at_low, b.at_high});
    const auto [lo, hi] = extent(values);
    // Room on both sides for the values printed at the bars' ends.
    const double pad = 0.12 * (hi - lo);
    const Ticks xt = nice_ticks(lo - pad, hi + pad, 5);
    const LinearScale x{xt.lo, xt.hi, a.left, a.right};
    const double band = (a.bottom - a.top) / static_cast<double>(std::max<std::size_t>(1, c.bars.size()));
    const double bar = std::min(band * 0.7, 28.0);

    std::string out = open_svg(f) + "<defs>\n" + hatch_pattern(f, 0) + hatch_pattern(f, 1) + "</defs>\n";
    for (double v : xt.values)
        out += fmt::format("<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"#ddd\"/>\n", px(x(v)), px(a.top),
                           px(x(v)), px(a.bottom));
    out += x_axis(f, a, xt, x);
    for (std::size_t k = 0; k < c.bars.size(); ++k) {
        const TornadoBar& b = c.bars[k];
        const double centre = a.top + band * (static_cast<double>(k) + 0.5);
        out += text(a.left - 8.0, centre + 4.0, b.label, "end");
        // The longer side first, so the shorter stays visible where both lie on one side of the base.
        std::vector<std::pair<double, std::size_t>> ends{{b.at_low, 0}, {b.at_high, 1}};
        if (std::fabs(b.at_high - c.base) > std::fabs(b.at_low - c.base)) std::swap(ends[0], ends[1]);
        const bool one_side = (b.at_low >= c.base) == (b.at_high >= c.base);
        for (std::size_t drawn = 0; drawn < ends.size(); ++drawn) {
            const auto& [value, style] = ends[drawn];
            const double from = x(c.base), to = x(value);
            out += fmt::format("<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"url(#{})\" "
                               "stroke=\"#333\" stroke-width=\"0.75\"><title>{}</title></rect>\n",
                               px(std::min(from, to)), px(centre - bar / 2.0), px(std::fabs(to - from)), px(bar),
                               escape_html(hatch_id(f, style)),
                               escape_html(fmt::format("{}: {}", names[style], format_amount(value))));
            // The shorter end's value goes across the base when both ends lie on one side, off the longer bar.
            const bool across = one_side && drawn == 1;
            const bool right = (value >= c.base) != across;
            const double at = across ? from : to;
            out += text(at + (right ? 4.0 : -4.0), centre + 4.0, format_amount(value), right ? "start" : "end",
                        " class=\"bar-value\"");
        }
    }
    out += rules({{c.base, c.base_label}}, a, x);
    return out + legend(f, names, Swatch::fill) + "</svg>\n";
}

std::string render(const HistogramChart& c) {
    const Frame& f = c.frame;
    const PlotArea a = plot_area(f, 0);
    const auto [x_lo, x_hi] = extent(c.edges);
    double most = 0.0;
    for (double count : c.counts) most = std::max(most, count);
    const Ticks xt = nice_ticks(x_lo, x_hi, 6, true);
    const Ticks yt = nice_ticks(0.0, most, 5);
    const LinearScale x{xt.lo, xt.hi, a.left, a.right};
    const LinearScale y{yt.lo, yt.hi, a.bottom, a.top};
    std::string out = open_svg(f) + y_axis(f, a, yt, y) + x_axis(f, a, xt, x);
    const SeriesStyle style = series_style(0);
    for (std::size_t k = 0; k < c.counts.size() && k + 1 < c.edges.size(); ++k) {
        if (c.counts[k] <= 0.0) continue;
        out += fmt::format("<rect class=\"bin\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\" "
                           "fill-opacity=\"0.8\" stroke=\"#fff\" stroke-width=\"0.75\"/>\n",
                           px(x(c.edges[k])), px(y(c.counts[k])), px(x(c.edges[k + 1]) - x(c.edges[k])),
                           px(y(0.0) - y(c.counts[k])), style.colour);
    }
    return out + rules(c.rules, a, x) + "</svg>\n";
}

}  // namespace payback::svg
