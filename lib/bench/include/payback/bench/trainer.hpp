// A training loop on one device: forward, mean cross-entropy, backward, SGD with momentum
// (PyTorch's form: v ← μ·v + g, p ← p − lr·v, v₁ = g₁). The CPU and CUDA trainers implement it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "payback/bench/data.hpp"
#include "payback/workload/network.hpp"
#include "payback/workload/tensor.hpp"

namespace payback::bench {

struct Sgd {
    float learning_rate = 0.001f;
    float momentum = 0.9f;
};

class Trainer {
public:
    virtual ~Trainer() = default;

    /// "AMD EPYC (2 threads)", "NVIDIA H200".
    virtual std::string device_name() const = 0;
    virtual int batch_size() const = 0;

    /// Forward and backward on `batch`; returns the mean loss and leaves the gradients in gradients().
    virtual float compute_gradients(const Batch& batch) = 0;
    /// One SGD step (compute_gradients, then the update); returns the loss before the update.
    virtual float train_step(const Batch& batch) = 0;

    virtual std::vector<Tensor> parameters() const = 0;  ///< a copy, in parameter_shapes() order
    virtual std::vector<Tensor> gradients() const = 0;

    /// Trains `steps` steps, cycling through `pool` (already resident where the device wants it),
    /// and returns the elapsed seconds measured the device's way: a steady clock on the CPU, CUDA
    /// events after synchronization on a GPU. `pool` batches all have batch_size() samples.
    virtual double timed_steps(const std::vector<Batch>& pool, int steps) = 0;
};

}  // namespace payback::bench
