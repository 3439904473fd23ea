// The gpt-small workload's element-wise passes: layer normalization, GELU (tanh form) and the
// exponentials of a softmax. transformer_kernels.cpp is compiled once per instruction set
// (payback/base/isa_dispatch.hpp) as plain loops the compiler vectorizes, AVX-512 wide in x86-64-v4;
// its exponential is a polynomial (Cephes' expf, within 2 ulp) so that the loops vectorize at all.
// Single-threaded: the trainer gives each thread its own rows.
#pragma once

#include <cstddef>

namespace payback::bench::cpu {

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
};

/// The kernels of the active instruction set (payback::active_isa()).
const TransformerKernels& transformer_kernels();

}  // namespace payback::bench::cpu
