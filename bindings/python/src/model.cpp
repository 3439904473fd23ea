// payback._core.model: compare (the CLI's JSON of a comparison and each option's cash flows), the
// cash-flow line items and the metric table.
#include <string>
#include <utility>
#include <vector>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "convert.hpp"
#include "payback/market/price_dates.hpp"
#include "payback/model/comparison.hpp"
#include "payback/model/metric_table.hpp"
#include "payback/scenario/price_choice.hpp"
#include "payback/report/report_json.hpp"  // the CLI's JSON of a comparison

namespace payback::python {

namespace {

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

void bind_model(py::module_& m) {
    m.def("line_item_names", &CashFlows::line_item_names, "The cash-flow columns that add up to net");
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
            nlohmann::json report = comparison_json(s, c);
            // How old the prices are, as `payback compare --json` says at its default --max-age of 90 days.
            const PriceAge age = price_age_of(s, 90);
            report["prices_as_of"] = age.prices_as_of ? nlohmann::json(*age.prices_as_of) : nlohmann::json(nullptr);
            report["stale"] = age.stale;
            out["report"] = to_python(report);
            out["cashflows"] = tables;
            return out;
        },
        py::arg("scenario"));
}

}  // namespace payback::python
