// Causal self-attention of one sequence and one head, forward and backward, single-threaded: the
// gpt-small trainer gives each thread its own (sequence, head) pairs. PyTorch's arithmetic: scores =
// (q·kᵀ)·scale, −∞ above the diagonal, softmax by rows, output = probabilities·v.
#pragma once

#include <cstddef>

namespace payback::bench::cpu {

/// One head's view of one sequence: `length` rows; q, k, v (and their gradients dq, dk, dv) are
/// head_dim wide, rows qkv_stride apart (the columns of a [tokens, 3·d_model] qkv matrix); out and
/// dout rows out_stride apart.
struct HeadView {
    int length = 0;
    int head_dim = 0;
    std::ptrdiff_t qkv_stride = 0;
    std::ptrdiff_t out_stride = 0;
};

/// probs (length × length, kept for the backward pass) ← the softmax of the masked scores, 0 above the
/// diagonal; out ← probs·v.
void attention_forward(HeadView view, const float* q, const float* k, const float* v, float scale, float* probs,
                       float* out);

/// dq, dk, dv ← the gradients given dout; `work` holds length × length floats.
void attention_backward(HeadView view, const float* q, const float* k, const float* v, const float* probs,
                        const float* dout, float scale, float* dq, float* dk, float* dv, float* work);

}  // namespace payback::bench::cpu
