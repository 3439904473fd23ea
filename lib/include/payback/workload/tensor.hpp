// A dense float32 array with a shape, row-major (PyTorch's contiguous layout): what the benchmark's
// parameters, gradients and batches are made of. Kept plain so CPU and CUDA code share it.
#pragma once

#include <cstddef>
#include <vector>

namespace payback {

struct Tensor {
    std::vector<int> shape;
    std::vector<float> data;

    Tensor() = default;
    explicit Tensor(std::vector<int> dims) : shape(std::move(dims)), data(element_count(shape), 0.0f) {}

    std::size_t size() const { return data.size(); }

    static std::size_t element_count(const std::vector<int>& dims) {
        std::size_t n = 1;
        for (int d : dims) n *= static_cast<std::size_t>(d);
        return n;
    }
};

}  // namespace payback
