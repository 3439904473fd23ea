#include "cpu/layers.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "cpu/kernels.hpp"
#include "cpu/scratch.hpp"

namespace payback::bench::cpu {
namespace {

thread_local Scratch columns_scratch;
thread_local Scratch column_grad_scratch;

/// Copies n floats in fixed-size pieces, which the compiler turns into vector moves: rows here are
/// short (28 or 10 floats), and a call to memmove per row cost more than the copying.
inline void copy_floats(float* dst, const float* src, int n) {
    int i = 0;
    for (; i + 8 <= n; i += 8) __builtin_memcpy(dst + i, src + i, 8 * sizeof(float));
    if (i + 4 <= n) __builtin_memcpy(dst + i, src + i, 4 * sizeof(float)), i += 4;
    if (i + 2 <= n) __builtin_memcpy(dst + i, src + i, 2 * sizeof(float)), i += 2;
    if (i < n) dst[i] = src[i];
}

/// Σ x[0..n), in eight interleaved partial sums so that it vectorizes.
inline float sum_floats(const float* x, int n) {
    float partial[8] = {};
    int i = 0;
    for (; i + 8 <= n; i += 8)
        for (int k = 0; k < 8; ++k) partial[k] += x[i + k];
    float sum = 0.0f;
    for (; i < n; ++i) sum += x[i];
    for (float p : partial) sum += p;
    return sum;
}

/// col[(c·k + i)·k + j][oh·OW + ow] = x[c][oh + i][ow + j]: lays the input out so that the convolution
/// is one matrix product, weight [out, in·k·k] × col [in·k·k, OH·OW].
void im2col(const float* x, ImageShape in, int kernel, ImageShape out, float* col) {
    const int positions = out.height * out.width;
    for (int c = 0; c < in.channels; ++c)
        for (int i = 0; i < kernel; ++i)
            for (int j = 0; j < kernel; ++j, col += positions)
                for (int oh = 0; oh < out.height; ++oh) {
                    copy_floats(col + oh * out.width, x + (std::ptrdiff_t(c) * in.height + oh + i) * in.width + j,
                                out.width);
                }
}

/// The adjoint of im2col: dx[c][oh + i][ow + j] += col[(c·k + i)·k + j][oh·OW + ow].
void col2im(const float* col, ImageShape in, int kernel, ImageShape out, float* dx) {
    const int positions = out.height * out.width;
    for (int c = 0; c < in.channels; ++c)
        for (int i = 0; i < kernel; ++i)
            for (int j = 0; j < kernel; ++j, col += positions)
                for (int oh = 0; oh < out.height; ++oh) {
                    float* dst = dx + (std::ptrdiff_t(c) * in.height + oh + i) * in.width + j;
                    const float* src = col + oh * out.width;
                    for (int ow = 0; ow < out.width; ++ow) dst[ow] += src[ow];
                }
}

/// Reading the input in place, one output row at a time, fills 16-float tiles with the row's width;
/// worth it over im2col's copy when at least 3/4 of each tile is used (the tutorial's first layer: 28
/// of 32; its second, 10 of 16, copies).
bool direct_conv(ImageShape out) {
    const int tiles = (out.width + 15) / 16;
    return 4 * out.width >= 3 * 16 * tiles;
}

/// Offsets in the input of each tap (c, i, j) of the kernel, in weight order.
thread_local std::vector<int> tap_offsets;
const int* taps(ImageShape in, int kernel) {
    tap_offsets.clear();
    for (int c = 0; c < in.channels; ++c)
        for (int i = 0; i < kernel; ++i)
            for (int j = 0; j < kernel; ++j) tap_offsets.push_back((c * in.height + i) * in.width + j);
    return tap_offsets.data();
}

}  // namespace

ImageShape conv2d_output(ImageShape in, int out_channels, int kernel) {
    return {out_channels, in.height - kernel + 1, in.width - kernel + 1};
}

void conv2d_forward(const float* x, ImageShape in, const float* weight, const float* bias, int out_channels, int kernel,
                    int samples, float* y) {
    const ImageShape out = conv2d_output(in, out_channels, kernel);
    const int positions = out.height * out.width, depth = in.channels * kernel * kernel;
    const bool direct = direct_conv(out);
    const int* offsets = direct ? taps(in, kernel) : nullptr;
    float* col = direct ? nullptr : columns_scratch.get(std::size_t(depth) * positions);
    for (int s = 0; s < samples; ++s) {
        const float* xs = x + s * in.size();
        float* ys = y + s * out.size();
        for (int o = 0; o < out_channels; ++o) std::fill(ys + o * positions, ys + (o + 1) * positions, bias[o]);
        if (direct) {
            conv_rows(out_channels, depth, out.height, out.width, weight, xs, offsets, in.width, ys, true);
        } else {
            im2col(xs, in, kernel, out, col);
            gemm(out_channels, positions, depth, {weight, depth, 1}, {col, positions, 1}, ys, positions, true);
        }
    }
}

void conv2d_backward(const float* x, ImageShape in, const float* weight, int out_channels, int kernel, int samples,
                     const float* dy, float* dweight, float* dbias, float* dx, bool accumulate) {
    const ImageShape out = conv2d_output(in, out_channels, kernel);
    const int positions = out.height * out.width, depth = in.channels * kernel * kernel;
    const bool direct = direct_conv(out);
    const int* offsets = direct ? taps(in, kernel) : nullptr;
    float* col = direct ? nullptr : columns_scratch.get(std::size_t(depth) * positions);
    float* col_grad = dx ? column_grad_scratch.get(std::size_t(depth) * positions) : nullptr;
    if (!accumulate) {
        std::fill(dbias, dbias + out_channels, 0.0f);
        if (samples == 0) std::fill(dweight, dweight + std::ptrdiff_t(out_channels) * depth, 0.0f);
    }
    for (int s = 0; s < samples; ++s) {
        const float* xs = x + s * in.size();
        const float* dys = dy + s * out.size();
        // dW[o][d] (+)= Σ_p dy[o][p]·col[d][p]
        if (direct) {
            conv_rows_weight_grad(out_channels, depth, out.height, out.width, dys, xs, offsets, in.width, dweight,
                                  accumulate || s > 0);
        } else {
            im2col(xs, in, kernel, out, col);
            gemm_abt(out_channels, depth, positions, dys, positions, col, positions, dweight, depth, accumulate || s > 0);
        }
        for (int o = 0; o < out_channels; ++o) dbias[o] += sum_floats(dys + o * positions, positions);
        if (!dx) continue;
        // dcol = Wᵀ·dy, then scattered back onto the input positions it came from.
        gemm(depth, positions, out_channels, {weight, 1, depth}, {dys, positions, 1}, col_grad, positions, false);
        float* dxs = dx + s * in.size();
        std::fill(dxs, dxs + in.size(), 0.0f);
        col2im(col_grad, in, kernel, out, dxs);
    }
}

void relu_forward(const float* x, float* y, int rows, int cols, std::ptrdiff_t stride) {
    for (int r = 0; r < rows; ++r)
        for (int j = 0; j < cols; ++j) {
            const float v = x[r * stride + j];
            y[r * stride + j] = v < 0.0f ? 0.0f : v;  // NaN stays NaN, as in PyTorch
        }
}

void relu_backward(const float* y, float* dy, int rows, int cols, std::ptrdiff_t stride) {
    for (int r = 0; r < rows; ++r)
        for (int j = 0; j < cols; ++j) dy[r * stride + j] = y[r * stride + j] <= 0.0f ? 0.0f : dy[r * stride + j];
}

ImageShape max_pool2d_output(ImageShape in, int kernel) {
    return {in.channels, in.height / kernel, in.width / kernel};
}

void max_pool2d_forward(const float* x, ImageShape in, int kernel, int samples, float* y, std::int32_t* argmax,
                        bool after_relu) {
    const int plane = in.height * in.width;
    const int out_plane = int(max_pool2d_output(in, kernel).size()) / in.channels;
    for (int s = 0; s < samples; ++s)
        for (int c = 0; c < in.channels; ++c, x += plane, y += out_plane, argmax += out_plane)
            max_pool_plane(x, in.height, in.width, kernel, after_relu, y, argmax, c * plane);
}

void max_pool2d_backward(const float* dy, const std::int32_t* argmax, ImageShape in, int kernel, int samples,
                         float* dx, const float* relu_y) {
    const std::size_t outputs = max_pool2d_output(in, kernel).size();
    for (int s = 0; s < samples; ++s, dx += in.size(), dy += outputs, argmax += outputs) {
        std::fill(dx, dx + in.size(), 0.0f);
        if (relu_y) {
            for (std::size_t o = 0; o < outputs; ++o) dx[argmax[o]] += relu_y[o] <= 0.0f ? 0.0f : dy[o];
            relu_y += outputs;
        } else {
            for (std::size_t o = 0; o < outputs; ++o) dx[argmax[o]] += dy[o];
        }
    }
}

void linear_forward(const float* x, int samples, int in, const float* weight, const float* bias, int out, float* y,
                    Range outputs) {
    for (int s = 0; s < samples; ++s) std::copy(bias + outputs.begin, bias + outputs.end, y + s * out + outputs.begin);
    gemm_abt(samples, outputs.size(), in, x, in, weight + std::ptrdiff_t(outputs.begin) * in, in, y + outputs.begin,
             out, true);
}

void linear_weight_grad(const float* x, const float* dy, int samples, int in, int out, float* dweight, float* dbias,
                        Range outputs) {
    // dW[o][i] = Σ_s dy[s][o]·x[s][i]: dyᵀ read in place as the left operand.
    gemm(outputs.size(), in, samples, {dy + outputs.begin, 1, out}, {x, in, 1},
         dweight + std::ptrdiff_t(outputs.begin) * in, in, false);
    std::fill(dbias + outputs.begin, dbias + outputs.end, 0.0f);
    for (int s = 0; s < samples; ++s)
        for (int o = outputs.begin; o < outputs.end; ++o) dbias[o] += dy[s * out + o];
}

void linear_input_grad(const float* dy, const float* weight, int samples, int in, int out, float* dx, Range inputs) {
    gemm(samples, inputs.size(), out, {dy, out, 1}, {weight + inputs.begin, in, 1}, dx + inputs.begin, in, false);
}

double cross_entropy(const float* logits, const int* labels, int samples, int classes, float scale, float* dlogits) {
    double total = 0.0;
    for (int s = 0; s < samples; ++s, logits += classes, dlogits += classes) {
        const float top = *std::max_element(logits, logits + classes);
        float sum = 0.0f;
        for (int j = 0; j < classes; ++j) sum += dlogits[j] = std::exp(logits[j] - top);
        total += double(top) + std::log(double(sum)) - logits[labels[s]];
        const float to_probability = scale / sum;
        for (int j = 0; j < classes; ++j) dlogits[j] *= to_probability;
        dlogits[labels[s]] -= scale;
    }
    return total;
}

}  // namespace payback::bench::cpu
