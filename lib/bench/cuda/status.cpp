// cuda_status(): whether this process can train on GPU 0, and if not, the driver's reason. Host code,
// built by the C++ compiler against the CUDA runtime's headers.
#include "payback/bench/cuda_trainer.hpp"

#include <string>

#include <cuda_runtime.h>

#include "kernels.cuh"

namespace payback::bench {

CudaStatus cuda_status() {
    CudaStatus status;
    int count = 0;
    // Without a GPU this is cudaErrorNoDevice; without a driver (or with one older than the runtime)
    // cudaErrorInsufficientDriver. Neither is sticky: cudaGetLastError() clears it.
    const cudaError_t counted = cudaGetDeviceCount(&count);
    if (counted != cudaSuccess) {
        cudaGetLastError();
        status.reason = std::string("no CUDA device: ") + cudaGetErrorString(counted);
        return status;
    }
    if (count < 1) {
        status.reason = "no CUDA device: the driver reports none";
        return status;
    }
    cudaDeviceProp properties{};
    const cudaError_t described = cudaGetDeviceProperties(&properties, 0);
    if (described != cudaSuccess) {
        cudaGetLastError();
        status.reason = std::string("no CUDA device: ") + cudaGetErrorString(described);
        return status;
    }
    const std::string name = properties.name;
    // A GPU older than every architecture built (see CMAKE_CUDA_ARCHITECTURES) has no kernel to run.
    cudaError_t probed = cudaSetDevice(0);
    if (probed == cudaSuccess) probed = gpu::probe_kernels();
    if (probed != cudaSuccess) {
        cudaGetLastError();
        status.reason = "GPU 0 (" + name + ", compute capability " + std::to_string(properties.major) + "." +
                        std::to_string(properties.minor) + ") cannot run this build's kernels: " +
                        cudaGetErrorString(probed);
        return status;
    }
    status.available = true;
    status.device_name = name;
    return status;
}

}  // namespace payback::bench
