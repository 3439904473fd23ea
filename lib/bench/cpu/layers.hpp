// The layers' forward and backward passes over a run of samples, single-threaded: the trainer gives
// each thread its own samples, or for a large linear layer its own features. NCHW float32 throughout,
// PyTorch's semantics; gradients of weights overwrite their outputs (summed over the samples given).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace payback::bench::cpu {

struct ImageShape {
    int channels = 0;
    int height = 0;
    int width = 0;
    std::size_t size() const { return std::size_t(channels) * height * width; }
};

/// Half-open range [begin, end) of samples or features.
struct Range {
    int begin = 0;
    int end = 0;
    int size() const { return end - begin; }
    bool empty() const { return end <= begin; }
};

/// Feature ranges are multiples of this, so that threads never share a vector or a cache line.
constexpr int feature_align = 16;

/// Thread t's part of [0, count) out of `threads` parts, its ends multiples of `align` (or count).
inline Range share(int count, int threads, int t, int align = 1) {
    const long units = (count + align - 1) / align;
    return {int(std::min<long>(count, units * t / threads * align)),
            int(std::min<long>(count, units * (t + 1) / threads * align))};
}

// conv2d: stride 1, no padding, square kernel; weight [out, in, kernel, kernel], bias [out].
ImageShape conv2d_output(ImageShape in, int out_channels, int kernel);
void conv2d_forward(const float* x, ImageShape in, const float* weight, const float* bias, int out_channels, int kernel,
                    int samples, float* y);
/// dweight and dbias ← their gradients summed over the samples (+= when `accumulate`); dx (skipped when
/// null) ← the input gradient.
void conv2d_backward(const float* x, ImageShape in, const float* weight, int out_channels, int kernel, int samples,
                     const float* dy, float* dweight, float* dbias, float* dx, bool accumulate = false);

// relu on a block of `rows` rows of `cols` floats, rows `stride` apart (in place is allowed).
void relu_forward(const float* x, float* y, int rows, int cols, std::ptrdiff_t stride);
/// dy ← dy where the forward output y > 0, else 0 (PyTorch's threshold_backward on the output).
void relu_backward(const float* y, float* dy, int rows, int cols, std::ptrdiff_t stride);

// max_pool2d: window = stride = kernel, output size rounded down. `argmax` holds, for each output, the
// index within its sample's input of the first maximum in row-major window order (NaN wins, as in PyTorch).
// With `after_relu` the layer is relu then max-pool in one pass (relu(max) = max(relu), so the relu's own
// pass over the larger input is saved).
ImageShape max_pool2d_output(ImageShape in, int kernel);
void max_pool2d_forward(const float* x, ImageShape in, int kernel, int samples, float* y, std::int32_t* argmax,
                        bool after_relu = false);
/// dx ← dy routed to each window's argmax, 0 elsewhere. Given the forward's output y of a relu-then-pool
/// (`relu_y`), also the relu's gradient: nothing is routed where y ≤ 0.
void max_pool2d_backward(const float* dy, const std::int32_t* argmax, ImageShape in, int kernel, int samples,
                         float* dx, const float* relu_y = nullptr);

// linear: weight [out, in], y = x·Wᵀ + b, rows of x `in` floats and of y `out` floats.
/// Columns `outputs` of y.
void linear_forward(const float* x, int samples, int in, const float* weight, const float* bias, int out, float* y,
                    Range outputs);
/// Rows `outputs` of dweight and entries `outputs` of dbias, summed over the samples.
void linear_weight_grad(const float* x, const float* dy, int samples, int in, int out, float* dweight, float* dbias,
                        Range outputs);
/// Columns `inputs` of dx = dy·W.
void linear_input_grad(const float* dy, const float* weight, int samples, int in, int out, float* dx, Range inputs);

/// Σ over the samples of logsumexp(logits) − logits[label], computed stably; dlogits ← (softmax −
/// one-hot) · scale (scale = 1/batch for the mean). Labels must lie in [0, classes).
double cross_entropy(const float* logits, const int* labels, int samples, int classes, float scale, float* dlogits);

}  // namespace payback::bench::cpu
