// Importing price files in the formats providers and catalogs publish (SkyPilot's vms.csv,
// ec2instances.info, the Azure Retail Prices API, vast.ai offers, litellm, simonw/llm-prices,
// silybench-data, Epoch AI's hardware prices) into rows of the matching pricing/ catalog. Each row
// says when its price held (`as_of`) and where it came from (`source`); a record the catalog cannot
// take (a GPU the alias table does not name, a non-Linux price, ...) is skipped with its line and
// why, never guessed. Bad input is an InputError naming the file, the line and the field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "payback/base/text_file.hpp"

namespace payback {

/// The largest price file read, 16 MiB (every input file's limit): a whole SkyPilot or litellm file
/// is 2-4 MB, an Azure page far less; anything larger is the wrong file.
inline constexpr std::uintmax_t max_price_file_bytes = detail::max_text_file_bytes;

/// Which catalog an import's rows belong to, and so its columns.
enum class PriceCatalog {
    instances,       ///< cloud-instances.csv
    rental_markets,  ///< rental-markets.csv, with the P10 and P90 beside the median
    api_prices,      ///< api-prices.csv: USD per million tokens
    price_series,    ///< used-gpu-prices.csv: dated prices of one item
};

/// The catalog's header, in order.
const std::vector<std::string>& catalog_columns(PriceCatalog catalog);

/// One name a price file gives a GPU, mapped to a gpus.csv name (pricing/gpu-aliases.csv).
struct GpuAlias {
    std::string scope;  ///< a provider (aws, lambda, vast, ...), a format (epoch, silybench) or "*"
    std::string alias;  ///< the file's name for it: an accelerator name or an instance type
    std::string gpu;    ///< gpus.csv name
    std::optional<int> gpu_count;  ///< for instance types: GPUs in one instance
};

class GpuAliases {
public:
    /// Reads pricing/gpu-aliases.csv (scope, alias, gpu, gpu_count, source); every gpu must be one
    /// of `gpu_names`. InputError naming the line and column otherwise, or on a repeated alias.
    static GpuAliases load(const std::string& path, const std::vector<std::string>& gpu_names);
    static GpuAliases parse(const std::string& text, const std::string& path, const std::vector<std::string>& gpu_names);

    /// The first of `names` the table knows in `scope`, then the first in scope "*"; names are
    /// compared exactly. nullptr when none is known.
    const GpuAlias* find(const std::string& scope, const std::vector<std::string>& names) const;

private:
    std::vector<GpuAlias> aliases_;
};

/// What the file does not say, from the command line.
struct ImportOptions {
    std::string provider;  ///< --provider: the cloud, for files that hold one cloud's prices (SkyPilot)
    std::string as_of;     ///< --as-of YYYY-MM-DD: when the prices held, where the file does not say
    std::string source;    ///< --source: where the file came from, where the file does not say
};

/// A price file: its name for messages and its bytes.
struct PriceFile {
    std::string path;
    std::string text;
};

struct SkippedRecord {
    std::string file;
    int line = 0;  ///< 1-based line of the file where the record starts
    std::string reason;
};

struct ImportResult {
    std::string format;
    PriceCatalog catalog = PriceCatalog::instances;
    std::vector<std::vector<std::string>> rows;  ///< cells in catalog_columns(catalog) order
    std::vector<SkippedRecord> skipped;
    std::string as_of;  ///< --as-of when given, else the newest as_of among the rows ("" without rows)
};

/// The formats, as named on the command line: skypilot, aws-ec2, azure-retail, vast-offers,
/// litellm, llm-prices, silybench, epoch.
const std::vector<std::string>& import_formats();

/// Imports every file of one format. InputError (file, line, field) on a malformed file, a date
/// that is not YYYY-MM-DD, or a missing --as-of/--provider the file needs; an unknown format names
/// the known ones.
ImportResult import_prices(const std::string& format, const std::vector<PriceFile>& files,
                           const ImportOptions& options, const GpuAliases& aliases);

/// The rows as CSV (RFC 4180, LF), the catalog's header first.
std::string to_csv(const ImportResult& result);

}  // namespace payback
