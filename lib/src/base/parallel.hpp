// Work spread over the machine's cores, for the batch steps whose items are independent: each
// item writes only its own results, so they do not depend on which thread ran it.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace payback::detail {

/// Calls `run(i)` for each i in [0, count) on up to `threads` threads (0: one per core), each
/// thread taking the next index. The first exception stops the others from starting new items and
/// is rethrown here, on the calling thread, once every thread has stopped.
template <class Run>
void parallel_for(std::size_t count, Run&& run, std::size_t threads = 0) {
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr failure;
    std::mutex failure_lock;
    const auto work = [&] {
        try {
            for (std::size_t i; !failed && (i = next.fetch_add(1)) < count;) run(i);
        } catch (...) {
            std::lock_guard lock(failure_lock);
            if (!failure) failure = std::current_exception();
            failed = true;
        }
    };
    if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
    threads = std::min(threads, count);
    std::vector<std::thread> helpers;
    for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(work);
    work();
    for (auto& helper : helpers) helper.join();
    if (failure) std::rethrow_exception(failure);
}

}  // namespace payback::detail
