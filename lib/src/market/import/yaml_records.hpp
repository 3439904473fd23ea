// The YAML that generated price files use (silybench-data's prices/*.yaml, written by PyYAML's
// safe_dump): top-level `key: scalar` lines and one block list of flat `key: scalar` records. Only
// that subset is read, strictly: anything else (nesting, flow collections, block scalars, anchors,
// tags, tabs) is an InputError naming the line, rather than a guess at what a full YAML reader does.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "payback/market/price_import.hpp"

namespace payback::detail {

/// A scalar; nullopt for null (`null`, `~` or nothing after the colon).
using YamlScalar = std::optional<std::string>;

struct YamlRecord {
    int line = 0;  ///< of its "- "
    std::map<std::string, YamlScalar> fields;
    std::map<std::string, int> lines;  ///< each field's line

    int line_of(const std::string& key) const {
        const auto at = lines.find(key);
        return at == lines.end() ? line : at->second;
    }
};

struct YamlRecords {
    std::map<std::string, YamlScalar> top;  ///< the top-level scalars
    std::string list_key;                   ///< the key of the one list ("offers")
    std::vector<YamlRecord> records;
};

YamlRecords parse_yaml_records(const PriceFile& file);

}  // namespace payback::detail
