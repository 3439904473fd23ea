#include "payback/workload/network.hpp"

#include <cmath>
#include <random>

#include <fmt/format.h>

#include "payback/base/error.hpp"
#include "payback/base/suggest.hpp"

namespace payback {
namespace {

std::vector<Workload> make_workloads() {
    using enum LayerKind;
    Workload tutorial{"cifar10-tutorial",
                      "PyTorch's CIFAR-10 tutorial network: conv 3→6 5×5, pool, conv 6→16 5×5, pool, 400→120→84→10",
                      3, 32, 32, 10,
                      {{conv2d, 3, 6, 5}, {relu}, {max_pool2d, 0, 0, 2}, {conv2d, 6, 16, 5}, {relu},
                       {max_pool2d, 0, 0, 2}, {flatten}, {linear, 400, 120}, {relu}, {linear, 120, 84}, {relu},
                       {linear, 84, 10}}};
    Workload mlp{"mlp", "3072→1024→1024→10 with ReLU: bound by matrix multiplication", 3, 32, 32, 10,
                 {{flatten}, {linear, 3072, 1024}, {relu}, {linear, 1024, 1024}, {relu}, {linear, 1024, 10}}};
    return {tutorial, mlp};
}

const std::vector<Workload>& workloads() {
    static const std::vector<Workload> all = make_workloads();
    return all;
}

bool has_parameters(const Layer& layer) { return layer.kind == LayerKind::conv2d || layer.kind == LayerKind::linear; }

int fan_in(const Layer& layer) {
    return layer.kind == LayerKind::conv2d ? layer.in_channels * layer.kernel * layer.kernel : layer.in_channels;
}

}  // namespace

const Workload& find_workload(std::string_view name) {
    for (const auto& w : workloads())
        if (w.name == name) return w;
    const auto known = workload_names();
    const std::string hint = detail::closest_match(name, known);
    throw InputError("", 0, "workload",
                     fmt::format("unknown workload \"{}\"{}; known: {}", name,
                                 hint.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", hint),
                                 fmt::join(known, ", ")));
}

std::vector<std::string> workload_names() {
    std::vector<std::string> names;
    for (const auto& w : workloads()) names.push_back(w.name);
    return names;
}

std::vector<std::vector<int>> parameter_shapes(const Workload& workload) {
    std::vector<std::vector<int>> shapes;
    for (const auto& layer : workload.layers) {
        if (layer.kind == LayerKind::conv2d)
            shapes.push_back({layer.out_channels, layer.in_channels, layer.kernel, layer.kernel});
        else if (layer.kind == LayerKind::linear)
            shapes.push_back({layer.out_channels, layer.in_channels});
        else
            continue;
        shapes.push_back({layer.out_channels});
    }
    return shapes;
}

std::size_t parameter_count(const Workload& workload) {
    std::size_t n = 0;
    for (const auto& shape : parameter_shapes(workload)) n += Tensor::element_count(shape);
    return n;
}

double forward_macs_per_sample(const Workload& workload) {
    int channels = workload.channels, height = workload.height, width = workload.width;
    double macs = 0;
    for (const auto& layer : workload.layers) {
        switch (layer.kind) {
        case LayerKind::conv2d:
            height -= layer.kernel - 1;
            width -= layer.kernel - 1;
            macs += double(height) * width * layer.out_channels * layer.in_channels * layer.kernel * layer.kernel;
            channels = layer.out_channels;
            break;
        case LayerKind::max_pool2d:
            height /= layer.kernel;
            width /= layer.kernel;
            break;
        case LayerKind::flatten:
            width = channels * height * width;
            channels = height = 1;
            break;
        case LayerKind::linear:
            macs += double(layer.in_channels) * layer.out_channels;
            width = layer.out_channels;
            break;
        case LayerKind::relu: break;
        }
    }
    return macs;
}

double training_flops_per_sample(const Workload& workload) { return 6.0 * forward_macs_per_sample(workload); }

std::vector<Tensor> default_parameters(const Workload& workload, std::uint64_t seed) {
    std::mt19937_64 generator(seed);
    std::vector<Tensor> parameters;
    for (const auto& layer : workload.layers) {
        if (!has_parameters(layer)) continue;
        const float bound = 1.0f / std::sqrt(static_cast<float>(fan_in(layer)));
        std::uniform_real_distribution<float> uniform(-bound, bound);
        Workload one_layer;
        one_layer.layers = {layer};
        for (auto& shape : parameter_shapes(one_layer)) {
            Tensor t(shape);
            for (auto& v : t.data) v = uniform(generator);
            parameters.push_back(std::move(t));
        }
    }
    return parameters;
}

}  // namespace payback
