// The shape of a Llama-style decoder for the llm-decode workload: token embedding, `layers` blocks of
// RMSNorm → grouped-query attention with rotary positions → RMSNorm → SwiGLU feed-forward, a final
// RMSNorm and the output projection to the vocabulary (https://arxiv.org/abs/2302.13971).
#pragma once

#include <cstdint>
#include <string>

#include "payback/bench/quant.hpp"

namespace payback::bench {

struct LlmConfig {
    int layers = 12;
    int d_model = 768;
    int heads = 12;
    int kv_heads = 4;  ///< grouped-query attention: heads / kv_heads query heads share a key and value head
    int ffn = 2048;    ///< the feed-forward's hidden width (gate and up projections)
    int vocab = 32000;
    double rope_theta = 10000.0;
    double norm_eps = 1e-5;

    int head_dim() const { return d_model / heads; }
    int kv_dim() const { return head_dim() * kv_heads; }
};

/// The default llm-decode model: 12 layers, d_model 768, 12 heads, 4 KV heads, FFN 2048, vocabulary
/// 32,000 (about 100 M weights: 57 MB at Q4_0, beyond any CPU's cache).
LlmConfig default_llm_config();

/// Reads "layers=2,d_model=64,heads=4,kv_heads=2,ffn=128,vocab=96" over the default config; any key may
/// be left out. InputError naming the key for an unknown key, a value that is not a whole number, or a
/// shape the model cannot have (see validate_llm_config).
LlmConfig parse_llm_config(const std::string& text);

/// InputError naming the key when: a size is below 1; heads does not divide d_model, or kv_heads
/// heads; the head dimension is odd (rotary pairs); d_model or ffn is not a multiple of 32 (the blocks).
void validate_llm_config(const LlmConfig& config);

/// The weights the matrix products read for every token: the attention's and feed-forward's
/// projections and the output projection (not the embedding, of which a token reads one row).
std::int64_t llm_matrix_weights(const LlmConfig& config);

/// Bytes of those weights in `quant`: what a decode step must stream from memory.
std::int64_t llm_matrix_bytes(const LlmConfig& config, Quant quant);

/// Bytes of the key and value cache one token's attention reads at `context` earlier positions (float32).
std::int64_t llm_kv_bytes(const LlmConfig& config, int context);

/// Bytes the CPU decoder (LlmDecoder) holds for `sequences` sequences of up to `capacity` positions: the
/// matrices and the embedding table in `quant`, and every sequence's key and value cache; its scratch is
/// small beside them. What `payback bench` checks against the machine's memory before making one.
std::int64_t llm_decoder_bytes(const LlmConfig& config, Quant quant, int sequences, int capacity);

}  // namespace payback::bench
