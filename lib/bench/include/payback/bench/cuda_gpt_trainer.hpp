// gpt-small's training step on GPU 0 (lib/bench/cuda/cuda_gpt_trainer.cpp), in FP32 or in mixed
// precision: BF16 or FP16 copies of both operands of every matrix product, FP32 accumulation and
// outputs, FP32 master weights, gradients and optimizer, and for FP16 dynamic loss scaling
// (docs/benchmark.md states the tolerances against FP32).
// Without CUDA at build or run time cuda_status() says why, and make_cuda_gpt_trainer() throws.
#pragma once

#include <memory>
#include <vector>

#include "payback/bench/gpt_trainer.hpp"

namespace payback::bench {

enum class GptPrecision { fp32, bf16, fp16 };

/// `parameters` in gpt_parameter_shapes() order, `batch_size` ≥ 1 sequences (else std::invalid_argument);
/// std::runtime_error when CUDA is unavailable.
std::unique_ptr<GptTrainer> make_cuda_gpt_trainer(const GptConfig& config, const std::vector<Tensor>& parameters,
                                                  int batch_size, GptPrecision precision, Sgd sgd = {});

}  // namespace payback::bench
