// litellm's model price map (model_prices_and_context_window.json, github.com/BerriAI/litellm): an
// object keyed by model, each with litellm_provider, mode and prices in USD per token. Chat and
// completion models with an input and an output price go into the API price catalog, in USD per
// million tokens; the file carries no date, so --as-of says when the prices held.
#include <fmt/format.h>

#include "market/import/importers.hpp"

namespace payback::detail {

void import_litellm(const PriceFile& file, const ImportContext& context, ImportResult& result) {
    const Json document = parse_json(file);
    if (!document.is_object()) throw InputError(file.path, 1, "", "expected an object keyed by model (litellm's price map)");
    const std::vector<int> lines = json_child_lines(file.text, {});
    const std::string as_of = as_of_option(context, file.path);
    std::size_t index = 0;
    for (const auto& [key, entry] : document.items()) {
        const int line = index < lines.size() ? lines[index] : 0;
        ++index;
        if (key == "sample_spec") {
            result.skipped.push_back({file.path, line, "sample_spec: the format's documentation, not a model"});
            continue;
        }
        if (!entry.is_object()) throw InputError(file.path, line, key, "expected a model's object, got " + entry.dump());
        const std::string mode = json_text(entry, "mode", file.path, line).value_or("");
        if (mode != "chat" && mode != "completion") {
            result.skipped.push_back({file.path, line, fmt::format("{}: mode \"{}\" (chat and completion only)", key, mode)});
            continue;
        }
        const std::optional<double> input = json_number(entry, "input_cost_per_token", file.path, line);
        const std::optional<double> output = json_number(entry, "output_cost_per_token", file.path, line);
        if (!input || !output) {
            result.skipped.push_back({file.path, line, fmt::format("{}: no input and output price per token", key)});
            continue;
        }
        const std::optional<double> cached = json_number(entry, "cache_read_input_token_cost", file.path, line);
        for (const auto& [field, value] : {std::pair{"input_cost_per_token", input}, std::pair{"output_cost_per_token", output},
                                           std::pair{"cache_read_input_token_cost", cached}})
            if (value && *value < 0) throw InputError(file.path, line, key + "." + field, "a negative price");
        const std::optional<std::string> provider = json_text(entry, "litellm_provider", file.path, line);
        if (!provider || provider->empty()) throw InputError(file.path, line, key + ".litellm_provider", "required, missing");
        // Most keys carry the provider as a prefix ("gemini/gemini-2.5-pro"); the catalog has a column for it.
        const std::string prefix = *provider + "/";
        const std::string model = key.rfind(prefix, 0) == 0 ? key.substr(prefix.size()) : key;
        const std::optional<double> context_tokens = json_number(entry, "max_input_tokens", file.path, line);
        const std::string own_source = json_text(entry, "source", file.path, line).value_or("");
        const std::string source = source_option(context, file.path);
        result.rows.push_back({*provider, model, price_text(*input * 1e6), price_text(*output * 1e6),
                               cached ? price_text(*cached * 1e6) : "", context_tokens ? price_text(*context_tokens) : "",
                               as_of, own_source.empty() ? source : fmt::format("{} via {}", own_source, source)});
    }
}

}  // namespace payback::detail
