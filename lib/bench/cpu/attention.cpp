#include "cpu/attention.hpp"

#include <algorithm>

#include "cpu/kernels.hpp"
#include "cpu/transformer_kernels.hpp"

namespace payback::bench::cpu {
namespace {

// Rows of scores handled together: a block of query rows needs the keys up to its last row only, so
// the products skip most of the masked upper triangle.
constexpr int row_block = 64;

}  // namespace

void attention_forward(HeadView view, const float* q, const float* k, const float* v, float scale, float* probs,
                       float* out) {
    const int length = view.length;
    const TransformerKernels& kernels = transformer_kernels();
    for (int i0 = 0; i0 < length; i0 += row_block) {
        const int i1 = std::min(length, i0 + row_block);
        float* block = probs + std::ptrdiff_t(i0) * length;
        gemm_abt(i1 - i0, i1, view.head_dim, q + i0 * view.qkv_stride, view.qkv_stride, k, view.qkv_stride, block,
                 length, false);
        for (int i = i0; i < i1; ++i) {
            float* row = probs + std::ptrdiff_t(i) * length;
            const int n = i + 1;
            for (int j = 0; j < n; ++j) row[j] *= scale;
            kernels.attention_softmax(row, length, 1, n);
            std::fill(row + n, row + length, 0.0f);
        }
        gemm(i1 - i0, view.head_dim, i1, {block, length, 1}, {v, view.qkv_stride, 1}, out + i0 * view.out_stride,
             view.out_stride, false);
    }
}

void attention_backward(HeadView view, const float* q, const float* k, const float* v, const float* probs,
                        const float* dout, float scale, float* dq, float* dk, float* dv, float* work) {
    const int length = view.length;
    // work ← dscores: dP = dout·vᵀ, then P ⊙ (dP − Σ_j P·dP)·scale, 0 above the diagonal.
    for (int i0 = 0; i0 < length; i0 += row_block) {
        const int i1 = std::min(length, i0 + row_block);
        float* block = work + std::ptrdiff_t(i0) * length;
        gemm_abt(i1 - i0, i1, view.head_dim, dout + i0 * view.out_stride, view.out_stride, v, view.qkv_stride, block,
                 length, false);
        for (int i = i0; i < i1; ++i) {
            float* row = work + std::ptrdiff_t(i) * length;
            const float* p = probs + std::ptrdiff_t(i) * length;
            const int n = i + 1;
            float dot = 0.0f;
            for (int j = 0; j < n; ++j) dot += p[j] * row[j];
            for (int j = 0; j < n; ++j) row[j] = p[j] * (row[j] - dot) * scale;
            std::fill(row + n, row + length, 0.0f);
        }
        gemm(i1 - i0, view.head_dim, i1, {block, length, 1}, {k, view.qkv_stride, 1}, dq + i0 * view.qkv_stride,
             view.qkv_stride, false);
    }
    // dk = dscoresᵀ·q and dv = Pᵀ·dout; the zeros above the diagonal keep the sums causal.
    gemm(length, view.head_dim, length, {work, 1, length}, {q, view.qkv_stride, 1}, dk, view.qkv_stride, false);
    gemm(length, view.head_dim, length, {probs, 1, length}, {dout, view.out_stride, 1}, dv, view.qkv_stride, false);
}

}  // namespace payback::bench::cpu
