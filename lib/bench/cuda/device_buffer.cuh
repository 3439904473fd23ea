// Device memory owned by one object: cudaMalloc in the constructor, cudaFree in the destructor.
// The trainer allocates all of its buffers once, when it is built.
#pragma once

#include <cstddef>
#include <utility>

#include <cuda_runtime.h>

#include "check.cuh"

namespace payback::bench::gpu {

template <class T>
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    /// `count` elements, uninitialized.
    explicit DeviceBuffer(std::size_t count) : count_(count) {
        if (count == 0) return;
        PAYBACK_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&data_), count * sizeof(T)));
    }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    DeviceBuffer(DeviceBuffer&& other) noexcept
        : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
    DeviceBuffer& operator=(DeviceBuffer&& other) noexcept {
        if (this != &other) {
            release();
            data_ = std::exchange(other.data_, nullptr);
            count_ = std::exchange(other.count_, 0);
        }
        return *this;
    }
    ~DeviceBuffer() { release(); }

    T* get() const { return data_; }
    std::size_t size() const { return count_; }
    std::size_t bytes() const { return count_ * sizeof(T); }

    /// Zero-fills on `stream` (not on the legacy default stream, which a non-blocking stream does not
    /// wait for).
    void zero(cudaStream_t stream) {
        if (data_) PAYBACK_CUDA_CHECK(cudaMemsetAsync(data_, 0, bytes(), stream));
    }

private:
    void release() noexcept {
        if (data_) cudaFree(data_);  // a destructor must not throw; a failure here has nothing to tell
        data_ = nullptr;
        count_ = 0;
    }

    T* data_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace payback::bench::gpu
