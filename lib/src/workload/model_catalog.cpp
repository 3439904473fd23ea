#include "payback/workload/model_catalog.hpp"

#include <cmath>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/csv_reader.hpp"
#include "payback/base/calendar.hpp"
#include "payback/base/data_directory.hpp"
#include "payback/base/error.hpp"
#include "payback/base/suggest.hpp"

namespace payback {

namespace {

using detail::CsvTable;
using detail::is_blank;

// The largest figures a row may hold: above them a value can only be a typo (a trillion-parameter
// model has 1e12 parameters; its FLOPs per token are twice that, and a training sample of a 70B
// model at 2048 tokens is 8.6e14).
constexpr double max_parameters = 1e13;
constexpr double max_flops = 1e15;
constexpr int max_dimension = 10'000'000;

std::optional<double> number(const CsvTable& t, std::size_t r, std::string_view column, double lo, double hi) {
    if (is_blank(t.text(r, column))) return std::nullopt;
    const double value = t.number(r, column);
    if (value < lo || value > hi)
        throw t.error(r, column, fmt::format("must be between {} and {}, got {}", lo, hi, value));
    return value;
}

double required_number(const CsvTable& t, std::size_t r, std::string_view column, double lo, double hi) {
    const auto value = number(t, r, column, lo, hi);
    if (!value) throw t.error(r, column, "must not be empty");
    return *value;
}

std::optional<int> whole(const CsvTable& t, std::size_t r, std::string_view column) {
    const auto value = number(t, r, column, 1, max_dimension);
    if (!value) return std::nullopt;
    if (*value != std::floor(*value))
        throw t.error(r, column, fmt::format("expected a whole number, got {}", *value));
    return static_cast<int>(*value);
}

// Every row says when and where its figures were read, as the price catalogs do.
std::string sourced(const CsvTable& t, std::size_t r) {
    const std::string& as_of = t.required(r, "as_of");
    if (!parse_calendar_date(as_of)) throw t.error(r, "as_of", "expected a date YYYY-MM-DD, got \"" + as_of + "\"");
    return t.required(r, "source");
}

ModelSpec read_model(const CsvTable& t, std::size_t r) {
    ModelSpec m;
    m.name = t.required(r, "name");
    const std::string& kind = t.required(r, "kind");
    if (kind != "train" && kind != "llm")
        throw t.error(r, "kind", "expected train or llm, got \"" + kind + "\"");
    m.kind = kind == "llm" ? ModelKind::llm : ModelKind::train;
    m.parameters = required_number(t, r, "parameters", 1, max_parameters);
    m.active_parameters = number(t, r, "active_parameters", 1, max_parameters);
    m.expert_parameters = number(t, r, "expert_parameters", 1, max_parameters);
    m.experts = whole(t, r, "experts");
    m.active_experts = whole(t, r, "active_experts");
    m.layers = whole(t, r, "layers");
    m.d_model = whole(t, r, "d_model");
    m.heads = whole(t, r, "heads");
    m.kv_heads = whole(t, r, "kv_heads");
    m.head_dim = whole(t, r, "head_dim");
    m.ffn = whole(t, r, "ffn");
    m.vocabulary = whole(t, r, "vocabulary");
    const std::string& tied = t.text(r, "tied_embeddings");
    if (!is_blank(tied) && tied != "true" && tied != "false")
        throw t.error(r, "tied_embeddings", "expected true, false or nothing, got \"" + tied + "\"");
    m.tied_embeddings = tied == "true";
    m.context = whole(t, r, "context");
    m.attention_window = whole(t, r, "attention_window");
    m.window_layers = whole(t, r, "window_layers");
    m.sequence = whole(t, r, "sequence");
    m.flops_per_sample = number(t, r, "flops_per_sample", 1, max_flops);
    m.flops_per_token = number(t, r, "flops_per_token", 1, max_flops);
    m.source = sourced(t, r);
    m.as_of = t.required(r, "as_of");
    m.file = t.path();
    m.line = t.line_of(r);
    if (m.active_parameters && *m.active_parameters > m.parameters)
        throw t.error(r, "active_parameters", "must not exceed parameters");
    if ((m.experts || m.active_experts) && !(m.experts && m.active_experts && m.expert_parameters))
        throw t.error(r, !m.experts ? "experts" : !m.active_experts ? "active_experts" : "expert_parameters",
                      "experts and active_experts go with expert_parameters: all three or none");
    if (m.experts && *m.active_experts > *m.experts)
        throw t.error(r, "active_experts", fmt::format("must not exceed experts ({})", *m.experts));
    if (m.expert_parameters) {
        // The experts are some of the matrices, and a token reads every other matrix and some experts.
        if (!m.active_parameters) throw t.error(r, "expert_parameters", "a mixture of experts needs its active_parameters");
        if (*m.expert_parameters >= m.matrix_parameters())
            throw t.error(r, "expert_parameters", fmt::format("must be below the {:.0f} weights outside the input "
                                                              "embedding", m.matrix_parameters()));
        if (m.active_expert_weights() <= 0 || m.active_expert_weights() > *m.expert_parameters)
            throw t.error(r, "expert_parameters",
                          fmt::format("leaves a token {:.0f} expert weights of {:.0f} (active_parameters less the "
                                      "{:.0f} other matrices): check both",
                                      m.active_expert_weights(), *m.expert_parameters, m.shared_weights()));
    }
    if (m.attention_window.has_value() != m.window_layers.has_value())
        throw t.error(r, m.attention_window ? "window_layers" : "attention_window",
                      "attention_window and window_layers go together: the window and how many layers attend to it only");
    if (m.window_layers && (!m.layers || *m.window_layers > *m.layers))
        throw t.error(r, "window_layers", fmt::format("must not exceed layers ({})", m.layers.value_or(0)));
    if (m.kind == ModelKind::train && !m.flops_per_sample)
        throw t.error(r, "flops_per_sample", "a train model needs its FLOPs per sample");
    if (m.kind == ModelKind::llm) {
        // What the memory fit and the decode roofline read: a row without them is of no use.
        for (const char* column : {"layers", "d_model", "heads", "kv_heads", "head_dim", "vocabulary", "context",
                                   "flops_per_token"})
            if (is_blank(t.text(r, column))) throw t.error(r, column, "an llm model needs it");
    }
    return m;
}

QuantFormat read_quant(const CsvTable& t, std::size_t r) {
    QuantFormat q;
    q.name = t.required(r, "name");
    q.bits_per_weight = required_number(t, r, "bits_per_weight", 1, 32);
    q.other_bits_per_weight = number(t, r, "other_bits_per_weight", 1, 32);
    const auto block_size = whole(t, r, "block_size");
    if (!block_size) throw t.error(r, "block_size", "must not be empty");
    q.block_size = *block_size;
    q.source = sourced(t, r);
    return q;
}

template <class Item, class Read>
std::vector<Item> load_rows(const std::filesystem::path& path, const std::vector<std::string>& columns, Read read) {
    const CsvTable table = CsvTable::load(path.string());
    table.require_columns(columns);
    std::vector<Item> items;
    std::set<std::string> seen;
    for (std::size_t r = 0; r < table.rows(); ++r) {
        items.push_back(read(table, r));
        if (!seen.insert(items.back().name).second)
            throw table.error(r, "name", "duplicate entry \"" + items.back().name + "\"");
    }
    return items;
}

template <class Item>
const Item& find(const std::vector<Item>& items, const std::string& name, const std::string& key,
                 const std::string& what) {
    std::vector<std::string> known;
    for (const Item& item : items) {
        if (item.name == name) return item;
        known.push_back(item.name);
    }
    const std::string hint = detail::closest_match(name, known);
    // A short list (the quantization formats) is named whole: a guess among four is no help.
    const std::string listed = known.size() <= 8 ? fmt::format(" ({})", fmt::join(known, ", ")) : "";
    throw InputError("pricing", 0, key,
                     fmt::format("no {} named \"{}\" in the catalog{}{}", what, name, listed,
                                 hint.empty() ? std::string() : "; did you mean \"" + hint + "\"?"));
}

}  // namespace

ModelCatalog ModelCatalog::load(const std::string& directory) {
    const std::filesystem::path dir(directory);
    ModelCatalog c;
    c.models_ = load_rows<ModelSpec>(dir / "models.csv",
                                     {"name", "kind", "parameters", "active_parameters", "expert_parameters", "experts",
                                      "active_experts", "layers", "d_model", "heads", "kv_heads", "head_dim", "ffn",
                                      "vocabulary", "tied_embeddings", "context", "attention_window", "window_layers",
                                      "sequence", "flops_per_sample", "flops_per_token", "as_of", "source"},
                                     read_model);
    c.quants_ = load_rows<QuantFormat>(dir / "quants.csv",
                                       {"name", "bits_per_weight", "other_bits_per_weight", "block_size", "as_of", "source"},
                                       read_quant);
    return c;
}

const ModelCatalog& ModelCatalog::shipped() {
    static const ModelCatalog catalog = load(find_data_directory(ShippedData::pricing).path.string());
    return catalog;
}

const ModelSpec& ModelCatalog::model(const std::string& name) const { return find(models_, name, "workload", "model"); }

const QuantFormat& ModelCatalog::quant(const std::string& name) const {
    return find(quants_, name, "quant", "quantization format");
}

}  // namespace payback
