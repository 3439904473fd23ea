// SkyPilot's catalog vms.csv (github.com/skypilot-org/skypilot-catalog, catalogs/v<N>/<cloud>/vms.csv):
// one row per instance type and zone, columns in a different order per cloud. One catalog row per
// instance and region: on-demand from Price, spot the lowest SpotPrice across the region's zones.
#include <algorithm>
#include <map>
#include <utility>

#include <fmt/format.h>

#include "base/csv_reader.hpp"
#include "market/import/importers.hpp"

namespace payback::detail {

namespace {

// SkyPilot's vast fetcher names instances "<n>x-<GPU>-<vCPUs>-<MiB>" (4x-RTX_A6000-32-65536) while
// its AcceleratorName drops the variant (H100 for both H100_SXM and H100_NVL): the GPU part is the
// more exact name.
std::string vast_gpu_part(const std::string& instance) {
    const auto first = instance.find("x-");
    const auto last = instance.rfind('-', instance.rfind('-') - 1);
    if (first == std::string::npos || last == std::string::npos || last <= first + 2) return "";
    return instance.substr(first + 2, last - first - 2);
}

// A cell that may be empty: a positive price, or nothing (SkyPilot writes 0.00 where no spot price exists).
std::optional<double> positive_cell(const CsvTable& table, std::size_t row, const std::string& column) {
    if (!table.has_column(column) || is_blank(table.text(row, column))) return std::nullopt;
    const double value = table.number(row, column);
    if (value < 0) throw table.error(row, column, "expected a price of zero or more, got " + table.text(row, column));
    return value > 0 ? std::optional<double>(value) : std::nullopt;
}

std::optional<double> min_of(std::optional<double> a, std::optional<double> b) {
    if (!a) return b;
    if (!b) return a;
    return std::min(*a, *b);
}

}  // namespace

void import_skypilot(const PriceFile& file, const ImportContext& context, ImportResult& result) {
    if (context.options.provider.empty())
        throw InputError(file.path, 0, "--provider", "SkyPilot's files hold one cloud each and do not name it: give --provider (aws, gcp, azure, ...)");
    const CsvTable table = CsvTable::parse(file.text, file.path);
    table.require_columns({"InstanceType", "AcceleratorName", "AcceleratorCount", "Price", "SpotPrice", "Region"});
    const std::string& provider = context.options.provider;
    const std::string as_of = as_of_option(context, file.path);
    const std::string source = source_option(context, file.path);
    std::map<std::pair<std::string, std::string>, std::size_t> row_of;  // (instance, region) -> index in rows
    std::vector<InstanceRow> rows;
    for (std::size_t row = 0; row < table.rows(); ++row) {
        const int line = table.line_of(row);
        const std::string& instance = table.text(row, "InstanceType");
        const std::string& accelerator = table.text(row, "AcceleratorName");
        const std::string& region = table.text(row, "Region");
        const auto skip = [&](std::string reason) { result.skipped.push_back({file.path, line, std::move(reason)}); };
        const std::optional<double> on_demand = positive_cell(table, row, "Price"), spot = positive_cell(table, row, "SpotPrice");
        if (is_blank(region)) throw table.error(row, "Region", "required, got an empty cell");
        if (is_blank(instance)) {
            skip(fmt::format("accelerator {} priced without an instance type (attached to a VM of your choice)", accelerator));
            continue;
        }
        const GpuAlias* alias = context.aliases.find(
            provider, {instance, provider == "vast" ? vast_gpu_part(instance) : std::string(), accelerator});
        if (!alias) {
            skip(is_blank(accelerator) ? fmt::format("{} names no accelerator and gpu-aliases.csv does not map it", instance)
                                       : fmt::format("GPU \"{}\" ({}) has no alias to a gpus.csv name", accelerator, instance));
            continue;
        }
        int count = alias->gpu_count.value_or(0);
        if (!alias->gpu_count) {
            const double n = is_blank(table.text(row, "AcceleratorCount")) ? 0 : table.number(row, "AcceleratorCount");
            if (n < 1 || n > 64 || n != static_cast<int>(n))
                throw table.error(row, "AcceleratorCount", "expected a whole number of GPUs 1-64, got \"" +
                                                               table.text(row, "AcceleratorCount") + "\"");
            count = static_cast<int>(n);
        }
        if (!on_demand && !spot) {
            skip(fmt::format("{} in {}: no price", instance, region));
            continue;
        }
        const auto key = std::make_pair(instance, region);
        if (const auto at = row_of.find(key); at != row_of.end()) {
            InstanceRow& merged = rows[at->second];
            merged.on_demand = min_of(merged.on_demand, on_demand);
            merged.spot = min_of(merged.spot, spot);
            continue;
        }
        InstanceRow r;
        r.provider = provider;
        r.instance = instance;
        r.region = region;
        r.gpu = alias->gpu;
        r.gpu_count = count;
        r.vcpus = positive_cell(table, row, "vCPUs");
        r.ram_gb = positive_cell(table, row, "MemoryGiB");
        r.on_demand = on_demand;
        r.spot = spot;
        r.as_of = as_of;
        r.source = source;
        row_of[key] = rows.size();
        rows.push_back(std::move(r));
    }
    for (const InstanceRow& r : rows) result.rows.push_back(r.cells());
}

}  // namespace payback::detail
