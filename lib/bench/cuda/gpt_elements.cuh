// The per-element math of gpt-small's CUDA kernels (gpt_kernels.cu), written once for the GPU and the
// host, as elements.cuh is for the training networks: a test runs them in plain loops over the same
// indices (tests/lib/bench/gpt_cuda_host_test.cpp) and compares with PyTorch's fixture.
//
// Row-wise passes (LayerNorm, the causal softmax, cross-entropy) are split into a term (one j of a
// row's sum or maximum) and a finishing function (one element, given the row's reductions): the GPU
// gives a row to a block and reduces the terms across its threads, the host adds them in a loop.
// All tensors are row-major; T = batch·sequence token rows; flat indices are int (gpt_plan.hpp checks
// that every tensor of the step has fewer than 2^31 elements).
#pragma once

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "elements.cuh"

namespace payback::bench::gpu {

// ---- embedding ------------------------------------------------------------------------------------------
// x[r, j] = wte[tokens[r], j] + wpe[r % S, j], idx = r·d + j.
PAYBACK_HD inline float embedding_at(int idx, const int* tokens, const float* wte, const float* wpe, int d,
                                     int sequence) {
    const int r = idx / d, j = idx % d;
    return wte[tokens[r] * d + j] + wpe[(r % sequence) * d + j];
}

/// The position embedding's gradient, a gather over the batch: dwpe[s, j] = Σ_b dx[b·S + s, j],
/// idx = s·d + j (each output written once: no atomics).
PAYBACK_HD inline float position_grad_at(int idx, const float* dx, int d, int sequence, int batch) {
    float sum = 0.0f;
    for (int b = 0; b < batch; ++b) sum += dx[b * sequence * d + idx];
    return sum;
}

/// Where dx[r, j] goes in the token embedding's gradient (tokens repeat: the GPU adds atomically).
PAYBACK_HD inline int token_grad_index(int idx, const int* tokens, int d) { return tokens[idx / d] * d + idx % d; }

// ---- LayerNorm (PyTorch's, eps 1e-5, biased variance) ----------------------------------------------------
constexpr float gpt_layer_norm_eps = 1e-5f;

/// rstd from a row's Σ(x − mean)² over d values.
PAYBACK_HD inline float layer_norm_rstd(float squares, int d) {
    return 1.0f / sqrtf(squares / static_cast<float>(d) + gpt_layer_norm_eps);
}

PAYBACK_HD inline float layer_norm_out(float x, float mean, float rstd, float gamma, float beta) {
    return (x - mean) * rstd * gamma + beta;
}

/// dx = rstd·(g − mean(g) − x̂·mean(g·x̂)) with g = dy·γ, x̂ = (x − mean)·rstd; the row's terms are
/// g (sum g_sum) and g·x̂ (sum gx_sum).
PAYBACK_HD inline float layer_norm_grad_term(float dy, float gamma) { return dy * gamma; }
PAYBACK_HD inline float layer_norm_grad_x_term(float dy, float gamma, float x, float mean, float rstd) {
    return dy * gamma * (x - mean) * rstd;
}
PAYBACK_HD inline float layer_norm_dx(float dy, float gamma, float x, float mean, float rstd, float g_sum,
                                      float gx_sum, int d) {
    const float inv_d = 1.0f / static_cast<float>(d);
    return rstd * (dy * gamma - g_sum * inv_d - (x - mean) * rstd * gx_sum * inv_d);
}

/// dγ[j] = Σ_r dy[r, j]·x̂[r, j] and dβ[j] = Σ_r dy[r, j]: one thread a column j, rows in order.
PAYBACK_HD inline void layer_norm_param_grad_at(int j, const float* dy, const float* x, const float* mean,
                                                const float* rstd, int rows, int d, float* dgamma, float* dbeta) {
    float dg = 0.0f, db = 0.0f;
    for (int r = 0; r < rows; ++r) {
        const float g = dy[r * d + j];
        dg += g * (x[r * d + j] - mean[r]) * rstd[r];
        db += g;
    }
    dgamma[j] = dg;
    dbeta[j] = db;
}

// ---- GELU, tanh form (PyTorch's gelu(approximate="tanh")) -------------------------------------------------
constexpr float gelu_k = 0.7978845608028654f;  // √(2/π)
constexpr float gelu_c = 0.044715f;

PAYBACK_HD inline float gelu_at(float x) { return 0.5f * x * (1.0f + tanhf(gelu_k * (x + gelu_c * x * x * x))); }

/// d/dx of 0.5·x·(1 + t), t = tanh(k·(x + c·x³)): 0.5·(1 + t) + 0.5·x·(1 − t²)·k·(1 + 3c·x²).
PAYBACK_HD inline float gelu_grad_at(float x, float dy) {
    const float t = tanhf(gelu_k * (x + gelu_c * x * x * x));
    return dy * (0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * gelu_k * (1.0f + 3.0f * gelu_c * x * x));
}

// ---- heads: token rows [T, parts·d] ↔ head-major [parts, B, H, S, hd] --------------------------------------
// The attention's batched products want each (b, h) as a dense [S, hd] matrix; qkv's rows hold
// query, key and value side by side (parts = 3), the attention output one part (parts = 1).
struct HeadShape {
    int batch, heads, sequence, head_dim;
    PAYBACK_HD int d() const { return heads * head_dim; }
};

/// The row-major index, in [T, parts·d], of head-major element idx = (((p·B + b)·H + h)·S + s)·hd + e.
PAYBACK_HD inline int row_index_of_head_element(int idx, const HeadShape& s, int parts) {
    const int e = idx % s.head_dim;
    int t = idx / s.head_dim;
    const int pos = t % s.sequence;
    t /= s.sequence;
    const int h = t % s.heads;
    t /= s.heads;
    const int b = t % s.batch;
    const int p = t / s.batch;
    return (b * s.sequence + pos) * (parts * s.d()) + p * s.d() + h * s.head_dim + e;
}

/// The inverse: the head-major index of row-major element idx = r·(parts·d) + c.
PAYBACK_HD inline int head_index_of_row_element(int idx, const HeadShape& s, int parts) {
    const int width = parts * s.d();
    const int r = idx / width, c = idx % width;
    const int b = r / s.sequence, pos = r % s.sequence;
    const int p = c / s.d(), h = (c % s.d()) / s.head_dim, e = c % s.head_dim;
    return (((p * s.batch + b) * s.heads + h) * s.sequence + pos) * s.head_dim + e;
}

// ---- causal softmax over a row of scores -----------------------------------------------------------------
// Row ρ = (b·H + h)·S + i of the scores [B·H·S, S] attends to keys j ≤ i = ρ % S; the rest are masked.
PAYBACK_HD inline int causal_row_length(int row, int sequence) { return row % sequence + 1; }

/// p_j = exp(s_j − m)/Σ for j ≤ i, 0 above the diagonal (m the row's maximum over j ≤ i).
PAYBACK_HD inline float causal_softmax_at(float score, int j, int length, float max, float inv_sum) {
    return j < length ? expf(score - max) * inv_sum : 0.0f;
}

/// The backward: ds_j = p_j·(dp_j − Σ_k p_k·dp_k); masked entries have p_j = 0, so 0.
PAYBACK_HD inline float softmax_grad_at(float p, float dp, float dot) { return p * (dp - dot); }

// ---- mean cross-entropy over a row of logits [V] ------------------------------------------------------------
// loss_r = m + log Σ_j exp(z_j − m) − z_target, dz_j = (softmax_j − [j = target])·scale, scale = 1/T.
PAYBACK_HD inline float cross_entropy_row_loss(float max, float sum, float target_logit) {
    return max + logf(sum) - target_logit;
}
PAYBACK_HD inline float cross_entropy_grad_at(float z, int j, int target, float max, float inv_sum, float scale) {
    return (expf(z - max) * inv_sum - (j == target ? 1.0f : 0.0f)) * scale;
}

// ---- BF16 (the top 16 bits of an FP32, rounded to nearest even) --------------------------------------------
// What the mixed-precision GEMMs read: 8 bits of mantissa, so a relative rounding of at most 2^-8 (8 significant bits).
PAYBACK_HD inline uint16_t float_to_bf16_bits(float value) {
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((bits >> 16) | 0x0040u);  // a quiet NaN
    bits += 0x7fffu + ((bits >> 16) & 1u);  // ties go to the even neighbour
    return static_cast<uint16_t>(bits >> 16);
}

PAYBACK_HD inline float bf16_bits_to_float(uint16_t half) {
    const uint32_t bits = static_cast<uint32_t>(half) << 16;
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

}  // namespace payback::bench::gpu
