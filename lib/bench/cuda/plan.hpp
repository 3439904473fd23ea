// The CUDA trainer's plan of a workload: each layer's per-sample input and output shape, where its
// input comes from, and which parameter tensors it owns. Plain C++ (no CUDA), so that the shapes and
// the step schedule can be checked on a machine without a GPU.
#pragma once

#include <climits>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "payback/workload/network.hpp"

namespace payback::bench::gpu {

/// One sample's activation: channels × height × width, row-major (NCHW without the N). After a
/// flatten the shape is features × 1 × 1 and `flat` is set.
struct SampleShape {
    int channels = 0;
    int height = 0;
    int width = 0;
    bool flat = false;
    std::size_t size() const {
        return static_cast<std::size_t>(channels) * static_cast<std::size_t>(height) * static_cast<std::size_t>(width);
    }
};

struct LayerPlan {
    Layer layer;
    SampleShape in;
    SampleShape out;
    /// The layer whose output buffer is this layer's input: the nearest earlier layer that is not a
    /// flatten (a flatten is an alias of its input, NCHW being already contiguous), -1 for the batch.
    int input_from = -1;
    int weight = -1;  ///< index into parameter_shapes(), conv2d and linear only
    int bias = -1;
};

struct Plan {
    std::vector<LayerPlan> layers;
    std::vector<std::vector<int>> parameter_shapes;  ///< parameter_shapes(workload)
    SampleShape input;
    int classes = 0;
    int first_parameter_layer = -1;  ///< backward stops here: nothing before it needs a gradient
    int logits_layer = -1;           ///< the last layer that is not a flatten: its output is the logits
    std::size_t largest_activation = 0;  ///< per sample, input included (for the int index check)
};

/// Checks that the layers chain (channels, features, sizes) and end in `classes` flat logits.
/// Throws std::invalid_argument naming the layer otherwise.
inline Plan make_plan(const Workload& workload) {
    Plan plan;
    plan.parameter_shapes = parameter_shapes(workload);
    plan.input = {workload.channels, workload.height, workload.width, false};
    plan.classes = workload.classes;
    plan.largest_activation = plan.input.size();
    if (workload.channels < 1 || workload.height < 1 || workload.width < 1 || workload.classes < 1)
        throw std::invalid_argument("workload " + workload.name + ": input shape and classes must be positive");

    SampleShape shape = plan.input;
    int last_buffer = -1;  // the last layer that owns an output buffer
    int parameters = 0;
    for (std::size_t i = 0; i < workload.layers.size(); ++i) {
        const Layer& layer = workload.layers[i];
        const auto fail = [&](const std::string& why) {
            return std::invalid_argument("workload " + workload.name + ", layer " + std::to_string(i) + ": " + why);
        };
        LayerPlan lp;
        lp.layer = layer;
        lp.in = shape;
        lp.input_from = last_buffer;
        switch (layer.kind) {
        case LayerKind::conv2d:
            if (shape.flat) throw fail("conv2d after flatten");
            if (layer.in_channels != shape.channels)
                throw fail("conv2d expects " + std::to_string(layer.in_channels) + " channels, gets " +
                           std::to_string(shape.channels));
            if (layer.out_channels < 1 || layer.kernel < 1 || layer.kernel > shape.height || layer.kernel > shape.width)
                throw fail("conv2d kernel or channels out of range");
            shape = {layer.out_channels, shape.height - layer.kernel + 1, shape.width - layer.kernel + 1, false};
            break;
        case LayerKind::relu: break;
        case LayerKind::max_pool2d:
            if (shape.flat) throw fail("max_pool2d after flatten");
            if (layer.kernel < 1 || shape.height / layer.kernel < 1 || shape.width / layer.kernel < 1)
                throw fail("max_pool2d kernel out of range");
            shape = {shape.channels, shape.height / layer.kernel, shape.width / layer.kernel, false};
            break;
        case LayerKind::flatten: shape = {static_cast<int>(shape.size()), 1, 1, true}; break;
        case LayerKind::linear:
            // PyTorch's Linear on an unflattened NCHW tensor would act on the last axis only: not supported.
            if (!shape.flat) throw fail("linear before flatten");
            if (layer.in_channels != shape.channels)
                throw fail("linear expects " + std::to_string(layer.in_channels) + " features, gets " +
                           std::to_string(shape.channels));
            if (layer.out_channels < 1) throw fail("linear with no outputs");
            shape = {layer.out_channels, 1, 1, true};
            break;
        }
        if (layer.kind == LayerKind::conv2d || layer.kind == LayerKind::linear) {
            lp.weight = parameters++;
            lp.bias = parameters++;
            if (plan.first_parameter_layer < 0) plan.first_parameter_layer = static_cast<int>(i);
        }
        lp.out = shape;
        if (layer.kind != LayerKind::flatten) last_buffer = static_cast<int>(i);
        if (shape.size() > plan.largest_activation) plan.largest_activation = shape.size();
        plan.layers.push_back(lp);
    }
    if (plan.first_parameter_layer < 0)
        throw std::invalid_argument("workload " + workload.name + ": no conv2d or linear layer to train");
    if (!shape.flat || shape.channels != workload.classes)
        throw std::invalid_argument("workload " + workload.name + ": the last layer must give " +
                                    std::to_string(workload.classes) + " flat logits");
    if (static_cast<std::size_t>(parameters) != plan.parameter_shapes.size())
        throw std::invalid_argument("workload " + workload.name + ": parameter count disagrees with parameter_shapes()");
    plan.logits_layer = last_buffer;
    return plan;
}

/// Kernels index with int: every activation of the batch must fit.
inline void check_batch_fits(const Plan& plan, int batch_size) {
    if (batch_size < 1) throw std::invalid_argument("batch size must be at least 1");
    if (plan.largest_activation > static_cast<std::size_t>(INT_MAX) / static_cast<std::size_t>(batch_size))
        throw std::invalid_argument("batch size " + std::to_string(batch_size) +
                                    " too large: an activation would exceed 2^31 elements");
}

}  // namespace payback::bench::gpu
