// payback._core.workload: the benchmark (payback::bench: training, gpt-small, llm-decode) and calibration profiles.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "convert.hpp"
#include "payback/bench/bench_plan.hpp"
#include "payback/bench/cuda_trainer.hpp"
#include "payback/bench/measure.hpp"
#include "payback/market/catalog.hpp"
#include "payback/report/prediction_json.hpp"
#include "payback/workload/calibration.hpp"
#include "payback/workload/device_comparison.hpp"
#include "payback/workload/model_catalog.hpp"
#include "payback/workload/network.hpp"
#include "payback/workload/predictor.hpp"

namespace payback::python {

namespace {

// pricing/models.csv's rows, each with the file's columns (payback catalog models --json).
py::list models(const ModelCatalog& catalog) {
    py::list rows;
    for (const ModelSpec& s : catalog.models()) {
        py::dict r;
        r["name"] = s.name;
        r["kind"] = s.kind == ModelKind::llm ? "llm" : "train";
        r["parameters"] = s.parameters;
        r["active_parameters"] = maybe(s.active_parameters);
        r["expert_parameters"] = maybe(s.expert_parameters);
        r["experts"] = maybe(s.experts);
        r["active_experts"] = maybe(s.active_experts);
        r["layers"] = maybe(s.layers);
        r["d_model"] = maybe(s.d_model);
        r["heads"] = maybe(s.heads);
        r["kv_heads"] = maybe(s.kv_heads);
        r["head_dim"] = maybe(s.head_dim);
        r["ffn"] = maybe(s.ffn);
        r["vocabulary"] = maybe(s.vocabulary);
        r["tied_embeddings"] = s.tied_embeddings;
        r["context"] = maybe(s.context);
        r["attention_window"] = maybe(s.attention_window);
        r["window_layers"] = maybe(s.window_layers);
        r["sequence"] = maybe(s.sequence);
        r["flops_per_sample"] = maybe(s.flops_per_sample);
        r["flops_per_token"] = maybe(s.flops_per_token);
        r["as_of"] = s.as_of;
        r["source"] = s.source;
        rows.append(r);
    }
    return rows;
}

}  // namespace

void bind_workload(py::module_& m) {
    m.def(
        "models",
        [](const std::string& directory) {
            if (directory.empty()) return models(ModelCatalog::shipped());
            ModelCatalog loaded;
            {
                py::gil_scoped_release release;
                loaded = ModelCatalog::load(directory);
            }
            return models(loaded);
        },
        py::arg("directory") = "");
    py::class_<bench::BenchRequest>(m, "BenchRequest", "The options of `payback bench`, each named after its flag")
        .def(py::init<>())
        .def_readwrite("device", &bench::BenchRequest::device)
        .def_readwrite("workload", &bench::BenchRequest::workload)
        .def_readwrite("batches", &bench::BenchRequest::batches)
        .def_readwrite("threads", &bench::BenchRequest::threads)
        .def_readwrite("repeats", &bench::BenchRequest::repeats)
        .def_readwrite("seconds", &bench::BenchRequest::seconds)
        .def_readwrite("data_file", &bench::BenchRequest::data_file)
        .def_readwrite("precision", &bench::BenchRequest::precision)
        .def_readwrite("quant", &bench::BenchRequest::quant)
        .def_readwrite("context", &bench::BenchRequest::context)
        .def_readwrite("llm", &bench::BenchRequest::llm);
    m.def("workload_names", &workload_names);
    m.def("cuda_status", [] {
        const bench::CudaStatus s = bench::cuda_status();
        return py::dict(py::arg("available") = s.available, py::arg("reason") = s.reason,
                        py::arg("device_name") = s.device_name);
    });
    // One profile: the runs `payback bench` would measure with these options, in turn, and the devices
    // skipped with why; the options are checked by the same plan, so bad ones raise the CLI's message.
    m.def(
        "bench",
        [](const bench::BenchRequest& request, const std::vector<std::pair<std::string, std::string>>& software) {
            const bench::BenchPlan plan = bench::plan_benchmark(request, bench::cuda_status());
            CalibrationProfile profile;
            {
                py::gil_scoped_release release;
                profile.date = utc_timestamp();
                profile.software = software;
                for (const bench::BenchConfig& config : plan.runs)
                    profile.results.push_back(bench::run_benchmark(config));
            }
            py::list skipped;
            for (const bench::SkippedDevice& s : plan.skipped)
                skipped.append(py::dict(py::arg("device") = s.device, py::arg("reason") = s.reason));
            return py::make_tuple(to_json(profile), skipped);
        },
        py::arg("request"), py::arg("software"));
    // `payback predict`: the prediction as its --json prints it.
    m.def(
        "predict",
        [](const std::string& device, const std::string& workload, const std::string& precision,
           const std::string& quant, const std::string& phase, int batch, std::optional<int> context,
           const std::string& profile, int gpus) {
            const PredictRequest request{device, workload, precision, quant, phase, batch, context, gpus};
            const std::optional<CalibrationProfile> from = read_profile_if_given(profile);
            return prediction_json(predict_with(request, from ? &*from : nullptr, Catalog::shipped(),
                                                ModelCatalog::shipped()))
                .dump();
        },
        py::arg("device"), py::arg("workload"), py::arg("precision"), py::arg("quant"), py::arg("phase"),
        py::arg("batch"), py::arg("context"), py::arg("profile"), py::arg("gpus"), py::call_guard<py::gil_scoped_release>());
    // `payback predict --device all|A,B --json`, each prediction with its launch_price_usd (null without one):
    // {"predictions": [...], "skipped": [{"device", "reason"}]}.
    m.def(
        "compare_devices",
        [](const std::vector<std::string>& devices, const std::string& workload, const std::string& precision,
           const std::string& quant, const std::string& phase, int batch, std::optional<int> context,
           const std::string& profile, int gpus) {
            const PredictRequest request{"", workload, precision, quant, phase, batch, context, gpus};
            const std::optional<CalibrationProfile> from = read_profile_if_given(profile);
            const DeviceComparison c = compare_devices(request, devices, from ? &*from : nullptr, Catalog::shipped(),
                                                       ModelCatalog::shipped());
            nlohmann::ordered_json out{{"predictions", nlohmann::ordered_json::array()},
                                       {"skipped", nlohmann::ordered_json::array()}};
            for (const Prediction& p : c.predictions) {
                nlohmann::ordered_json j = prediction_json(p);
                const std::optional<double> price = launch_price_usd(p, Catalog::shipped());
                j["launch_price_usd"] = price ? nlohmann::ordered_json(*price) : nlohmann::ordered_json(nullptr);
                out["predictions"].push_back(std::move(j));
            }
            for (const auto& [device, reason] : c.skipped) out["skipped"].push_back({{"device", device}, {"reason", reason}});
            return out.dump();
        },
        py::arg("devices"), py::arg("workload"), py::arg("precision"), py::arg("quant"), py::arg("phase"),
        py::arg("batch"), py::arg("context"), py::arg("profile"), py::arg("gpus"), py::call_guard<py::gil_scoped_release>());
    m.def(
        "read_profile", [](const std::string& path) { return to_json(read_profile(path)); }, py::arg("path"),
        py::call_guard<py::gil_scoped_release>());
}

}  // namespace payback::python
