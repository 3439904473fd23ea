// A fixed set of threads that run one task together, with a barrier between its phases. Persistent
// and spinning briefly before sleeping, so that a training step of a few hundred microseconds (the
// tutorial network at batch 4) is not dominated by waking threads.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>
#include <vector>

namespace payback::bench::cpu {

class ThreadPool {
public:
    /// `threads` ≥ 1 counts the caller, which runs index 0; the other threads start here.
    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    int size() const { return size_; }

    /// Calls task(index) once on every thread, index 0 on the caller, and returns when all are done.
    /// Not reentrant; an exception thrown by a task terminates the program.
    template <class Task>
    void run(Task& task) {
        run_erased(&task, [](void* t, int index) { (*static_cast<Task*>(t))(index); });
    }

    /// Inside run(): waits until every thread of the pool has reached it.
    void barrier();

private:
    using Trampoline = void (*)(void*, int);
    void run_erased(void* task, Trampoline trampoline);
    void worker(int index);

    int size_;
    std::vector<std::thread> threads_;
    void* task_ = nullptr;
    Trampoline trampoline_ = nullptr;
    // Each on its own cache line: the workers poll them while the caller writes the task.
    alignas(64) std::atomic<std::uint32_t> generation_{0};  // bumped to start a run
    std::atomic<int> sleepers_{0};                          // workers blocked on generation_
    alignas(64) std::atomic<int> running_{0};               // workers still inside the current run
    alignas(64) std::atomic<int> arrived_{0};               // barrier: threads arrived in this phase
    alignas(64) std::atomic<std::uint32_t> phase_{0};       // barrier: bumped when all have arrived
    bool stopping_ = false;
};

}  // namespace payback::bench::cpu
