#include "payback/bench/measure.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "payback/base/error.hpp"
#include "payback/base/isa.hpp"
#include "payback/bench/cpu_trainer.hpp"
#include "payback/bench/cuda_trainer.hpp"
#include "payback/bench/data.hpp"
#include "payback/bench/energy.hpp"
#include "payback/bench/cuda_gpt_trainer.hpp"
#include "payback/bench/gpt_trainer.hpp"
#include "payback/bench/llm_decoder.hpp"
#include "payback/workload/network.hpp"

namespace payback::bench {
namespace {

// Batches the timed steps cycle through: a few, so the data is not one hot buffer, few enough to
// stay in memory at batch 256.
constexpr int pool_size = 4;

std::vector<Batch> make_pool(const BenchConfig& config, int classes) {
    std::vector<Batch> pool;
    if (config.data_file.empty()) {
        for (int i = 0; i < pool_size; ++i)
            pool.push_back(synthetic_batch(config.batch, config.seed + static_cast<std::uint64_t>(i), classes));
        return pool;
    }
    const Cifar10File file(config.data_file);
    for (int i = 0; i < pool_size; ++i) pool.push_back(file.batch(i * config.batch, config.batch));
    return pool;
}

double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The median of the timed runs' rates, and their range.
void set_rates(BenchResult& result, const std::vector<double>& rates) {
    result.samples_per_second = median(rates);
    result.samples_per_second_min = *std::min_element(rates.begin(), rates.end());
    result.samples_per_second_max = *std::max_element(rates.begin(), rates.end());
}

/// Joules per sample over `samples` when the meter counted, and where the figure came from (or why none).
void set_energy(BenchResult& result, const EnergyMeter& meter, std::optional<double> joules, double samples) {
    if (joules) result.joules_per_sample = *joules / samples;
    result.energy_source = meter.available()
                               ? (joules ? meter.describe() : meter.describe() + ": the counter did not advance")
                               : "unavailable: " + meter.unavailable_reason();
}

/// Warms up until `timed(steps)` lasts warmup_seconds, and returns the steps that last about seconds_per_repeat.
template <class Timed>
int size_repeats(const BenchConfig& config, Timed timed) {
    int steps = 1;
    double seconds = timed(steps);
    while (seconds < config.warmup_seconds) {
        steps *= 2;
        seconds = timed(steps);
    }
    return std::max(1, static_cast<int>(std::ceil(config.seconds_per_repeat * steps / std::max(seconds, 1e-9))));
}

BenchResult run_llm_benchmark(const BenchConfig& config) {
    const auto say = [&](const std::string& line) {
        if (config.progress) config.progress(line);
    };
    if (config.device != "cpu")
        throw std::runtime_error("llm-decode runs on the CPU only (its CUDA kernels are checked by the tests)");
    validate_llm_config(config.llm);
    if (config.context < 1) throw std::invalid_argument("llm-decode: context must be at least 1");
    const std::string label = fmt::format("cpu llm-decode {} context {} batch {} threads {}", quant_name(config.quant),
                                          config.context, config.batch, config.threads);
    say(label + ": making the model");
    LlmDecoder decoder(config.llm, config.quant, config.seed, config.threads, config.batch, config.context + 1);
    decoder.fill_cache(config.seed + 1);

    std::vector<int> tokens(static_cast<std::size_t>(config.batch));
    int next_token = 0;
    const auto decode_steps = [&](int steps) {
        const auto start = std::chrono::steady_clock::now();
        for (int step = 0; step < steps; ++step) {
            for (int s = 0; s < config.batch; ++s) {
                decoder.set_length(s, config.context);
                tokens[s] = next_token++ % config.llm.vocab;
            }
            decoder.decode(tokens);
        }
        return seconds_since(start);
    };
    say(label + ": warming up");
    const int steps_per_repeat = size_repeats(config, decode_steps);

    std::unique_ptr<EnergyMeter> meter = make_rapl_meter();
    if (meter->available()) meter->start();
    std::vector<double> rates;
    for (int r = 0; r < config.repeats; ++r) {
        rates.push_back(static_cast<double>(steps_per_repeat) * config.batch / decode_steps(steps_per_repeat));
        say(fmt::format("{}: run {}/{}: {:.1f} tokens/s", label, r + 1, config.repeats, rates.back()));
    }
    const std::optional<double> joules = meter->available() ? meter->stop() : std::nullopt;

    std::vector<int> prompt(static_cast<std::size_t>(config.context));
    for (int t = 0; t < config.context; ++t) prompt[t] = (t * 31 + 7) % config.llm.vocab;
    std::vector<double> prefill_rates;
    for (int r = 0; r < std::min(config.repeats, 3); ++r) {
        decoder.set_length(0, 0);
        const auto start = std::chrono::steady_clock::now();
        decoder.prefill(0, prompt);
        prefill_rates.push_back(config.context / seconds_since(start));
        say(fmt::format("{}: prefill {}: {:.1f} tokens/s", label, r + 1, prefill_rates.back()));
    }

    BenchResult result;
    result.device = "cpu";
    result.device_name = cpu_model_name();
    result.workload = llm_decode_workload;
    result.batch = config.batch;
    result.threads = config.threads;
    set_rates(result, rates);
    result.repeats = config.repeats;
    result.isa = active_isa();
    result.gflops = result.samples_per_second * 2.0 * static_cast<double>(llm_matrix_weights(config.llm)) / 1e9;
    result.quant = quant_name(config.quant);
    result.context = config.context;
    result.tokens_per_second = result.samples_per_second;
    result.prefill_tokens_per_second = median(prefill_rates);
    const LlmConfig& m = config.llm;
    result.llm = LlmShape{m.layers, m.d_model, m.heads, m.kv_heads, m.ffn, m.vocab};
    const double generated = static_cast<double>(config.repeats) * steps_per_repeat * config.batch;
    set_energy(result, *meter, joules, generated);
    return result;
}

BenchResult run_gpt_benchmark(const BenchConfig& config) {
    const auto say = [&](const std::string& line) {
        if (config.progress) config.progress(line);
    };
    const bool on_gpu = config.device == "cuda";
    if (!on_gpu && config.device != "cpu")
        throw std::invalid_argument("device must be \"cpu\" or \"cuda\", got \"" + config.device + "\"");
    const bool mixed = config.precision == "bf16" || config.precision == "fp16";
    if (config.precision != "fp32" && !(on_gpu && mixed))
        throw InputError("", 0, "precision",
                         on_gpu ? fmt::format("gpt-small on CUDA runs fp32, bf16 or fp16, got \"{}\"", config.precision)
                                : fmt::format("gpt-small on the CPU runs fp32 only, got \"{}\" (bf16 and fp16 are for "
                                              "CUDA)",
                                              config.precision));
    const GptConfig gpt = gpt_small_config();
    const std::string label =
        on_gpu ? fmt::format("cuda gpt-small {} batch {}", config.precision, config.batch)
               : fmt::format("cpu gpt-small fp32 batch {} threads {}", config.batch, config.threads);
    say(label + ": making the model");
    const std::vector<Tensor> initial = gpt_default_parameters(gpt, config.seed);
    std::unique_ptr<GptTrainer> trainer =
        on_gpu ? make_cuda_gpt_trainer(gpt, initial, config.batch,
                                       config.precision == "bf16"   ? GptPrecision::bf16
                                       : config.precision == "fp16" ? GptPrecision::fp16
                                                                    : GptPrecision::fp32)
               : make_gpt_trainer(gpt, initial, config.batch, config.threads);
    std::vector<TokenBatch> pool;
    for (int i = 0; i < pool_size; ++i)
        pool.push_back(synthetic_token_batch(gpt, config.batch, config.seed + static_cast<std::uint64_t>(i)));

    say(label + ": warming up");
    const int steps_per_repeat = size_repeats(config, [&](int steps) { return trainer->timed_steps(pool, steps); });
    std::unique_ptr<EnergyMeter> meter = on_gpu ? make_nvml_meter(0) : make_rapl_meter();
    if (meter->available()) meter->start();
    std::vector<double> rates;
    for (int r = 0; r < config.repeats; ++r) {
        rates.push_back(static_cast<double>(steps_per_repeat) * config.batch / trainer->timed_steps(pool, steps_per_repeat));
        say(fmt::format("{}: run {}/{}: {:.2f} sequences/s", label, r + 1, config.repeats, rates.back()));
    }
    const std::optional<double> joules = meter->available() ? meter->stop() : std::nullopt;

    BenchResult result;
    result.device = config.device;
    result.device_name = on_gpu ? trainer->device_name() : cpu_model_name();
    result.workload = gpt_small_workload;
    result.batch = config.batch;
    result.threads = on_gpu ? 1 : config.threads;
    set_rates(result, rates);
    result.repeats = config.repeats;
    result.isa = on_gpu ? "" : active_isa();
    result.gflops = result.samples_per_second * gpt_flops_per_sequence(gpt) / 1e9;
    result.precision = config.precision;
    result.tokens_per_second = result.samples_per_second * gpt.sequence;
    const double samples = static_cast<double>(config.repeats) * steps_per_repeat * config.batch;
    set_energy(result, *meter, joules, samples);
    return result;
}

}  // namespace

BenchResult run_benchmark(const BenchConfig& config) {
    if (config.workload == llm_decode_workload) return run_llm_benchmark(config);
    if (config.workload == gpt_small_workload) return run_gpt_benchmark(config);
    const Workload& workload = find_workload(config.workload);
    const auto say = [&](const std::string& line) {
        if (config.progress) config.progress(line);
    };
    const bool on_gpu = config.device == "cuda";
    if (!on_gpu && config.device != "cpu")
        throw std::invalid_argument("device must be \"cpu\" or \"cuda\", got \"" + config.device + "\"");

    std::unique_ptr<Trainer> trainer =
        on_gpu ? make_cuda_trainer(workload, default_parameters(workload, config.seed), config.batch)
               : make_cpu_trainer(workload, default_parameters(workload, config.seed), config.batch, config.threads);
    const std::vector<Batch> pool = make_pool(config, workload.classes);
    const std::string label = fmt::format("{} {} batch {}{}", config.device, config.workload, config.batch,
                                          on_gpu ? "" : fmt::format(" threads {}", config.threads));

    // Warm-up, which also sizes a timed run: enough steps to last seconds_per_repeat.
    say(label + ": warming up");
    const int steps_per_repeat = size_repeats(config, [&](int steps) { return trainer->timed_steps(pool, steps); });

    std::unique_ptr<EnergyMeter> meter = on_gpu ? make_nvml_meter(0) : make_rapl_meter();
    if (meter->available()) meter->start();
    std::vector<double> rates;
    for (int r = 0; r < config.repeats; ++r) {
        const double elapsed = trainer->timed_steps(pool, steps_per_repeat);
        rates.push_back(static_cast<double>(steps_per_repeat) * config.batch / elapsed);
        say(fmt::format("{}: run {}/{}: {:.0f} samples/s", label, r + 1, config.repeats, rates.back()));
    }
    const std::optional<double> joules = meter->available() ? meter->stop() : std::nullopt;

    BenchResult result;
    result.device = config.device;
    result.device_name = on_gpu ? cuda_status().device_name : cpu_model_name();
    result.workload = workload.name;
    result.batch = config.batch;
    result.threads = on_gpu ? 1 : config.threads;
    set_rates(result, rates);
    result.repeats = config.repeats;
    result.isa = on_gpu ? "" : active_isa();
    result.gflops = result.samples_per_second * training_flops_per_sample(workload) / 1e9;
    const double samples = static_cast<double>(config.repeats) * steps_per_repeat * config.batch;
    set_energy(result, *meter, joules, samples);
    return result;
}

}  // namespace payback::bench
