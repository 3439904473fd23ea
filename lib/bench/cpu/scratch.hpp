// Per-thread working memory that grows to the largest request and is then reused, so that a training
// step allocates nothing once the first one has run.
#pragma once

#include <cstddef>
#include <memory>
#include <new>

namespace payback::bench::cpu {

class Scratch {
public:
    /// At least `count` floats, 64-byte aligned; the contents are unspecified.
    float* get(std::size_t count) {
        if (count > capacity_) {
            data_.reset(static_cast<float*>(::operator new[](count * sizeof(float), std::align_val_t(64))));
            capacity_ = count;
        }
        return data_.get();
    }

private:
    struct Free {
        void operator()(float* p) const { ::operator delete[](p, std::align_val_t(64)); }
    };
    std::unique_ptr<float[], Free> data_;
    std::size_t capacity_ = 0;
};

}  // namespace payback::bench::cpu
