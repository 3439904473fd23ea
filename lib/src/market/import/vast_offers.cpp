// vast.ai's offers as `vastai search offers --raw` prints them (github.com/vast-ai/vast-python): a JSON
// array of offers with gpu_name, num_gpus and dph_base (USD an hour for the machine's GPUs, before
// storage). Per GPU model the P10, median and P90 of the price per GPU-hour across the offers of every
// file go into the rental markets catalog: a marketplace has a spread, not one price.
#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "market/import/importers.hpp"

namespace payback::detail {

namespace {

// The q-quantile of sorted values, interpolated between neighbours (numpy's default, "linear").
double quantile(const std::vector<double>& sorted, double q) {
    const double at = q * static_cast<double>(sorted.size() - 1);
    const auto below = static_cast<std::size_t>(std::floor(at));
    const std::size_t above = std::min(below + 1, sorted.size() - 1);
    return sorted[below] + (at - static_cast<double>(below)) * (sorted[above] - sorted[below]);
}

}  // namespace

void import_vast_offers(const std::vector<PriceFile>& files, const ImportContext& context, ImportResult& result) {
    std::map<std::string, std::vector<double>> per_gpu_hour;  // gpus.csv name -> prices
    std::string as_of, source;
    for (const PriceFile& file : files) {
        const Json document = parse_json(file);
        if (!document.is_array()) throw InputError(file.path, 1, "", "expected an array of offers (vastai search offers --raw)");
        as_of = as_of_option(context, file.path);
        source = source_option(context, file.path);
        const std::vector<int> lines = json_child_lines(file.text, {});
        for (std::size_t i = 0; i < document.size(); ++i) {
            const Json& offer = document[i];
            const int line = i < lines.size() ? lines[i] : 0;
            if (!offer.is_object()) throw InputError(file.path, line, "", "expected an offer object, got " + offer.dump());
            const std::optional<std::string> name = json_text(offer, "gpu_name", file.path, line);
            const std::optional<double> gpus = json_number(offer, "num_gpus", file.path, line);
            const std::optional<double> price = json_number(offer, "dph_base", file.path, line);
            if (!name) throw InputError(file.path, line, "gpu_name", "required, missing");
            if (!gpus || *gpus < 1 || *gpus != std::floor(*gpus))
                throw InputError(file.path, line, "num_gpus", "expected a whole number of GPUs, 1 or more");
            if (!price || *price < 0) throw InputError(file.path, line, "dph_base", "expected a price of zero or more");
            if (const auto rentable = offer.find("rentable"); rentable != offer.end() && rentable->is_boolean() && !*rentable) {
                result.skipped.push_back({file.path, line, fmt::format("{}: not rentable", *name)});
                continue;
            }
            const GpuAlias* alias = context.aliases.find("vast", {*name});
            if (!alias) {
                result.skipped.push_back({file.path, line, fmt::format("GPU \"{}\" has no alias to a gpus.csv name", *name)});
                continue;
            }
            if (*price == 0) {
                result.skipped.push_back({file.path, line, fmt::format("{}: priced at 0", *name)});
                continue;
            }
            per_gpu_hour[alias->gpu].push_back(*price / *gpus);
        }
    }
    if (files.size() > 1 && context.options.source.empty()) source = fmt::format("{} files", files.size());
    const std::string market = context.options.provider.empty() ? "vast" : context.options.provider;
    for (auto& [gpu, prices] : per_gpu_hour) {
        std::sort(prices.begin(), prices.end());
        result.rows.push_back({market, gpu, price_text(quantile(prices, 0.5)), price_text(quantile(prices, 0.1)),
                               price_text(quantile(prices, 0.9)), "", "", "", "USD", as_of,
                               fmt::format("{}: {} offer{}, price per GPU-hour = dph_base / num_gpus", source,
                                           prices.size(), prices.size() == 1 ? "" : "s")});
    }
}

}  // namespace payback::detail
