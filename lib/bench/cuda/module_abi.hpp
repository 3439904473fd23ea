// What libpayback_cuda.so exports and cuda/loader.cpp looks up: four C functions, so that the lookup
// is by plain names. Both sides are built from this tree by one compiler, so C++ types may cross.
#pragma once

#include <vector>

#include "payback/bench/cuda_gpt_trainer.hpp"
#include "payback/bench/cuda_llm.hpp"
#include "payback/bench/cuda_trainer.hpp"

namespace payback::bench::cuda_module {

/// Fills `out` with cuda_status().
using StatusFn = void (*)(CudaStatus* out);
/// make_cuda_trainer(), its result released to the caller; throws as make_cuda_trainer() does.
using MakeTrainerFn = Trainer* (*)(const Workload* workload, std::vector<Tensor>* parameters, int batch_size,
                                   Sgd sgd);

/// make_cuda_gpt_trainer(), its result released to the caller; throws as make_cuda_gpt_trainer() does.
using MakeGptTrainerFn = GptTrainer* (*)(const GptConfig* config, const std::vector<Tensor>* parameters,
                                         int batch_size, GptPrecision precision, Sgd sgd);

/// cuda_quant_matvec(), its result in *y; throws as cuda_quant_matvec() does.
using QuantMatvecFn = void (*)(Quant quant, const void* weights, int rows, int cols, const std::vector<BlockQ8_0>* x,
                               std::vector<float>* y);

inline constexpr const char* status_symbol = "payback_cuda_status";
inline constexpr const char* quant_matvec_symbol = "payback_cuda_quant_matvec";
inline constexpr const char* make_trainer_symbol = "payback_cuda_make_trainer";
inline constexpr const char* make_gpt_trainer_symbol = "payback_cuda_make_gpt_trainer";

}  // namespace payback::bench::cuda_module
