// The gpt-small workload's element-wise passes: layer normalization, GELU (tanh form) and the
// exponentials of a softmax; attention's softmax, which the trainer and the decoder share; and the
// llm-decode workload's attention of one position over its cache (scores and the weighted sum of
// values). transformer_kernels.cpp is compiled once per instruction set (payback/base/isa_dispatch.hpp)
// as plain loops the compiler vectorizes, AVX-512 wide in x86-64-v4 (the scores and the weighted sum
// through GCC's vector extension, which keeps their sums in registers); its exponential is a
// polynomial (Cephes' expf, within 2 ulp) so that the loops vectorize at all.
// Single-threaded: the trainer gives each thread its own rows, the decoder its own KV heads.
#pragma once

#include <cstddef>

namespace payback::bench::cpu {

/// Keys that attention_scores takes at a time: a key cache is stored in tiles of this many positions.
inline constexpr int attention_key_block = 64;

/// Where element e of key j lies in a tiled key cache: tiles of attention_key_block positions one after
/// another, each head_dim rows of attention_key_block floats (row e holds the tile's keys' element e).
/// One load then holds a vector of keys' element e, and a tile is one stretch of memory.
inline std::ptrdiff_t tiled_key_index(int j, int e, int head_dim) {
    return (std::ptrdiff_t(j / attention_key_block) * head_dim + e) * attention_key_block + j % attention_key_block;
}

/// PyTorch's LayerNorm with eps 1e-5: y = (x − mean)·rstd·gamma + beta for `rows` rows of d floats;
/// mean and rstd (1/√(variance + eps), the biased variance) are kept per row for the backward pass.
struct TransformerKernels {
    void (*layer_norm_forward)(const float* x, int rows, int d, const float* gamma, const float* beta, float* y,
                               float* mean, float* rstd);
    /// dx (+)= the input gradient of layer_norm_forward given dy, from x and the kept mean and rstd.
    void (*layer_norm_backward)(const float* dy, const float* x, const float* mean, const float* rstd,
                                const float* gamma, int rows, int d, float* dx, bool accumulate);
    /// y = 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))) for n values (PyTorch's gelu(approximate="tanh")).
    void (*gelu_forward)(const float* x, float* y, std::size_t n);
    /// dx = dy·gelu′(x), PyTorch's formula; dx may be dy.
    void (*gelu_backward)(const float* x, const float* dy, float* dx, std::size_t n);
    /// x[j] ← exp(x[j] − shift) for j < n; returns their sum.
    float (*exp_shifted)(float* x, int n, float shift);
    /// scores[h·stride + j] = scale · (query h · key j) for h < heads and j < length rounded up to
    /// attention_key_block (at most stride). The queries are head_dim floats each, one after another; the
    /// keys are tiled (tiled_key_index), so that no sum runs across a vector's lanes.
    void (*attention_scores)(const float* queries, int heads, const float* keys, int length, int head_dim,
                             float scale, float* scores, std::ptrdiff_t stride);
    /// Each of `heads` rows of scores (stride apart) ← the softmax of its first `length` values.
    void (*attention_softmax)(float* scores, std::ptrdiff_t stride, int heads, int length);
    /// out h = Σ_{j < length} weights[h·stride + j] · value j for h < heads: the values and the outputs
    /// are head_dim floats each, one after another.
    void (*attention_weighted_sum)(const float* weights, std::ptrdiff_t stride, int heads, const float* values,
                                   int length, int head_dim, float* out);
};

/// The kernels of the active instruction set (payback::active_isa()).
const TransformerKernels& transformer_kernels();

}  // namespace payback::bench::cpu
