// The networks the benchmark trains: a list of layers over CIFAR-shaped input (3×32×32, 10 classes),
// trained with mean cross-entropy and SGD with momentum, PyTorch's semantics throughout.
//   cifar10-tutorial  the network of PyTorch's "Training a Classifier" tutorial, exactly: small,
//                     bound by per-layer overhead at small batches
//   mlp               3072→1024→1024→10 with ReLU: bound by matrix multiplication
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "payback/workload/tensor.hpp"

namespace payback {

enum class LayerKind { conv2d, relu, max_pool2d, flatten, linear };

/// One layer. conv2d: stride 1, no padding, square kernel; max_pool2d: kernel = stride = `kernel`;
/// linear: in_channels → out_channels features.
struct Layer {
    LayerKind kind;
    int in_channels = 0;
    int out_channels = 0;
    int kernel = 0;
};

struct Workload {
    std::string name;
    std::string description;
    int channels = 3;
    int height = 32;
    int width = 32;
    int classes = 10;
    std::vector<Layer> layers;
};

/// The workload called `name`; throws InputError (key "workload") naming the known ones otherwise.
const Workload& find_workload(std::string_view name);
std::vector<std::string> workload_names();

/// Shapes of the trainable tensors in PyTorch's `net.parameters()` order: for each conv2d and
/// linear layer, its weight ([out, in, k, k] or [out, in]) then its bias ([out]).
std::vector<std::vector<int>> parameter_shapes(const Workload& workload);
std::size_t parameter_count(const Workload& workload);

/// Multiply-adds of one sample's forward pass (conv and linear layers).
double forward_macs_per_sample(const Workload& workload);
/// Floating-point operations of one training sample: forward, backward for inputs and for weights,
/// i.e. 3 × 2 × forward MACs (the usual count; the first layer's input gradient is counted too).
double training_flops_per_sample(const Workload& workload);

/// PyTorch's default initialization: weights and biases of a layer uniform in ±1/sqrt(fan_in),
/// fan_in = in × k × k. Drawn from a seeded generator of our own (not PyTorch's stream).
std::vector<Tensor> default_parameters(const Workload& workload, std::uint64_t seed);

}  // namespace payback
