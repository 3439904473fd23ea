// ec2instances.info's instances.json (github.com/vantage-sh/ec2instances.info): an array of instance
// types (or one, as in the site's test mocks), each with pricing[region][os] = {ondemand, reserved{...}, spot_avg} in USD an hour (often
// as strings). One catalog row per GPU instance type and region with a Linux price; reserved prices
// are the Standard, no-upfront terms (paid by the hour, as the catalog's columns are).
#include <fmt/format.h>

#include "market/import/importers.hpp"

namespace payback::detail {

void import_aws_ec2(const PriceFile& file, const ImportContext& context, ImportResult& result) {
    Json document = parse_json(file);
    std::vector<int> lines = json_child_lines(file.text, {});
    if (document.is_object()) {  // one record, as the site's own test mocks hold
        document = Json::array({document});
        lines = {line_of_offset(file.text, file.text.find('{'))};
    }
    if (!document.is_array()) throw InputError(file.path, 1, "", "expected an array of instance types (instances.json)");
    const std::string as_of = as_of_option(context, file.path);
    const std::string source = source_option(context, file.path);
    for (std::size_t i = 0; i < document.size(); ++i) {
        const Json& record = document[i];
        const int line = i < lines.size() ? lines[i] : 0;
        if (!record.is_object()) throw InputError(file.path, line, "", "expected an instance type's object, got " + record.dump());
        const std::optional<std::string> type = json_text(record, "instance_type", file.path, line);
        if (!type || type->empty()) throw InputError(file.path, line, "instance_type", "required, missing");
        const std::optional<double> gpus = json_number(record, "GPU", file.path, line);
        if (!gpus || *gpus < 1) {
            result.skipped.push_back({file.path, line, fmt::format("{} has no GPU", *type)});
            continue;
        }
        const std::string model = json_text(record, "GPU_model", file.path, line).value_or("");
        const GpuAlias* alias = context.aliases.find("aws", {*type, model});
        if (!alias) {
            result.skipped.push_back({file.path, line, fmt::format("{}: GPU \"{}\" has no alias to a gpus.csv name", *type,
                                                                   model.empty() ? "(not named)" : model)});
            continue;
        }
        const auto pricing = record.find("pricing");
        if (pricing == record.end() || !pricing->is_object()) throw InputError(file.path, line, "pricing", "expected an object of regions");
        for (const auto& [region, by_os] : pricing->items()) {
            const std::string field = "pricing." + region + ".linux";
            if (!by_os.is_object() || !by_os.contains("linux")) {
                result.skipped.push_back({file.path, line, fmt::format("{} in {}: no Linux price", *type, region)});
                continue;
            }
            const Json& linux_prices = by_os["linux"];
            if (!linux_prices.is_object()) throw InputError(file.path, line, field, "expected an object, got " + linux_prices.dump());
            InstanceRow row;
            row.provider = "aws";
            row.instance = *type;
            row.region = region;
            row.gpu = alias->gpu;
            row.gpu_count = alias->gpu_count.value_or(static_cast<int>(*gpus));
            row.vcpus = json_number(record, "vCPU", file.path, line);
            row.ram_gb = json_number(record, "memory", file.path, line);
            row.on_demand = json_number(linux_prices, "ondemand", file.path, line);
            row.spot = json_number(linux_prices, "spot_avg", file.path, line);
            if (const auto reserved = linux_prices.find("reserved"); reserved != linux_prices.end() && reserved->is_object()) {
                row.reserved_1y = json_number(*reserved, "yrTerm1Standard.noUpfront", file.path, line);
                row.reserved_3y = json_number(*reserved, "yrTerm3Standard.noUpfront", file.path, line);
            }
            for (const std::optional<double>* price : {&row.on_demand, &row.spot, &row.reserved_1y, &row.reserved_3y})
                if (*price && **price < 0) throw InputError(file.path, line, field, "a negative price");
            if (!row.on_demand && !row.spot) {
                result.skipped.push_back({file.path, line, fmt::format("{} in {}: no Linux price", *type, region)});
                continue;
            }
            row.as_of = as_of;
            row.source = source;
            result.rows.push_back(row.cells());
        }
    }
}

}  // namespace payback::detail
