// The vectorized inner loops of the layers: matrix products, direct convolution, pooling. AVX2/FMA
// kernels where the CPU has them (chosen at run time, so the build needs no -march flag), portable
// loops elsewhere. Single-threaded: the trainer gives each thread its own part.
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

/// C = A·B, or C += A·B when `accumulate`. A is m×k, B is k×n (fastest with B.col_stride == 1), C is
/// m×n row-major with leading dimension ldc.
void gemm(int m, int n, int k, MatrixView a, MatrixView b, float* c, std::ptrdiff_t ldc, bool accumulate);

/// C = A·Bᵀ, or C += A·Bᵀ: A is m×k and B is n×k, both row-major, so that each element of C is the dot
/// product of two contiguous rows (a linear layer's forward pass, a convolution's weight gradient).
void gemm_abt(int m, int n, int k, const float* a, std::ptrdiff_t lda, const float* b, std::ptrdiff_t ldb,
              float* c, std::ptrdiff_t ldc, bool accumulate);

/// A stride-1 convolution with its input read in place, row by row (no im2col copy): for output rows
/// r < rows and columns q < width, y[o][r·width + q] (+)= Σ_p w[o][p]·x[offsets[p] + r·x_row + q], where
/// p runs over the k (channel, kernel row, kernel column) taps and offsets[p] locates each in x. y's
/// channels are rows·width apart; w is m×k row-major.
void conv_rows(int m, int k, int rows, int width, const float* w, const float* x, const int* offsets,
               std::ptrdiff_t x_row, float* y, bool accumulate);

/// The weight gradient of conv_rows: dw[o][p] (+)= Σ_r Σ_q dy[o][r·width + q]·x[offsets[p] + r·x_row + q].
void conv_rows_weight_grad(int m, int k, int rows, int width, const float* dy, const float* x, const int* offsets,
                           std::ptrdiff_t x_row, float* dw, bool accumulate);

/// Max-pooling of one channel plane (height × width), window = stride = kernel, the output rounded down:
/// y holds each window's maximum and argmax the index in the plane, plus `index_offset`, of its first
/// maximum in row-major order (NaN wins, as in PyTorch). With `relu` the plane is taken through a relu
/// first: y is relu(max), the same as the max of the relu, and argmax the same wherever y > 0 (elsewhere
/// the gradient is zero whichever input it names).
void max_pool_plane(const float* x, int height, int width, int kernel, bool relu, float* y, std::int32_t* argmax,
                    std::int32_t index_offset);

/// Whether the AVX2/FMA kernels are in use. Tests switch them off to check the portable ones; switching
/// them on has no effect on a CPU without AVX2 and FMA.
bool simd_kernels_enabled();
void enable_simd_kernels(bool on);

}  // namespace payback::bench::cpu
