// Epoch AI's hardware price database ("Hardware prices.csv", github.com/epoch-research/
// training-cost-trends, data/): one price a row, a purchase price or a cloud rental per chip-hour.
// The purchase prices become the dated price series of used-gpu-prices.csv's schema (item = the
// gpus.csv name); rentals are skipped, they belong to the instance catalogs. Epoch does not state a
// currency; its sources are US dollar prices, so the rows say USD.
#include <set>

#include <fmt/format.h>

#include "base/csv_reader.hpp"
#include "market/import/importers.hpp"

namespace payback::detail {

void import_epoch(const PriceFile& file, const ImportContext& context, ImportResult& result) {
    const CsvTable table = CsvTable::parse(file.text, file.path);
    table.require_columns({"Price source", "Price date", "Hardware model", "Vendor", "Price (hardware purchase)"});
    const std::string source = source_option(context, file.path);
    std::set<std::pair<std::string, std::string>> seen;  // (item, date)
    for (std::size_t row = 0; row < table.rows(); ++row) {
        const int line = table.line_of(row);
        const std::string& model = table.text(row, "Hardware model");
        const auto skip = [&](const std::string& why) { result.skipped.push_back({file.path, line, model + ": " + why}); };
        const std::string date = checked_date(table.text(row, "Price date"), file.path, line, "Price date");
        if (!is_blank(table.text(row, "Vendor"))) {
            skip(fmt::format("a cloud rental price ({}), not a purchase price", table.text(row, "Vendor")));
            continue;
        }
        if (is_blank(table.text(row, "Price (hardware purchase)"))) {
            skip("no purchase price");
            continue;
        }
        const double price = table.number(row, "Price (hardware purchase)");
        if (price <= 0) throw table.error(row, "Price (hardware purchase)", "expected a price above zero");
        const GpuAlias* alias = context.aliases.find("epoch", {model});
        if (!alias) {
            skip("no alias to a gpus.csv name");
            continue;
        }
        if (!seen.insert({alias->gpu, date}).second) {
            skip(fmt::format("a second price for {} on {}", alias->gpu, date));
            continue;
        }
        const std::string& origin = table.text(row, "Price source");
        result.rows.push_back({date, alias->gpu, price_text(price), "USD", "", date,
                               is_blank(origin) ? source : fmt::format("{} via {}", origin, source)});
    }
}

}  // namespace payback::detail
