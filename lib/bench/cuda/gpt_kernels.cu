// gpt-small's kernels: grid-stride loops over gpt_elements.cuh's functions, and one block per row for
// the row-wise passes (LayerNorm, the causal softmax, cross-entropy), whose sums and maxima are block
// reductions that every thread of the block then reads.
#include "gpt_kernels.cuh"

#include <algorithm>

#include <cuda_fp16.h>

#include "check.cuh"

namespace payback::bench::gpu {
namespace {

constexpr int kThreads = 256;           // every launch; a multiple of 32, which the reductions need
constexpr long long kMaxBlocks = 8192;  // grid-stride loops cover the rest

int blocks_for(long long count) {
    const long long blocks = (count + kThreads - 1) / kThreads;
    return static_cast<int>(std::clamp(blocks, 1LL, kMaxBlocks));
}

int row_blocks(int rows) { return static_cast<int>(std::min<long long>(rows, kMaxBlocks)); }

#define PAYBACK_GRID_STRIDE(i, count)                                                                  \
    for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < (count); \
         i += static_cast<long long>(blockDim.x) * gridDim.x)

struct Sum {
    __device__ float operator()(float a, float b) const { return a + b; }
    __device__ static float identity() { return 0.0f; }
};
struct Max {
    __device__ float operator()(float a, float b) const { return fmaxf(a, b); }
    __device__ static float identity() { return -INFINITY; }
};

/// `value` reduced over the block by `op`, returned to every thread. Every thread of the block must
/// call it (it synchronizes); blockDim.x must be a multiple of 32.
template <class Op>
__device__ float block_all_reduce(float value, Op op) {
    __shared__ float warp_values[32];
    __shared__ float result;
    const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    for (int offset = 16; offset > 0; offset /= 2) value = op(value, __shfl_down_sync(0xffffffffu, value, offset));
    if (lane == 0) warp_values[warp] = value;
    __syncthreads();
    if (warp == 0) {
        value = lane < blockDim.x / 32 ? warp_values[lane] : Op::identity();
        for (int offset = 16; offset > 0; offset /= 2) value = op(value, __shfl_down_sync(0xffffffffu, value, offset));
        if (lane == 0) result = value;
    }
    __syncthreads();
    const float all = result;
    __syncthreads();  // result and warp_values may be written by the caller's next reduction
    return all;
}

__global__ void embedding_kernel(const int* __restrict__ tokens, const float* __restrict__ wte,
                                 const float* __restrict__ wpe, float* __restrict__ x, int d, int sequence,
                                 long long count) {
    PAYBACK_GRID_STRIDE(i, count) x[i] = embedding_at(static_cast<int>(i), tokens, wte, wpe, d, sequence);
}

__global__ void position_grad_kernel(const float* __restrict__ dx, float* __restrict__ dwpe, int d, int sequence,
                                     int batch, long long count) {
    PAYBACK_GRID_STRIDE(i, count) dwpe[i] = position_grad_at(static_cast<int>(i), dx, d, sequence, batch);
}

__global__ void token_grad_kernel(const float* __restrict__ dx, const int* __restrict__ tokens, float* dwte, int d,
                                  long long count) {
    PAYBACK_GRID_STRIDE(i, count) atomicAdd(dwte + token_grad_index(static_cast<int>(i), tokens, d), dx[i]);
}

__global__ void __launch_bounds__(kThreads)
    layer_norm_forward_kernel(const float* __restrict__ x, const float* __restrict__ gamma,
                              const float* __restrict__ beta, float* __restrict__ y, float* __restrict__ mean,
                              float* __restrict__ rstd, int rows, int d) {
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        const float* xr = x + static_cast<long long>(r) * d;
        float partial = 0.0f;
        for (int j = threadIdx.x; j < d; j += blockDim.x) partial += xr[j];
        const float mu = block_all_reduce(partial, Sum{}) / static_cast<float>(d);
        partial = 0.0f;
        for (int j = threadIdx.x; j < d; j += blockDim.x) partial += (xr[j] - mu) * (xr[j] - mu);
        const float inv = layer_norm_rstd(block_all_reduce(partial, Sum{}), d);
        for (int j = threadIdx.x; j < d; j += blockDim.x)
            y[static_cast<long long>(r) * d + j] = layer_norm_out(xr[j], mu, inv, gamma[j], beta[j]);
        if (threadIdx.x == 0) {
            mean[r] = mu;
            rstd[r] = inv;
        }
    }
}

__global__ void __launch_bounds__(kThreads)
    layer_norm_backward_kernel(const float* __restrict__ dy, const float* __restrict__ x, const float* __restrict__ mean,
                               const float* __restrict__ rstd, const float* __restrict__ gamma, float* __restrict__ dx,
                               int rows, int d, bool accumulate) {
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        const long long row = static_cast<long long>(r) * d;
        float g = 0.0f, gx = 0.0f;
        for (int j = threadIdx.x; j < d; j += blockDim.x) {
            g += layer_norm_grad_term(dy[row + j], gamma[j]);
            gx += layer_norm_grad_x_term(dy[row + j], gamma[j], x[row + j], mean[r], rstd[r]);
        }
        const float g_sum = block_all_reduce(g, Sum{});
        const float gx_sum = block_all_reduce(gx, Sum{});
        for (int j = threadIdx.x; j < d; j += blockDim.x) {
            const float v = layer_norm_dx(dy[row + j], gamma[j], x[row + j], mean[r], rstd[r], g_sum, gx_sum, d);
            dx[row + j] = accumulate ? dx[row + j] + v : v;
        }
    }
}

__global__ void layer_norm_param_grads_kernel(const float* __restrict__ dy, const float* __restrict__ x,
                                              const float* __restrict__ mean, const float* __restrict__ rstd,
                                              float* __restrict__ dgamma, float* __restrict__ dbeta, int rows, int d) {
    PAYBACK_GRID_STRIDE(j, d) layer_norm_param_grad_at(static_cast<int>(j), dy, x, mean, rstd, rows, d, dgamma, dbeta);
}

__global__ void add_kernel(float* __restrict__ y, const float* __restrict__ x, long long count) {
    PAYBACK_GRID_STRIDE(i, count) y[i] += x[i];
}

__global__ void gelu_forward_kernel(const float* __restrict__ x, float* __restrict__ y, long long count) {
    PAYBACK_GRID_STRIDE(i, count) y[i] = gelu_at(x[i]);
}

// dx may be dy: each element is read, then written, by one thread.
__global__ void gelu_backward_kernel(const float* __restrict__ x, const float* dy, float* dx, long long count) {
    PAYBACK_GRID_STRIDE(i, count) dx[i] = gelu_grad_at(x[i], dy[i]);
}

__global__ void rows_to_heads_kernel(const float* __restrict__ rows, float* __restrict__ heads, HeadShape s, int parts,
                                     long long count) {
    PAYBACK_GRID_STRIDE(i, count) heads[i] = rows[row_index_of_head_element(static_cast<int>(i), s, parts)];
}

__global__ void heads_to_rows_kernel(const float* __restrict__ heads, float* __restrict__ rows, HeadShape s, int parts,
                                     long long count) {
    PAYBACK_GRID_STRIDE(i, count) rows[i] = heads[head_index_of_row_element(static_cast<int>(i), s, parts)];
}

__global__ void __launch_bounds__(kThreads) causal_softmax_kernel(float* scores, int rows, int sequence) {
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        float* row = scores + static_cast<long long>(r) * sequence;
        const int length = causal_row_length(r, sequence);
        float partial = -INFINITY;
        for (int j = threadIdx.x; j < length; j += blockDim.x) partial = fmaxf(partial, row[j]);
        const float max = block_all_reduce(partial, Max{});
        partial = 0.0f;
        for (int j = threadIdx.x; j < length; j += blockDim.x) partial += expf(row[j] - max);
        const float inv_sum = 1.0f / block_all_reduce(partial, Sum{});
        for (int j = threadIdx.x; j < sequence; j += blockDim.x) row[j] = causal_softmax_at(row[j], j, length, max, inv_sum);
    }
}

__global__ void __launch_bounds__(kThreads)
    causal_softmax_backward_kernel(const float* __restrict__ probs, float* dprobs, int rows, int sequence) {
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        const long long row = static_cast<long long>(r) * sequence;
        float partial = 0.0f;
        for (int j = threadIdx.x; j < sequence; j += blockDim.x) partial += probs[row + j] * dprobs[row + j];
        const float dot = block_all_reduce(partial, Sum{});
        for (int j = threadIdx.x; j < sequence; j += blockDim.x)
            dprobs[row + j] = softmax_grad_at(probs[row + j], dprobs[row + j], dot);
    }
}

__global__ void __launch_bounds__(kThreads)
    cross_entropy_rows_kernel(float* logits, const int* __restrict__ targets, float* __restrict__ row_loss, int rows,
                              int vocab, float gradient_scale) {
    const float scale = gradient_scale / static_cast<float>(rows);
    for (int r = blockIdx.x; r < rows; r += gridDim.x) {
        float* z = logits + static_cast<long long>(r) * vocab;
        const int target = targets[r];
        float partial = -INFINITY;
        for (int j = threadIdx.x; j < vocab; j += blockDim.x) partial = fmaxf(partial, z[j]);
        const float max = block_all_reduce(partial, Max{});
        partial = 0.0f;
        for (int j = threadIdx.x; j < vocab; j += blockDim.x) partial += expf(z[j] - max);
        const float sum = block_all_reduce(partial, Sum{});
        if (threadIdx.x == 0) row_loss[r] = cross_entropy_row_loss(max, sum, z[target]);
        __syncthreads();  // z[target] is read before any thread overwrites it
        for (int j = threadIdx.x; j < vocab; j += blockDim.x)
            z[j] = cross_entropy_grad_at(z[j], j, target, max, 1.0f / sum, scale);
    }
}

__global__ void __launch_bounds__(kThreads) mean_kernel(const float* __restrict__ values, float* __restrict__ mean, int count) {
    float partial = 0.0f;
    for (int i = threadIdx.x; i < count; i += blockDim.x) partial += values[i];
    const float total = block_all_reduce(partial, Sum{});
    if (threadIdx.x == 0) *mean = total / static_cast<float>(count);
}

__global__ void to_bf16_kernel(const float* __restrict__ x, std::uint16_t* __restrict__ y, long long count) {
    PAYBACK_GRID_STRIDE(i, count) y[i] = float_to_bf16_bits(x[i]);
}

__global__ void to_fp16_kernel(const float* __restrict__ x, std::uint16_t* __restrict__ y, long long count) {
    PAYBACK_GRID_STRIDE(i, count) y[i] = __half_as_ushort(__float2half_rn(x[i]));
}

__global__ void scale_kernel(float* x, long long count, float factor) {
    PAYBACK_GRID_STRIDE(i, count) x[i] *= factor;
}

__global__ void flag_nonfinite_kernel(const float* __restrict__ x, long long count, int* __restrict__ flag) {
    PAYBACK_GRID_STRIDE(i, count) if (!isfinite(x[i])) *flag = 1;  // any thread may write it: all write 1
}

}  // namespace

void gpt_embedding(const int* tokens, const float* wte, const float* wpe, float* x, int tokens_count, int sequence,
                   int d, cudaStream_t stream) {
    const long long count = static_cast<long long>(tokens_count) * d;
    embedding_kernel<<<blocks_for(count), kThreads, 0, stream>>>(tokens, wte, wpe, x, d, sequence, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_embedding_backward(const float* dx, const int* tokens, float* dwte, float* dwpe, int tokens_count,
                            int sequence, int d, cudaStream_t stream) {
    const long long positions = static_cast<long long>(sequence) * d, all = static_cast<long long>(tokens_count) * d;
    position_grad_kernel<<<blocks_for(positions), kThreads, 0, stream>>>(dx, dwpe, d, sequence, tokens_count / sequence,
                                                                         positions);
    PAYBACK_CUDA_CHECK_LAUNCH();
    token_grad_kernel<<<blocks_for(all), kThreads, 0, stream>>>(dx, tokens, dwte, d, all);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_layer_norm_forward(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                            int rows, int d, cudaStream_t stream) {
    layer_norm_forward_kernel<<<row_blocks(rows), kThreads, 0, stream>>>(x, gamma, beta, y, mean, rstd, rows, d);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_layer_norm_backward(const float* dy, const float* x, const float* mean, const float* rstd, const float* gamma,
                             float* dx, int rows, int d, bool accumulate, cudaStream_t stream) {
    layer_norm_backward_kernel<<<row_blocks(rows), kThreads, 0, stream>>>(dy, x, mean, rstd, gamma, dx, rows, d,
                                                                          accumulate);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_layer_norm_param_grads(const float* dy, const float* x, const float* mean, const float* rstd, float* dgamma,
                                float* dbeta, int rows, int d, cudaStream_t stream) {
    layer_norm_param_grads_kernel<<<blocks_for(d), kThreads, 0, stream>>>(dy, x, mean, rstd, dgamma, dbeta, rows, d);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_add(float* y, const float* x, int count, cudaStream_t stream) {
    add_kernel<<<blocks_for(count), kThreads, 0, stream>>>(y, x, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_gelu_forward(const float* x, float* y, int count, cudaStream_t stream) {
    gelu_forward_kernel<<<blocks_for(count), kThreads, 0, stream>>>(x, y, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_gelu_backward(const float* x, const float* dy, float* dx, int count, cudaStream_t stream) {
    gelu_backward_kernel<<<blocks_for(count), kThreads, 0, stream>>>(x, dy, dx, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_rows_to_heads(const float* rows, float* heads, const HeadShape& shape, int parts, cudaStream_t stream) {
    const long long count = static_cast<long long>(parts) * shape.batch * shape.sequence * shape.d();
    rows_to_heads_kernel<<<blocks_for(count), kThreads, 0, stream>>>(rows, heads, shape, parts, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_heads_to_rows(const float* heads, float* rows, const HeadShape& shape, int parts, cudaStream_t stream) {
    const long long count = static_cast<long long>(parts) * shape.batch * shape.sequence * shape.d();
    heads_to_rows_kernel<<<blocks_for(count), kThreads, 0, stream>>>(heads, rows, shape, parts, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_causal_softmax(float* scores, int rows, int sequence, cudaStream_t stream) {
    causal_softmax_kernel<<<row_blocks(rows), kThreads, 0, stream>>>(scores, rows, sequence);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_causal_softmax_backward(const float* probs, float* dprobs, int rows, int sequence, cudaStream_t stream) {
    causal_softmax_backward_kernel<<<row_blocks(rows), kThreads, 0, stream>>>(probs, dprobs, rows, sequence);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_cross_entropy(float* logits, const int* targets, float* row_loss, float* loss, int rows, int vocab,
                       float gradient_scale, cudaStream_t stream) {
    cross_entropy_rows_kernel<<<row_blocks(rows), kThreads, 0, stream>>>(logits, targets, row_loss, rows, vocab,
                                                                          gradient_scale);
    PAYBACK_CUDA_CHECK_LAUNCH();
    mean_kernel<<<1, kThreads, 0, stream>>>(row_loss, loss, rows);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_to_bf16(const float* x, std::uint16_t* y, long long count, cudaStream_t stream) {
    to_bf16_kernel<<<blocks_for(count), kThreads, 0, stream>>>(x, y, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_to_fp16(const float* x, std::uint16_t* y, long long count, cudaStream_t stream) {
    to_fp16_kernel<<<blocks_for(count), kThreads, 0, stream>>>(x, y, count);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_scale(float* x, long long count, float factor, cudaStream_t stream) {
    scale_kernel<<<blocks_for(count), kThreads, 0, stream>>>(x, count, factor);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

void gpt_flag_nonfinite(const float* x, long long count, int* flag, cudaStream_t stream) {
    PAYBACK_CUDA_CHECK(cudaMemsetAsync(flag, 0, sizeof(int), stream));
    flag_nonfinite_kernel<<<blocks_for(count), kThreads, 0, stream>>>(x, count, flag);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

}  // namespace payback::bench::gpu
