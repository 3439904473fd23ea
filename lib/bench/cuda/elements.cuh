// The per-element math of the CUDA trainer's kernels: one output element (or one term of a sum) per
// call, written once for the GPU and for the host (a test can run them in plain loops and compare
// with a reference). kernels.cu wraps each in a grid-stride loop or a block reduction.
//
// All tensors are row-major (NCHW for images), all flat indices are int: plan.hpp checks that every
// activation of the batch has fewer than 2^31 elements. Index decompositions are written out:
// for a tensor [A, B, C, D], flat = ((a·B + b)·C + c)·D + d, so d = flat % D, c = (flat / D) % C, …
#pragma once

#include <math.h>

#if defined(__CUDACC__)
#define PAYBACK_HD __host__ __device__
#else
#define PAYBACK_HD
#endif

namespace payback::bench::gpu {

/// conv2d, stride 1, no padding: x [N, C, H, W] * w [O, C, K, K] + bias [O] → y [N, O, OH, OW],
/// OH = H - K + 1, OW = W - K + 1.
struct ConvShape {
    int batch, in_channels, in_height, in_width;
    int out_channels, kernel, out_height, out_width;
};

/// max_pool2d, kernel = stride = k, floor mode: x [P, H, W] → y [P, OH, OW] with P = N·C planes,
/// OH = H / k, OW = W / k (the last H % k rows and W % k columns are in no window, as in PyTorch).
struct PoolShape {
    int planes, in_height, in_width, kernel, out_height, out_width;
};

// ---- conv2d forward ---------------------------------------------------------------------------------
// y[n,o,oy,ox] = bias[o] + Σ_{c<C, ky<K, kx<K} x[n, c, oy+ky, ox+kx] · w[o, c, ky, kx]
// idx = ((n·O + o)·OH + oy)·OW + ox. Bounds: oy+ky ≤ (OH-1)+(K-1) = H-1, likewise ox+kx ≤ W-1.
PAYBACK_HD inline float conv2d_forward_at(int idx, const float* x, const float* w, const float* bias,
                                          const ConvShape& s) {
    const int ox = idx % s.out_width;
    int t = idx / s.out_width;
    const int oy = t % s.out_height;
    t /= s.out_height;
    const int o = t % s.out_channels;
    const int n = t / s.out_channels;
    const int kk = s.kernel * s.kernel;
    float acc = 0.0f;
    for (int c = 0; c < s.in_channels; ++c) {
        // x[n, c, oy, ox] and w[o, c, 0, 0]
        const int x_at = ((n * s.in_channels + c) * s.in_height + oy) * s.in_width + ox;
        const int w_at = (o * s.in_channels + c) * kk;
        const float* xp = x + x_at;
        const float* wp = w + w_at;
        for (int ky = 0; ky < s.kernel; ++ky)
            for (int kx = 0; kx < s.kernel; ++kx) acc += xp[ky * s.in_width + kx] * wp[ky * s.kernel + kx];
    }
    return acc + bias[o];
}

// ---- conv2d backward, input gradient (a gather: no atomics) -----------------------------------------
// dx[n,c,y,x] = Σ_{o<O, ky, kx : 0 ≤ y-ky < OH, 0 ≤ x-kx < OW} dy[n, o, y-ky, x-kx] · w[o, c, ky, kx]
// idx = ((n·C + c)·H + y)·W + x. The ky range: y-ky ≥ 0 ⇔ ky ≤ y; y-ky ≤ OH-1 ⇔ ky ≥ y-OH+1.
PAYBACK_HD inline float conv2d_backward_data_at(int idx, const float* dy, const float* w, const ConvShape& s) {
    const int x = idx % s.in_width;
    int t = idx / s.in_width;
    const int y = t % s.in_height;
    t /= s.in_height;
    const int c = t % s.in_channels;
    const int n = t / s.in_channels;
    const int ky_lo = y - s.out_height + 1 > 0 ? y - s.out_height + 1 : 0;
    const int ky_hi = y < s.kernel - 1 ? y : s.kernel - 1;  // inclusive
    const int kx_lo = x - s.out_width + 1 > 0 ? x - s.out_width + 1 : 0;
    const int kx_hi = x < s.kernel - 1 ? x : s.kernel - 1;
    float acc = 0.0f;
    for (int o = 0; o < s.out_channels; ++o) {
        const int dy_at = (n * s.out_channels + o) * s.out_height * s.out_width;  // dy[n, o, 0, 0]
        const int w_at = (o * s.in_channels + c) * s.kernel * s.kernel;           // w[o, c, 0, 0]
        const float* dyp = dy + dy_at;
        const float* wp = w + w_at;
        for (int ky = ky_lo; ky <= ky_hi; ++ky)
            for (int kx = kx_lo; kx <= kx_hi; ++kx)
                acc += dyp[(y - ky) * s.out_width + (x - kx)] * wp[ky * s.kernel + kx];
    }
    return acc;
}

// ---- conv2d backward, weight and bias gradients (reductions over n, oy, ox) --------------------------
// dw[o,c,ky,kx] = Σ_{n, oy, ox} dy[n, o, oy, ox] · x[n, c, oy+ky, ox+kx]
// db[o]         = Σ_{n, oy, ox} dy[n, o, oy, ox]
// One output per weight index j = ((o·C + c)·K + ky)·K + kx (then O biases after the O·C·K·K
// weights); the reduction index r = (n·OH + oy)·OW + ox runs over N·OH·OW terms.
struct ConvWeightIndex {
    int o, c, ky, kx;
};

PAYBACK_HD inline ConvWeightIndex conv_weight_index(int j, const ConvShape& s) {
    ConvWeightIndex i;
    i.kx = j % s.kernel;
    int t = j / s.kernel;
    i.ky = t % s.kernel;
    t /= s.kernel;
    i.c = t % s.in_channels;
    i.o = t / s.in_channels;
    return i;
}

PAYBACK_HD inline int conv_reduction_size(const ConvShape& s) { return s.batch * s.out_height * s.out_width; }

/// dy[n, o, oy, ox] for reduction index r.
PAYBACK_HD inline float conv_bias_grad_term(int o, int r, const float* dy, const ConvShape& s) {
    const int ox = r % s.out_width;
    const int t = r / s.out_width;
    const int oy = t % s.out_height;
    const int n = t / s.out_height;
    return dy[((n * s.out_channels + o) * s.out_height + oy) * s.out_width + ox];
}

/// dy[n, o, oy, ox] · x[n, c, oy+ky, ox+kx] for reduction index r.
PAYBACK_HD inline float conv_weight_grad_term(const ConvWeightIndex& i, int r, const float* x, const float* dy,
                                              const ConvShape& s) {
    const int ox = r % s.out_width;
    const int t = r / s.out_width;
    const int oy = t % s.out_height;
    const int n = t / s.out_height;
    return dy[((n * s.out_channels + i.o) * s.out_height + oy) * s.out_width + ox] *
           x[((n * s.in_channels + i.c) * s.in_height + oy + i.ky) * s.in_width + ox + i.kx];
}

// ---- ReLU --------------------------------------------------------------------------------------------
// Backward passes the gradient where the output is positive (PyTorch's threshold_backward on the
// result; output > 0 ⇔ input > 0).
PAYBACK_HD inline float relu_forward_at(float v) { return v > 0.0f ? v : 0.0f; }
PAYBACK_HD inline float relu_backward_at(float out, float dout) { return out > 0.0f ? dout : 0.0f; }

// ---- max_pool2d ----------------------------------------------------------------------------------------
// y[p,oy,ox] = max_{ky<k, kx<k} x[p, oy·k+ky, ox·k+kx]; *argmax = the flat index into x of the first
// maximum in row-major window order (strict >, so a later equal value does not replace it).
// idx = (p·OH + oy)·OW + ox. Bounds: oy·k+ky ≤ (OH-1)·k + k-1 = OH·k - 1 ≤ H - 1.
PAYBACK_HD inline float max_pool_forward_at(int idx, const float* x, int* argmax, const PoolShape& s) {
    const int ox = idx % s.out_width;
    const int t = idx / s.out_width;
    const int oy = t % s.out_height;
    const int p = t / s.out_height;
    const int plane = p * s.in_height * s.in_width;  // x[p, 0, 0]
    int best_index = -1;
    float best = 0.0f;
    for (int ky = 0; ky < s.kernel; ++ky)
        for (int kx = 0; kx < s.kernel; ++kx) {
            const int i = plane + (oy * s.kernel + ky) * s.in_width + ox * s.kernel + kx;
            const float v = x[i];
            if (best_index < 0 || v > best) {
                best = v;
                best_index = i;
            }
        }
    *argmax = best_index;
    return best;
}

// dx[p,y,x] = dy[p, y/k, x/k] if (y, x) is the recorded maximum of that window, else 0 (also 0 for
// the rows and columns no window covers). Windows do not overlap (stride = kernel), so each input
// element has at most one window: a gather, every dx element written. idx = (p·H + y)·W + x, which
// is the same flat index space as argmax.
PAYBACK_HD inline float max_pool_backward_at(int idx, const float* dy, const int* argmax, const PoolShape& s) {
    const int x = idx % s.in_width;
    const int t = idx / s.in_width;
    const int y = t % s.in_height;
    const int p = t / s.in_height;
    const int oy = y / s.kernel;
    const int ox = x / s.kernel;
    if (oy >= s.out_height || ox >= s.out_width) return 0.0f;
    const int o = (p * s.out_height + oy) * s.out_width + ox;
    return argmax[o] == idx ? dy[o] : 0.0f;
}

// ---- linear bias ---------------------------------------------------------------------------------------
// y [rows, cols] row-major: y[r, c] += b[c] with c = idx % cols.
PAYBACK_HD inline float add_bias_at(int idx, const float* y, const float* b, int cols) { return y[idx] + b[idx % cols]; }

// ---- mean cross-entropy --------------------------------------------------------------------------------
// One row (sample) of logits z [classes]: loss = logsumexp(z) - z[label] with
// logsumexp(z) = m + log Σ_j exp(z_j - m), m = max_j z_j (no overflow: every exponent ≤ 0, one is 0).
// dz_j = (softmax(z)_j - [j = label]) · scale, scale = 1/batch (the mean's derivative).
// A label out of range gives NaN loss and gradient (the trainer rejects such batches before upload).
PAYBACK_HD inline float cross_entropy_row(const float* z, int label, int classes, float scale, float* dz) {
    if (label < 0 || label >= classes) {
        for (int j = 0; j < classes; ++j) dz[j] = NAN;
        return NAN;
    }
    float m = z[0];
    for (int j = 1; j < classes; ++j) m = z[j] > m ? z[j] : m;
    float sum = 0.0f;
    for (int j = 0; j < classes; ++j) sum += expf(z[j] - m);
    const float inv_sum = 1.0f / sum;
    for (int j = 0; j < classes; ++j) dz[j] = (expf(z[j] - m) * inv_sum - (j == label ? 1.0f : 0.0f)) * scale;
    return m + logf(sum) - z[label];
}

// ---- SGD with momentum (PyTorch: v₁ = g₁, then v ← μ·v + g; p ← p − lr·v) --------------------------------
PAYBACK_HD inline void sgd_at(long long i, float* p, const float* g, float* v, float lr, float momentum, bool first) {
    const float velocity = first ? g[i] : momentum * v[i] + g[i];
    v[i] = velocity;
    p[i] -= lr * velocity;
}

}  // namespace payback::bench::gpu
