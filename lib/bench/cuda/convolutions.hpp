// The tutorial CNN's convolutions on the GPU, by our kernels (kernels.cu) or by cuDNN's, whichever is
// faster for each shape and each of its three products (forward, gradient of the input, gradients of
// the weights and bias). The choice is made once, when the trainer is made, by timing both on the
// trainer's own buffers: cuDNN is far faster on large batches, and our direct kernels can win on small
// ones, where cuDNN's fixed costs dominate. Host code; cudnn.h stays in convolutions.cpp.
#pragma once

#include <cstddef>
#include <memory>

#include <cuda_runtime.h>

#include "elements.cuh"

namespace payback::bench::gpu {

/// A convolution layer's buffers on the GPU, for timing its products. `dx` may be null (the first
/// layer's input needs no gradient); everything else is required.
struct ConvBuffers {
    const float *x, *w, *b;
    float* y;
    const float* dy;
    float *dx, *dw, *db;
};

class Convolutions {
public:
    explicit Convolutions(cudaStream_t stream);
    ~Convolutions();
    Convolutions(const Convolutions&) = delete;
    Convolutions& operator=(const Convolutions&) = delete;

    /// Times both implementations of each product for this shape on these buffers (their contents are
    /// overwritten) and keeps the faster; a shape seen before keeps its choice.
    void choose(const ConvShape& s, const ConvBuffers& buffers);

    // The products, by the implementation chosen for the shape (ours for a shape never chosen for).
    void forward(const float* x, const float* w, const float* b, float* y, const ConvShape& s);
    void backward_data(const float* dy, const float* w, float* dx, const ConvShape& s);
    void backward_params(const float* x, const float* dy, float* dw, float* db, const ConvShape& s);

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace payback::bench::gpu
