#include "cpu/thread_pool.hpp"

#include <chrono>

namespace payback::bench::cpu {
namespace {

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
}

/// Spins until `done()` or `budget` has passed; true when done. Spinning keeps the wake-up of a
/// thread that is about to be needed at well under a microsecond.
template <class Done>
bool spin_until(Done done, std::chrono::microseconds budget) {
    const auto deadline = std::chrono::steady_clock::now() + budget;
    for (;;) {
        for (int i = 0; i < 64; ++i) {
            if (done()) return true;
            cpu_relax();
        }
        if (std::chrono::steady_clock::now() > deadline) return false;
    }
}

/// Waits for a short, bounded event (a barrier, the end of a run): spin, then yield the core to
/// whatever thread we are waiting for in case the machine is oversubscribed.
template <class Done>
void wait_briefly(Done done) {
    while (!spin_until(done, std::chrono::microseconds(50))) std::this_thread::yield();
}

// Idle workers spin this long for the next run before sleeping: longer than the gap between two
// training steps, short enough not to burn a core when the trainer is not in use.
constexpr std::chrono::microseconds idle_spin{200};

}  // namespace

ThreadPool::ThreadPool(int threads) : size_(threads < 1 ? 1 : threads) {
    threads_.reserve(size_ - 1);
    for (int i = 1; i < size_; ++i) threads_.emplace_back([this, i] { worker(i); });
}

ThreadPool::~ThreadPool() {
    stopping_ = true;
    generation_.fetch_add(1);
    generation_.notify_all();
    for (auto& t : threads_) t.join();
}

void ThreadPool::run_erased(void* task, Trampoline trampoline) {
    task_ = task;
    trampoline_ = trampoline;
    arrived_.store(0, std::memory_order_relaxed);
    running_.store(size_ - 1, std::memory_order_relaxed);
    generation_.fetch_add(1);  // seq_cst: ordered before the sleepers_ load below
    if (sleepers_.load() > 0) generation_.notify_all();
    trampoline(task, 0);
    wait_briefly([this] { return running_.load(std::memory_order_acquire) == 0; });
}

void ThreadPool::worker(int index) {
    std::uint32_t seen = 0;
    for (;;) {
        // seq_cst: pairs with run_erased() so that a run is never missed between the check and the sleep.
        const auto changed = [&] { return generation_.load() != seen; };
        if (!spin_until(changed, idle_spin)) {
            sleepers_.fetch_add(1);
            while (!changed()) generation_.wait(seen);
            sleepers_.fetch_sub(1);
        }
        seen = generation_.load();
        if (stopping_) return;
        trampoline_(task_, index);
        running_.fetch_sub(1, std::memory_order_release);
    }
}

void ThreadPool::barrier() {
    if (size_ == 1) return;
    const std::uint32_t phase = phase_.load(std::memory_order_relaxed);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) == size_ - 1) {
        arrived_.store(0, std::memory_order_relaxed);
        phase_.fetch_add(1, std::memory_order_release);
        return;
    }
    wait_briefly([&] { return phase_.load(std::memory_order_acquire) != phase; });
}

}  // namespace payback::bench::cpu
