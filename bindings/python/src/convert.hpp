// Conversions shared by the binding files: NumPy arrays that own the vectors they view (no copy),
// and nlohmann::json values as Python objects. Only the bindings include this (pybind11 is heavy).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

namespace payback::python {

namespace py = pybind11;

/// A NumPy array viewing `values` without copying; a capsule owns the moved vector and frees it
/// with the array. Two dimensions when `columns` > 0: rows × columns, row-major.
template <typename T>
py::array_t<T> owned_array(std::vector<T>&& values, std::size_t columns = 0) {
    auto* heap = new std::vector<T>(std::move(values));
    py::capsule owner(heap, [](void* p) { delete static_cast<std::vector<T>*>(p); });
    if (columns == 0) return py::array_t<T>({heap->size()}, {sizeof(T)}, heap->data(), owner);
    return py::array_t<T>({heap->size() / columns, columns}, {columns * sizeof(T), sizeof(T)}, heap->data(), owner);
}

/// An absent value as None: a DataFrame column of them becomes float with NaN, or object where needed.
template <typename T>
py::object maybe(const std::optional<T>& v) {
    return v ? py::cast(*v) : py::object(py::none());
}

/// JSON as dicts, lists, str, int, float, bool and None.
py::object to_python(const nlohmann::json& value);

// Each fills one submodule of payback._core (a file each).
void bind_scenario(py::module_& m);
void bind_model(py::module_& m);
void bind_whatif(py::module_& m);
void bind_market(py::module_& m);
void bind_workload(py::module_& m);

}  // namespace payback::python
