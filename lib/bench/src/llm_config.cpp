#include "payback/bench/llm_config.hpp"

#include <charconv>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "payback/base/error.hpp"
#include "payback/base/suggest.hpp"

namespace payback::bench {
namespace {

std::vector<std::pair<std::string, int LlmConfig::*>> sizes() {
    return {{"layers", &LlmConfig::layers}, {"d_model", &LlmConfig::d_model}, {"heads", &LlmConfig::heads},
            {"kv_heads", &LlmConfig::kv_heads}, {"ffn", &LlmConfig::ffn},   {"vocab", &LlmConfig::vocab}};
}

[[noreturn]] void refuse(const std::string& key, const std::string& message) {
    throw InputError("", 0, "llm." + key, message);
}

}  // namespace

LlmConfig default_llm_config() { return LlmConfig{}; }

LlmConfig parse_llm_config(const std::string& text) {
    LlmConfig config = default_llm_config();
    std::vector<std::string> keys;
    for (const auto& [key, member] : sizes()) keys.push_back(key);
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find(',', start);
        if (end == std::string::npos) end = text.size();
        const std::string item = text.substr(start, end - start);
        start = end + 1;
        if (item.empty()) continue;
        const std::size_t equals = item.find('=');
        const std::string key = item.substr(0, equals);
        int LlmConfig::*member = nullptr;
        for (const auto& [name, field] : sizes())
            if (name == key) member = field;
        if (!member) {
            const std::string hint = detail::closest_match(key, keys);
            refuse(key, fmt::format("unknown key{}; known: {}", hint.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", hint),
                                    fmt::join(keys, ", ")));
        }
        if (equals == std::string::npos) refuse(key, "expected key=value, e.g. " + key + "=64");
        const std::string value = item.substr(equals + 1);
        int number = 0;
        const auto [end_of_number, error] = std::from_chars(value.data(), value.data() + value.size(), number);
        if (error != std::errc() || end_of_number != value.data() + value.size())
            refuse(key, fmt::format("expected a whole number, got \"{}\"", value));
        config.*member = number;
    }
    validate_llm_config(config);
    return config;
}

void validate_llm_config(const LlmConfig& c) {
    for (const auto& [key, member] : sizes())
        if (c.*member < 1) refuse(key, fmt::format("must be at least 1, got {}", c.*member));
    if (c.d_model % c.heads != 0)
        refuse("heads", fmt::format("must divide d_model ({}), got {}", c.d_model, c.heads));
    if (c.heads % c.kv_heads != 0)
        refuse("kv_heads", fmt::format("must divide heads ({}), got {}", c.heads, c.kv_heads));
    if (c.head_dim() % 2 != 0)
        refuse("heads", fmt::format("d_model / heads = {} must be even (rotary positions turn pairs)", c.head_dim()));
    if (c.d_model % quant_block != 0)
        refuse("d_model", fmt::format("must be a multiple of {} (the Q8_0 and Q4_0 blocks), got {}", quant_block, c.d_model));
    if (c.ffn % quant_block != 0)
        refuse("ffn", fmt::format("must be a multiple of {} (the Q8_0 and Q4_0 blocks), got {}", quant_block, c.ffn));
}

std::int64_t llm_matrix_weights(const LlmConfig& c) {
    const std::int64_t d = c.d_model, kv = c.kv_dim(), f = c.ffn;
    const std::int64_t per_layer = d * d * 2 + kv * d * 2 + f * d * 3;  // q and o, k and v, gate, up and down
    return per_layer * c.layers + std::int64_t(c.vocab) * d;
}

std::int64_t llm_matrix_bytes(const LlmConfig& c, Quant quant) {
    return static_cast<std::int64_t>(quant_bytes(quant, static_cast<std::size_t>(llm_matrix_weights(c))));
}

std::int64_t llm_kv_bytes(const LlmConfig& c, int context) {
    return std::int64_t(2) * c.layers * context * c.kv_dim() * std::int64_t(sizeof(float));
}

std::int64_t llm_decoder_bytes(const LlmConfig& c, Quant quant, int sequences, int capacity) {
    const auto embedding = static_cast<std::int64_t>(quant_bytes(quant, std::size_t(c.vocab) * c.d_model));
    return llm_matrix_bytes(c, quant) + embedding + sequences * llm_kv_bytes(c, capacity);
}

}  // namespace payback::bench
