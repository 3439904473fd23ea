// The kernels: grid-stride loops over the element functions of elements.cuh, and block reductions
// for the sums (conv weight and bias gradients, the loss).
#include "kernels.cuh"

#include <algorithm>

#include "check.cuh"

namespace payback::bench::gpu {
namespace {

constexpr int kThreads = 256;      // every launch; a multiple of 32, which block_sum needs
constexpr long long kMaxBlocks = 8192;  // grid-stride loops cover the rest

/// Blocks for `count` elements, one per thread, capped (the loops stride over the rest).
int blocks_for(long long count) {
    const long long blocks = (count + kThreads - 1) / kThreads;
    return static_cast<int>(std::clamp(blocks, 1LL, kMaxBlocks));
}

// Grid-stride loop over [0, count): the index is 64-bit so that `i += stride` cannot overflow, and is
// passed on as int where the element functions index activations (count ≤ INT_MAX, see plan.hpp).
#define PAYBACK_GRID_STRIDE(i, count)                                                                  \
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < (count); \
         i += static_cast<long long>(blockDim.x) * gridDim.x)

/// The sum of `value` over the block, returned in thread 0 (other threads get partial sums).
/// Every thread of the block must call it (it synchronizes); blockDim.x must be a multiple of 32.
__device__ float block_sum(float value) {
    __shared__ float warp_sums[32];
    const unsigned lane = threadIdx.x % 32;
    const unsigned warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    if (lane == 0) warp_sums[warp] = value;
    __syncthreads();
    if (warp == 0) {
        const unsigned warps = blockDim.x / 32;
        value = lane < warps ? warp_sums[lane] : 0.0f;
        for (int offset = 16; offset > 0; offset /= 2) value += __shfl_down_sync(0xffffffffu, value, offset);
    }
    __syncthreads();  // warp_sums may be written again by the caller's next block_sum
    return value;
}

__global__ void conv2d_forward_kernel(const float* __restrict__ x, const float* __restrict__ w,
                                      const float* __restrict__ bias, float* __restrict__ y, ConvShape s,
                                      long long count) {
    PAYBACK_GRID_STRIDE(i, count) y[i] = conv2d_forward_at(static_cast<int>(i), x, w, bias, s);
}

__global__ void conv2d_backward_data_kernel(const float* __restrict__ dy, const float* __restrict__ w,
                                            float* __restrict__ dx, ConvShape s, long long count) {
    PAYBACK_GRID_STRIDE(i, count) dx[i] = conv2d_backward_data_at(static_cast<int>(i), dy, w, s);
}

// Block j (grid-stride over blocks) owns output j: j < O·C·K·K is dw[j], else db[j - O·C·K·K].
// Its threads split the N·OH·OW terms (consecutive threads take consecutive ox: coalesced reads),
// then block_sum adds the partial sums; thread 0 writes. j depends on blockIdx only, so every thread
// of a block runs the same number of block_sum calls.
__global__ void __launch_bounds__(kThreads)
    conv2d_backward_params_kernel(const float* __restrict__ x, const float* __restrict__ dy, float* __restrict__ dw,
                                  float* __restrict__ db, ConvShape s) {
    const int weights = s.out_channels * s.in_channels * s.kernel * s.kernel;
    const int outputs = weights + s.out_channels;
    const int terms = conv_reduction_size(s);
    for (int j = blockIdx.x; j < outputs; j += gridDim.x) {
        float partial = 0.0f;
        if (j < weights) {
            const ConvWeightIndex index = conv_weight_index(j, s);
            for (int r = threadIdx.x; r < terms; r += blockDim.x) partial += conv_weight_grad_term(index, r, x, dy, s);
        } else {
            const int o = j - weights;
            for (int r = threadIdx.x; r < terms; r += blockDim.x) partial += conv_bias_grad_term(o, r, dy, s);
        }
        const float total = block_sum(partial);
        if (threadIdx.x == 0) {
            if (j < weights)
                dw[j] = total;
            else
                db[j - weights] = total;
        }
    }
}

__global__ void relu_forward_kernel(const float* __restrict__ x, float* __restrict__ y, long long count) {
    PAYBACK_GRID_STRIDE(i, count) y[i] = relu_forward_at(x[i]);
}

__global__ void relu_backward_kernel(const float* __restrict__ y, const float* __restrict__ dy,
                                     float* __restrict__ dx, long long count) {
    PAYBACK_GRID_STRIDE(i, count) dx[i] = relu_backward_at(y[i], dy[i]);
}

__global__ void max_pool_forward_kernel(const float* __restrict__ x, float* __restrict__ y,
                                        int* __restrict__ argmax, PoolShape s, long long count) {
    PAYBACK_GRID_STRIDE(i, count) y[i] = max_pool_forward_at(static_cast<int>(i), x, argmax + i, s);
}

__global__ void max_pool_backward_kernel(const float* __restrict__ dy, const int* __restrict__ argmax,
                                         float* __restrict__ dx, PoolShape s, long long count) {
    PAYBACK_GRID_STRIDE(i, count) dx[i] = max_pool_backward_at(static_cast<int>(i), dy, argmax, s);
}

__global__ void add_bias_kernel(float* __restrict__ y, const float* __restrict__ b, int cols, long long count) {
    PAYBACK_GRID_STRIDE(i, count) y[i] = add_bias_at(static_cast<int>(i), y, b, cols);
}

// One block: thread t takes rows t, t + blockDim.x, …; the row losses are summed by block_sum and
// divided by the row count (the mean). dz rows are written by the thread that owns the row.
__global__ void __launch_bounds__(kThreads)
    cross_entropy_kernel(const float* __restrict__ z, const int* __restrict__ labels, float* __restrict__ dz,
                         float* __restrict__ loss, int rows, int classes) {
    const float scale = 1.0f / static_cast<float>(rows);
    float partial = 0.0f;
    for (int r = threadIdx.x; r < rows; r += blockDim.x)
        partial += cross_entropy_row(z + static_cast<long long>(r) * classes, labels[r], classes, scale,
                                     dz + static_cast<long long>(r) * classes);
    const float total = block_sum(partial);
    if (threadIdx.x == 0) *loss = total / static_cast<float>(rows);
}

__global__ void sgd_momentum_kernel(float* __restrict__ p, const float* __restrict__ g, float* __restrict__ v,
                                    long long count, float learning_rate, float momentum, bool first_step) {
    PAYBACK_GRID_STRIDE(i, count) sgd_at(i, p, g, v, learning_rate, momentum, first_step);
}

__global__ void fill_kernel(float* __restrict__ data, float value, long long count) {
    PAYBACK_GRID_STRIDE(i, count) data[i] = value;
}

long long conv_output_count(const ConvShape& s) {
    return static_cast<long long>(s.batch) * s.out_channels * s.out_height * s.out_width;
}
long long conv_input_count(const ConvShape& s) {
    return static_cast<long long>(s.batch) * s.in_channels * s.in_height * s.in_width;
}

}  // namespace

void conv2d_forward(const float* x, const float* w, const float* bias, float* y, const ConvShape& s,
                    cudaStream_t stream) {
    const long long count = conv_output_count(s);
    if (count == 0) return;
    conv2d_forward_kernel<<<blocks_for(count), kThreads, 0, stream>>>(x, w, bias, y, s, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void conv2d_backward_data(const float* dy, const float* w, float* dx, const ConvShape& s, cudaStream_t stream) {
    const long long count = conv_input_count(s);
    if (count == 0) return;
    conv2d_backward_data_kernel<<<blocks_for(count), kThreads, 0, stream>>>(dy, w, dx, s, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void conv2d_backward_params(const float* x, const float* dy, float* dw, float* db, const ConvShape& s,
                            cudaStream_t stream) {
    const long long outputs = static_cast<long long>(s.out_channels) * s.in_channels * s.kernel * s.kernel + s.out_channels;
    if (outputs == 0) return;
    const int blocks = static_cast<int>(std::min(outputs, kMaxBlocks));
    conv2d_backward_params_kernel<<<blocks, kThreads, 0, stream>>>(x, dy, dw, db, s);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void relu_forward(const float* x, float* y, int count, cudaStream_t stream) {
    if (count <= 0) return;
    relu_forward_kernel<<<blocks_for(count), kThreads, 0, stream>>>(x, y, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void relu_backward(const float* y, const float* dy, float* dx, int count, cudaStream_t stream) {
    if (count <= 0) return;
    relu_backward_kernel<<<blocks_for(count), kThreads, 0, stream>>>(y, dy, dx, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void max_pool_forward(const float* x, float* y, int* argmax, const PoolShape& s, cudaStream_t stream) {
    const long long count = static_cast<long long>(s.planes) * s.out_height * s.out_width;
    if (count == 0) return;
    max_pool_forward_kernel<<<blocks_for(count), kThreads, 0, stream>>>(x, y, argmax, s, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void max_pool_backward(const float* dy, const int* argmax, float* dx, const PoolShape& s, cudaStream_t stream) {
    const long long count = static_cast<long long>(s.planes) * s.in_height * s.in_width;
    if (count == 0) return;
    max_pool_backward_kernel<<<blocks_for(count), kThreads, 0, stream>>>(dy, argmax, dx, s, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void add_bias(float* y, const float* b, int rows, int cols, cudaStream_t stream) {
    const long long count = static_cast<long long>(rows) * cols;
    if (count <= 0) return;
    add_bias_kernel<<<blocks_for(count), kThreads, 0, stream>>>(y, b, cols, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void cross_entropy(const float* z, const int* labels, float* dz, float* loss, int rows, int classes,
                   cudaStream_t stream) {
    if (rows <= 0 || classes <= 0) return;
    cross_entropy_kernel<<<1, kThreads, 0, stream>>>(z, labels, dz, loss, rows, classes);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void sgd_momentum(float* p, const float* g, float* v, long long count, float learning_rate, float momentum,
                  bool first_step, cudaStream_t stream) {
    if (count <= 0) return;
    sgd_momentum_kernel<<<blocks_for(count), kThreads, 0, stream>>>(p, g, v, count, learning_rate, momentum,
                                                                     first_step);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

cudaError_t probe_kernels() {
    cudaFuncAttributes attributes;
    return cudaFuncGetAttributes(&attributes, fill_kernel);
}

void fill(float* data, float value, long long count, cudaStream_t stream) {
    if (count <= 0) return;
    fill_kernel<<<blocks_for(count), kThreads, 0, stream>>>(data, value, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

}  // namespace payback::bench::gpu
