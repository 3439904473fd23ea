// gpt-small's training step as a schedule of operations, written once over an `Ops` that runs them:
// the CUDA trainer's ops launch gpt_kernels.cu and cuBLAS; the host test's run the same element
// functions (gpt_elements.cuh) in loops, and so checks the schedule and the index arithmetic against
// PyTorch without a GPU. The model is cpu/gpt_trainer.cpp's (gpt_trainer.hpp): pre-LayerNorm blocks,
// causal attention through two batched products and a masked softmax, GELU MLP, the tied head.
//
// Buffers are flat float arrays (row-major tensors) placed by make_gpt_buffers through an allocator,
// the device's or the host's; parameters, gradients and momentum are each one array in
// gpt_parameter_shapes() order, every tensor starting on a 64-float (256-byte) boundary.
#pragma once

#include <algorithm>
#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpt_elements.cuh"
#include "gpt_gemm.hpp"
#include "loss_scaler.hpp"
#include "payback/bench/gpt_trainer.hpp"

namespace payback::bench::gpu {

constexpr std::size_t gpt_align_floats = 64;

/// Each parameter tensor's offset in the flat arrays, and their padded size.
struct GptLayout {
    std::vector<std::size_t> offsets;
    std::size_t flat_size = 0;
};

inline GptLayout gpt_layout(const GptConfig& config) {
    GptLayout layout;
    for (const auto& shape : gpt_parameter_shapes(config)) {
        layout.offsets.push_back(layout.flat_size);
        const std::size_t count = Tensor::element_count(shape);
        layout.flat_size += (count + gpt_align_floats - 1) / gpt_align_floats * gpt_align_floats;
    }
    return layout;
}

/// A block's parameter tensors, in gpt_parameter_shapes() order after the two embeddings.
enum BlockTensor { ln1_w, ln1_b, qkv_w, qkv_b, proj_w, proj_b, ln2_w, ln2_b, fc1_w, fc1_b, fc2_w, fc2_b, block_tensors };

/// What a block's forward pass keeps for its backward pass.
struct GptBlockBuffers {
    float *ln1_mean, *ln1_rstd, *h, *qkv, *heads, *probs, *att_heads, *att, *mid, *ln2_mean, *ln2_rstd, *h2, *f, *g;
};

struct GptBuffers {
    std::vector<float*> parameter, gradient;  ///< views of the flat arrays, one per tensor
    float *parameters, *gradients, *velocities;
    long long flat_size = 0;
    int *tokens, *targets;
    std::vector<float*> residual;  ///< the stream entering each block, and leaving the last
    std::vector<GptBlockBuffers> blocks;
    float *lnf_mean, *lnf_rstd, *xf, *logits;  // logits hold their gradient after the loss
    // Gradients of: the stream leaving a block (dout), between attention and MLP (dmid), a LayerNorm's
    // output or the attention output (dh, datt), qkv and its head-major copy, the attention
    // probabilities (then the scores), the head-major attention output, the MLP's hidden layer.
    float *dout, *dmid, *datt, *dh, *dqkv, *dheads, *dprobs, *datt_heads, *dffn;
    float *row_loss, *loss, *ones;
    float* parameter_of(int layer, BlockTensor t) const { return parameter[tensor_index(layer, t)]; }
    float* gradient_of(int layer, BlockTensor t) const { return gradient[tensor_index(layer, t)]; }
    /// After the two embeddings, block_tensors a layer.
    static std::size_t tensor_index(int layer, BlockTensor t) {
        const int index = 2 + block_tensors * layer + t;
        return static_cast<std::size_t>(index);
    }
};

/// Kernels index with int: the largest tensor of a step (the logits, or the attention probabilities
/// of one layer) must have fewer than 2^31 elements.
inline void check_gpt_fits(const GptConfig& c, int batch) {
    if (batch < 1) throw std::invalid_argument("gpt: batch size must be at least 1");
    const long long tokens = static_cast<long long>(batch) * c.sequence;
    const long long largest = std::max({tokens * c.vocab, tokens * c.heads * c.sequence, tokens * c.ffn()});
    if (largest > INT_MAX)
        throw std::invalid_argument("gpt: batch size " + std::to_string(batch) +
                                    " too large for the CUDA kernels: a tensor would exceed 2^31 elements");
}

/// The most floats any operand of the step's products spans (span of layout_of_a, layout_of_b): every operand is
/// one of the tensors below, so the largest of them. The BF16 copies are this long.
inline std::size_t gpt_largest_operand(const GptConfig& c, int batch) {
    const std::size_t T = std::size_t(batch) * c.sequence, d = c.d_model, F = c.ffn(), V = c.vocab;
    return std::max({T * V, V * d, std::size_t(batch) * c.heads * c.sequence * c.sequence, T * F, F * d, 3 * T * d});
}

/// Places every buffer through `floats(count)` and `ints(count)` (each returns fresh memory).
template <class FloatAlloc, class IntAlloc>
GptBuffers make_gpt_buffers(const GptConfig& c, int batch, const GptLayout& layout, FloatAlloc floats, IntAlloc ints) {
    check_gpt_fits(c, batch);
    const std::size_t T = std::size_t(batch) * c.sequence, d = c.d_model, F = c.ffn();
    const std::size_t probs = std::size_t(batch) * c.heads * c.sequence * c.sequence;
    GptBuffers b;
    b.parameters = floats(layout.flat_size);
    b.gradients = floats(layout.flat_size);
    b.velocities = floats(layout.flat_size);
    b.flat_size = static_cast<long long>(layout.flat_size);
    for (std::size_t offset : layout.offsets) {
        b.parameter.push_back(b.parameters + offset);
        b.gradient.push_back(b.gradients + offset);
    }
    b.tokens = ints(T);
    b.targets = ints(T);
    for (int l = 0; l <= c.layers; ++l) b.residual.push_back(floats(T * d));
    for (int l = 0; l < c.layers; ++l)
        b.blocks.push_back({floats(T), floats(T), floats(T * d), floats(3 * T * d), floats(3 * T * d), floats(probs),
                            floats(T * d), floats(T * d), floats(T * d), floats(T), floats(T), floats(T * d),
                            floats(T * F), floats(T * F)});
    b.lnf_mean = floats(T);
    b.lnf_rstd = floats(T);
    b.xf = floats(T * d);
    b.logits = floats(T * std::size_t(c.vocab));
    b.dout = floats(T * d);
    b.dmid = floats(T * d);
    b.datt = floats(T * d);
    b.dh = floats(T * d);
    b.dqkv = floats(3 * T * d);
    b.dheads = floats(3 * T * d);
    b.dprobs = floats(probs);
    b.datt_heads = floats(T * d);
    b.dffn = floats(T * F);
    b.row_loss = floats(T);
    b.loss = floats(1);
    b.ones = floats(T);
    return b;
}

/// The linear layer y [T, out] = x [T, in]·Wᵀ + b.
template <class Ops>
void gpt_linear(Ops& ops, const float* x, const float* w, const float* bias, float* y, int tokens, int in, int out) {
    ops.gemm(row_major_gemm(false, true, tokens, out, in, x, w, y));
    ops.add_bias(y, bias, tokens, out);
}

/// dW [out, in] = dyᵀ·x, db [out] = 1ᵀ·dy, and (when dx) dx [T, in] = dy·W.
template <class Ops>
void gpt_linear_backward(Ops& ops, const GptBuffers& b, const float* x, const float* w, const float* dy, float* dw,
                         float* db, float* dx, int tokens, int in, int out) {
    ops.gemm(row_major_gemm(true, false, out, in, tokens, dy, x, dw));
    ops.gemm(row_major_gemm(false, false, 1, out, tokens, b.ones, dy, db));
    if (dx) ops.gemm(row_major_gemm(false, false, tokens, in, out, dy, w, dx));
}

template <class Ops>
void gpt_forward(const GptConfig& c, const GptBuffers& b, Ops& ops, int batch) {
    const int T = batch * c.sequence, d = c.d_model, F = c.ffn(), S = c.sequence, hd = c.head_dim();
    const int pairs = batch * c.heads;
    const long long head = static_cast<long long>(S) * hd, square = static_cast<long long>(S) * S;
    const long long part = static_cast<long long>(T) * d;  // Q, K and V apart in the head-major copy
    const HeadShape shape{batch, c.heads, S, hd};
    const float scale = 1.0f / sqrtf(static_cast<float>(hd));
    ops.embedding(b.tokens, b.parameter[0], b.parameter[1], b.residual[0], T, S, d);
    for (int l = 0; l < c.layers; ++l) {
        const GptBlockBuffers& a = b.blocks[std::size_t(l)];
        const float* x = b.residual[std::size_t(l)];
        ops.layer_norm_forward(x, b.parameter_of(l, ln1_w), b.parameter_of(l, ln1_b), a.h, a.ln1_mean, a.ln1_rstd, T, d);
        gpt_linear(ops, a.h, b.parameter_of(l, qkv_w), b.parameter_of(l, qkv_b), a.qkv, T, d, 3 * d);
        ops.rows_to_heads(a.qkv, a.heads, shape, 3);
        const float *q = a.heads, *k = a.heads + part, *v = a.heads + 2 * part;
        // scores = scale·Q·Kᵀ per (sequence, head), then the masked softmax in place
        ops.gemm(batched_row_major_gemm(false, true, S, S, hd, q, head, k, head, a.probs, square, pairs, scale));
        ops.causal_softmax(a.probs, pairs * S, S);
        ops.gemm(batched_row_major_gemm(false, false, S, hd, S, a.probs, square, v, head, a.att_heads, head, pairs));
        ops.heads_to_rows(a.att_heads, a.att, shape, 1);
        gpt_linear(ops, a.att, b.parameter_of(l, proj_w), b.parameter_of(l, proj_b), a.mid, T, d, d);
        ops.add(a.mid, x, T * d);
        ops.layer_norm_forward(a.mid, b.parameter_of(l, ln2_w), b.parameter_of(l, ln2_b), a.h2, a.ln2_mean, a.ln2_rstd,
                               T, d);
        gpt_linear(ops, a.h2, b.parameter_of(l, fc1_w), b.parameter_of(l, fc1_b), a.f, T, d, F);
        ops.gelu_forward(a.f, a.g, T * F);
        float* next = b.residual[std::size_t(l) + 1];
        gpt_linear(ops, a.g, b.parameter_of(l, fc2_w), b.parameter_of(l, fc2_b), next, T, F, d);
        ops.add(next, a.mid, T * d);
    }
    const std::size_t last = b.parameter.size();
    ops.layer_norm_forward(b.residual.back(), b.parameter[last - 2], b.parameter[last - 1], b.xf, b.lnf_mean,
                           b.lnf_rstd, T, d);
    ops.gemm(row_major_gemm(false, true, T, c.vocab, d, b.xf, b.parameter[0], b.logits));  // the tied head
}

/// The mean cross-entropy into *b.loss; the logits' gradient, times `loss_scale` (FP16's LossScaler),
/// replaces the logits.
template <class Ops>
void gpt_loss(const GptConfig& c, const GptBuffers& b, Ops& ops, int batch, float loss_scale = 1.0f) {
    ops.cross_entropy(b.logits, b.targets, b.row_loss, b.loss, batch * c.sequence, c.vocab, loss_scale);
}

/// Every gradient overwritten (the token embedding's gets the head's part, then the embedding's added).
template <class Ops>
void gpt_backward(const GptConfig& c, const GptBuffers& b, Ops& ops, int batch) {
    const int T = batch * c.sequence, d = c.d_model, F = c.ffn(), S = c.sequence, hd = c.head_dim(), V = c.vocab;
    const int pairs = batch * c.heads;
    const long long head = static_cast<long long>(S) * hd, square = static_cast<long long>(S) * S;
    const long long part = static_cast<long long>(T) * d;
    const HeadShape shape{batch, c.heads, S, hd};
    const float scale = 1.0f / sqrtf(static_cast<float>(hd));
    const std::size_t last = b.parameter.size();

    ops.gemm(row_major_gemm(false, false, T, d, V, b.logits, b.parameter[0], b.dh));
    ops.gemm(row_major_gemm(true, false, V, d, T, b.logits, b.xf, b.gradient[0]));
    ops.layer_norm_backward(b.dh, b.residual.back(), b.lnf_mean, b.lnf_rstd, b.parameter[last - 2], b.dout, T, d, false);
    ops.layer_norm_param_grads(b.dh, b.residual.back(), b.lnf_mean, b.lnf_rstd, b.gradient[last - 2],
                               b.gradient[last - 1], T, d);
    for (int l = c.layers - 1; l >= 0; --l) {
        const GptBlockBuffers& a = b.blocks[std::size_t(l)];
        const float* x = b.residual[std::size_t(l)];
        // MLP, back to the stream between attention and MLP (dmid)
        gpt_linear_backward(ops, b, a.g, b.parameter_of(l, fc2_w), b.dout, b.gradient_of(l, fc2_w),
                            b.gradient_of(l, fc2_b), b.dffn, T, F, d);
        ops.gelu_backward(a.f, b.dffn, b.dffn, T * F);
        gpt_linear_backward(ops, b, a.h2, b.parameter_of(l, fc1_w), b.dffn, b.gradient_of(l, fc1_w),
                            b.gradient_of(l, fc1_b), b.datt, T, d, F);  // datt holds dh2 for a moment
        ops.copy(b.dmid, b.dout, T * d);
        ops.layer_norm_backward(b.datt, a.mid, a.ln2_mean, a.ln2_rstd, b.parameter_of(l, ln2_w), b.dmid, T, d, true);
        ops.layer_norm_param_grads(b.datt, a.mid, a.ln2_mean, a.ln2_rstd, b.gradient_of(l, ln2_w),
                                   b.gradient_of(l, ln2_b), T, d);
        // attention output projection, then the attention per (sequence, head)
        gpt_linear_backward(ops, b, a.att, b.parameter_of(l, proj_w), b.dmid, b.gradient_of(l, proj_w),
                            b.gradient_of(l, proj_b), b.datt, T, d, d);
        ops.rows_to_heads(b.datt, b.datt_heads, shape, 1);
        const float *q = a.heads, *k = a.heads + part, *v = a.heads + 2 * part;
        float *dq = b.dheads, *dk = b.dheads + part, *dv = b.dheads + 2 * part;
        ops.gemm(batched_row_major_gemm(false, true, S, S, hd, b.datt_heads, head, v, head, b.dprobs, square, pairs));
        ops.gemm(batched_row_major_gemm(true, false, S, hd, S, a.probs, square, b.datt_heads, head, dv, head, pairs));
        ops.causal_softmax_backward(a.probs, b.dprobs, pairs * S, S);  // dprobs becomes the scores' gradient
        ops.gemm(batched_row_major_gemm(false, false, S, hd, S, b.dprobs, square, k, head, dq, head, pairs, scale));
        ops.gemm(batched_row_major_gemm(true, false, S, hd, S, b.dprobs, square, q, head, dk, head, pairs, scale));
        ops.heads_to_rows(b.dheads, b.dqkv, shape, 3);
        // qkv and LayerNorm 1, back to the stream entering the block (dout for the block before)
        gpt_linear_backward(ops, b, a.h, b.parameter_of(l, qkv_w), b.dqkv, b.gradient_of(l, qkv_w),
                            b.gradient_of(l, qkv_b), b.dh, T, d, 3 * d);
        ops.copy(b.dout, b.dmid, T * d);
        ops.layer_norm_backward(b.dh, x, a.ln1_mean, a.ln1_rstd, b.parameter_of(l, ln1_w), b.dout, T, d, true);
        ops.layer_norm_param_grads(b.dh, x, a.ln1_mean, a.ln1_rstd, b.gradient_of(l, ln1_w), b.gradient_of(l, ln1_b),
                                   T, d);
    }
    ops.embedding_backward(b.dout, b.tokens, b.gradient[0], b.gradient[1], T, S, d);
}

template <class Ops>
void gpt_update(const GptBuffers& b, Ops& ops, const Sgd& sgd, bool first_step) {
    ops.sgd(b.parameters, b.gradients, b.velocities, b.flat_size, sgd.learning_rate, sgd.momentum, first_step);
}

/// FP16's update after a backward pass from gpt_loss(..., scaler.scale): when every gradient is finite,
/// they are divided by the scale (a power of two: exactly) and applied; otherwise the step is skipped
/// and the gradients stay as they came. Moves the scale (LossScaler::apply); whether the step was applied.
template <class Ops>
bool gpt_update_scaled(const GptBuffers& b, Ops& ops, const Sgd& sgd, bool first_step, LossScaler& scaler) {
    const float used = scaler.scale;
    if (!scaler.apply(ops.all_finite(b.gradients, b.flat_size))) return false;
    ops.scale(b.gradients, b.flat_size, 1.0f / used);
    gpt_update(b, ops, sgd, first_step);
    return true;
}

}  // namespace payback::bench::gpu
