// Every CUDA runtime and cuBLAS call is checked: a failure throws std::runtime_error naming the file,
// the line, the call and the library's words for the error.
#pragma once

#include <stdexcept>
#include <string>

#include <cublas_v2.h>
#include <cuda_runtime.h>

namespace payback::bench::gpu {

[[noreturn]] inline void throw_cuda_error(const char* library, const char* call, const char* name,
                                          const char* description, const char* file, int line) {
    throw std::runtime_error(std::string(file) + ":" + std::to_string(line) + ": " + library + " call " + call +
                             " failed: " + name + " (" + description + ")");
}

inline void check_cuda(cudaError_t status, const char* call, const char* file, int line) {
    if (status != cudaSuccess)
        throw_cuda_error("CUDA", call, cudaGetErrorName(status), cudaGetErrorString(status), file, line);
}

inline void check_cublas(cublasStatus_t status, const char* call, const char* file, int line) {
    if (status != CUBLAS_STATUS_SUCCESS)
        throw_cuda_error("cuBLAS", call, cublasGetStatusName(status), cublasGetStatusString(status), file, line);
}

}  // namespace payback::bench::gpu

#define PAYBACK_CUDA_CHECK(call) ::payback::bench::gpu::check_cuda((call), #call, __FILE__, __LINE__)
#define PAYBACK_CUBLAS_CHECK(call) ::payback::bench::gpu::check_cublas((call), #call, __FILE__, __LINE__)
/// After a kernel launch: launch errors (bad configuration, no kernel image for this GPU) show here;
/// errors while the kernel runs show at the next synchronizing call, which is checked too.
#define PAYBACK_CUDA_CHECK_LAUNCH() PAYBACK_CUDA_CHECK(cudaGetLastError())
