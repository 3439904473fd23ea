// payback._core.workload: the training benchmark (payback::bench) and calibration profiles.
#include <algorithm>
#include <thread>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "convert.hpp"
#include "payback/bench/cuda_trainer.hpp"
#include "payback/bench/measure.hpp"
#include "payback/market/catalog.hpp"
#include "payback/report/prediction_json.hpp"
#include "payback/workload/calibration.hpp"
#include "payback/workload/network.hpp"
#include "payback/workload/predictor.hpp"

namespace payback::python {

void bind_workload(py::module_& m) {
    m.def("workload_names", &workload_names);
    m.def("cuda_status", [] {
        const bench::CudaStatus s = bench::cuda_status();
        return py::dict(py::arg("available") = s.available, py::arg("reason") = s.reason,
                        py::arg("device_name") = s.device_name);
    });
    // One profile: every (device, workload, batch) measured in turn, as `payback bench` does.
    m.def(
        "bench",
        [](const std::vector<std::string>& devices, const std::vector<std::string>& workloads,
           const std::vector<int>& batches, int threads, int repeats, double seconds, const std::string& data_file,
           const std::vector<std::pair<std::string, std::string>>& software) {
            for (const auto& w : workloads) (void)find_workload(w);  // unknown names fail before any work
            CalibrationProfile profile;
            {
                py::gil_scoped_release release;
                profile.date = utc_timestamp();
                profile.software = software;
                if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
                for (const auto& device : devices)
                    for (const auto& workload : workloads)
                        for (const int batch : batches) {
                            bench::BenchConfig config;
                            config.device = device;
                            config.workload = workload;
                            config.batch = batch;
                            config.threads = threads;
                            config.repeats = repeats;
                            config.seconds_per_repeat = seconds;
                            config.data_file = data_file;
                            profile.results.push_back(bench::run_benchmark(config));
                        }
            }
            return to_json(profile);
        },
        py::arg("devices"), py::arg("workloads"), py::arg("batches"), py::arg("threads"), py::arg("repeats"),
        py::arg("seconds"), py::arg("data_file"), py::arg("software"));
    // `payback predict`: the prediction as its --json prints it.
    m.def(
        "predict",
        [](const std::string& device, const std::string& workload, const std::string& precision,
           const std::string& quant, const std::string& phase, int batch, std::optional<int> context,
           const std::string& profile) {
            const PredictRequest request{device, workload, precision, quant, phase, batch, context};
            const Prediction p = profile.empty() ? predict(request, Catalog::shipped(), ModelCatalog::shipped())
                                                 : predict_from_profile(request, read_profile(profile),
                                                                        Catalog::shipped(), ModelCatalog::shipped());
            return prediction_json(p).dump();
        },
        py::arg("device"), py::arg("workload"), py::arg("precision"), py::arg("quant"), py::arg("phase"),
        py::arg("batch"), py::arg("context"), py::arg("profile"), py::call_guard<py::gil_scoped_release>());
    m.def(
        "read_profile", [](const std::string& path) { return to_json(read_profile(path)); }, py::arg("path"),
        py::call_guard<py::gil_scoped_release>());
}

}  // namespace payback::python
