// payback bench [--device cpu|cuda|all] [--workload NAME|all|gpt-small|llm-decode] [--batch 4,256] [--threads N]
//               [--repeats N] [--seconds S] [--data FILE] [--precision fp32|bf16|fp16] [--quant f16|q8_0|q4_0]
//               [--context N] [--llm SHAPE] [--out profile.json] [--format table|json|csv]
// Measures training throughput (gpt-small's in sequences and tokens), or LLM decoding's tokens per
// second (and energy where a counter can be read), and writes a calibration profile. A progress bar goes to stderr on a terminal; the table, JSON
// or CSV to stdout.
#include <memory>
#include <cstdio>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/base/error.hpp"
#include "payback/bench/cuda_trainer.hpp"
#include "payback/bench/gpt_trainer.hpp"
#include "payback/bench/llm_config.hpp"
#include "payback/bench/measure.hpp"
#include "payback/workload/calibration.hpp"
#include "payback/workload/network.hpp"
#include "terminal.hpp"
#include "text_table.hpp"

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
    std::string precision = "fp32";
    std::string quant = "q4_0";
    int context = 512;
    std::string llm;  ///< "layers=2,d_model=64,...": over the default model
    std::string out;
    Output output;
    bool batch_given = false;
};

// llm-decode's batches are sequences decoded together: one, and a few sharing each weight read.
const std::vector<int> llm_default_batches = {1, 8};
// gpt-small's batch is sequences of 256 tokens: 8 is 2,048 tokens a step, enough rows for the matrix
// products to run at speed, and the batch perf/training_vs_pytorch.py compares with PyTorch.
const std::vector<int> gpt_default_batches = {8};

std::vector<std::pair<std::string, std::string>> software_versions(const bench::CudaStatus& cuda) {
    std::vector<std::pair<std::string, std::string>> software = {{"payback", "0.1.0"},
                                                                 {"compiler", "g++ " __VERSION__}};
    if (cuda.available) software.emplace_back("cuda_device", cuda.device_name);
    return software;
}

std::string energy_cell(const BenchResult& r) {
    return r.joules_per_sample ? fmt::format("{:.3g}", *r.joules_per_sample) : "unavailable";
}

std::string training_table(const CalibrationProfile& profile, const Output& output) {
    using A = TextTable::Align;
    TextTable table({{"dev", A::left}, {"workload", A::left}, {"batch"}, {"threads"}, {"samples/s"}, {"min-max"},
                     {"GFLOP/s"}, {"J/sample"}});
    for (const BenchResult& r : profile.results)
        table.add_row({r.device, r.workload, std::to_string(r.batch), std::to_string(r.threads),
                       amount(r.samples_per_second),
                       amount(r.samples_per_second_min) + "-" + amount(r.samples_per_second_max),
                       fmt::format("{:.1f}", r.gflops), energy_cell(r)});
    return table.render(Style::for_stdout(output.to_terminal()));
}

std::string gpt_table(const CalibrationProfile& profile, const Output& output) {
    using A = TextTable::Align;
    // seq: a sequence of 256 tokens; short headers keep the table within 80 columns.
    TextTable table({{"dev", A::left}, {"prec", A::left}, {"batch"}, {"threads"}, {"seq/s"}, {"min-max"},
                     {"tokens/s"}, {"GFLOP/s"}, {"J/seq"}});
    for (const BenchResult& r : profile.results)
        table.add_row({r.device, r.precision, std::to_string(r.batch), std::to_string(r.threads),
                       fmt::format("{:.2f}", r.samples_per_second),
                       fmt::format("{:.2f}-{:.2f}", r.samples_per_second_min, r.samples_per_second_max),
                       fmt::format("{:.0f}", r.tokens_per_second.value_or(0)), fmt::format("{:.1f}", r.gflops),
                       energy_cell(r)});
    return table.render(Style::for_stdout(output.to_terminal()));
}

std::string llm_table(const CalibrationProfile& profile, const Output& output) {
    using A = TextTable::Align;
    TextTable table({{"dev", A::left}, {"quant", A::left}, {"context"}, {"batch"}, {"threads"}, {"decode tok/s"},
                     {"min-max"}, {"prefill tok/s"}, {"J/token"}});
    for (const BenchResult& r : profile.results)
        table.add_row({r.device, r.quant, std::to_string(r.context), std::to_string(r.batch), std::to_string(r.threads),
                       fmt::format("{:.1f}", r.samples_per_second),
                       fmt::format("{:.1f}-{:.1f}", r.samples_per_second_min, r.samples_per_second_max),
                       fmt::format("{:.1f}", r.prefill_tokens_per_second.value_or(0)), energy_cell(r)});
    return table.render(Style::for_stdout(output.to_terminal()));
}

void run(const BenchArgs& args) {
    const bool llm = args.workload == bench::llm_decode_workload;
    const bool gpt = args.workload == bench::gpt_small_workload;
    std::vector<std::string> workloads =
        args.workload == "all" ? workload_names() : std::vector<std::string>{args.workload};
    if (!llm && !gpt)
        for (const auto& w : workloads) (void)find_workload(w);  // unknown names fail before any work
    // Mixed precision is a CUDA path; the CPU trains in fp32, and only gpt-small takes a precision.
    if (args.precision != "fp32") {
        if (!gpt)
            throw InputError("--precision", 0, "",
                             fmt::format("only gpt-small takes a precision; {} trains in fp32", args.workload));
        if (args.device != "cuda")
            throw InputError("--precision", 0, "",
                             fmt::format("gpt-small on the CPU runs fp32 only, got \"{}\" (bf16 and fp16 are for "
                                         "CUDA: --device cuda)",
                                         args.precision));
        if (args.precision != "bf16")
            throw InputError("--precision", 0, "",
                             fmt::format("gpt-small on CUDA runs fp32 or bf16, got \"{}\" (fp16 with loss scaling "
                                         "is not implemented)",
                                         args.precision));
    }
    // Bad llm-decode options fail before any work too.
    const bench::LlmConfig llm_config = bench::parse_llm_config(args.llm);
    const bench::Quant quant = bench::parse_quant(args.quant);
    const std::vector<int> batches = args.batch_given ? args.batches
                                     : llm           ? llm_default_batches
                                     : gpt           ? gpt_default_batches
                                                     : args.batches;

    const bench::CudaStatus cuda = bench::cuda_status();
    std::vector<std::string> devices;
    nlohmann::json skipped = nlohmann::json::array();
    if (args.device == "cpu" || args.device == "all") devices.push_back("cpu");
    if (args.device == "cuda" || args.device == "all") {
        if (llm) {
            const std::string why = "llm-decode runs on the CPU only; its CUDA kernels are checked by the tests";
            std::fprintf(stderr, "payback bench: cuda skipped: %s\n", why.c_str());
            skipped.push_back({{"device", "cuda"}, {"reason", why}});
        } else if (cuda.available) {
            devices.push_back("cuda");
        } else {
            std::fprintf(stderr, "payback bench: cuda skipped: %s\n", cuda.reason.c_str());
            skipped.push_back({{"device", "cuda"}, {"reason", cuda.reason}});
        }
    }
    const int threads = args.threads > 0 ? args.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

    CalibrationProfile profile;
    profile.date = utc_timestamp();
    profile.software = software_versions(cuda);
    ProgressBar bar("bench");
    const double runs = static_cast<double>(devices.size() * workloads.size() * batches.size());
    for (const auto& device : devices)
        for (const auto& workload : workloads)
            for (const int batch : batches) {
                bench::BenchConfig config;
                config.device = device;
                config.workload = workload;
                config.batch = batch;
                config.threads = threads;
                config.repeats = args.repeats;
                config.seconds_per_repeat = args.seconds;
                config.data_file = args.data_file;
                config.precision = args.precision;
                config.llm = llm_config;
                config.quant = quant;
                config.context = args.context;
                // A run is its warm-up and its repeats: the bar moves by one repeat's share at each line.
                const double done = static_cast<double>(profile.results.size());
                int lines = 0;
                config.progress = [&](const std::string& line) {
                    bar.update((done + static_cast<double>(lines++) / (args.repeats + 1)) / runs, line);
                };
                profile.results.push_back(bench::run_benchmark(config));
            }
    bar.clear();

    nlohmann::json json = nlohmann::json::parse(to_json(profile));
    json["skipped"] = skipped;
    if (!args.out.empty()) write_file_atomically(args.out, to_json(profile));
    if (args.output.format == Format::json) {
        emit(args.output, json.dump(2) + "\n");
        return;
    }
    if (args.output.format == Format::csv) {
        if (llm) {
            emit(args.output, records_csv(json["results"], {"device", "workload", "quant", "context", "batch", "threads",
                                                            "tokens_per_second", "samples_per_second_min",
                                                            "samples_per_second_max", "prefill_tokens_per_second",
                                                            "repeats", "gflops", "joules_per_sample", "energy_source",
                                                            "precision", "device_name"}));
            return;
        }
        if (gpt) {
            emit(args.output, records_csv(json["results"], {"device", "workload", "precision", "batch", "threads",
                                                            "samples_per_second", "samples_per_second_min",
                                                            "samples_per_second_max", "tokens_per_second", "repeats",
                                                            "gflops", "joules_per_sample", "energy_source",
                                                            "device_name"}));
            return;
        }
        emit(args.output, records_csv(json["results"], {"device", "workload", "batch", "threads", "samples_per_second",
                                                        "samples_per_second_min", "samples_per_second_max", "repeats", "gflops",
                                                        "joules_per_sample", "energy_source", "device_name"}));
        return;
    }
    std::string text = llm   ? llm_table(profile, args.output)
                       : gpt ? gpt_table(profile, args.output)
                             : training_table(profile, args.output);
    for (const BenchResult& r : profile.results)
        if (!r.joules_per_sample) {
            text += fmt::format("energy: {}\n", r.energy_source);
            break;
        }
    if (!profile.results.empty()) text += fmt::format("device: {}\n", profile.results.front().device_name);
    if (!args.out.empty()) text += fmt::format("profile written to {}\n", args.out);
    emit(args.output, text);
}

}  // namespace

void add_bench_command(CLI::App& app) {
    auto args = std::make_shared<BenchArgs>();
    auto* command = app.add_subcommand(
        "bench", "Measure training throughput, or LLM decoding's tokens per second, on this machine and write a calibration profile");
    command->add_option("--device", args->device, "cpu, cuda or all (default all; cuda is skipped without a GPU)")
        ->check(CLI::IsMember({"cpu", "cuda", "all"}));
    command->add_option("--workload", args->workload,
                        "cifar10-tutorial, mlp, all (the two), gpt-small (a transformer training step) or llm-decode "
                        "(default cifar10-tutorial)");
    command->add_option("--batch", args->batches,
                        "Batch sizes, comma-separated (default 4,256; gpt-small: sequences of 256 tokens, default 8; "
                        "llm-decode: sequences decoded together, default 1,8)")
        ->delimiter(',')
        ->check(CLI::Range(1, 65536));
    command->add_option("--threads", args->threads, "CPU threads (default: all of them)")->check(CLI::Range(1, 1024));
    command->add_option("--repeats", args->repeats, "Timed runs; the median is reported (default 7)")
        ->check(CLI::Range(1, 1000));
    command->add_option("--seconds", args->seconds, "Length of each timed run in seconds (default 0.5)")
        ->check(CLI::Range(0.001, 3600.0));
    command->add_option("--data", args->data_file, "A CIFAR-10 binary file (data_batch_1.bin) instead of synthetic data");
    command->add_option("--precision", args->precision,
                        "gpt-small: the arithmetic, fp32, or bf16 mixed precision on CUDA (default fp32; fp16 is refused, "
                        "its loss scaling not implemented)")
        ->check(CLI::IsMember({"fp32", "bf16", "fp16"}));
    command->add_option("--quant", args->quant, "llm-decode: the weights' format, f16, q8_0 or q4_0 (default q4_0)");
    command->add_option("--context", args->context,
                        "llm-decode: cached positions each token attends to, and the prompt's length (default 512)")
        ->check(CLI::Range(1, 1 << 20));
    command->add_option("--llm", args->llm,
                        "llm-decode: the model's shape over the default (docs/benchmark.md), keys layers, d_model, "
                        "heads, kv_heads, ffn, vocab, e.g. layers=2,d_model=64");
    command->add_option("--out", args->out, "Write the calibration profile (JSON) here");
    add_output_options(*command, args->output, {Format::table, Format::json, Format::csv});
    add_example(*command, {"payback bench --device cpu --batch 4,256 --out profile.json",
                           "payback bench --device all --workload all --format json",
                           "payback bench --device cpu --workload gpt-small --batch 8 --threads 2",
                           "payback bench --device cpu --workload llm-decode --quant q8_0 --context 1024 --batch 1,4"});
    command->callback([args, command] {
        args->batch_given = command->count("--batch") > 0;
        run(*args);
    });
}

}  // namespace payback::cli
