#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "payback/bench/cpu_trainer.hpp"
#include "payback/bench/cuda_trainer.hpp"
#include "payback/bench/data.hpp"
#include "payback/workload/network.hpp"

using namespace payback;
using namespace payback::bench;

// Without a GPU (or without CUDA at build time) these tests say why with a WARN and pass: the
// comparison with the CPU trainer runs only where cuda_status() says the CUDA trainer can.

namespace {

/// ‖a − b‖₂ / ‖b‖₂: a norm, not an element-wise bound, because the two trainers add in different
/// orders (cuBLAS, block reductions, threads) and a max-pool window whose two largest inputs differ
/// by a rounding error may send one gradient term to a different pixel on each device. Such a term
/// moves one element by up to ~0.2 % of the tensor's largest value, but the tensor's norm by far less.
double relative_l2(const std::vector<float>& a, const std::vector<float>& b) {
    double difference = 0, norm = 0;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
        difference += (double(a[i]) - b[i]) * (double(a[i]) - b[i]);
        norm += double(b[i]) * b[i];
    }
    return norm == 0 ? std::sqrt(difference) : std::sqrt(difference / norm);
}

std::vector<float> minus(const std::vector<float>& a, const std::vector<float>& b) {
    std::vector<float> d(a.size());
    for (std::size_t i = 0; i < a.size(); ++i) d[i] = a[i] - b[i];
    return d;
}

}  // namespace

TEST_CASE("cuda_status says whether the CUDA trainer can run, and why not", "[bench][cuda]") {
    const CudaStatus status = cuda_status();
    if (status.available) {
        CHECK(status.reason.empty());
        CHECK_FALSE(status.device_name.empty());
        return;
    }
    WARN("the CUDA trainer is not available: " << status.reason);
    CHECK(status.device_name.empty());
#ifdef PAYBACK_HAVE_CUDA
    // cudaErrorNoDevice or cudaErrorInsufficientDriver on a machine without a GPU, in the driver's words
    const bool no_device = status.reason.rfind("no CUDA device: ", 0) == 0 &&
                           status.reason.size() > std::string("no CUDA device: ").size();
    const bool no_kernels = status.reason.find("cannot run this build's kernels") != std::string::npos;
    CHECK((no_device || no_kernels));
#else
    CHECK(status.reason == "built without CUDA support (no CUDA compiler found at configure time, or PAYBACK_CUDA=OFF)");
#endif
    const Workload& mlp = find_workload("mlp");
    CHECK_THROWS_AS(make_cuda_trainer(mlp, default_parameters(mlp, 1), 4), std::runtime_error);
}

TEST_CASE("the CUDA trainer computes what the CPU trainer computes", "[bench][cuda]") {
    const CudaStatus status = cuda_status();
    if (!status.available) {
        WARN("CUDA trainer not compared with the CPU trainer: " << status.reason);
        return;
    }
    const std::string name = GENERATE(as<std::string>{}, "cifar10-tutorial", "mlp");
    const int batch = GENERATE(4, 64);
    INFO(name << " at batch " << batch << " on " << status.device_name);

    const Workload& workload = find_workload(name);
    const std::vector<Tensor> initial = default_parameters(workload, 2024);
    const Sgd sgd{0.01f, 0.9f};
    auto cpu = make_cpu_trainer(workload, initial, batch, 2, sgd);
    auto gpu = make_cuda_trainer(workload, initial, batch, sgd);
    CHECK(gpu->batch_size() == batch);
    CHECK(gpu->device_name() == status.device_name);

    // The parameters go to the GPU and come back bit for bit (the layout of the flat buffers).
    {
        const auto back = gpu->parameters();
        REQUIRE(back.size() == initial.size());
        for (std::size_t k = 0; k < initial.size(); ++k) {
            CHECK(back[k].shape == initial[k].shape);
            CHECK(back[k].data == initial[k].data);
        }
    }

    // Loss within 1e-4 relative; every gradient tensor within 1e-3 relative (L2, see relative_l2).
    const Batch first = synthetic_batch(batch, 7, workload.classes);
    const float cpu_loss = cpu->compute_gradients(first);
    const float gpu_loss = gpu->compute_gradients(first);
    REQUIRE(std::isfinite(gpu_loss));
    CHECK(std::fabs(gpu_loss - cpu_loss) <= 1e-4 * std::fabs(cpu_loss));
    const auto cpu_gradients = cpu->gradients();
    const auto gpu_gradients = gpu->gradients();
    REQUIRE(gpu_gradients.size() == cpu_gradients.size());
    for (std::size_t k = 0; k < cpu_gradients.size(); ++k) {
        INFO("gradient tensor " << k);
        CHECK(gpu_gradients[k].shape == cpu_gradients[k].shape);
        CHECK(relative_l2(gpu_gradients[k].data, cpu_gradients[k].data) <= 1e-3);
    }
    // compute_gradients does not update
    CHECK(gpu->parameters()[0].data == initial[0].data);

    // Three SGD steps with momentum: each loss within 1e-4 relative, then each tensor's total change
    // (p₃ − p₀) within 1e-3 relative (L2) of the CPU trainer's.
    for (int step = 0; step < 3; ++step) {
        INFO("step " << step);
        const Batch b = synthetic_batch(batch, 100 + static_cast<std::uint64_t>(step), workload.classes);
        const float c = cpu->train_step(b);
        const float g = gpu->train_step(b);
        CHECK(std::fabs(g - c) <= 1e-4 * std::fabs(c));
    }
    const auto cpu_after = cpu->parameters();
    const auto gpu_after = gpu->parameters();
    REQUIRE(gpu_after.size() == initial.size());
    for (std::size_t k = 0; k < initial.size(); ++k) {
        INFO("parameter tensor " << k);
        const auto cpu_change = minus(cpu_after[k].data, initial[k].data);
        const auto gpu_change = minus(gpu_after[k].data, initial[k].data);
        CHECK(relative_l2(gpu_change, cpu_change) <= 1e-3);
    }

    // Timed steps over a pool on the GPU: a positive time, and training goes on from there.
    const std::vector<Batch> pool{synthetic_batch(batch, 200, workload.classes),
                                  synthetic_batch(batch, 201, workload.classes)};
    const double seconds = gpu->timed_steps(pool, 5);
    CHECK(seconds > 0.0);
    CHECK(std::isfinite(gpu->train_step(pool[0])));
}

TEST_CASE("the CUDA trainer refuses batches and parameters that do not fit", "[bench][cuda]") {
    const CudaStatus status = cuda_status();
    if (!status.available) {
        WARN("CUDA trainer's checks not tested: " << status.reason);
        return;
    }
    const Workload& mlp = find_workload("mlp");
    auto parameters = default_parameters(mlp, 3);
    auto gpu = make_cuda_trainer(mlp, parameters, 4);
    CHECK_THROWS_AS(gpu->compute_gradients(synthetic_batch(5, 1)), std::invalid_argument);
    Batch bad_label = synthetic_batch(4, 1);
    bad_label.labels[2] = 10;
    CHECK_THROWS_AS(gpu->train_step(bad_label), std::invalid_argument);
    CHECK_THROWS_AS(gpu->timed_steps({}, 3), std::invalid_argument);
    parameters.pop_back();
    CHECK_THROWS_AS(make_cuda_trainer(mlp, parameters, 4), std::invalid_argument);
}
