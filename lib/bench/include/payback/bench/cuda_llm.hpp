// The llm-decode workload's CUDA matrix-vector product (lib/bench/cuda/quant_kernels.cu), in the CUDA
// module when the build has one. The tests run it against the CPU kernels where a GPU is present.
#pragma once

#include <vector>

#include "payback/bench/quant.hpp"

namespace payback::bench {

/// y[r] = row r of `weights` (rows × cols in GGUF's Q8_0 or Q4_0 blocks) · x (cols / 32 Q8_0 blocks, an
/// activation quantized by quantize_activations_q8_0), computed on GPU 0. Throws std::runtime_error
/// when CUDA is unavailable (cuda_status() says why) and std::invalid_argument for F16 or bad sizes.
std::vector<float> cuda_quant_matvec(Quant quant, const void* weights, int rows, int cols, const std::vector<BlockQ8_0>& x);

}  // namespace payback::bench
