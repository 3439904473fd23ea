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

void attention_scores(const float* queries, int heads, const float* keys, std::ptrdiff_t stride, int length,
                      int head_dim, float scale, float* scores) {
    // A block of keys (16 KB at head_dim 64) against every query head while it is in L1: the heads of a
    // KV group share their keys. Each score sums its head_dim products in order, whatever its block.
    for (int j0 = 0; j0 < length; j0 += attention_key_block)
        for (int h = 0; h < heads; ++h) {
            const float* query = queries + std::ptrdiff_t(h) * head_dim;
            float sums[attention_key_block] = {};
            for (int e = 0; e < head_dim; ++e) {
                const float* row = keys + e * stride + j0;
                for (int l = 0; l < attention_key_block; ++l) sums[l] += query[e] * row[l];
            }
            float* out = scores + h * stride + j0;
            for (int l = 0; l < attention_key_block; ++l) out[l] = scale * sums[l];
        }
}

/// `lanes` floats as one value (GCC's and Clang's vector extension): one AVX-512 register, two AVX2 ones.
using Lanes = float __attribute__((vector_size(lanes * sizeof(float))));

void attention_weighted_sum(const float* weights, std::ptrdiff_t stride, int heads, const float* values, int length,
                            int head_dim, float* out) {
    // Blocks of value rows (16 KB at head_dim 64) that stay in L1 while every head adds them up, 64 of
    // a head's outputs at a time in registers. Each output sums each block's values in order, then the
    // blocks in order.
    constexpr int block = 64, width = 64;
    std::fill(out, out + std::ptrdiff_t(heads) * head_dim, 0.0f);
    for (int j0 = 0; j0 < length; j0 += block) {
        const int j1 = std::min(length, j0 + block);
        for (int h = 0; h < heads; ++h) {
            const float* weight = weights + h * stride;
            for (int e0 = 0; e0 < head_dim; e0 += width) {
                float* sum = out + std::ptrdiff_t(h) * head_dim + e0;
                if (head_dim - e0 >= width) {
                    // The block's sums in four vectors, added once: as an array of floats GCC keeps them
                    // on the stack, a store and a load for every value row.
                    Lanes sums[width / lanes] = {};
                    for (int j = j0; j < j1; ++j) {
                        const float* value = values + std::ptrdiff_t(j) * head_dim + e0;
                        for (int k = 0; k < width / lanes; ++k) {
                            Lanes row;
                            std::memcpy(&row, value + std::ptrdiff_t(k) * lanes, sizeof row);  // an unaligned load
                            sums[k] += weight[j] * row;
                        }
                    }
                    for (int k = 0; k < width / lanes; ++k)
                        for (int e = 0; e < lanes; ++e) sum[k * lanes + e] += sums[k][e];
                } else {
                    for (int j = j0; j < j1; ++j) {
                        const float* value = values + std::ptrdiff_t(j) * head_dim + e0;
                        for (int e = 0; e < head_dim - e0; ++e) sum[e] += weight[j] * value[e];
                    }
                }
            }
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
                                                &attention_weighted_sum};
    return kernels;
}

}  // namespace payback::PAYBACK_ISA_NAMESPACE
