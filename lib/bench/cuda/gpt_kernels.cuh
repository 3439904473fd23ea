// gpt-small's kernels (gpt_kernels.cu), launched on a stream: the Ops of gpt_step.hpp that are not
// matrix products. The math of each element is in gpt_elements.cuh; row-wise passes give a row to a
// block. Sizes are counts of floats; every tensor is row-major.
#pragma once

#include <cstdint>

#include <cuda_runtime.h>

#include "gpt_elements.cuh"

namespace payback::bench::gpu {

void gpt_embedding(const int* tokens, const float* wte, const float* wpe, float* x, int tokens_count, int sequence,
                   int d, cudaStream_t stream);
/// dwpe overwritten (a gather over the batch); dx added into dwte at each token's row (atomically).
void gpt_embedding_backward(const float* dx, const int* tokens, float* dwte, float* dwpe, int tokens_count,
                            int sequence, int d, cudaStream_t stream);

void gpt_layer_norm_forward(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                            int rows, int d, cudaStream_t stream);
void gpt_layer_norm_backward(const float* dy, const float* x, const float* mean, const float* rstd, const float* gamma,
                             float* dx, int rows, int d, bool accumulate, cudaStream_t stream);
void gpt_layer_norm_param_grads(const float* dy, const float* x, const float* mean, const float* rstd, float* dgamma,
                                float* dbeta, int rows, int d, cudaStream_t stream);

/// y += x, `count` floats.
void gpt_add(float* y, const float* x, int count, cudaStream_t stream);
void gpt_gelu_forward(const float* x, float* y, int count, cudaStream_t stream);
/// dx = dy·gelu′(x); dx may be dy.
void gpt_gelu_backward(const float* x, const float* dy, float* dx, int count, cudaStream_t stream);

/// Token rows [T, parts·d] to head-major [parts, B, H, S, hd], and back.
void gpt_rows_to_heads(const float* rows, float* heads, const HeadShape& shape, int parts, cudaStream_t stream);
void gpt_heads_to_rows(const float* heads, float* rows, const HeadShape& shape, int parts, cudaStream_t stream);

/// The causal softmax of `rows` rows of `sequence` scores, in place.
void gpt_causal_softmax(float* scores, int rows, int sequence, cudaStream_t stream);
/// dprobs becomes the scores' gradient, in place.
void gpt_causal_softmax_backward(const float* probs, float* dprobs, int rows, int sequence, cudaStream_t stream);

/// Each row's loss into row_loss, their mean into *loss (one block: deterministic), and the logits'
/// gradient, times `gradient_scale` (FP16's loss scale, else 1), in place of the logits.
void gpt_cross_entropy(float* logits, const int* targets, float* row_loss, float* loss, int rows, int vocab,
                       float gradient_scale, cudaStream_t stream);

/// BF16 copies (as bit patterns, cuBLAS's CUDA_R_16BF) of `count` floats.
void gpt_to_bf16(const float* x, std::uint16_t* y, long long count, cudaStream_t stream);
/// FP16 copies (IEEE binary16 bits, cuBLAS's CUDA_R_16F), rounded to nearest even; beyond 65,504, ±inf.
void gpt_to_fp16(const float* x, std::uint16_t* y, long long count, cudaStream_t stream);

/// x *= factor, `count` floats.
void gpt_scale(float* x, long long count, float factor, cudaStream_t stream);
/// *flag (device memory) = 1 when any of `count` floats is infinite or NaN, else 0.
void gpt_flag_nonfinite(const float* x, long long count, int* flag, cudaStream_t stream);

}  // namespace payback::bench::gpu
