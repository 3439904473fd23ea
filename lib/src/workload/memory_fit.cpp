#include "payback/workload/memory_fit.hpp"

#include <fmt/format.h>

#include "payback/base/error.hpp"

namespace payback {

namespace {

// F32 logits, attention scores and hidden buffers: what llama.cpp's compute buffer holds per sequence.
constexpr double activation_bytes_per_element = 4;

int shape(const std::optional<int>& value, const ModelSpec& model, const char* column) {
    if (!value) throw InputError(model.file, model.line, column, fmt::format("{} has no {}", model.name, column));
    return *value;
}

}  // namespace

MemoryNeed llm_memory(const ModelSpec& model, const QuantFormat& quant, int context, int batch,
                      double kv_bytes_per_element) {
    if (model.kind != ModelKind::llm)
        throw InputError(model.file, model.line, "workload", model.name + " is a training workload, not an LLM");
    // kv_cache_bytes reads these three.
    shape(model.layers, model, "layers");
    shape(model.kv_heads, model, "kv_heads");
    shape(model.head_dim, model, "head_dim");
    const double d_model = shape(model.d_model, model, "d_model");
    const double heads = shape(model.heads, model, "heads");
    const double vocabulary = shape(model.vocabulary, model, "vocabulary");
    const double ffn = model.ffn.value_or(0);
    MemoryNeed need;
    // Every weight is held, the input embedding too: the experts in the format's bits, the rest in its others'.
    need.weights_gb = quant.bytes(model.parameters - model.expert_weights(), model.expert_weights()) / bytes_per_gb;
    need.kv_cache_gb = model.kv_cache_bytes(context, kv_bytes_per_element) * batch / bytes_per_gb;
    need.activations_gb = batch * activation_bytes_per_element *
                          (vocabulary + heads * context + 4 * d_model + 2 * ffn) / bytes_per_gb;
    return need;
}

}  // namespace payback
