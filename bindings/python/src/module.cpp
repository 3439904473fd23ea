// payback._core: the C++ library as a private Python module. The package `payback` (pure Python,
// beside this) shapes what it returns into DataFrames, results with HTML views and plots.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "convert.hpp"
#include "payback/base/error.hpp"
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
    bind_scenario(m);
    bind_whatif(m);
    bind_data(m);
}
