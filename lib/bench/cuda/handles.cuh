// The CUDA objects the trainer holds, each released by its destructor: a stream, events, a cuBLAS
// handle. Creation is checked (throws); destruction ignores errors (destructors must not throw).
#pragma once

#include <utility>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "check.cuh"

namespace payback::bench::gpu {

class Stream {
public:
    Stream() { PAYBACK_CUDA_CHECK(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    ~Stream() {
        cudaStreamSynchronize(stream_);
        cudaStreamDestroy(stream_);
    }
    cudaStream_t get() const { return stream_; }

private:
    cudaStream_t stream_ = nullptr;
};

class Event {
public:
    Event() { PAYBACK_CUDA_CHECK(cudaEventCreate(&event_)); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    ~Event() { cudaEventDestroy(event_); }
    cudaEvent_t get() const { return event_; }

private:
    cudaEvent_t event_ = nullptr;
};

class BlasHandle {
public:
    BlasHandle() { PAYBACK_CUBLAS_CHECK(cublasCreate(&handle_)); }
    BlasHandle(const BlasHandle&) = delete;
    BlasHandle& operator=(const BlasHandle&) = delete;
    ~BlasHandle() { cublasDestroy(handle_); }
    cublasHandle_t get() const { return handle_; }

private:
    cublasHandle_t handle_ = nullptr;
};

}  // namespace payback::bench::gpu
