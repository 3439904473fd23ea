// payback._core.whatif: break-even, the batch runs (Monte Carlo, sweeps and tornado charts), and the
// steps of Monte Carlo and sweeps (plan, model, metrics, result; sample_plan.hpp) that the package
// spreads over Dask workers.
#include <atomic>
#include <cmath>
#include <cstring>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "convert.hpp"
#include "payback/whatif/breakeven.hpp"
#include "payback/whatif/montecarlo.hpp"
#include "payback/whatif/sample_plan.hpp"
#include "payback/whatif/sweep.hpp"
#include "payback/whatif/tornado.hpp"

namespace payback::python {

namespace {

py::object number_or_none(double v) { return std::isfinite(v) ? py::object(py::float_(v)) : py::object(py::none()); }

// Evaluation that Ctrl-C (a KeyboardInterrupt) stops: the engine reports progress on the calling
// thread, which looks at Python's signals there and asks the workers to stop.
EvaluationOptions interruptible(int threads, std::atomic<bool>& stop) {
    EvaluationOptions options;
    options.threads = threads;
    options.cancel = &stop;
    options.progress = [&stop](double) {
        py::gil_scoped_acquire hold;
        if (PyErr_CheckSignals() != 0) {
            PyErr_Clear();
            stop = true;
        }
    };
    return options;
}

// Every vector of the metrics, in one fixed order: what pickling and joining walk through.
template <typename Metrics, typename Visit>
void each_vector(Metrics& m, Visit visit) {
    visit(m.rig_total_cost);
    visit(m.rig_npv_cost);
    for (std::size_t c = 0; c < m.npv_savings.size(); ++c) {
        visit(m.cloud_total_cost[c]);
        visit(m.npv_savings[c]);
        visit(m.payback_months[c]);
        visit(m.discounted_payback_months[c]);
    }
}

py::bytes bytes_of(const std::vector<double>& values) {
    return {reinterpret_cast<const char*>(values.data()), values.size() * sizeof(double)};
}

std::vector<double> doubles_of(const py::bytes& bytes) {
    const std::string_view data = bytes;
    std::vector<double> values(data.size() / sizeof(double));
    std::memcpy(values.data(), data.data(), values.size() * sizeof(double));
    return values;
}

py::list arrays(std::vector<std::vector<double>>&& columns) {
    py::list out;
    for (auto& column : columns) out.append(owned_array(std::move(column)));
    return out;
}

py::dict metrics_dict(SampleMetrics&& m) {
    py::dict out;
    out["rig_total_cost"] = owned_array(std::move(m.rig_total_cost));
    out["rig_npv_cost"] = owned_array(std::move(m.rig_npv_cost));
    out["cloud_total_cost"] = arrays(std::move(m.cloud_total_cost));
    out["npv_savings"] = arrays(std::move(m.npv_savings));
    out["payback_months"] = arrays(std::move(m.payback_months));
    out["discounted_payback_months"] = arrays(std::move(m.discounted_payback_months));
    return out;
}

// The same fields as `payback montecarlo --json`, with the per-sample arrays besides.
py::dict montecarlo_dict(MonteCarloResult&& r) {
    py::list summaries;
    for (const MetricSummary& m : r.summaries) {
        const Summary& s = m.summary;
        py::dict d;
        d["metric"] = m.metric;
        d["option"] = m.option;
        d["mean"] = number_or_none(s.mean);
        d["sd"] = number_or_none(s.sd);
        d["standard_error"] = number_or_none(s.standard_error);
        d["p10"] = number_or_none(s.p10);
        d["p50"] = number_or_none(s.p50);
        d["p90"] = number_or_none(s.p90);
        d["min"] = number_or_none(s.min);
        d["max"] = number_or_none(s.max);
        d["count"] = s.count;
        d["share_defined"] = m.share_defined;
        d["histogram"] = py::dict(py::arg("edges") = m.histogram.edges, py::arg("counts") = m.histogram.counts);
        summaries.append(d);
    }
    py::dict wins;
    for (std::size_t c = 0; c < r.probability_build_wins.size(); ++c)  // none without npv_savings
        wins[py::str(r.clouds[c])] = r.probability_build_wins[c];
    py::dict out;
    out["keys"] = r.keys;
    out["clouds"] = r.clouds;
    const auto width = static_cast<std::size_t>(r.inputs.inputs);
    out["inputs"] = owned_array(std::move(r.inputs.values), width);
    out["metrics"] = metrics_dict(std::move(r.metrics));
    out["summaries"] = summaries;
    out["probability_build_wins"] = wins;
    out["path"] = r.path_note;
    out["seconds"] = r.seconds;
    return out;
}

py::dict sweep_dict(SweepResult&& r) {
    py::list axes;
    for (std::size_t a = 0; a < r.axes.size(); ++a)
        axes.append(py::dict(py::arg("key") = r.axes[a].key, py::arg("low") = r.axes[a].low,
                             py::arg("high") = r.axes[a].high, py::arg("step") = r.axes[a].step,
                             py::arg("values") = owned_array(std::move(r.values[a]))));
    py::list contours;
    for (const ContourLine& line : r.contours) {
        py::list polylines;
        for (const auto& polyline : line.polylines) {
            std::vector<double> xy;
            for (const auto& [x, y] : polyline) {
                xy.push_back(x);
                xy.push_back(y);
            }
            polylines.append(owned_array(std::move(xy), 2));
        }
        contours.append(py::dict(py::arg("cloud") = line.cloud, py::arg("polylines") = polylines));
    }
    py::dict out;
    out["axes"] = axes;
    out["clouds"] = r.clouds;
    out["metrics"] = metrics_dict(std::move(r.metrics));
    out["contours"] = contours;
    out["path"] = r.path_note;
    return out;
}

std::vector<SweepAxis> axes_of(const std::vector<std::tuple<std::string, double, double, double>>& axes) {
    std::vector<SweepAxis> out;
    for (const auto& [key, low, high, step] : axes) out.push_back({key, low, high, step});
    return out;
}

SampleMetrics joined(const std::vector<const SampleMetrics*>& parts) {
    SampleMetrics out;
    out.resize(parts.empty() ? 0 : parts.front()->npv_savings.size(), 0);
    for (const SampleMetrics* part : parts) {
        if (part->npv_savings.size() != out.npv_savings.size())
            throw std::invalid_argument("join: the parts compare with different numbers of cloud options");
        std::vector<const std::vector<double>*> from;
        each_vector(*part, [&](const std::vector<double>& v) { from.push_back(&v); });
        std::size_t i = 0;
        each_vector(out, [&](std::vector<double>& v) {
            v.insert(v.end(), from[i]->begin(), from[i]->end());
            ++i;
        });
    }
    return out;
}

}  // namespace

void bind_whatif(py::module_& m) {
    m.def(
        "breakeven",
        [](const Scenario& s, const std::string& key, std::optional<std::pair<double, double>> range,
           std::optional<std::string> against) {
            BreakevenQuery query{key, range, std::move(against)};
            BreakevenResult r;
            {
                py::gil_scoped_release release;
                r = breakeven(s, query);
            }
            py::dict out;
            out["key"] = r.key;
            out["value"] = r.value ? py::object(py::float_(*r.value)) : py::object(py::none());
            out["range"] = py::make_tuple(r.range.first, r.range.second);
            out["metric"] = r.metric;
            out["against"] = r.against;
            out["current"] = r.current;
            out["npv_savings_at_range"] = py::make_tuple(r.savings_at_low, r.savings_at_high);
            out["more_roots"] = r.more_roots;
            out["message"] = r.message;
            return out;
        },
        py::arg("scenario"), py::arg("key"), py::arg("range") = py::none(), py::arg("against") = py::none());

    py::class_<SampleMetrics>(m, "SampleMetrics", "Per-row metrics of a plan's rows (or of a part of them)")
        .def_property_readonly("rows", [](const SampleMetrics& s) { return s.rig_total_cost.size(); })
        .def_static(
            "join",
            [](const py::list& parts) {
                std::vector<const SampleMetrics*> each;
                for (const py::handle part : parts) each.push_back(&part.cast<const SampleMetrics&>());
                return joined(each);
            },
            "The parts' rows one after another, in the order given")
        .def(py::pickle(
            [](const SampleMetrics& s) {
                py::list vectors;
                each_vector(s, [&](const std::vector<double>& v) { vectors.append(bytes_of(v)); });
                return py::make_tuple(s.npv_savings.size(), vectors);
            },
            [](const py::tuple& state) {
                SampleMetrics s;
                s.resize(state[0].cast<std::size_t>(), 0);
                const auto vectors = state[1].cast<py::list>();
                std::size_t i = 0;
                each_vector(s, [&](std::vector<double>& v) { v = doubles_of(vectors[i++].cast<py::bytes>()); });
                return s;
            }));

    py::class_<SampleModel>(m, "SampleModel", "The batch model of a plan, verified (sample_model.hpp)")
        .def_property_readonly("cloud_names", &SampleModel::cloud_names)
        .def_property_readonly("path_note", &SampleModel::path_note)
        .def_property_readonly("fast", &SampleModel::fast)
        .def(
            "evaluate",
            [](const SampleModel& model, const SamplePlan& plan, int threads) {
                std::atomic<bool> stop{false};
                const EvaluationOptions options = interruptible(threads, stop);
                py::gil_scoped_release release;
                return model.evaluate(plan.rows.values, options);
            },
            py::arg("plan"), py::arg("threads") = 0);

    py::class_<SamplePlan>(m, "SamplePlan", "The rows of a batch run and how its model is set up (sample_plan.hpp)")
        .def_readonly("keys", &SamplePlan::keys)
        .def_readonly("probes", &SamplePlan::probes)
        .def_readonly("checks", &SamplePlan::checks)
        .def_property_readonly("rows", [](const SamplePlan& p) { return p.rows.samples; })
        .def("part", &SamplePlan::part, py::arg("first"), py::arg("count"))
        .def(
            "model", [](const SamplePlan& p, const Scenario& s) { return p.model(s); }, py::arg("scenario"),
            py::call_guard<py::gil_scoped_release>())
        .def(py::pickle(
            [](const SamplePlan& p) {
                return py::make_tuple(p.keys, p.probes, p.checks, p.rows.samples, p.rows.inputs, bytes_of(p.rows.values));
            },
            [](const py::tuple& state) {
                SamplePlan p;
                p.keys = state[0].cast<std::vector<std::string>>();
                p.probes = state[1].cast<std::vector<double>>();
                p.checks = state[2].cast<std::vector<double>>();
                p.rows.samples = state[3].cast<int>();
                p.rows.inputs = state[4].cast<int>();
                p.rows.values = doubles_of(state[5].cast<py::bytes>());
                return p;
            }));

    const auto options_of = [](int samples, std::uint64_t seed, bool lhs, int bins) {
        MonteCarloOptions options;
        options.samples = samples;
        options.seed = seed;
        options.method = lhs ? SamplingMethod::latin_hypercube : SamplingMethod::monte_carlo;
        options.histogram_bins = bins;
        return options;
    };
    m.def(
        "montecarlo",
        [options_of](const Scenario& s, int samples, std::uint64_t seed, bool lhs, int bins, int threads) {
            MonteCarloOptions options = options_of(samples, seed, lhs, bins);
            std::atomic<bool> stop{false};
            options.evaluation = interruptible(threads, stop);
            MonteCarloResult r;
            {
                py::gil_scoped_release release;
                r = montecarlo(s, options);
            }
            return montecarlo_dict(std::move(r));
        },
        py::arg("scenario"), py::arg("samples"), py::arg("seed"), py::arg("lhs"), py::arg("bins"), py::arg("threads"));
    m.def(
        "montecarlo_plan",
        [options_of](const Scenario& s, int samples, std::uint64_t seed, bool lhs) {
            return montecarlo_plan(s, options_of(samples, seed, lhs, 1));
        },
        py::arg("scenario"), py::arg("samples"), py::arg("seed"), py::arg("lhs"),
        py::call_guard<py::gil_scoped_release>());
    m.def(
        "montecarlo_result",
        [options_of](const Scenario& s, const SamplePlan& plan, const SampleModel& model, const SampleMetrics& metrics,
                     int bins, double seconds) {
            MonteCarloResult r;
            {
                py::gil_scoped_release release;
                r = montecarlo_result(s, plan, model, metrics, options_of(plan.rows.samples, 0, false, bins), seconds);
            }
            return montecarlo_dict(std::move(r));
        },
        py::arg("scenario"), py::arg("plan"), py::arg("model"), py::arg("metrics"), py::arg("bins"), py::arg("seconds"));

    using Axes = std::vector<std::tuple<std::string, double, double, double>>;
    m.def(
        "parse_axis",
        [](const std::string& text) {
            const SweepAxis a = parse_axis(text);
            return std::make_tuple(a.key, a.low, a.high, a.step);
        },
        py::arg("text"));
    m.def(
        "sweep",
        [](const Scenario& s, const Axes& axes, int threads) {
            std::atomic<bool> stop{false};
            const EvaluationOptions options = interruptible(threads, stop);
            SweepResult r;
            {
                py::gil_scoped_release release;
                r = sweep(s, axes_of(axes), options);
            }
            return sweep_dict(std::move(r));
        },
        py::arg("scenario"), py::arg("axes"), py::arg("threads"));
    m.def(
        "sweep_plan", [](const Scenario& s, const Axes& axes) { return sweep_plan(s, axes_of(axes)); },
        py::arg("scenario"), py::arg("axes"), py::call_guard<py::gil_scoped_release>());
    m.def(
        "sweep_result",
        [](const Axes& axes, const SampleModel& model, const SampleMetrics& metrics) {
            SweepResult r;
            {
                py::gil_scoped_release release;
                r = sweep_result(axes_of(axes), model, metrics);
            }
            return sweep_dict(std::move(r));
        },
        py::arg("axes"), py::arg("model"), py::arg("metrics"));
    m.def(
        "against_index",
        [](const Scenario& s, const std::optional<std::string>& name) { return against_index(s, name); },
        py::arg("scenario"), py::arg("name") = py::none(), py::call_guard<py::gil_scoped_release>());

    m.def(
        "tornado",
        [](const Scenario& s, const std::vector<std::string>& inputs, std::optional<std::string> against,
           double swing, int samples, std::uint64_t seed) {
            TornadoOptions options;
            for (const auto& text : inputs) options.inputs.push_back(parse_tornado_input(text));
            options.against = std::move(against);
            options.relative_swing = swing;
            options.samples = samples;
            options.seed = seed;
            TornadoResult r;
            {
                py::gil_scoped_release release;
                r = tornado(s, options);
            }
            py::list bars;
            for (const TornadoBar& b : r.bars)
                bars.append(py::dict(py::arg("key") = b.key, py::arg("current") = b.current,
                                     py::arg("low") = b.low_value, py::arg("high") = b.high_value,
                                     py::arg("npv_savings_at_low") = number_or_none(b.metric_at_low),
                                     py::arg("npv_savings_at_high") = number_or_none(b.metric_at_high),
                                     py::arg("swing") = number_or_none(b.swing), py::arg("from") = b.source));
            py::object global = py::none();
            if (r.samples > 0) {
                py::list ranking;
                for (const GlobalRank& g : r.global)
                    ranking.append(py::dict(py::arg("key") = g.key, py::arg("rho") = number_or_none(g.rho)));
                global = py::dict(py::arg("method") = "spearman", py::arg("samples") = r.samples,
                                  py::arg("seed") = r.seed, py::arg("path") = r.global_path_note,
                                  py::arg("ranking") = ranking);
            }
            return py::dict(py::arg("metric") = r.metric, py::arg("against") = r.against,
                            py::arg("base") = number_or_none(r.base), py::arg("bars") = bars,
                            py::arg("global") = global, py::arg("path") = r.path_note);
        },
        py::arg("scenario"), py::arg("inputs"), py::arg("against"), py::arg("swing"), py::arg("samples"),
        py::arg("seed"));
}

}  // namespace payback::python
