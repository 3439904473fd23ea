// Work spread over the machine's cores, for the batch steps whose items are independent: each
// item writes only its own results, so they do not depend on which thread ran it. Every parallel
// loop of the library goes through parallel_for: the draw, the sample model's chunks, the metrics'
// columns and the Monte Carlo summaries.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace payback::detail {

/// What a long loop reports and obeys; both optional.
struct LoopControl {
    /// The fraction of the items done, called on the calling thread after each item it ran.
    std::function<void(double)> progress;
    /// Set: no item starts after it is seen (the items already running finish). The caller then
    /// says what stopping means (SampleModel::evaluate throws Cancelled).
    const std::atomic<bool>* cancel = nullptr;
};

/// Calls `run(i)` for each i in [0, count) on up to `threads` threads (0: one per core), each
/// thread taking the next index. The first exception stops the others from starting new items and
/// is rethrown here, on the calling thread, once every thread has stopped; so does `control.cancel`,
/// without an exception.
template <class Run>
void parallel_for(std::size_t count, Run&& run, std::size_t threads = 0, const LoopControl& control = {}) {
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> stop{false};
    std::exception_ptr failure;
    std::mutex failure_lock;
    const auto work = [&](bool calling_thread) {
        try {
            for (std::size_t i; !stop && (i = next.fetch_add(1)) < count;) {
                if (control.cancel != nullptr && control.cancel->load()) {
                    stop = true;
                    break;
                }
                run(i);
                const std::size_t finished = ++done;
                if (calling_thread && control.progress)
                    control.progress(static_cast<double>(finished) / static_cast<double>(count));
            }
        } catch (...) {
            std::lock_guard lock(failure_lock);
            if (!failure) failure = std::current_exception();
            stop = true;
        }
    };
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = std::min(threads, count);
    std::vector<std::thread> helpers;
    for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(work, false);
    if (threads > 0) work(true);
    for (auto& helper : helpers) helper.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace payback::detail
