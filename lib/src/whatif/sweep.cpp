#include "payback/model/model_inputs.hpp"
#include "payback/whatif/sweep.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/number_text.hpp"
#include "payback/base/arguments.hpp"
#include "payback/base/error.hpp"
#include "payback/base/suggest.hpp"
#include "payback/model/engine.hpp"
#include "payback/model/metrics.hpp"
#include "scenario/key_paths.hpp"

namespace payback {

namespace {

using detail::trimmed;

// How many values axis_values gives, or more than max_axis_points (without building them).
std::size_t count_values(double low, double high, double step) {
    const double intervals = (high - low) / step;
    if (!(intervals < static_cast<double>(max_axis_points))) return max_axis_points + 1;
    const auto n = static_cast<std::size_t>(std::floor(intervals)) + 1;  // LO + k STEP <= HI for k < n
    const double last = low + static_cast<double>(n - 1) * step;
    return high - last <= 1e-9 * step ? n : n + 1;  // the last one is HI, or HI follows it
}

// The value of the edge between grid points p and q (values fp > 0 >= fq or the reverse) where
// the linear interpolant is zero, computed from the lower-indexed point so both cells sharing the
// edge get the same number.
double crossing(double p, double q, double fp, double fq) { return p + fp / (fp - fq) * (q - p); }

}  // namespace

SweepAxis parse_axis(const std::string& text) {
    const auto equals = text.find('=');
    if (equals == std::string::npos || trimmed(text.substr(0, equals)).empty())
        throw InputError(argument::sweep_axis, 0, "", fmt::format("expected KEY=LO:HI:STEP, got \"{}\"", text));
    SweepAxis axis;
    axis.key = trimmed(text.substr(0, equals));
    const std::string range = text.substr(equals + 1);
    std::vector<std::string> parts;
    for (std::size_t start = 0;;) {
        const auto colon = range.find(':', start);
        parts.push_back(range.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
        if (colon == std::string::npos) break;
        start = colon + 1;
    }
    std::vector<double> numbers;
    for (const auto& part : parts)
        if (const auto value = detail::number_from_text(part)) numbers.push_back(*value);
    if (parts.size() != 3 || numbers.size() != 3)
        throw InputError(argument::sweep_axis, 0, axis.key,
                         fmt::format("expected LO:HI:STEP with three numbers, got \"{}\"", range));
    axis.low = numbers[0];
    axis.high = numbers[1];
    axis.step = numbers[2];
    if (!(axis.low < axis.high))
        throw InputError(argument::sweep_axis, 0, axis.key, fmt::format("expected LO < HI, got {}:{}", axis.low, axis.high));
    if (!(axis.step > 0.0))
        throw InputError(argument::sweep_axis, 0, axis.key, fmt::format("expected STEP > 0, got {}", axis.step));
    if (const std::size_t n = count_values(axis.low, axis.high, axis.step); n > max_axis_points)
        throw InputError(argument::sweep_axis, 0, axis.key,
                         fmt::format("{}:{}:{} has more than {} points; take a larger STEP", axis.low, axis.high,
                                     axis.step, max_axis_points));
    return axis;
}

std::vector<double> axis_values(const SweepAxis& axis) {
    const std::size_t n = count_values(axis.low, axis.high, axis.step);
    if (n > max_axis_points) throw std::invalid_argument("axis_values: too many points");
    std::vector<double> values;
    values.reserve(n);
    for (std::size_t k = 0; k + 1 < n; ++k) values.push_back(axis.low + static_cast<double>(k) * axis.step);
    values.push_back(axis.high);
    return values;
}

std::size_t against_index(const Scenario& s, const std::optional<std::string>& name) {
    if (s.clouds.empty()) throw InputError(s.source, 0, "cloud", "no cloud options to compare the rig with");
    if (name) {
        std::vector<std::string> names;
        for (std::size_t i = 0; i < s.clouds.size(); ++i) {
            if (s.clouds[i].name == *name) return i;
            names.push_back(s.clouds[i].name);
        }
        const std::string hint = detail::closest_match(*name, names);
        if (!hint.empty())
            throw InputError(argument::cloud_option, 0, "",
                             fmt::format("no cloud option named \"{}\"; did you mean \"{}\"?", *name, hint));
        throw InputError(argument::cloud_option, 0, "",
                         fmt::format("no cloud option named \"{}\"; the cloud options are \"{}\"", *name,
                                     fmt::join(names, "\", \"")));
    }
    const auto m = evaluate(model_inputs(s));
    std::size_t closest = 0;
    for (std::size_t i = 1; i < m.versus.size(); ++i)
        if (m.versus[i].npv_savings < m.versus[closest].npv_savings) closest = i;
    return closest;
}

std::vector<std::vector<std::pair<double, double>>> zero_contour(const std::vector<double>& xs,
                                                                 const std::vector<double>& ys,
                                                                 const std::vector<double>& f) {
    using Point = std::pair<double, double>;
    const std::size_t nx = xs.size(), ny = ys.size();
    if (f.size() != nx * ny) throw std::invalid_argument("zero_contour: values must be xs.size() x ys.size()");
    if (nx < 2 || ny < 2) return {};
    const auto at = [&](std::size_t i, std::size_t j) { return f[i * ny + j]; };
    const auto above = [&](std::size_t i, std::size_t j) { return at(i, j) > 0.0; };
    // Edge ids: horizontal (i,j)-(i+1,j) first, then vertical (i,j)-(i,j+1).
    const std::size_t horizontal = (nx - 1) * ny;
    const auto h_edge = [&](std::size_t i, std::size_t j) { return i * ny + j; };
    const auto v_edge = [&](std::size_t i, std::size_t j) { return horizontal + i * (ny - 1) + j; };
    const auto point_of = [&](std::size_t edge) -> Point {
        if (edge < horizontal) {
            const std::size_t i = edge / ny, j = edge % ny;
            return {crossing(xs[i], xs[i + 1], at(i, j), at(i + 1, j)), ys[j]};
        }
        const std::size_t e = edge - horizontal, i = e / (ny - 1), j = e % (ny - 1);
        return {xs[i], crossing(ys[j], ys[j + 1], at(i, j), at(i, j + 1))};
    };

    constexpr std::size_t none = std::numeric_limits<std::size_t>::max();
    std::vector<std::pair<std::size_t, std::size_t>> segments;  // pairs of edge ids
    std::vector<std::array<std::size_t, 2>> incident;           // per edge: up to two segments
    const std::size_t edges = horizontal + nx * (ny - 1);
    incident.assign(edges, {none, none});
    const auto add = [&](std::size_t a, std::size_t b) {
        const std::size_t s = segments.size();
        segments.emplace_back(a, b);
        for (std::size_t e : {a, b}) (incident[e][0] == none ? incident[e][0] : incident[e][1]) = s;
    };

    for (std::size_t i = 0; i + 1 < nx; ++i)
        for (std::size_t j = 0; j + 1 < ny; ++j) {
            // Corners a (i,j), b (i+1,j), c (i+1,j+1), d (i,j+1); edges bottom a-b, right b-c,
            // top d-c, left a-d.
            const double fa = at(i, j), fb = at(i + 1, j), fc = at(i + 1, j + 1), fd = at(i, j + 1);
            if (std::isnan(fa) || std::isnan(fb) || std::isnan(fc) || std::isnan(fd)) continue;
            const bool a = above(i, j), b = above(i + 1, j), c = above(i + 1, j + 1), d = above(i, j + 1);
            const std::size_t bottom = h_edge(i, j), top = h_edge(i, j + 1), left = v_edge(i, j),
                              right = v_edge(i + 1, j);
            std::vector<std::size_t> crossed;
            if (a != b) crossed.push_back(bottom);
            if (b != c) crossed.push_back(right);
            if (d != c) crossed.push_back(top);
            if (a != d) crossed.push_back(left);
            if (crossed.size() == 2) {
                add(crossed[0], crossed[1]);
            } else if (crossed.size() == 4) {
                // A saddle: a and c on one side, b and d on the other. The bilinear surface's value
                // at its saddle point says which pair is joined through the cell's middle.
                const double saddle = (fa * fc - fb * fd) / (fa + fc - fb - fd);
                if ((saddle > 0.0) == a) {  // a and c joined: cut off b and d
                    add(bottom, right);
                    add(left, top);
                } else {  // b and d joined: cut off a and c
                    add(bottom, left);
                    add(right, top);
                }
            }
        }

    std::vector<std::vector<Point>> lines;
    std::vector<bool> used(segments.size(), false);
    const auto walk = [&](std::size_t start_edge, std::size_t segment) {
        std::vector<Point> line{point_of(start_edge)};
        std::size_t edge = start_edge;
        while (segment != none && !used[segment]) {
            used[segment] = true;
            edge = segments[segment].first == edge ? segments[segment].second : segments[segment].first;
            const Point p = point_of(edge);
            if (p != line.back()) line.push_back(p);  // a zero corner ends two edges at one point
            const auto& next = incident[edge];
            segment = next[0] != none && !used[next[0]] ? next[0] : next[1];
        }
        if (line.size() >= 2) lines.push_back(std::move(line));
    };
    // Open lines first, from their ends (an edge with one segment), then the closed loops.
    for (std::size_t e = 0; e < edges; ++e)
        if (incident[e][0] != none && incident[e][1] == none && !used[incident[e][0]]) walk(e, incident[e][0]);
    for (std::size_t s = 0; s < segments.size(); ++s)
        if (!used[s]) walk(segments[s].first, s);
    return lines;
}

SamplePlan sweep_plan(const Scenario& s, const std::vector<SweepAxis>& axes) {
    if (axes.empty() || axes.size() > 2)
        throw InputError(argument::sweep_axis, 0, "", fmt::format("expected one or two keys to vary, got {}", axes.size()));
    if (axes.size() == 2 && axes[0].key == axes[1].key)
        throw InputError(argument::sweep_axis, 0, axes[1].key, "is varied twice; a 2-D sweep needs two different keys");
    std::vector<std::vector<double>> values;
    std::size_t points = 1;
    for (const SweepAxis& axis : axes) {
        if (!(axis.low < axis.high) || !(axis.step > 0.0) ||
            count_values(axis.low, axis.high, axis.step) > max_axis_points)
            throw InputError(argument::sweep_axis, 0, axis.key,
                             fmt::format("{}:{}:{} is not a usable LO:HI:STEP", axis.low, axis.high, axis.step));
        values.push_back(axis_values(axis));
        points *= values.back().size();
    }
    if (points > max_grid_points)
        throw InputError(
            argument::sweep_axis, 0, "",
            fmt::format("the grid has {} points, more than {}; take larger steps", points, max_grid_points));

    // Each key must exist, and each end of its axis must be a value it admits (the others current).
    SamplePlan plan;
    const std::string text = to_toml(s);
    for (const SweepAxis& axis : axes) {
        plan.keys.push_back(axis.key);
        const double current = detail::numeric_key_value(s, axis.key, argument::sweep_axis);
        for (const double end : {axis.low, axis.high}) try {
                (void)parse_scenario(text, s.source, {{axis.key, fmt::format("{:.17g}", end)}}, s.prices);
            } catch (const InputError& e) {
                throw InputError(argument::sweep_axis, 0, axis.key, fmt::format("{} is not allowed: {}", end, e.message()));
            }
        plan.probes.push_back(axis.high != current ? axis.high : axis.low);
    }
    const std::size_t width = plan.keys.size();
    plan.rows.samples = static_cast<int>(points);
    plan.rows.inputs = static_cast<int>(width);
    plan.rows.values.reserve(points * width);
    if (width == 1) {
        plan.rows.values = values[0];
    } else {
        for (double x : values[0])
            for (double y : values[1]) {
                plan.rows.values.push_back(x);
                plan.rows.values.push_back(y);
            }
    }
    // The fast path checked against the exact model at 5 values of each axis (its ends, quarters
    // and middle): 5 points of a 1-D grid, 25 of a 2-D one, corners and centre among them.
    const auto quarters = [](std::size_t n) {
        std::vector<std::size_t> at{0, n / 4, n / 2, 3 * n / 4, n - 1};
        at.erase(std::unique(at.begin(), at.end()), at.end());
        return at;
    };
    if (width == 1) {
        for (std::size_t i : quarters(values[0].size())) plan.checks.push_back(values[0][i]);
    } else {
        for (std::size_t i : quarters(values[0].size()))
            for (std::size_t j : quarters(values[1].size())) {
                plan.checks.push_back(values[0][i]);
                plan.checks.push_back(values[1][j]);
            }
    }
    return plan;
}

SweepResult sweep_result(const std::vector<SweepAxis>& axes, const SampleModel& model, SampleMetrics metrics) {
    SweepResult r;
    r.axes = axes;
    for (const SweepAxis& axis : axes) r.values.push_back(axis_values(axis));
    r.metrics = std::move(metrics);
    r.clouds = model.cloud_names();
    r.path_note = model.path_note();
    if (axes.size() == 2)
        for (std::size_t c = 0; c < r.clouds.size(); ++c)
            r.contours.push_back({r.clouds[c], zero_contour(r.values[0], r.values[1], r.metrics.npv_savings[c])});
    return r;
}

SweepResult sweep(const Scenario& s, const std::vector<SweepAxis>& axes, const EvaluationOptions& options) {
    const SamplePlan plan = sweep_plan(s, axes);
    const SampleModel model = plan.model(s);
    return sweep_result(axes, model, model.evaluate(plan.rows.values, options));
}

}  // namespace payback
