// `--cloud "gpu_memory_gb>=24,provider==aws"`: which catalog instances a comparison should include.
// Conditions are joined by commas (all must hold); each is FIELD OP VALUE with OP one of
// >= <= > < == !=. Numeric fields: gpu_count, gpu_memory_gb, vcpus, ram_gb, on_demand_per_hour,
// spot_per_hour. Text fields (== and != only): provider, instance, region, gpu. A row lacking a
// numeric field does not match a condition on it.
#pragma once

#include <string>
#include <vector>

#include "payback/market/catalog.hpp"

namespace payback {

/// The matching instances, in catalog order. Throws InputError (source "--cloud") for a malformed
/// condition or an unknown field.
std::vector<const CloudInstance*> filter_instances(const Catalog& catalog, const std::string& expression);

}  // namespace payback
