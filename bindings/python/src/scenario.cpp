// payback._core.scenario: scenarios (from a file or from text, with overrides) and the key table.
#include <utility>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "convert.hpp"
#include "payback/base/units.hpp"
#include "payback/scenario/keys.hpp"
#include "payback/scenario/price_choice.hpp"
#include "payback/scenario/scenario.hpp"

namespace payback::python {

namespace {

using Overrides = std::vector<std::pair<std::string, std::string>>;

std::vector<Override> overrides_of(const Overrides& pairs) {
    std::vector<Override> out;
    for (const auto& [key, value] : pairs) out.push_back({key, value});
    return out;
}

}  // namespace

void bind_scenario(py::module_& m) {
    py::class_<Scenario, std::shared_ptr<Scenario>>(m, "Scenario", "A validated scenario (C++ payback::Scenario)")
        .def_readonly("source", &Scenario::source)
        .def_readonly("name", &Scenario::name)
        .def_readonly("currency", &Scenario::currency)
        .def_readonly("horizon_months", &Scenario::horizon_months)
        .def_readonly("discount_rate", &Scenario::discount_rate)
        .def_readonly("inflation", &Scenario::inflation)
        .def_property_readonly("perspective", [](const Scenario& s) { return to_string(s.perspective); })
        .def_property_readonly("gpu_hours_per_month", [](const Scenario& s) { return units::in_hours(s.training_per_month); })
        .def_property_readonly("rig_name", [](const Scenario& s) { return s.rig.name; })
        .def_property_readonly("cloud_names",
                               [](const Scenario& s) {
                                   std::vector<std::string> names;
                                   for (const auto& c : s.clouds) names.push_back(c.name);
                                   return names;
                               })
        .def_property_readonly("uncertain_keys",
                               [](const Scenario& s) {
                                   std::vector<std::string> keys;
                                   for (const auto& input : s.uncertainty.inputs) keys.push_back(input.key);
                                   return keys;
                               })
        .def("to_toml", [](const Scenario& s) { return to_toml(s); });

    // as_of and db as --as-of and --db take them (choose_prices), "" for none.
    m.def(
        "load_scenario",
        [](const std::string& path, const Overrides& overrides, const std::string& as_of, const std::string& db) {
            return std::make_shared<Scenario>(load_scenario(path, overrides_of(overrides), choose_prices(as_of, db)));
        },
        py::arg("path"), py::arg("overrides"), py::arg("as_of") = "", py::arg("db") = "",
        py::call_guard<py::gil_scoped_release>());
    m.def(
        "parse_scenario",
        [](const std::string& text, const std::string& source, const Overrides& overrides, const std::string& as_of,
           const std::string& db) {
            return std::make_shared<Scenario>(
                parse_scenario(text, source, overrides_of(overrides), choose_prices(as_of, db)));
        },
        py::arg("text"), py::arg("source"), py::arg("overrides"), py::arg("as_of") = "", py::arg("db") = "",
        py::call_guard<py::gil_scoped_release>());
    m.def(
        "reparse_scenario",
        [](const Scenario& like, const std::string& text, const std::string& source, const Overrides& overrides) {
            return std::make_shared<Scenario>(parse_scenario(text, source, overrides_of(overrides), like.prices));
        },
        py::arg("like"), py::arg("text"), py::arg("source"), py::arg("overrides"),
        py::call_guard<py::gil_scoped_release>(),
        "The text parsed with `like`'s prices: the same catalogs, history and date, read again from nothing");

    m.def("scenario_keys", [] {
        py::list rows;
        for (const ScenarioKey& k : scenario_keys())
            rows.append(py::dict(py::arg("key") = k.path, py::arg("type") = to_string(k.type),
                                 py::arg("unit") = k.unit, py::arg("range") = range_in_words(k),
                                 py::arg("default") = default_in_words(k), py::arg("applies_to") = k.options,
                                 py::arg("help") = k.help));
        return rows;
    }, "Every scenario key (the key table, docs/keys.md), one dict each");
}

}  // namespace payback::python
