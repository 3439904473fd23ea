// gpt-small's matrix products written row-major, as the model is, and handed to cuBLASLt column-major:
// C = alpha·op(A)·op(B), C [M, N], op(A) [M, K], op(B) [K, N], all stored row-major, where op
// transposes a matrix stored [K, M] (or [N, K]). Batched: `count` such products, each operand `stride`
// floats after the last (the attention's (sequence, head) pairs). Plain C++: the trainer hands a
// GptGemm's layouts to cuBLASLt (lt_matmul.hpp), the host test to a loop that reads only them.
//
// The mapping (gemm_mapping.hpp's one fact: row-major [r, c] is column-major [c, r], ld c):
//   Cᵀ [N, M] = op(B)ᵀ · op(A)ᵀ in column-major terms, so
//   cuBLAS A' = B's memory: op T when op(B) transposes (stored [N, K]: column-major [K, N], ld K),
//                          else op N (stored [K, N]: column-major [N, K], ld N);
//   cuBLAS B' = A's memory: op T when op(A) transposes (stored [K, M]: ld M), else op N (stored [M, K]: ld K);
//   m' = N, n' = M, k' = K; C' = C's memory, ld N.
#pragma once

#include <cstddef>
#include <cstdint>

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

/// One operand as cuBLASLt's matrix layout describes it: column-major, `rows` × `cols` stored with
/// leading dimension `ld`, `count` matrices `stride` elements apart. A's and B's are stored as given,
/// before op: [k, m] for op T, [m, k] for op N (B's: [n, k] and [k, n]); C's is [m, n].
struct MatrixLayout {
    long long rows = 0, cols = 0, ld = 0;
    int count = 1;
    long long stride = 0;
};

inline MatrixLayout layout_of_a(const GptGemm& g) {
    const Gemm& m = g.gemm;
    return {m.transpose_a ? m.k : m.m, m.transpose_a ? m.m : m.k, m.lda, g.count, g.stride_a};
}
inline MatrixLayout layout_of_b(const GptGemm& g) {
    const Gemm& m = g.gemm;
    return {m.transpose_b ? m.n : m.k, m.transpose_b ? m.k : m.n, m.ldb, g.count, g.stride_b};
}
inline MatrixLayout layout_of_c(const GptGemm& g) {
    const Gemm& m = g.gemm;
    return {m.m, m.n, m.ldc, g.count, g.stride_c};
}

/// Elements from an operand's first to its last: what a conversion to BF16 must cover.
inline long long span(const MatrixLayout& l) {
    return static_cast<long long>(l.count - 1) * l.stride + l.ld * (l.cols - 1) + l.rows;
}

/// The largest power of two, at most 256 (cuBLASLt's default requirement), dividing the address of
/// every matrix of an operand at `address`: cuBLASLt is told it, so that it picks no kernel needing more.
inline unsigned alignment(std::uintptr_t address, const MatrixLayout& l, std::size_t element_bytes) {
    std::uintptr_t bits = address | 256;
    if (l.count > 1) bits |= static_cast<std::uintptr_t>(l.stride) * element_bytes;
    return static_cast<unsigned>(bits & (~bits + 1));  // the lowest set bit
}

}  // namespace payback::bench::gpu
