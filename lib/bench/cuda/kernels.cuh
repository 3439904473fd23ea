// The CUDA trainer's kernels, launched on a stream; each launch is checked (launch errors throw at
// once, errors while running at the trainer's next synchronization). The math of each element is in
// elements.cuh; sizes are per the shapes there.
#pragma once

#include <cuda_runtime.h>

#include "elements.cuh"

namespace payback::bench::gpu {

void conv2d_forward(const float* x, const float* w, const float* bias, float* y, const ConvShape& s,
                    cudaStream_t stream);
void conv2d_backward_data(const float* dy, const float* w, float* dx, const ConvShape& s, cudaStream_t stream);
/// dw [O, C, K, K] and db [O], each a block reduction over N·OH·OW terms: no atomics, deterministic.
void conv2d_backward_params(const float* x, const float* dy, float* dw, float* db, const ConvShape& s,
                            cudaStream_t stream);

void relu_forward(const float* x, float* y, int count, cudaStream_t stream);
void relu_backward(const float* y, const float* dy, float* dx, int count, cudaStream_t stream);

void max_pool_forward(const float* x, float* y, int* argmax, const PoolShape& s, cudaStream_t stream);
void max_pool_backward(const float* dy, const int* argmax, float* dx, const PoolShape& s, cudaStream_t stream);

/// y [rows, cols] += b [cols] on every row.
void add_bias(float* y, const float* b, int rows, int cols, cudaStream_t stream);

/// Mean cross-entropy of logits z [rows, classes] against labels [rows]: *loss on the device, and
/// dz = ∂loss/∂z. One block (a deterministic sum).
void cross_entropy(const float* z, const int* labels, float* dz, float* loss, int rows, int classes,
                   cudaStream_t stream);

/// The SGD-with-momentum update of `count` parameters at once (all tensors lie in one buffer).
void sgd_momentum(float* p, const float* g, float* v, long long count, float learning_rate, float momentum,
                  bool first_step, cudaStream_t stream);

/// Whether this build has a kernel image (or PTX) that the current device can run: the error of
/// cudaFuncGetAttributes on one of the kernels (cudaSuccess when it can).
cudaError_t probe_kernels();

/// Fills `count` floats with `value` (the ones vector of the bias-gradient product).
void fill(float* data, float value, long long count, cudaStream_t stream);

}  // namespace payback::bench::gpu
