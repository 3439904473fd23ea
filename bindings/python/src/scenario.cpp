// Scenarios (from a file or from text, with overrides), compare, cash flows and break-even.
#include <utility>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <utility>

#include "convert.hpp"
#include "payback/base/units.hpp"
#include "payback/model/comparison.hpp"
#include "payback/model/metric_table.hpp"
#include "payback/whatif/breakeven.hpp"
#include "payback/report/report_json.hpp"  // the CLI's JSON of a comparison
#include "payback/scenario/keys.hpp"

namespace payback::python {

namespace {

using Overrides = std::vector<std::pair<std::string, std::string>>;

std::vector<Override> overrides_of(const Overrides& pairs) {
    std::vector<Override> out;
    for (const auto& [key, value] : pairs) out.push_back({key, value});
    return out;
}

// One option's table: its columns as arrays, by name, in output order.
py::dict table(const CashFlows& t) {
    py::dict columns;
    for (const auto& name : CashFlows::column_names()) {
        std::vector<double> values(t.months());
        for (std::size_t r = 0; r < t.months(); ++r) values[r] = t.value(name, r);
        columns[py::str(name)] = owned_array(std::move(values));
    }
    py::dict by_part;
    for (const auto& part : t.capex_by_part) by_part[py::str(part.part)] = owned_array(std::vector<double>(part.capex));
    py::dict out;
    out["option"] = t.option;
    out["kind"] = to_string(t.kind);
    out["columns"] = columns;
    out["capex_by_part"] = by_part;
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

    m.def(
        "load_scenario",
        [](const std::string& path, const Overrides& overrides) {
            return std::make_shared<Scenario>(load_scenario(path, overrides_of(overrides)));
        },
        py::arg("path"), py::arg("overrides"), py::call_guard<py::gil_scoped_release>());
    m.def(
        "parse_scenario",
        [](const std::string& text, const std::string& source, const Overrides& overrides) {
            return std::make_shared<Scenario>(parse_scenario(text, source, overrides_of(overrides)));
        },
        py::arg("text"), py::arg("source"), py::arg("overrides"), py::call_guard<py::gil_scoped_release>());

    m.def("line_item_names", &CashFlows::line_item_names, "The cash-flow columns that add up to net");
    m.def("scenario_keys", [] {
        py::list rows;
        for (const ScenarioKey& k : scenario_keys())
            rows.append(py::dict(py::arg("key") = k.path, py::arg("type") = to_string(k.type),
                                 py::arg("unit") = k.unit, py::arg("range") = range_in_words(k),
                                 py::arg("default") = default_in_words(k), py::arg("applies_to") = k.options,
                                 py::arg("help") = k.help));
        return rows;
    }, "Every scenario key (the key table, docs/keys.md), one dict each");
    m.def(
        "metric_table",
        [] {
            py::list rows;
            for (const Metric& metric : metric_table()) {
                py::dict row;
                row["name"] = py::str(std::string(metric.name));
                row["unit"] = py::str(std::string(metric.unit));
                row["scope"] = py::str(std::string(to_string(metric.scope)));
                row["type"] = py::str(std::string(to_string(metric.type)));
                row["description"] = py::str(std::string(metric.description));
                row["csv"] = metric.csv;
                row["header"] = py::str(std::string(metric.header));
                row["decimals"] = metric.decimals;
                rows.append(row);
            }
            return rows;
        },
        "Every metric compare reports, in output order (lib/src/model/metric_table.cpp): name, unit, scope "
        "(option, pair or job), type, description, csv, header, decimals");
    m.def(
        "compare",
        [](const Scenario& s) {
            Comparison c;
            {
                py::gil_scoped_release release;
                c = compare(s);
            }
            py::list tables;
            for (const auto& t : c.cashflows) tables.append(table(t));
            py::dict out;
            out["report"] = to_python(comparison_json(s, c));
            out["cashflows"] = tables;
            return out;
        },
        py::arg("scenario"));

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
}

}  // namespace payback::python
