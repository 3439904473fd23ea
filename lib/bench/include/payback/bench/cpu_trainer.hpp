// The CPU trainer: multithreaded and vectorized (docs/benchmark.md says how and why).
#pragma once

#include <memory>

#include "payback/bench/trainer.hpp"

namespace payback::bench {

/// `threads` ≥ 1; `parameters` in parameter_shapes(workload) order.
std::unique_ptr<Trainer> make_cpu_trainer(const Workload& workload, std::vector<Tensor> parameters,
                                          int batch_size, int threads, Sgd sgd = {});

/// The CPU's model name, from /proc/cpuinfo ("unknown CPU" when unreadable).
std::string cpu_model_name();

}  // namespace payback::bench
