// payback bench [--device cpu|cuda|all] [--workload NAME|all|gpt-small|llm-decode] [--batch 4,256] [--threads N]
//               [--repeats N] [--seconds S] [--data FILE] [--precision fp32|bf16|fp16] [--quant f16|q8_0|q4_0]
//               [--context N] [--llm SHAPE] [--out profile.json] [--format table|json|csv]
// Measures training throughput (gpt-small's in sequences and tokens), or LLM decoding's tokens per
// second (and energy where a counter can be read), and writes a calibration profile. A progress bar goes to stderr on a terminal; the table, JSON
// or CSV to stdout.
#include <memory>
#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/bench/bench_plan.hpp"
#include "payback/bench/cuda_trainer.hpp"
#include "payback/bench/gpt_trainer.hpp"
#include "payback/bench/measure.hpp"
#include "payback/workload/calibration.hpp"
#include "terminal.hpp"
#include "text_table.hpp"

namespace payback::cli {
namespace {

struct BenchArgs {
    bench::BenchRequest request;
    std::string out;
    Output output;
};

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
    const bool llm = args.request.workload == bench::llm_decode_workload;
    const bool gpt = args.request.workload == bench::gpt_small_workload;
    const bench::CudaStatus cuda = bench::cuda_status();
    bench::BenchPlan plan = bench::plan_benchmark(args.request, cuda);  // bad options fail before any work
    nlohmann::json skipped = nlohmann::json::array();
    for (const bench::SkippedDevice& s : plan.skipped) {
        std::fprintf(stderr, "payback bench: %s skipped: %s\n", s.device.c_str(), s.reason.c_str());
        skipped.push_back({{"device", s.device}, {"reason", s.reason}});
    }

    CalibrationProfile profile;
    profile.date = utc_timestamp();
    profile.software = software_versions(cuda);
    ProgressBar bar("bench");
    const double runs = static_cast<double>(plan.runs.size());
    for (bench::BenchConfig& config : plan.runs) {
        // A run is its warm-up and its repeats: the bar moves by one repeat's share at each line.
        const double done = static_cast<double>(profile.results.size());
        int lines = 0;
        config.progress = [&](const std::string& line) {
            bar.update((done + static_cast<double>(lines++) / (config.repeats + 1)) / runs, line);
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
    bench::BenchRequest& request = args->request;
    // --device and --precision keep their validators: the bash completion offers their choices. The
    // plan checks every option again, with the messages Python's payback.bench() raises.
    command->add_option("--device", request.device, "cpu, cuda or all (default all; cuda is skipped without a GPU)")
        ->check(CLI::IsMember({"cpu", "cuda", "all"}));
    command->add_option("--workload", request.workload,
                        "cifar10-tutorial, mlp, all (the two), gpt-small (a transformer training step) or llm-decode "
                        "(default cifar10-tutorial)");
    command->add_option("--batch", request.batches,
                        "Batch sizes, 1 to 65536, comma-separated (default 4,256; gpt-small: sequences of 256 tokens, "
                        "default 8; llm-decode: sequences decoded together, default 1,8)")
        ->delimiter(',');
    command->add_option("--threads", request.threads, "CPU threads, 1 to 1024 (default: all of them)");
    command->add_option("--repeats", request.repeats, "Timed runs, 1 to 1000; the median is reported (default 7)");
    command->add_option("--seconds", request.seconds,
                        "Length of each timed run in seconds, 0.001 to 3600 (default 0.5)");
    command->add_option("--data", request.data_file, "A CIFAR-10 binary file (data_batch_1.bin) instead of synthetic data");
    command->add_option("--precision", request.precision,
                        "gpt-small: the arithmetic, fp32, or on CUDA bf16 or fp16 mixed precision (fp16 with dynamic "
                        "loss scaling; default fp32)")
        ->check(CLI::IsMember({"fp32", "bf16", "fp16"}));
    command->add_option("--quant", request.quant, "llm-decode: the weights' format, f16, q8_0 or q4_0 (default q4_0)");
    command->add_option("--context", request.context,
                        "llm-decode: cached positions each token attends to, and the prompt's length, 1 to "
                        "1048576 (default 512)");
    command->add_option("--llm", request.llm,
                        "llm-decode: the model's shape over the default (docs/benchmark.md), keys layers, d_model, "
                        "heads, kv_heads, ffn, vocab, e.g. layers=2,d_model=64");
    command->add_option("--out", args->out, "Write the calibration profile (JSON) here");
    add_output_options(*command, args->output, {Format::table, Format::json, Format::csv});
    add_example(*command, {"payback bench --device cpu --batch 4,256 --out profile.json",
                           "payback bench --device all --workload all --format json",
                           "payback bench --device cpu --workload gpt-small --batch 8 --threads 2",
                           "payback bench --device cpu --workload llm-decode --quant q8_0 --context 1024 --batch 1,4"});
    command->callback([args] { run(*args); });
}

}  // namespace payback::cli
