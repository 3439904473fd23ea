// The Azure Retail Prices API's JSON pages (https://prices.azure.com/api/retail/prices, documented at
// https://learn.microsoft.com/en-us/rest/api/cost-management/retail-prices/azure-retail-prices):
// {"Items": [{armSkuName, armRegionName, unitPrice, type, reservationTerm, meterName, productName,
// serviceName, unitOfMeasure, effectiveStartDate, ...}], ...}. Linux virtual machines only, one
// catalog row per SKU and region: on-demand from the Consumption meter, spot from the "Spot" one,
// reserved from the Reservation terms (priced for the whole term: divided by its hours).
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "market/import/importers.hpp"

namespace payback::detail {

namespace {

bool ends_with(const std::string& text, const std::string& tail) {
    return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

constexpr double hours_a_year = 365 * 24;

}  // namespace

void import_azure_retail(const PriceFile& file, const ImportContext& context, ImportResult& result) {
    const Json document = parse_json(file);
    if (!document.is_object() || !document.contains("Items") || !document["Items"].is_array())
        throw InputError(file.path, 1, "Items", "expected a Retail Prices API page: an object with an Items array");
    const Json& items = document["Items"];
    const std::vector<int> lines = json_child_lines(file.text, {"Items"});
    std::map<std::pair<std::string, std::string>, InstanceRow> rows;  // (SKU, region)
    std::vector<std::pair<std::string, std::string>> order;
    for (std::size_t i = 0; i < items.size(); ++i) {
        const Json& item = items[i];
        const int line = i < lines.size() ? lines[i] : 0;
        if (!item.is_object()) throw InputError(file.path, line, "Items", "expected an item object, got " + item.dump());
        const auto text = [&](const char* key) { return json_text(item, key, file.path, line).value_or(""); };
        const std::string sku = text("armSkuName"), region = text("armRegionName"), type = text("type");
        const std::string meter = text("meterName"), product = text("productName");
        const auto skip = [&](const std::string& why) {
            result.skipped.push_back({file.path, line, fmt::format("{} {}: {}", sku.empty() ? meter : sku, region, why)});
        };
        if (text("serviceName") != "Virtual Machines" || text("unitOfMeasure") != "1 Hour") {
            skip(fmt::format("not a virtual machine's hourly price ({}, {})", text("serviceName"), text("unitOfMeasure")));
            continue;
        }
        if (ends_with(product, "Windows")) {
            skip("a Windows price (Linux prices only)");
            continue;
        }
        if (type != "Consumption" && type != "Reservation") {
            skip(fmt::format("price type {} (Consumption and Reservation only)", type));
            continue;
        }
        if (contains(meter, "Low Priority")) {
            skip("a Low Priority meter (retired by Azure; Spot replaces it)");
            continue;
        }
        const GpuAlias* alias = context.aliases.find("azure", {sku});
        if (!alias) {
            skip("no alias to a gpus.csv GPU (not a GPU size, or one gpu-aliases.csv lacks)");
            continue;
        }
        const std::optional<double> price = json_number(item, "unitPrice", file.path, line);
        if (!price || *price < 0) throw InputError(file.path, line, "unitPrice", "expected a price of zero or more");
        if (region.empty()) throw InputError(file.path, line, "armRegionName", "required, got \"\"");
        const std::string as_of = checked_date(text("effectiveStartDate"), file.path, line, "effectiveStartDate");
        const auto key = std::make_pair(sku, region);
        auto [at, added] = rows.try_emplace(key);
        InstanceRow& row = at->second;
        if (added) {
            order.push_back(key);
            row.provider = "azure";
            row.instance = sku;
            row.region = region;
            row.gpu = alias->gpu;
            row.gpu_count = alias->gpu_count.value_or(1);
            row.source = source_option(context, file.path);
        }
        row.as_of = std::max(row.as_of, as_of);  // the newest meter's start: every merged price held then
        if (type == "Reservation") {
            const std::string term = text("reservationTerm");
            if (term == "1 Year") row.reserved_1y = *price / hours_a_year;
            else if (term == "3 Years") row.reserved_3y = *price / (3 * hours_a_year);
            else throw InputError(file.path, line, "reservationTerm", "expected \"1 Year\" or \"3 Years\", got \"" + term + "\"");
        } else if (contains(meter, "Spot")) row.spot = *price;
        else row.on_demand = *price;
    }
    for (const auto& key : order) {
        const InstanceRow& row = rows[key];
        if (row.on_demand || row.spot) result.rows.push_back(row.cells());
        else result.skipped.push_back({file.path, 0, fmt::format("{} {}: reserved prices only, no on-demand or spot", key.first, key.second)});
    }
}

}  // namespace payback::detail
