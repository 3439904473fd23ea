// payback._core.market: the pricing catalogs, each row with where it comes from.
#include <optional>

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "convert.hpp"
#include "payback/base/error.hpp"
#include "payback/base/data_directory.hpp"
#include "payback/market/catalog.hpp"
#include "payback/market/price_history.hpp"

namespace payback::python {

namespace {

void add_origin(py::dict& row, const RowOrigin& origin) {
    row["as_of"] = origin.as_of;
    row["source"] = origin.source;
    row["row"] = origin.describe();
}

py::list gpus(const Catalog& c) {
    py::list rows;
    for (const GpuSpec& g : c.gpus()) {
        py::dict r;
        r["name"] = g.name;
        r["vendor"] = g.vendor;
        r["release_date"] = g.release_date;
        r["launch_price_usd"] = maybe(g.launch_price_usd);
        r["board_power_watts"] = maybe(g.board_power_watts);
        r["memory_gb"] = maybe(g.memory_gb);
        r["memory_bandwidth_gb_s"] = maybe(g.memory_bandwidth_gb_s);
        r["fp32_tflops"] = maybe(g.fp32_tflops);
        r["fp16_tflops"] = maybe(g.fp16_tflops);
        r["tensor_fp16_tflops"] = maybe(g.tensor_fp16_tflops);
        r["tensor_fp32_accumulate"] =
            g.tensor_fp32_accumulate.empty() ? py::object(py::none()) : py::object(py::str(g.tensor_fp32_accumulate));
        r["nvlink_gb_s"] = maybe(g.nvlink_gb_s);
        r["resnet50_amp_img_s"] = maybe(g.resnet50_amp_img_s);
        r["architecture"] = g.architecture;
        r["unified_memory"] = g.unified_memory;
        add_origin(r, g.origin);
        rows.append(r);
    }
    return rows;
}

py::list instances(const Catalog& c) {
    py::list rows;
    for (const CloudInstance& i : c.instances()) {
        py::dict r;
        r["instance"] = i.key();
        r["provider"] = i.provider;
        r["region"] = i.region;
        r["gpu"] = i.gpu;
        r["gpu_count"] = i.gpu_count;
        r["gpu_memory_gb"] = maybe(i.gpu_memory_gb);
        r["vcpus"] = maybe(i.vcpus);
        r["ram_gb"] = maybe(i.ram_gb);
        r["on_demand_per_hour"] = maybe(i.on_demand_per_hour);
        r["spot_per_hour"] = maybe(i.spot_per_hour);
        r["reserved_1y_per_hour"] = maybe(i.reserved_1y_per_hour);
        r["reserved_3y_per_hour"] = maybe(i.reserved_3y_per_hour);
        r["billing_increment_seconds"] = maybe(i.billing_increment_seconds);
        r["billing_minimum_seconds"] = maybe(i.billing_minimum_seconds);
        r["currency"] = i.currency;
        add_origin(r, i.origin);
        rows.append(r);
    }
    return rows;
}

py::list parts(const Catalog& c) {
    py::list rows;
    for (const PartSpec& p : c.parts()) {
        py::dict r;
        r["kind"] = p.kind;
        r["name"] = p.name;
        r["price_usd"] = maybe(p.price_usd);
        r["price_date"] = p.price_date;
        r["idle_watts"] = maybe(p.idle_watts);
        r["load_watts"] = maybe(p.load_watts);
        r["pcie_lanes"] = maybe(p.pcie_lanes);
        r["psu_capacity_watts"] = maybe(p.psu_capacity_watts);
        add_origin(r, p.origin);
        rows.append(r);
    }
    return rows;
}

py::list rates(const Catalog& c) {
    py::list rows;
    for (const ElectricityRate& e : c.rates()) {
        py::dict r;
        r["region"] = e.region;
        r["name"] = e.name;
        r["price_per_kwh"] = e.price_per_kwh;
        r["currency"] = e.currency;
        r["year"] = e.year;
        add_origin(r, e.origin);
        rows.append(r);
    }
    return rows;
}

py::list rental(const Catalog& c) {
    py::list rows;
    for (const RentalMarket& m : c.rental_markets()) {
        py::dict r;
        r["market"] = m.market;
        r["gpu"] = m.gpu;
        r["host_price_per_hour"] = maybe(m.host_price_per_hour);
        r["platform_fee"] = maybe(m.platform_fee);
        r["occupancy"] = maybe(m.occupancy);
        r["occupancy_is_assumption"] = m.occupancy_is_assumption;
        r["currency"] = m.currency;
        add_origin(r, m.origin);
        rows.append(r);
    }
    return rows;
}

py::list api_prices(const Catalog& c) {
    py::list rows;
    for (const ApiPriceRow& p : c.api_prices()) {
        py::dict r;
        r["api"] = p.key();
        r["provider"] = p.provider;
        r["model"] = p.model;
        r["input"] = p.input_per_million;
        r["output"] = p.output_per_million;
        r["cached_input"] = maybe(p.cached_input_per_million);
        r["context"] = p.context_tokens ? py::cast(static_cast<long long>(*p.context_tokens)) : py::object(py::none());
        add_origin(r, p.origin);
        rows.append(r);
    }
    return rows;
}

}  // namespace

void bind_market(py::module_& m) {
    m.def(
        "catalog",
        [](const std::string& what, const std::string& directory) {
            const Catalog* shipped = nullptr;
            Catalog loaded;
            {
                py::gil_scoped_release release;
                if (directory.empty()) {
                    shipped = &Catalog::shipped();
                } else {
                    loaded = Catalog::load(directory);
                    shipped = &loaded;
                }
            }
            if (what == "gpus") return gpus(*shipped);
            if (what == "instances") return instances(*shipped);
            if (what == "parts") return parts(*shipped);
            if (what == "rates") return rates(*shipped);
            if (what == "rental") return rental(*shipped);
            if (what == "api-prices") return api_prices(*shipped);
            throw InputError("catalog", 0, "",
                             "expected gpus, instances, parts, rates, rental, api-prices or models, got \"" + what + "\"");
        },
        py::arg("what"), py::arg("directory") = "");
    m.def(
        "price_history",
        [](const std::string& kind, const std::string& provider, const std::string& item, const std::string& region,
           const std::string& mode, const std::string& db) {
            std::vector<DatedPrice> points;
            {
                py::gil_scoped_release release;
                const PriceHistory history =
                    PriceHistory::open(db.empty() ? default_price_history_path() : std::filesystem::path(db),
                                       find_data_directory(ShippedData::pricing).path);
                points = history.find({kind, provider, item, region, mode});
            }
            py::list rows;
            for (const DatedPrice& p : points) {
                py::dict r;
                r["as_of"] = p.as_of;
                r["price"] = p.price;
                r["currency"] = p.currency;
                r["kind"] = p.key.kind;
                r["provider"] = p.key.provider;
                r["item"] = p.key.item;
                r["region"] = p.key.region;
                r["mode"] = p.key.mode;
                r["import"] = p.import_format;
                r["source"] = p.source;
                rows.append(r);
            }
            return rows;
        },
        py::arg("kind"), py::arg("provider"), py::arg("item"), py::arg("region"), py::arg("mode"), py::arg("db"));
}

}  // namespace payback::python
