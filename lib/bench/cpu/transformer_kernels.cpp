#include "cpu/transformer_kernels.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>

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

}  // namespace
}  // namespace payback::bench::cpu

namespace payback::PAYBACK_ISA_NAMESPACE {

const bench::cpu::TransformerKernels& gpt_transformer_kernels() {
    using namespace bench::cpu;
    static constexpr TransformerKernels kernels{&layer_norm_forward, &layer_norm_backward, &gelu_forward,
                                                &gelu_backward, &exp_shifted};
    return kernels;
}

}  // namespace payback::PAYBACK_ISA_NAMESPACE
