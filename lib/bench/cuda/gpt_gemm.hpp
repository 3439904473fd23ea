// gpt-small's matrix products written row-major, as the model is, and handed to cuBLAS column-major:
// C = alpha·op(A)·op(B), C [M, N], op(A) [M, K], op(B) [K, N], all stored row-major, where op
// transposes a matrix stored [K, M] (or [N, K]). Batched: `count` such products, each operand `stride`
// floats after the last (the attention's (sequence, head) pairs). Plain C++: the trainer hands a
// GptGemm to cuBLAS, the host test to a loop.
//
// The mapping (gemm_mapping.hpp's one fact: row-major [r, c] is column-major [c, r], ld c):
//   Cᵀ [N, M] = op(B)ᵀ · op(A)ᵀ in column-major terms, so
//   cuBLAS A' = B's memory: op T when op(B) transposes (stored [N, K]: column-major [K, N], ld K),
//                          else op N (stored [K, N]: column-major [N, K], ld N);
//   cuBLAS B' = A's memory: op T when op(A) transposes (stored [K, M]: ld M), else op N (stored [M, K]: ld K);
//   m' = N, n' = M, k' = K; C' = C's memory, ld N.
#pragma once

#include "gemm_mapping.hpp"

namespace payback::bench::gpu {

struct GptGemm {
    Gemm gemm;  ///< column-major, for cuBLAS
    float alpha = 1.0f;
    int count = 1;
    long long stride_a = 0, stride_b = 0, stride_c = 0;  ///< of cuBLAS's A', B' and C', in floats
};

inline GptGemm row_major_gemm(bool transpose_a, bool transpose_b, int m, int n, int k, const float* a, const float* b,
                              float* c, float alpha = 1.0f) {
    GptGemm g;
    g.gemm = {transpose_b, transpose_a, n, m, k, b, transpose_b ? k : n, a, transpose_a ? m : k, c, n};
    g.alpha = alpha;
    return g;
}

/// `count` products; the strides are of A, B and C as given here (row-major names).
inline GptGemm batched_row_major_gemm(bool transpose_a, bool transpose_b, int m, int n, int k, const float* a,
                                      long long stride_a, const float* b, long long stride_b, float* c,
                                      long long stride_c, int count, float alpha = 1.0f) {
    GptGemm g = row_major_gemm(transpose_a, transpose_b, m, n, k, a, b, c, alpha);
    g.count = count;
    g.stride_a = stride_b;  // cuBLAS's A' is our B
    g.stride_b = stride_a;
    g.stride_c = stride_c;
    return g;
}

/// Floats of cuBLAS's operand `ld`-strided with `rows` stored rows (column-major: m or k) and `cols`
/// columns, over `count` matrices `stride` apart: what a conversion to BF16 must cover.
inline long long operand_span(int rows, int cols, int ld, int count, long long stride) {
    return static_cast<long long>(count - 1) * stride + static_cast<long long>(ld) * (cols - 1) + rows;
}

/// The spans of A' and B' of a GptGemm.
inline long long span_of_a(const GptGemm& g) {
    const Gemm& m = g.gemm;
    return m.transpose_a ? operand_span(m.k, m.m, m.lda, g.count, g.stride_a)
                         : operand_span(m.m, m.k, m.lda, g.count, g.stride_a);
}
inline long long span_of_b(const GptGemm& g) {
    const Gemm& m = g.gemm;
    return m.transpose_b ? operand_span(m.n, m.k, m.ldb, g.count, g.stride_b)
                         : operand_span(m.k, m.n, m.ldb, g.count, g.stride_b);
}

}  // namespace payback::bench::gpu
