// simonw/llm-prices' per-vendor JSON (github.com/simonw/llm-prices, data/<vendor>.json):
// {"vendor", "models": [{"id", "name", "price_history": [{"input", "output", "input_cached",
// "from_date", "to_date"}]}]} in USD per million tokens, from_date inclusive and to_date exclusive.
// Every dated price becomes a row dated when it held: its from_date, else the day before its
// to_date, else (an open-ended, undated current price) --as-of.
#include <fmt/format.h>

#include "payback/base/calendar.hpp"
#include "market/import/importers.hpp"

namespace payback::detail {

namespace {

std::string day_before(const std::string& date) {
    CalendarDate d = *parse_date(date);
    if (--d.day == 0) {
        if (--d.month == 0) {
            d.month = 12;
            --d.year;
        }
        d.day = days_in_month(d.year, d.month);
    }
    return fmt::format("{:04}-{:02}-{:02}", d.year, d.month, d.day);
}

}  // namespace

void import_llm_prices(const PriceFile& file, const ImportContext& context, ImportResult& result) {
    const Json document = parse_json(file);
    if (!document.is_object() || !document.contains("models") || !document["models"].is_array())
        throw InputError(file.path, 1, "models", "expected {\"vendor\", \"models\": [...]} (simonw/llm-prices)");
    const std::optional<std::string> vendor = json_text(document, "vendor", file.path, 1);
    if (!vendor || vendor->empty()) throw InputError(file.path, 1, "vendor", "required, missing");
    const std::vector<int> lines = json_child_lines(file.text, {"models"});
    const std::string source = source_option(context, file.path);
    const Json& models = document["models"];
    for (std::size_t m = 0; m < models.size(); ++m) {
        const Json& model = models[m];
        const int line = m < lines.size() ? lines[m] : 0;
        if (!model.is_object()) throw InputError(file.path, line, "models", "expected a model object, got " + model.dump());
        const std::optional<std::string> id = json_text(model, "id", file.path, line);
        if (!id || id->empty()) throw InputError(file.path, line, "id", "required, missing");
        if (!model.contains("price_history") || !model["price_history"].is_array())
            throw InputError(file.path, line, *id + ".price_history", "expected an array");
        for (const Json& price : model["price_history"]) {
            const std::string field = *id + ".price_history";
            if (!price.is_object()) throw InputError(file.path, line, field, "expected a price object, got " + price.dump());
            const std::optional<double> input = json_number(price, "input", file.path, line);
            const std::optional<double> output = json_number(price, "output", file.path, line);
            const std::optional<double> cached = json_number(price, "input_cached", file.path, line);
            if (!input || !output) throw InputError(file.path, line, field + ".input", "an input and an output price are required");
            if (*input < 0 || *output < 0 || (cached && *cached < 0)) throw InputError(file.path, line, field, "a negative price");
            const std::optional<std::string> from = json_text(price, "from_date", file.path, line);
            const std::optional<std::string> to = json_text(price, "to_date", file.path, line);
            const std::string as_of = from   ? checked_date(*from, file.path, line, field + ".from_date")
                                      : to   ? day_before(checked_date(*to, file.path, line, field + ".to_date"))
                                             : as_of_option(context, file.path);
            result.rows.push_back({*vendor, *id, price_text(*input), price_text(*output), cached ? price_text(*cached) : "",
                                   "", as_of, source});
        }
    }
}

}  // namespace payback::detail
