// What the importers (one file per format) share: the options and aliases they read, the checks
// every format needs (dates, numbers, the --as-of/--source fallbacks) and the lines of JSON records,
// so that a skipped record and a malformed field both name the line they are on.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "payback/base/error.hpp"
#include "payback/base/text_file.hpp"
#include "payback/market/price_import.hpp"

namespace payback::detail {

// JSON kept in document order, so records line up with json_child_lines.
using Json = nlohmann::ordered_json;

struct ImportContext {
    std::string format;
    const ImportOptions& options;
    const GpuAliases& aliases;
};

/// A price as written in the catalogs: up to 12 significant digits, no trailing zeros
/// (1.8e-07 USD a token is "0.18" a million).
std::string price_text(double value);

/// `text` when it is a real date YYYY-MM-DD (a longer ISO timestamp is cut to its date), else an
/// InputError naming the file, line and field.
std::string checked_date(const std::string& text, const std::string& file, int line, const std::string& field);

/// --as-of, or an InputError saying the file does not say when its prices held.
std::string as_of_option(const ImportContext& context, const std::string& file);

/// --source when given, else "`format` file NAME" (the file's name without its folders).
std::string source_option(const ImportContext& context, const std::string& file);

/// The JSON document, or an InputError naming the line and column where it stops being JSON.
Json parse_json(const PriceFile& file);

/// The 1-based lines on which the children of the container at `path` (object keys from the root)
/// start, in document order. `text` must be valid JSON (parse_json first).
std::vector<int> json_child_lines(std::string_view text, const std::vector<std::string>& path);

/// A JSON field as a number: a number, or a string holding one (ec2instances.info writes prices as
/// strings); nullopt when absent or null; InputError (file, line, field) for anything else.
std::optional<double> json_number(const Json& record, const std::string& key, const std::string& file, int line);

/// A JSON field as text: nullopt when absent or null, InputError when not a string.
std::optional<std::string> json_text(const Json& record, const std::string& key, const std::string& file, int line);

// One function per format, each in its own file; each appends to `result`.
void import_skypilot(const PriceFile& file, const ImportContext& context, ImportResult& result);
void import_aws_ec2(const PriceFile& file, const ImportContext& context, ImportResult& result);
void import_azure_retail(const PriceFile& file, const ImportContext& context, ImportResult& result);
void import_vast_offers(const std::vector<PriceFile>& files, const ImportContext& context, ImportResult& result);
void import_litellm(const PriceFile& file, const ImportContext& context, ImportResult& result);
void import_llm_prices(const PriceFile& file, const ImportContext& context, ImportResult& result);
void import_silybench(const PriceFile& file, const ImportContext& context, ImportResult& result);
void import_epoch(const PriceFile& file, const ImportContext& context, ImportResult& result);

/// A cloud-instances.csv row being filled in; empty optionals are empty cells.
struct InstanceRow {
    std::string provider, instance, region, gpu;
    int gpu_count = 1;
    std::optional<double> gpu_memory_gb, vcpus, ram_gb, on_demand, spot, reserved_1y, reserved_3y;
    std::string as_of, source;

    std::vector<std::string> cells() const;
};

}  // namespace payback::detail
