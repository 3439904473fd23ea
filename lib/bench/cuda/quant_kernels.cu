// The llm-decode workload's matrix-vector product on the GPU: one warp per output row, its 32 lanes
// taking every 32nd block of the row (consecutive lanes read consecutive blocks), then a warp sum.
#include "quant_kernels.cuh"

#include "check.cuh"
#include "quant_elements.cuh"

namespace payback::bench::gpu {
namespace {

constexpr int kWarpsPerBlock = 8;

__global__ void __launch_bounds__(kWarpsPerBlock * 32)
quant_matvec_kernel(const unsigned char* __restrict__ weights, int format, int rows, int blocks_per_row,
                    const signed char* __restrict__ x_values, const float* __restrict__ x_scales, float* __restrict__ y) {
    const int row = blockIdx.x * kWarpsPerBlock + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= rows) return;  // a whole warp leaves together: rows are per warp
    float sum = 0.0f;
    for (int block = lane; block < blocks_per_row; block += 32)
        sum += block_product(weights, format, row, block, blocks_per_row, x_values, x_scales);
    for (int offset = 16; offset > 0; offset /= 2) sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (lane == 0) y[row] = sum;
}

}  // namespace

void quant_matvec(const unsigned char* weights, int format, int rows, int blocks_per_row, const signed char* x_values,
                  const float* x_scales, float* y, cudaStream_t stream) {
    const int grid = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
    quant_matvec_kernel<<<grid, kWarpsPerBlock * 32, 0, stream>>>(weights, format, rows, blocks_per_row, x_values,
                                                                 x_scales, y);
    PAYBACK_CUDA_CHECK_LAUNCH();
}

}  // namespace payback::bench::gpu
