// One benchmark measurement: a trainer on a device, warmed up, then timed over repeated runs of
// whole training steps, with the energy counters read around the timed runs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "payback/workload/calibration.hpp"

namespace payback::bench {

struct BenchConfig {
    std::string device = "cpu";   ///< "cpu" or "cuda"
    std::string workload = "cifar10-tutorial";
    int batch = 256;
    int threads = 1;              ///< CPU threads; ignored on a GPU
    int repeats = 7;              ///< timed runs; the result is their median
    double seconds_per_repeat = 0.5;  ///< each timed run lasts at least about this long
    double warmup_seconds = 0.3;
    std::uint64_t seed = 1;
    std::string data_file;        ///< a CIFAR-10 binary file; empty: synthetic batches from `seed`
    std::function<void(const std::string&)> progress;  ///< one line at a time, for stderr
};

/// Measures `config`; throws InputError for an unknown workload or unreadable data file and
/// std::runtime_error when the device is unavailable.
BenchResult run_benchmark(const BenchConfig& config);

}  // namespace payback::bench
