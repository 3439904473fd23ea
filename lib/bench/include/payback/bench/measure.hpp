// One benchmark measurement: a trainer on a device, warmed up, then timed over repeated runs of
// whole training steps, with the energy counters read around the timed runs.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "payback/bench/llm_config.hpp"
#include "payback/workload/calibration.hpp"

namespace payback::bench {

struct BenchConfig {
    std::string device = "cpu";   ///< "cpu" or "cuda"
    std::string workload = "cifar10-tutorial";  ///< a training network, gpt_small_workload or llm_decode_workload
    int batch = 256;              ///< llm-decode: the sequences decoded together
    int threads = 1;              ///< CPU threads; ignored on a GPU
    int repeats = 7;              ///< timed runs; the result is their median
    double seconds_per_repeat = 0.5;  ///< each timed run lasts at least about this long
    double warmup_seconds = 0.3;
    std::uint64_t seed = 1;
    std::string data_file;        ///< a CIFAR-10 binary file; empty: synthetic batches from `seed`
    std::function<void(const std::string&)> progress;  ///< one line at a time, for stderr
    std::string precision = "fp32";  ///< gpt-small: the arithmetic; the CPU runs fp32 only, CUDA bf16 too
    // llm-decode only:
    LlmConfig llm = default_llm_config();
    Quant quant = Quant::q4_0;
    int context = 512;            ///< cached positions each decoded token attends to; also the prompt's length
};

/// The workload name of token-by-token generation (llm_decoder.hpp), beside the training networks.
inline constexpr const char* llm_decode_workload = "llm-decode";

/// Measures `config`; throws InputError for an unknown workload or unreadable data file, or a precision
/// other than fp32 on the CPU (fp32 or bf16 for gpt-small on CUDA), and std::runtime_error when the device is
/// unavailable (llm-decode runs on the CPU only).
///
/// gpt-small: each timed step trains `batch` sequences of 256 tokens (gpt_trainer.hpp); samples are
/// sequences and tokens_per_second is samples × 256.
///
/// llm-decode: each timed decode step generates one token for each of `batch` sequences whose caches
/// hold `context` positions (random keys and values: the speed does not depend on them), so that every
/// step attends to the same context; samples are tokens. Prefill is a prompt of `context` tokens
/// processed at once, timed after the decode runs, outside the energy window.
BenchResult run_benchmark(const BenchConfig& config);

}  // namespace payback::bench
