// silybench-data's price files (github.com/tgarg01/silybench-data, prices/): api.yaml lists API
// prices per model and provider in USD per million tokens (into the API price catalog);
// gpu_hourly.yaml lists GPU rental prices in USD per GPU-hour (into the instance catalog, one row per
// provider and product, region "any", the machine's price = per GPU x its GPUs). Each offer's own
// date (fetched_at, checked_at) is when its price held, else the file's date.
#include <map>

#include <fmt/format.h>

#include "market/import/importers.hpp"
#include "market/import/yaml_records.hpp"
#include "base/number_text.hpp"

namespace payback::detail {

namespace {

struct Offer {
    const PriceFile& file;
    const YamlRecord& record;

    std::string text(const std::string& key) const {
        const auto at = record.fields.find(key);
        return at == record.fields.end() || !at->second ? "" : *at->second;
    }
    std::string required(const std::string& key) const {
        std::string value = text(key);
        if (value.empty()) throw InputError(file.path, record.line_of(key), key, "required, missing");
        return value;
    }
    std::optional<double> number(const std::string& key) const {
        const std::string value = text(key);
        if (value.empty()) return std::nullopt;
        const auto parsed = number_from_text(value);
        if (!parsed || *parsed < 0)
            throw InputError(file.path, record.line_of(key), key, "expected a number of zero or more, got \"" + value + "\"");
        return parsed;
    }
    std::string date(const std::string& key, const std::string& fallback) const {
        const std::string value = text(key);
        return value.empty() ? fallback : checked_date(value, file.path, record.line_of(key), key);
    }
};

void set_catalog(ImportResult& result, PriceCatalog catalog, const PriceFile& file) {
    if (!result.rows.empty() && result.catalog != catalog)
        throw InputError(file.path, 0, "", "API prices and GPU-hour prices go to different catalogs: import them separately");
    result.catalog = catalog;
}

}  // namespace

void import_silybench(const PriceFile& file, const ImportContext& context, ImportResult& result) {
    const YamlRecords yaml = parse_yaml_records(file);
    if (yaml.list_key != "offers") throw InputError(file.path, 1, "offers", "expected a list of offers");
    const auto top = [&](const std::string& key) {
        const auto at = yaml.top.find(key);
        return at == yaml.top.end() || !at->second ? std::string() : *at->second;
    };
    const bool api = yaml.records.empty() || yaml.records.front().fields.count("model");
    set_catalog(result, api ? PriceCatalog::api_prices : PriceCatalog::instances, file);
    const std::string file_date_key = api ? "generated_at" : "refreshed_at";
    const std::string file_date = top(file_date_key).empty() ? context.options.as_of
                                                             : checked_date(top(file_date_key), file.path, 0, file_date_key);
    const std::string fallback_source = source_option(context, file.path);
    std::map<std::pair<std::string, std::string>, InstanceRow> machines;  // (provider, product)
    std::vector<std::pair<std::string, std::string>> order;
    for (const YamlRecord& record : yaml.records) {
        const Offer offer{file, record};
        const std::string as_of = offer.date(api ? "fetched_at" : "checked_at", file_date);
        if (as_of.empty()) as_of_option(context, file.path);  // says what is missing
        const std::string source = offer.text("source").empty() ? fallback_source : offer.text("source");
        const std::string provider = offer.required("provider");
        if (api) {
            const std::optional<double> input = offer.number("usd_per_1m_input"), output = offer.number("usd_per_1m_output");
            if (!input || !output) throw InputError(file.path, record.line, "usd_per_1m_input", "an input and an output price are required");
            const std::optional<double> context_length = offer.number("context_length");
            result.rows.push_back({provider, offer.required("model"), price_text(*input), price_text(*output), "",
                                   context_length ? price_text(*context_length) : "", as_of, source});
            continue;
        }
        const std::string gpu_type = offer.required("gpu_type");
        const GpuAlias* alias = context.aliases.find("silybench", {gpu_type});
        if (!alias) {
            result.skipped.push_back({file.path, record.line, fmt::format("GPU \"{}\" has no alias to a gpus.csv name", gpu_type)});
            continue;
        }
        const std::optional<double> per_gpu = offer.number("usd_per_gpu_hour");
        if (!per_gpu) throw InputError(file.path, record.line, "usd_per_gpu_hour", "required, missing");
        const std::string provisioning = offer.required("provisioning");
        if (provisioning != "on-demand" && provisioning != "spot")
            throw InputError(file.path, record.line_of("provisioning"), "provisioning",
                             "expected on-demand or spot, got \"" + provisioning + "\"");
        const int gpus = static_cast<int>(offer.number("min_gpus").value_or(1));
        const std::string product = offer.text("product").empty() ? gpu_type : offer.text("product");
        const auto key = std::make_pair(provider, product + (gpus > 1 ? fmt::format(" x{}", gpus) : ""));
        auto [at, added] = machines.try_emplace(key);
        InstanceRow& row = at->second;
        if (added) {
            order.push_back(key);
            row = InstanceRow{provider, key.second, "any", alias->gpu, gpus, {}, {}, {}, {}, {}, {}, {}, as_of, source};
        }
        std::optional<double>& price = provisioning == "spot" ? row.spot : row.on_demand;
        if (price) {
            result.skipped.push_back({file.path, record.line, fmt::format("a second {} price for {} at {}", provisioning, key.second, provider)});
            continue;
        }
        price = *per_gpu * gpus;
        row.as_of = std::max(row.as_of, as_of);
    }
    for (const auto& key : order) result.rows.push_back(machines[key].cells());
}

}  // namespace payback::detail
