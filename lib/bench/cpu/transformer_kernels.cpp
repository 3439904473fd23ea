#include "cpu/transformer_kernels.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

// Compiled once per instruction set (cmake/PaybackIsa.cmake); the loops are written for the
// vectorizer: no calls into libm, no branches inside.

namespace payback::bench::cpu {
namespace {

constexpr float layer_norm_eps = 1e-5f;

/// e^x for x in [−87, 88] (clamped outside), Cephes' expf: x = n·ln 2 + r with |r| ≤ ln 2 / 2, e^r by a
/// degree-7 polynomial, 2^n put into the exponent bits.
inline float exp_poly(float x) {
    x = std::min(88.0f, std::max(-87.0f, x));
    // n = x/ln 2 rounded to the nearest integer by adding and taking away 1.5·2^23: std::floor, or a
    // comparison, keeps GCC from vectorizing the loop (they may raise floating-point flags).
    constexpr float round_shift = 12582912.0f;
    const float n = (x * 1.44269504088896341f + round_shift) - round_shift;
    const float r = (x - n * 0.693359375f) + n * 2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * r * r + r + 1.0f;
    return p * std::bit_cast<float>((static_cast<std::int32_t>(n) + 127) << 23);
}

/// tanh u = 1 − 2/(e^{2u} + 1): ±1 where e^{2u} saturates, absolute error a few 1e-8 near 0.
inline float tanh_poly(float u) { return 1.0f - 2.0f / (exp_poly(2.0f * u) + 1.0f); }

/// Σ f(j) for j < n in sixteen running sums, so that the loop vectorizes without reassociating floats.
constexpr int lanes = 16;
template <class Term>
inline float lane_sum(int n, Term term) {
    float partial[lanes] = {};
    int j = 0;
    for (; j + lanes <= n; j += lanes)
        for (int l = 0; l < lanes; ++l) partial[l] += term(j + l);
    float sum = 0.0f;
    for (; j < n; ++j) sum += term(j);
    for (const float p : partial) sum += p;
    return sum;
}

constexpr float gelu_k = 0.7978845608028654f;  // √(2/π)
constexpr float gelu_c = 0.044715f;

void layer_norm_forward(const float* x, int rows, int d, const float* gamma, const float* beta, float* y,
                        float* mean, float* rstd) {
    for (int r = 0; r < rows; ++r, x += d, y += d) {
        const float mu = lane_sum(d, [&](int j) { return x[j]; }) / static_cast<float>(d);
        const float squares = lane_sum(d, [&](int j) { return (x[j] - mu) * (x[j] - mu); });
        const float inv = 1.0f / std::sqrt(squares / static_cast<float>(d) + layer_norm_eps);
        for (int j = 0; j < d; ++j) y[j] = (x[j] - mu) * inv * gamma[j] + beta[j];
        mean[r] = mu;
        rstd[r] = inv;
    }
}

void layer_norm_backward(const float* dy, const float* x, const float* mean, const float* rstd, const float* gamma,
                         int rows, int d, float* dx, bool accumulate) {
    // dx = rstd·(g − mean(g) − x̂·mean(g·x̂)) with g = dy·gamma and x̂ = (x − mean)·rstd.
    for (int r = 0; r < rows; ++r, dy += d, x += d, dx += d) {
        const float mu = mean[r], inv = rstd[r];
        const float g_sum = lane_sum(d, [&](int j) { return dy[j] * gamma[j]; });
        const float gx_sum = lane_sum(d, [&](int j) { return dy[j] * gamma[j] * (x[j] - mu) * inv; });
        const float g_mean = g_sum / static_cast<float>(d), gx_mean = gx_sum / static_cast<float>(d);
        for (int j = 0; j < d; ++j) {
            const float v = inv * (dy[j] * gamma[j] - g_mean - (x[j] - mu) * inv * gx_mean);
            dx[j] = accumulate ? dx[j] + v : v;
        }
    }
}

void gelu_forward(const float* x, float* y, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        const float v = x[i];
        y[i] = 0.5f * v * (1.0f + tanh_poly(gelu_k * (v + gelu_c * v * v * v)));
    }
}

void gelu_backward(const float* x, const float* dy, float* dx, std::size_t n) {
    // d/dx of 0.5·x·(1 + t), t = tanh(u), u = k·(x + c·x³): 0.5·(1 + t) + 0.5·x·(1 − t²)·k·(1 + 3c·x²).
    for (std::size_t i = 0; i < n; ++i) {
        const float v = x[i];
        const float t = tanh_poly(gelu_k * (v + gelu_c * v * v * v));
        const float slope = 0.5f * (1.0f + t) + 0.5f * v * (1.0f - t * t) * gelu_k * (1.0f + 3.0f * gelu_c * v * v);
        dx[i] = dy[i] * slope;
    }
}

float exp_shifted(float* x, int n, float shift) {
    for (int j = 0; j < n; ++j) x[j] = exp_poly(x[j] - shift);
    return lane_sum(n, [&](int j) { return x[j]; });
}

/// `lanes` floats as one value (GCC's and Clang's vector extension): one AVX-512 register, two AVX2 ones.
/// The attention kernels hold their sums in these: as arrays of floats GCC kept some on the stack, a
/// store and a load for every key or value row.
using Lanes = float __attribute__((vector_size(lanes * sizeof(float))));
constexpr int key_vectors = attention_key_block / lanes;

/// Heads query heads' scores for one tile of keys. Two heads at a time give eight independent sums, the
/// two multiply-add units' latency over; each score sums its head_dim products in order.
template <int Heads>
void score_tile(const float* queries, int head_dim, const float* tile, float scale, float* scores,
                std::ptrdiff_t stride) {
    Lanes sums[Heads][key_vectors] = {};
    for (int e = 0; e < head_dim; ++e) {
        float query[Heads];
        for (int h = 0; h < Heads; ++h) query[h] = queries[std::ptrdiff_t(h) * head_dim + e];
        for (std::ptrdiff_t k = 0; k < key_vectors; ++k) {
            Lanes keys;  // one vector at a time: an array of them GCC copies through the stack
            std::memcpy(&keys, tile + std::ptrdiff_t(e) * attention_key_block + k * lanes, sizeof keys);
            for (int h = 0; h < Heads; ++h) sums[h][k] += query[h] * keys;
        }
    }
    for (int h = 0; h < Heads; ++h)
        for (std::ptrdiff_t k = 0; k < key_vectors; ++k) {
            const Lanes scaled = scale * sums[h][k];
            std::memcpy(scores + h * stride + k * lanes, &scaled, sizeof scaled);
        }
}

void attention_scores(const float* queries, int heads, const float* keys, int length, int head_dim, float scale,
                      float* scores, std::ptrdiff_t stride) {
    // A tile of keys (16 KB at head_dim 64) against every query head while it is in L1: the heads of a
    // KV group share their keys.
    for (int j0 = 0; j0 < length; j0 += attention_key_block) {
        const float* tile = keys + std::ptrdiff_t(j0) * head_dim;  // tile j0/64 starts at (j0/64)·head_dim·64
        int h = 0;
        for (; h + 2 <= heads; h += 2)
            score_tile<2>(queries + std::ptrdiff_t(h) * head_dim, head_dim, tile, scale, scores + h * stride + j0, stride);
        if (h < heads)
            score_tile<1>(queries + std::ptrdiff_t(h) * head_dim, head_dim, tile, scale, scores + h * stride + j0, stride);
    }
}

void attention_softmax(float* scores, std::ptrdiff_t stride, int heads, int length) {
    for (int h = 0; h < heads; ++h) {
        float* row = scores + h * stride;
        // The largest score in sixteen running maxima (a comparison the vectorizer takes, unlike std::max's
        // chain of dependent maxss), then e^(x − max) and their sum, then each divided by the sum.
        float maxima[lanes];
        std::fill_n(maxima, lanes, row[0]);
        int j = 0;
        for (; j + lanes <= length; j += lanes)
            for (int l = 0; l < lanes; ++l) maxima[l] = row[j + l] > maxima[l] ? row[j + l] : maxima[l];
        float top = row[0];
        for (; j < length; ++j) top = row[j] > top ? row[j] : top;
        for (const float m : maxima) top = m > top ? m : top;
        const float inverse = 1.0f / exp_shifted(row, length, top);
        for (j = 0; j < length; ++j) row[j] *= inverse;
    }
}

constexpr int value_block = 64;  ///< value rows that stay in L1 while every head adds them up (16 KB at head_dim 64)
constexpr int value_width = 64;  ///< a head's outputs summed at a time in registers
constexpr int value_vectors = value_width / lanes;

/// out h[e0, e0 + 64) += Σ_{j0 ≤ j < j1} weights[h·stride + j] · value j's elements [e0, e0 + 64), for Heads
/// heads: the block's sums in order, added once. Two heads at a time share each value row's loads.
template <int Heads>
void add_value_block(const float* weights, std::ptrdiff_t stride, const float* values, int j0, int j1, int head_dim,
                     int e0, float* out) {
    Lanes sums[Heads][value_vectors] = {};
    for (int j = j0; j < j1; ++j) {
        float weight[Heads];
        for (int h = 0; h < Heads; ++h) weight[h] = weights[h * stride + j];
        for (std::ptrdiff_t k = 0; k < value_vectors; ++k) {
            Lanes row;  // one vector at a time: an array of them GCC copies through the stack
            std::memcpy(&row, values + std::ptrdiff_t(j) * head_dim + e0 + k * lanes, sizeof row);
            for (int h = 0; h < Heads; ++h) sums[h][k] += weight[h] * row;
        }
    }
    for (int h = 0; h < Heads; ++h)
        for (std::ptrdiff_t k = 0; k < value_vectors; ++k)
            for (int e = 0; e < lanes; ++e) out[std::ptrdiff_t(h) * head_dim + e0 + k * lanes + e] += sums[h][k][e];
}

void attention_weighted_sum(const float* weights, std::ptrdiff_t stride, int heads, const float* values, int length,
                            int head_dim, float* out) {
    // Each output sums each block's values in order, then the blocks in order.
    std::fill(out, out + std::ptrdiff_t(heads) * head_dim, 0.0f);
    for (int j0 = 0; j0 < length; j0 += value_block) {
        const int j1 = std::min(length, j0 + value_block);
        int e0 = 0;
        for (; e0 + value_width <= head_dim; e0 += value_width) {
            int h = 0;
            for (; h + 2 <= heads; h += 2)
                add_value_block<2>(weights + h * stride, stride, values, j0, j1, head_dim, e0, out + std::ptrdiff_t(h) * head_dim);
            if (h < heads)
                add_value_block<1>(weights + h * stride, stride, values, j0, j1, head_dim, e0, out + std::ptrdiff_t(h) * head_dim);
        }
        for (int h = 0; h < heads && e0 < head_dim; ++h)  // the last head_dim % 64 outputs
            for (int j = j0; j < j1; ++j) {
                const float weight = weights[h * stride + j];
                const float* value = values + std::ptrdiff_t(j) * head_dim;
                float* sum = out + std::ptrdiff_t(h) * head_dim;
                for (int e = e0; e < head_dim; ++e) sum[e] += weight * value[e];
            }
    }
}

}  // namespace
}  // namespace payback::bench::cpu

namespace payback::PAYBACK_ISA_NAMESPACE {

const bench::cpu::TransformerKernels& gpt_transformer_kernels() {
    using namespace bench::cpu;
    static constexpr TransformerKernels kernels{&layer_norm_forward, &layer_norm_backward, &gelu_forward,
                                                &gelu_backward,      &exp_shifted,         &attention_scores,
                                                &attention_softmax,  &attention_weighted_sum};
    return kernels;
}

}  // namespace payback::PAYBACK_ISA_NAMESPACE
