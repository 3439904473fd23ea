// Calibration profiles: what `payback bench` measured (samples per second for each device, workload
// and batch, and joules per sample where a counter could be read), and how a scenario turns them into
// throughput on its rig's GPUs and on each cloud GPU.
//
// A GPU that was not measured gets the throughput of a measured GPU scaled by the ratio of their
// memory bandwidths (pricing/gpus.csv). On Lambda's ResNet-50 measurements this ratio lands within
// -28 % to +19 % of the truth (docs/benchmark.md, from Lambda's deeplearning-benchmark tables), which
// is the stated error of every mapped figure. A user's own figure overrides both.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace payback {

/// The Llama-style model llm-decode ran (lib/bench's LlmConfig), so that a measurement of it can be
/// scaled to another model (workload/measured_serving.hpp).
struct LlmShape {
    int layers = 0;
    int d_model = 0;
    int heads = 0;
    int kv_heads = 0;
    int ffn = 0;
    int vocab = 0;
};

/// One measured (device, workload, batch): what `payback bench` writes in `results`.
struct BenchResult {
    std::string device;        ///< "cpu" or "cuda"
    std::string device_name;   ///< "AMD EPYC 7B13", "NVIDIA GeForce RTX 2080 Ti"
    std::string workload;      ///< "cifar10-tutorial", "mlp"
    int batch = 0;
    int threads = 0;           ///< CPU threads (1 for a GPU run's host thread)
    double samples_per_second = 0;       ///< median of the timed repeats
    double samples_per_second_min = 0;   ///< the slowest repeat
    double samples_per_second_max = 0;   ///< the fastest repeat
    int repeats = 0;
    double gflops = 0;                   ///< achieved, from the workload's training FLOPs per sample
    std::optional<double> joules_per_sample;  ///< none: no counter could be read
    std::string energy_source;  ///< "RAPL package-0", "NVML GPU 0", or why it is unavailable
    std::string isa;  ///< the CPU kernels' instruction set ("x86-64-v4", payback/base/isa.hpp); empty on a GPU
    std::string precision = "fp32";  ///< the arithmetic: "fp32", or "bf16" / "fp16" for mixed precision
    // llm-decode only (docs/benchmark.md): a sample is a generated token, batch the sequences decoded together.
    std::string quant;  ///< the weights' format: "f16", "q8_0", "q4_0"; empty for a training workload
    int context = 0;    ///< the cached positions each decoded token attends to
    std::optional<double> tokens_per_second;          ///< decode, all sequences together (= samples_per_second)
    std::optional<double> prefill_tokens_per_second;  ///< a prompt of `context` tokens processed at once
    std::optional<LlmShape> llm;  ///< the model's shape; none in a profile written before it was recorded
};

struct CalibrationProfile {
    std::string source;  ///< the file, for messages
    std::string date;    ///< ISO 8601, when measured
    std::vector<std::pair<std::string, std::string>> software;  ///< name -> version
    std::vector<BenchResult> results;
};

/// Now, in UTC, as a profile's `date` gives it: "2026-11-29T23:10:00Z".
std::string utc_timestamp();

/// The profile as JSON text: {"date", "software": {...}, "results": [...]} (docs/benchmark.md).
std::string to_json(const CalibrationProfile& profile);
/// Reads a profile; InputError naming the file, line and key on bad JSON or a missing/negative field.
CalibrationProfile read_profile(const std::string& path);
/// `read_profile(path)`, or none for an empty path: a `--from` or `profile=` not given.
std::optional<CalibrationProfile> read_profile_if_given(const std::string& path);
CalibrationProfile parse_profile(const std::string& json_text, const std::string& source);

/// Whether a device name a GPU driver reports ("NVIDIA GeForce RTX 3090") is the catalog GPU
/// `catalog_name` ("RTX 3090"): the same words after dropping vendor and brand words and case.
bool same_gpu(const std::string& device_name, const std::string& catalog_name);

/// Throughput of one GPU, and how it was obtained.
struct GpuThroughput {
    double samples_per_second = 0;
    std::string origin;           ///< "measured: profile.json, NVIDIA H200, batch 256" or "mapped from ..."
    bool mapped = false;          ///< true: scaled from another GPU by memory bandwidth
    double error_low = 0, error_high = 0;  ///< the mapping's expected error (-0.28, +0.19); 0 when measured
};

/// The expected error of the bandwidth mapping, from Lambda's ResNet-50 measurements.
inline constexpr double mapping_error_low = -0.28;
inline constexpr double mapping_error_high = 0.19;

/// Throughput of the catalog GPU `gpu` on `workload` at `batch`: measured in `profile` when it has
/// that GPU, else mapped from the measured GPU whose bandwidth is closest; none when the profile
/// has no GPU measurement of the workload at that batch (or the catalog lacks a bandwidth).
std::optional<GpuThroughput> gpu_throughput(const CalibrationProfile& profile, const std::string& gpu,
                                            const std::string& workload, int batch);

/// The batches `profile` measured `workload` at on GPUs, ascending.
std::vector<int> measured_gpu_batches(const CalibrationProfile& profile, const std::string& workload);

}  // namespace payback
