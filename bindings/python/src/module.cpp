// payback._core: the C++ library as a private Python module, one submodule per layer of the library
// it binds (scenario, model, whatif, market, workload; a file each here, a stub each in
// payback/_core/). The package `payback` (pure Python, beside this) shapes what it returns into
// DataFrames, results with HTML views and plots.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "convert.hpp"
#include "payback/base/data_directory.hpp"
#include "payback/base/error.hpp"
#include "payback/base/version.hpp"
#include "payback/report/option_names.hpp"
#include "payback/whatif/sample_model.hpp"

namespace payback::python {

py::object to_python(const nlohmann::json& value) {
    switch (value.type()) {
        case nlohmann::json::value_t::null: return py::none();
        case nlohmann::json::value_t::boolean: return py::bool_(value.get<bool>());
        case nlohmann::json::value_t::number_integer: return py::int_(value.get<std::int64_t>());
        case nlohmann::json::value_t::number_unsigned: return py::int_(value.get<std::uint64_t>());
        case nlohmann::json::value_t::number_float: return py::float_(value.get<double>());
        case nlohmann::json::value_t::string: return py::str(value.get_ref<const std::string&>());
        case nlohmann::json::value_t::array: {
            py::list out;
            for (const auto& item : value) out.append(to_python(item));
            return out;
        }
        case nlohmann::json::value_t::object: {
            py::dict out;
            for (const auto& [key, item] : value.items()) out[py::str(key)] = to_python(item);
            return out;
        }
        default: throw std::invalid_argument("to_python: a JSON value of an unexpected type");
    }
}

namespace {

// A submodule of payback._core, registered as imported under its full name, so that `import
// payback._core.whatif` works and pickle finds its classes by their __module__
// (payback._core.whatif.SamplePlan, in a Dask worker's process too).
py::module_ submodule(py::module_& parent, const char* name, const char* doc) {
    py::module_ sub = parent.def_submodule(name, doc);
    py::module_::import("sys").attr("modules")[sub.attr("__name__")] = sub;
    return sub;
}

// Where the shipped data is found (payback/base/data_directory.hpp), and the version: the
// package's own set-up, beside the submodules.
void bind_package(py::module_& m) {
    // The package registers its own data directory on import, the third place looked.
    m.def("set_package_data_directory",
          [](const std::string& directory) { set_package_data_directory(directory); }, py::arg("directory"));
    m.def(
        "data_directory",
        [](const std::string& which) {
            if (which != "pricing" && which != "scenarios")
                throw InputError("data_directory", 0, "", "expected pricing or scenarios, got \"" + which + "\"");
            const DataDirectory found =
                find_data_directory(which == "pricing" ? ShippedData::pricing : ShippedData::scenarios);
            return py::make_tuple(found.path.string(), found.reason);
        },
        py::arg("which"));
    m.def("version", [] { return std::string(payback::version()); });
}

}  // namespace

}  // namespace payback::python

PYBIND11_MODULE(_core, m) {
    namespace py = pybind11;
    using namespace payback::python;
    m.doc() = "payback's C++ library (private: use the package `payback`)";
    // payback::InputError becomes payback.InputError (defined in Python, so it pickles and
    // subclasses ValueError), carrying the file, line and key path.
    // pybind11 takes a function of std::exception_ptr by value.
    py::register_exception_translator([](std::exception_ptr thrown) {  // NOLINT(performance-unnecessary-value-param)
        try {
            if (thrown) std::rethrow_exception(thrown);
        } catch (const payback::InputError& thrown_error) {
            const payback::InputError e = payback::with_option_names(thrown_error);
            const py::object type = py::module_::import("payback.errors").attr("InputError");
            const py::object error = type(e.what(), e.source(), e.line(), e.key_path(), e.message());
            PyErr_SetObject(type.ptr(), error.ptr());
        } catch (const payback::Cancelled&) {
            PyErr_SetNone(PyExc_KeyboardInterrupt);
        }
    });
    bind_package(m);
    // Scenario first: the other submodules' signatures name it (payback._core.scenario.Scenario).
    py::module_ scenario = submodule(m, "scenario", "Scenarios: reading, overrides, the key table");
    bind_scenario(scenario);
    py::module_ model = submodule(m, "model", "The month model: compare, its cash flows, the metric table");
    bind_model(model);
    py::module_ whatif = submodule(m, "whatif", "What-if runs: break-even, Monte Carlo, sweeps, tornado charts");
    bind_whatif(whatif);
    py::module_ market = submodule(m, "market", "The pricing catalogs");
    bind_market(market);
    py::module_ workload = submodule(m, "workload", "The training benchmark and calibration profiles");
    bind_workload(workload);
}
