#include "payback/bench/bench_plan.hpp"

#include <algorithm>
#include <thread>
#include <utility>

#include <fmt/format.h>

#include "payback/base/error.hpp"
#include "payback/bench/gpt_trainer.hpp"
#include "payback/bench/llm_config.hpp"
#include "payback/bench/machine_memory.hpp"
#include "payback/workload/network.hpp"

namespace payback::bench {
namespace {

// llm-decode's batches are sequences decoded together: one, and a few sharing each weight read.
const std::vector<int> llm_default_batches = {1, 8};
// gpt-small's batch is sequences of 256 tokens: 8 is 2,048 tokens a step, enough rows for the matrix
// products to run at speed, and the batch perf/training_vs_pytorch.py compares with PyTorch.
const std::vector<int> gpt_default_batches = {8};
const std::vector<int> training_default_batches = {4, 256};

InputError flag_error(const std::string& flag, const std::string& message) {
    return InputError(flag, 0, "", message);
}

void require_within(const std::string& flag, double value, double low, double high) {
    if (!(value >= low && value <= high))
        throw flag_error(flag, fmt::format("expected {} to {}, got {}", low, high, value));
}

void check_numbers(const BenchRequest& r) {
    for (const int batch : r.batches) require_within("--batch", batch, 1, 65536);
    if (r.threads != 0) require_within("--threads", r.threads, 1, 1024);  // 0: every hardware thread
    require_within("--repeats", r.repeats, 1, 1000);
    require_within("--seconds", r.seconds, 0.001, 3600.0);
    require_within("--context", r.context, 1, 1 << 20);
}

// Mixed precision is a CUDA path; the CPU trains in fp32, and only gpt-small takes a precision.
void check_precision(const BenchRequest& r, bool gpt) {
    // Worded as CLI11's IsMember words it: `payback bench` checks its choices first.
    if (r.precision != "fp32" && r.precision != "bf16" && r.precision != "fp16")
        throw flag_error("--precision", fmt::format("{} not in {{fp32,bf16,fp16}}", r.precision));
    if (r.precision == "fp32") return;
    if (!gpt)
        throw flag_error("--precision", fmt::format("only gpt-small takes a precision; {} trains in fp32", r.workload));
    if (r.device != "cuda")
        throw flag_error("--precision", fmt::format("gpt-small on the CPU runs fp32 only, got \"{}\" (bf16 and fp16 "
                                                    "are for CUDA: --device cuda)",
                                                    r.precision));
}

double gib(std::int64_t bytes) { return static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0); }

// A CPU run of gpt-small or llm-decode whose buffers would not fit this machine's memory is refused
// before it allocates them (the tutorial networks' stay far below at any batch --batch takes).
void check_fits_memory(const BenchConfig& run) {
    const std::int64_t machine = machine_memory_bytes();
    if (machine == 0 || run.device != "cpu") return;
    if (run.workload == llm_decode_workload) {
        const std::int64_t need = llm_decoder_bytes(run.llm, run.quant, run.batch, run.context + 1);
        const std::int64_t cache = run.batch * llm_kv_bytes(run.llm, run.context + 1);
        if (need > machine)
            throw flag_error(cache > need - cache ? "--context" : "--llm",
                             fmt::format("llm-decode at context {} and batch {} needs {:.1f} GiB ({:.1f} GiB of it "
                                         "key and value cache), more than this machine's {:.1f} GiB of memory",
                                         run.context, run.batch, gib(need), gib(cache), gib(machine)));
    } else if (run.workload == gpt_small_workload) {
        const std::int64_t need = gpt_trainer_bytes(gpt_small_config(), run.batch);
        if (need > machine)
            throw flag_error("--batch", fmt::format("gpt-small at batch {} needs {:.1f} GiB, more than this machine's "
                                                    "{:.1f} GiB of memory",
                                                    run.batch, gib(need), gib(machine)));
    }
}

}  // namespace

BenchPlan plan_benchmark(const BenchRequest& request, const CudaStatus& cuda) {
    const bool llm = request.workload == llm_decode_workload;
    const bool gpt = request.workload == gpt_small_workload;
    if (request.device != "cpu" && request.device != "cuda" && request.device != "all")  // as CLI11 words it
        throw flag_error("--device", fmt::format("{} not in {{cpu,cuda,all}}", request.device));
    const std::vector<std::string> workloads =
        request.workload == "all" ? workload_names() : std::vector<std::string>{request.workload};
    if (!llm && !gpt)
        for (const auto& w : workloads) (void)find_workload(w);  // unknown names fail before any work
    check_numbers(request);
    check_precision(request, gpt);
    const LlmConfig llm_config = parse_llm_config(request.llm);
    const Quant quant = parse_quant(request.quant);
    const std::vector<int>& batches = !request.batches.empty() ? request.batches
                                      : llm                    ? llm_default_batches
                                      : gpt                    ? gpt_default_batches
                                                               : training_default_batches;

    BenchPlan plan;
    std::vector<std::string> devices;
    if (request.device == "cpu" || request.device == "all") devices.emplace_back("cpu");
    if (request.device == "cuda" || request.device == "all") {
        if (llm)
            plan.skipped.push_back(
                {"cuda", "llm-decode runs on the CPU only; its CUDA kernels are checked by the tests"});
        else if (cuda.available)
            devices.emplace_back("cuda");
        else
            plan.skipped.push_back({"cuda", cuda.reason});
    }
    const int threads =
        request.threads > 0 ? request.threads : static_cast<int>(std::max(1U, std::thread::hardware_concurrency()));
    for (const auto& device : devices)
        for (const auto& workload : workloads)
            for (const int batch : batches) {
                BenchConfig config;
                config.device = device;
                config.workload = workload;
                config.batch = batch;
                config.threads = threads;
                config.repeats = request.repeats;
                config.seconds_per_repeat = request.seconds;
                config.data_file = request.data_file;
                config.precision = request.precision;
                config.llm = llm_config;
                config.quant = quant;
                config.context = request.context;
                check_fits_memory(config);
                plan.runs.push_back(std::move(config));
            }
    return plan;
}

}  // namespace payback::bench
