// What `payback bench` and Python's payback.bench() measure: the options as given, checked once, turned
// into one BenchConfig per (device, workload, batch), with the devices that cannot run and why. One
// place for the checks, so that both entries refuse the same arguments with the same message.
#pragma once

#include <string>
#include <vector>

#include "payback/bench/cuda_trainer.hpp"
#include "payback/bench/measure.hpp"

namespace payback::bench {

/// The options of `payback bench`, each named after its flag.
struct BenchRequest {
    std::string device = "all";                ///< cpu, cuda or all
    std::string workload = "cifar10-tutorial";  ///< a training network, all, gpt-small or llm-decode
    std::vector<int> batches;                  ///< empty: the workload's default batches
    int threads = 0;                           ///< 0: every hardware thread
    int repeats = 7;
    double seconds = 0.5;
    std::string data_file;
    std::string precision = "fp32";
    std::string quant = "q4_0";
    int context = 512;
    std::string llm;  ///< "layers=2,d_model=64,...": over the default model
};

struct SkippedDevice {
    std::string device;
    std::string reason;
};

struct BenchPlan {
    std::vector<BenchConfig> runs;       ///< in the order they are measured: device, workload, batch
    std::vector<SkippedDevice> skipped;  ///< devices asked for that cannot run the workload, and why
};

/// The runs `request` asks for, on a machine whose CUDA device is `cuda`. Throws InputError, keyed by
/// the flag (--device, --workload, --batch, --precision, --quant, --context, --llm, ...), before any
/// work: an unknown device or workload, a number out of its range, a precision for a workload that
/// trains in fp32 only or for gpt-small on the CPU, a bad quant or LLM shape, a CPU run of gpt-small or
/// llm-decode that needs more than the machine's memory (machine_memory.hpp).
BenchPlan plan_benchmark(const BenchRequest& request, const CudaStatus& cuda);

}  // namespace payback::bench
