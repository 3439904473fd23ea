#include "payback/bench/measure.hpp"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>

#include <fmt/format.h>

#include "payback/base/isa.hpp"
#include "payback/bench/cpu_trainer.hpp"
#include "payback/bench/cuda_trainer.hpp"
#include "payback/bench/data.hpp"
#include "payback/bench/energy.hpp"
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

}  // namespace

BenchResult run_benchmark(const BenchConfig& config) {
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
    int steps = 1;
    double seconds = trainer->timed_steps(pool, steps);
    while (seconds < config.warmup_seconds) {
        steps *= 2;
        seconds = trainer->timed_steps(pool, steps);
    }
    const int steps_per_repeat =
        std::max(1, static_cast<int>(std::ceil(config.seconds_per_repeat * steps / std::max(seconds, 1e-9))));

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
    result.samples_per_second = median(rates);
    result.samples_per_second_min = *std::min_element(rates.begin(), rates.end());
    result.samples_per_second_max = *std::max_element(rates.begin(), rates.end());
    result.repeats = config.repeats;
    result.isa = on_gpu ? "" : active_isa();
    result.gflops = result.samples_per_second * training_flops_per_sample(workload) / 1e9;
    const double samples = static_cast<double>(config.repeats) * steps_per_repeat * config.batch;
    if (joules) result.joules_per_sample = *joules / samples;
    result.energy_source = meter->available()
                               ? (joules ? meter->describe() : meter->describe() + ": the counter did not advance")
                               : "unavailable: " + meter->unavailable_reason();
    return result;
}

}  // namespace payback::bench
