// The CUDA trainer, built when CMake finds a CUDA compiler (PAYBACK_HAVE_CUDA). Without a GPU at run
// time, cuda_status() says why and make_cuda_trainer() is not to be called.
#pragma once

#include <memory>
#include <string>

#include "payback/bench/trainer.hpp"

namespace payback::bench {

struct CudaStatus {
    bool available = false;
    std::string reason;       ///< why not: "built without CUDA", "no CUDA device: <driver's words>"
    std::string device_name;  ///< when available
};

CudaStatus cuda_status();

/// Trains on GPU 0. Throws std::runtime_error when CUDA is unavailable.
std::unique_ptr<Trainer> make_cuda_trainer(const Workload& workload, std::vector<Tensor> parameters,
                                           int batch_size, Sgd sgd = {});

}  // namespace payback::bench
