// One training step's schedule over a Plan: which operation runs on which buffers, forward, loss,
// backward and the update. Plain C++ templated on the operations (`Ops`), so that the CUDA trainer
// runs it with kernels and cuBLAS and a test without a GPU can run the same schedule on the host.
//
// Ops provides (pointers into its memory; shapes per elements.cuh and gemm_mapping.hpp):
//   conv2d_forward(x, w, b, y, ConvShape)        conv2d_backward_data(dy, w, dx, ConvShape)
//   conv2d_backward_params(x, dy, dw, db, ConvShape)
//   relu_forward(x, y, count)                    relu_backward(y, dy, dx, count)
//   max_pool_forward(x, y, argmax, PoolShape)    max_pool_backward(dy, argmax, dx, PoolShape)
//   gemm(Gemm)                                   add_bias(y, b, rows, cols)
//   cross_entropy(z, labels, dz, loss, rows, classes)
//   sgd(p, g, v, count, learning_rate, momentum, first_step)
#pragma once

#include <cstddef>
#include <vector>

#include "elements.cuh"
#include "gemm_mapping.hpp"
#include "payback/bench/trainer.hpp"
#include "plan.hpp"

namespace payback::bench::gpu {

/// The trainer's buffers, each sized for the batch: per layer, its output and the gradient with
/// respect to it (null for a flatten, which aliases its input), and for a max-pool the argmax of
/// each window; per parameter tensor, views into the three flat buffers the update runs over.
struct Buffers {
    std::vector<float*> output;        // [layer] batch × out.size()
    std::vector<float*> output_grad;   // [layer] batch × out.size()
    std::vector<int*> argmax;          // [layer] batch × out.size(), max_pool2d only
    std::vector<float*> parameter;     // [parameter tensor]
    std::vector<float*> gradient;      // [parameter tensor]
    float* parameters = nullptr;       // all tensors, `flat_size` floats (padding zeros between them)
    float* gradients = nullptr;
    float* velocities = nullptr;
    long long flat_size = 0;
    const float* ones = nullptr;       // batch ones
    float* loss = nullptr;             // one float
};

inline ConvShape conv_shape(const LayerPlan& lp, int batch) {
    return {batch, lp.in.channels, lp.in.height, lp.in.width, lp.out.channels, lp.layer.kernel, lp.out.height,
            lp.out.width};
}

inline PoolShape pool_shape(const LayerPlan& lp, int batch) {
    return {batch * lp.in.channels, lp.in.height, lp.in.width, lp.layer.kernel, lp.out.height, lp.out.width};
}

/// The activation a layer reads: the output of layer `input_from`, or the batch itself.
inline const float* layer_input(const Buffers& buffers, const LayerPlan& lp, const float* images) {
    return lp.input_from < 0 ? images : buffers.output[static_cast<std::size_t>(lp.input_from)];
}

template <class Ops>
void forward(const Plan& plan, const Buffers& buffers, Ops& ops, const float* images, int batch) {
    for (std::size_t i = 0; i < plan.layers.size(); ++i) {
        const LayerPlan& lp = plan.layers[i];
        const float* in = layer_input(buffers, lp, images);
        float* out = buffers.output[i];
        switch (lp.layer.kind) {
        case LayerKind::conv2d:
            ops.conv2d_forward(in, buffers.parameter[lp.weight], buffers.parameter[lp.bias], out, conv_shape(lp, batch));
            break;
        case LayerKind::relu: ops.relu_forward(in, out, batch * static_cast<int>(lp.out.size())); break;
        case LayerKind::max_pool2d: ops.max_pool_forward(in, out, buffers.argmax[i], pool_shape(lp, batch)); break;
        case LayerKind::flatten: break;  // NCHW is already [N, C·H·W]
        case LayerKind::linear:
            ops.gemm(linear_forward_gemm(in, buffers.parameter[lp.weight], out, batch, lp.in.channels, lp.out.channels));
            ops.add_bias(out, buffers.parameter[lp.bias], batch, lp.out.channels);
            break;
        }
    }
}

/// The mean cross-entropy into *buffers.loss and its gradient into the logits' gradient buffer.
template <class Ops>
void loss(const Plan& plan, const Buffers& buffers, Ops& ops, const int* labels, int batch) {
    const auto logits = static_cast<std::size_t>(plan.logits_layer);
    ops.cross_entropy(buffers.output[logits], labels, buffers.output_grad[logits], buffers.loss, batch, plan.classes);
}

/// From the logits' gradient back to the first layer with parameters: every parameter gradient is
/// overwritten (none accumulates), and no gradient is computed for the batch itself or for layers
/// before the first with parameters.
template <class Ops>
void backward(const Plan& plan, const Buffers& buffers, Ops& ops, const float* images, int batch) {
    for (int i = static_cast<int>(plan.layers.size()) - 1; i >= plan.first_parameter_layer; --i) {
        const LayerPlan& lp = plan.layers[static_cast<std::size_t>(i)];
        if (lp.layer.kind == LayerKind::flatten) continue;  // its gradient buffer is its input's
        const float* in = layer_input(buffers, lp, images);
        const float* out = buffers.output[static_cast<std::size_t>(i)];
        const float* out_grad = buffers.output_grad[static_cast<std::size_t>(i)];
        // Below the first layer with parameters no gradient is needed; above it input_from ≥ 0.
        float* in_grad = i > plan.first_parameter_layer && lp.input_from >= 0
                             ? buffers.output_grad[static_cast<std::size_t>(lp.input_from)]
                             : nullptr;
        switch (lp.layer.kind) {
        case LayerKind::conv2d: {
            const ConvShape s = conv_shape(lp, batch);
            ops.conv2d_backward_params(in, out_grad, buffers.gradient[lp.weight], buffers.gradient[lp.bias], s);
            if (in_grad) ops.conv2d_backward_data(out_grad, buffers.parameter[lp.weight], in_grad, s);
            break;
        }
        case LayerKind::relu:
            if (in_grad) ops.relu_backward(out, out_grad, in_grad, batch * static_cast<int>(lp.out.size()));
            break;
        case LayerKind::max_pool2d:
            if (in_grad) ops.max_pool_backward(out_grad, buffers.argmax[static_cast<std::size_t>(i)], in_grad,
                                               pool_shape(lp, batch));
            break;
        case LayerKind::flatten: break;
        case LayerKind::linear: {
            const int in_features = lp.in.channels, out_features = lp.out.channels;
            ops.gemm(linear_weight_grad_gemm(in, out_grad, buffers.gradient[lp.weight], batch, in_features, out_features));
            ops.gemm(linear_bias_grad_gemm(out_grad, buffers.ones, buffers.gradient[lp.bias], batch, out_features));
            if (in_grad)
                ops.gemm(linear_input_grad_gemm(out_grad, buffers.parameter[lp.weight], in_grad, batch, in_features,
                                                out_features));
            break;
        }
        }
    }
}

template <class Ops>
void update(const Buffers& buffers, Ops& ops, const Sgd& sgd, bool first_step) {
    ops.sgd(buffers.parameters, buffers.gradients, buffers.velocities, buffers.flat_size, sgd.learning_rate,
            sgd.momentum, first_step);
}

}  // namespace payback::bench::gpu
