// payback bench [--device cpu|cuda|all] [--workload NAME|all] [--batch 4,256] [--threads N]
//               [--repeats N] [--seconds S] [--data FILE] [--out profile.json] [--json]
// Measures training throughput (and energy where a counter can be read) and writes a calibration
// profile. Progress goes to stderr; the table or JSON to stdout.
#include <chrono>
#include <memory>
#include <cstdio>
#include <ctime>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/bench/cuda_trainer.hpp"
#include "payback/bench/measure.hpp"
#include "payback/bench/workload.hpp"
#include "payback/calibration.hpp"
#include "payback/error.hpp"

namespace payback::cli {
namespace {

struct BenchArgs {
    std::string device = "all";
    std::string workload = "cifar10-tutorial";
    std::vector<int> batches = {4, 256};
    int threads = 0;  ///< 0: every hardware thread
    int repeats = 7;
    double seconds = 0.5;
    std::string data_file;
    std::string out;
    bool json = false;
};

std::string utc_now() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

std::vector<std::pair<std::string, std::string>> software_versions(const bench::CudaStatus& cuda) {
    std::vector<std::pair<std::string, std::string>> software = {{"payback", "0.1.0"},
                                                                 {"compiler", "g++ " __VERSION__}};
    if (cuda.available) software.emplace_back("cuda_device", cuda.device_name);
    return software;
}

std::string energy_cell(const BenchResult& r) {
    return r.joules_per_sample ? fmt::format("{:.3g}", *r.joules_per_sample) : "unavailable";
}

void run(const BenchArgs& args) {
    std::vector<std::string> workloads =
        args.workload == "all" ? bench::workload_names() : std::vector<std::string>{args.workload};
    for (const auto& w : workloads) (void)bench::find_workload(w);  // unknown names fail before any work

    const bench::CudaStatus cuda = bench::cuda_status();
    std::vector<std::string> devices;
    nlohmann::json skipped = nlohmann::json::array();
    if (args.device == "cpu" || args.device == "all") devices.push_back("cpu");
    if (args.device == "cuda" || args.device == "all") {
        if (cuda.available) {
            devices.push_back("cuda");
        } else {
            std::fprintf(stderr, "payback bench: cuda skipped: %s\n", cuda.reason.c_str());
            skipped.push_back({{"device", "cuda"}, {"reason", cuda.reason}});
        }
    }
    const int threads = args.threads > 0 ? args.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

    CalibrationProfile profile;
    profile.date = utc_now();
    profile.software = software_versions(cuda);
    for (const auto& device : devices)
        for (const auto& workload : workloads)
            for (const int batch : args.batches) {
                bench::BenchConfig config;
                config.device = device;
                config.workload = workload;
                config.batch = batch;
                config.threads = threads;
                config.repeats = args.repeats;
                config.seconds_per_repeat = args.seconds;
                config.data_file = args.data_file;
                config.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
                profile.results.push_back(bench::run_benchmark(config));
            }

    nlohmann::json json = nlohmann::json::parse(to_json(profile));
    json["skipped"] = skipped;
    if (!args.out.empty()) write_file_atomically(args.out, to_json(profile));
    if (args.json) {
        emit(json.dump(2) + "\n");
        return;
    }
    std::string text = fmt::format("{:<5} {:<17} {:>5} {:>7} {:>11} {:>13} {:>8} {:>12}\n", "dev", "workload", "batch",
                                   "threads", "samples/s", "min-max", "GFLOP/s", "J/sample");
    for (const BenchResult& r : profile.results)
        text += fmt::format("{:<5} {:<17} {:>5} {:>7} {:>11} {:>13} {:>8.1f} {:>12}\n", r.device, r.workload, r.batch,
                            r.threads, amount(r.samples_per_second),
                            amount(r.samples_per_second_min) + "-" + amount(r.samples_per_second_max), r.gflops,
                            energy_cell(r));
    for (const BenchResult& r : profile.results)
        if (!r.joules_per_sample) {
            text += fmt::format("energy: {}\n", r.energy_source);
            break;
        }
    if (!profile.results.empty()) text += fmt::format("device: {}\n", profile.results.front().device_name);
    if (!args.out.empty()) text += fmt::format("profile written to {}\n", args.out);
    emit(text);
}

}  // namespace

void add_bench_command(CLI::App& app) {
    auto args = std::make_shared<BenchArgs>();
    auto* command = app.add_subcommand(
        "bench", "Measure training throughput on this machine's CPU and GPU and write a calibration profile.\n"
                 "Example: payback bench --device cpu --batch 4,256 --out profile.json");
    command->add_option("--device", args->device, "cpu, cuda or all (default all; cuda is skipped without a GPU)")
        ->check(CLI::IsMember({"cpu", "cuda", "all"}));
    command->add_option("--workload", args->workload, "cifar10-tutorial, mlp or all (default cifar10-tutorial)");
    command->add_option("--batch", args->batches, "Batch sizes, comma-separated (default 4,256)")
        ->delimiter(',')
        ->check(CLI::Range(1, 65536));
    command->add_option("--threads", args->threads, "CPU threads (default: all of them)")->check(CLI::Range(1, 1024));
    command->add_option("--repeats", args->repeats, "Timed runs; the median is reported (default 7)")
        ->check(CLI::Range(1, 1000));
    command->add_option("--seconds", args->seconds, "Length of each timed run in seconds (default 0.5)")
        ->check(CLI::Range(0.001, 3600.0));
    command->add_option("--data", args->data_file, "A CIFAR-10 binary file (data_batch_1.bin) instead of synthetic data");
    command->add_option("--out", args->out, "Write the calibration profile (JSON) here");
    command->add_flag("--json", args->json, "Print the profile as JSON");
    command->callback([args] { run(*args); });
}

}  // namespace payback::cli
