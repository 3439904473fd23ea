// `--cloud "gpu_memory_gb>=24,provider==aws"`: which catalog instances a comparison should include.
// Conditions are joined by commas (all must hold); each is FIELD OP VALUE with OP one of
// >= <= > < == !=. Numeric fields: gpu_count, gpu_memory_gb, vcpus, ram_gb, on_demand_per_hour,
// spot_per_hour. Text fields (== and != only): provider, instance, region, gpu. A row lacking a
// numeric field does not match a condition on it.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "payback/market/catalog.hpp"

namespace payback {

/// The matching instances, in catalog order. Throws InputError (about argument::instance_filter) for a
/// malformed condition or an unknown field.
std::vector<const CloudInstance*> filter_instances(const Catalog& catalog, const std::string& expression);

/// One row per instance and region, in the order of each one's first row: the row in effect `at`
/// "YYYY-MM-DD" (the latest as_of on or before it, as Catalog::instance picks), else the newest; an
/// instance with no row by `at` is left out. A catalog with a price history's rows
/// (Catalog::with_history) holds several rows of one instance, one per date.
std::vector<const CloudInstance*> instances_in_effect(const Catalog& catalog, const std::optional<std::string>& at);

/// The matching instances a comparison can use: priced on demand in `currency`, with a GPU whose
/// throughput the GPU catalog has (to set its speed against the rig), in catalog order.
struct InstanceMatch {
    std::vector<const CloudInstance*> usable;
    int left_out = 0;  ///< matched but without such a price or throughput
};
/// Of instances_in_effect(catalog, at), the matching ones. Throws InputError (about
/// argument::instance_filter) when none is usable.
InstanceMatch match_instances(const Catalog& catalog, const std::string& expression, const std::string& currency,
                              const std::optional<std::string>& at = std::nullopt);

}  // namespace payback
