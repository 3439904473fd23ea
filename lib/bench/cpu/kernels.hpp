// The vectorized inner loops of the layers: matrix products, direct convolution, pooling. kernels.cpp
// is compiled once per instruction set (payback/base/isa.hpp): AVX2/FMA kernels in the x86-64-v3 variant,
// AVX-512 ones in x86-64-v4, portable loops in the baseline; the functions below call the variant
// chosen at run time. Single-threaded: the trainer gives each thread its own part.
#pragma once

#include <cstddef>
#include <cstdint>

namespace payback::bench::cpu {

/// A read-only matrix: element (i, j) is data[i * row_stride + j * col_stride].
struct MatrixView {
    const float* data;
    std::ptrdiff_t row_stride;
    std::ptrdiff_t col_stride;
};

/// One variant's kernels (kernels.cpp); the functions below say what each computes.
struct Kernels {
    void (*gemm)(int m, int n, int k, MatrixView a, MatrixView b, float* c, std::ptrdiff_t ldc, bool accumulate);
    void (*gemm_abt)(int m, int n, int k, const float* a, std::ptrdiff_t lda, const float* b, std::ptrdiff_t ldb,
                     float* c, std::ptrdiff_t ldc, bool accumulate);
    void (*conv_rows)(int m, int k, int rows, int width, const float* w, const float* x, const int* offsets,
                      std::ptrdiff_t x_row, float* y, bool accumulate);
    void (*conv_rows_weight_grad)(int m, int k, int rows, int width, const float* dy, const float* x,
                                  const int* offsets, std::ptrdiff_t x_row, float* dw, bool accumulate);
    void (*max_pool_plane)(const float* x, int height, int width, int kernel, bool relu, float* y,
                           std::int32_t* argmax, std::int32_t index_offset);
};

/// The kernels of the active instruction set (payback::active_isa()).
const Kernels& kernels();

/// C = A·B, or C += A·B when `accumulate`. A is m×k, B is k×n (fastest with B.col_stride == 1), C is
/// m×n row-major with leading dimension ldc.
inline void gemm(int m, int n, int k, MatrixView a, MatrixView b, float* c, std::ptrdiff_t ldc, bool accumulate) {
    kernels().gemm(m, n, k, a, b, c, ldc, accumulate);
}

/// C = A·Bᵀ, or C += A·Bᵀ: A is m×k and B is n×k, both row-major, so that each element of C is the dot
/// product of two contiguous rows (a linear layer's forward pass, a convolution's weight gradient).
inline void gemm_abt(int m, int n, int k, const float* a, std::ptrdiff_t lda, const float* b, std::ptrdiff_t ldb,
                     float* c, std::ptrdiff_t ldc, bool accumulate) {
    kernels().gemm_abt(m, n, k, a, lda, b, ldb, c, ldc, accumulate);
}

/// A stride-1 convolution with its input read in place, row by row (no im2col copy): for output rows
/// r < rows and columns q < width, y[o][r·width + q] (+)= Σ_p w[o][p]·x[offsets[p] + r·x_row + q], where
/// p runs over the k (channel, kernel row, kernel column) taps and offsets[p] locates each in x. y's
/// channels are rows·width apart; w is m×k row-major.
inline void conv_rows(int m, int k, int rows, int width, const float* w, const float* x, const int* offsets,
                      std::ptrdiff_t x_row, float* y, bool accumulate) {
    kernels().conv_rows(m, k, rows, width, w, x, offsets, x_row, y, accumulate);
}

/// The weight gradient of conv_rows: dw[o][p] (+)= Σ_r Σ_q dy[o][r·width + q]·x[offsets[p] + r·x_row + q].
inline void conv_rows_weight_grad(int m, int k, int rows, int width, const float* dy, const float* x,
                                  const int* offsets, std::ptrdiff_t x_row, float* dw, bool accumulate) {
    kernels().conv_rows_weight_grad(m, k, rows, width, dy, x, offsets, x_row, dw, accumulate);
}

/// Max-pooling of one channel plane (height × width), window = stride = kernel, the output rounded down:
/// y holds each window's maximum and argmax the index in the plane, plus `index_offset`, of its first
/// maximum in row-major order (NaN wins, as in PyTorch). With `relu` the plane is taken through a relu
/// first: y is relu(max), the same as the max of the relu, and argmax the same wherever y > 0 (elsewhere
/// the gradient is zero whichever input it names).
inline void max_pool_plane(const float* x, int height, int width, int kernel, bool relu, float* y,
                           std::int32_t* argmax, std::int32_t index_offset) {
    kernels().max_pool_plane(x, height, width, kernel, relu, y, argmax, index_offset);
}

}  // namespace payback::bench::cpu
