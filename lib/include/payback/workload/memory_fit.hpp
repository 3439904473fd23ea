// The memory an LLM needs on a device: its weights at a quantization, the KV cache at a context and
// batch, and the activations of one decoding step. Sizes are in GB of 2^30 bytes, the unit vendors
// size GPU memory in (an "8 GB" card holds 8 × 2^30 bytes), so they compare with gpus.csv's
// memory_gb directly.
#pragma once

#include "payback/workload/model_catalog.hpp"

namespace payback {

struct MemoryNeed {
    double weights_gb = 0;
    double kv_cache_gb = 0;
    double activations_gb = 0;
    double total_gb() const { return weights_gb + kv_cache_gb + activations_gb; }
};

/// Bytes in a GB as memory_gb counts them.
inline constexpr double bytes_per_gb = 1024.0 * 1024.0 * 1024.0;

/// weights = parameters × bits_per_weight / 8 (all of a mixture of experts' weights are resident);
/// KV cache = 2 (K and V) × layers × kv_heads × head_dim × context × batch × kv_bytes_per_element
/// (2: F16, llama.cpp's default); activations = batch × 4 bytes × (vocabulary logits + heads × context
/// attention scores + 4 × d_model + 2 × ffn), the F32 buffers one decoding step holds at once.
/// InputError (key "workload") when the model is no LLM or lacks a shape column.
MemoryNeed llm_memory(const ModelSpec& model, const QuantFormat& quant, int context, int batch,
                      double kv_bytes_per_element = 2);

}  // namespace payback
