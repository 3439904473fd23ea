// The llm-decode workload's CUDA kernels; the index logic of each is in quant_elements.cuh.
#pragma once

#include <cuda_runtime.h>

namespace payback::bench::gpu {

/// y[r] = row r of the Q8_0 or Q4_0 matrix (format: quant_elements.cuh's QuantFormat) times the
/// Q8_0-quantized activation (blocks_per_row · 32 int8 values, one float scale per block), r < rows.
void quant_matvec(const unsigned char* weights, int format, int rows, int blocks_per_row, const signed char* x_values,
                  const float* x_scales, float* y, cudaStream_t stream);

}  // namespace payback::bench::gpu
