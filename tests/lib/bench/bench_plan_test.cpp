// The benchmark's plan: the runs `payback bench` and Python's payback.bench() measure for a set of
// options, the devices skipped and why, and the options refused (keyed by the flag) before any work.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "payback/base/error.hpp"
#include "payback/bench/bench_plan.hpp"
#include "payback/bench/machine_memory.hpp"
#include "support/input_errors.hpp"

using namespace payback;
using namespace payback::bench;
using payback::test::input_error;

namespace {

const CudaStatus no_gpu{false, "built without CUDA", ""};
const CudaStatus a_gpu{true, "", "NVIDIA H200"};

std::vector<int> batches_of(const BenchPlan& plan) {
    std::vector<int> out;
    for (const BenchConfig& c : plan.runs) out.push_back(c.batch);
    return out;
}

BenchRequest on_cpu(const std::string& workload) {
    BenchRequest r;
    r.device = "cpu";
    r.workload = workload;
    return r;
}

}  // namespace

TEST_CASE("each workload has its default batches; given batches replace them", "[bench][plan]") {
    CHECK(batches_of(plan_benchmark(on_cpu("cifar10-tutorial"), no_gpu)) == std::vector<int>{4, 256});
    CHECK(batches_of(plan_benchmark(on_cpu("gpt-small"), no_gpu)) == std::vector<int>{8});
    CHECK(batches_of(plan_benchmark(on_cpu("llm-decode"), no_gpu)) == std::vector<int>{1, 8});
    BenchRequest given = on_cpu("llm-decode");
    given.batches = {2, 3, 5};
    CHECK(batches_of(plan_benchmark(given, no_gpu)) == std::vector<int>{2, 3, 5});
    // "all" is every training network, each at every batch, in that order.
    const BenchPlan all = plan_benchmark(on_cpu("all"), no_gpu);
    REQUIRE(all.runs.size() == 4);
    CHECK(all.runs[0].workload == "cifar10-tutorial");
    CHECK(all.runs[2].workload == "mlp");
    CHECK(batches_of(all) == std::vector<int>{4, 256, 4, 256});
}

TEST_CASE("the options reach every run as given; threads 0 is every hardware thread", "[bench][plan]") {
    BenchRequest r = on_cpu("llm-decode");
    r.quant = "q8_0";
    r.context = 64;
    r.llm = "layers=2,d_model=64,heads=2,kv_heads=1,ffn=128,vocab=256";
    r.threads = 3;
    r.repeats = 2;
    r.seconds = 0.25;
    const BenchPlan plan = plan_benchmark(r, no_gpu);
    REQUIRE(plan.runs.size() == 2);
    for (const BenchConfig& c : plan.runs) {
        CHECK(c.device == "cpu");
        CHECK(c.quant == Quant::q8_0);
        CHECK(c.context == 64);
        CHECK(c.llm.layers == 2);
        CHECK(c.llm.d_model == 64);
        CHECK(c.threads == 3);
        CHECK(c.repeats == 2);
        CHECK(c.seconds_per_repeat == 0.25);
    }
    r.threads = 0;
    CHECK(plan_benchmark(r, no_gpu).runs.front().threads >= 1);
}

TEST_CASE("a device that cannot run the workload is skipped with the reason", "[bench][plan]") {
    BenchRequest r = on_cpu("cifar10-tutorial");
    r.device = "all";
    const BenchPlan without = plan_benchmark(r, no_gpu);
    CHECK(without.runs.size() == 2);  // the CPU's two batches
    REQUIRE(without.skipped.size() == 1);
    CHECK(without.skipped[0].device == "cuda");
    CHECK(without.skipped[0].reason == "built without CUDA");
    const BenchPlan with = plan_benchmark(r, a_gpu);
    CHECK(with.runs.size() == 4);
    CHECK(with.runs.back().device == "cuda");
    CHECK(with.skipped.empty());
    r.workload = "llm-decode";
    const BenchPlan llm = plan_benchmark(r, a_gpu);
    REQUIRE(llm.skipped.size() == 1);
    CHECK_THAT(llm.skipped[0].reason, Catch::Contains("llm-decode runs on the CPU only"));
    r.workload = "gpt-small";  // trains on both: the CPU's and the GPU's default batch of 8 sequences
    const BenchPlan gpt = plan_benchmark(r, a_gpu);
    CHECK(gpt.skipped.empty());
    REQUIRE(gpt.runs.size() == 2);
    CHECK(gpt.runs.back().device == "cuda");
}

TEST_CASE("bad options are refused naming the flag or key", "[bench][plan][errors]") {
    const auto refused = [](BenchRequest r) { return input_error([&] { (void)plan_benchmark(r, no_gpu); }); };
    BenchRequest r = on_cpu("gpt-small");
    r.precision = "bf16";
    CHECK(refused(r).source() == "--precision");
    CHECK_THAT(refused(r).message(), Catch::Contains("gpt-small on the CPU runs fp32 only"));
    r.device = "cuda";
    for (const std::string precision : {"bf16", "fp16"}) {  // mixed precision is CUDA's
        r.precision = precision;
        CHECK_NOTHROW(plan_benchmark(r, no_gpu));
    }
    r = on_cpu("mlp");
    r.precision = "fp16";
    CHECK(refused(r).message() == "only gpt-small takes a precision; mlp trains in fp32");
    r = on_cpu("cifar10-tutorial");
    r.device = "tpu";
    CHECK(refused(r).message() == "tpu not in {cpu,cuda,all}");
    r = on_cpu("cifar10-tutorial");
    r.batches = {4, 0};
    CHECK(refused(r).source() == "--batch");
    r = on_cpu("llm-decode");
    r.context = 0;
    CHECK(refused(r).source() == "--context");
    r = on_cpu("llm-decode");
    r.quant = "q5_0";
    CHECK(refused(r).key_path() == "quant");
    r = on_cpu("llm-decode");
    r.llm = "layers=0";
    CHECK(refused(r).key_path() == "llm.layers");
    CHECK(refused(on_cpu("resnet")).key_path() == "workload");
}

TEST_CASE("a CPU run that needs more than the machine's memory is refused before it allocates", "[bench][plan][errors]") {
    REQUIRE(machine_memory_bytes() > 0);
    const auto refused = [](BenchRequest r) { return input_error([&] { (void)plan_benchmark(r, no_gpu); }); };
    // llm-decode's default model at its longest context for 65,536 sequences: 2 · 12 layers · 1,048,577
    // positions · 256 · 4 B = 24.00002 GiB of cache a sequence, 1,572,865.5 GiB in all.
    BenchRequest r = on_cpu("llm-decode");
    r.context = 1 << 20;
    r.batches = {65536};
    CHECK(refused(r).source() == "--context");
    CHECK_THAT(refused(r).message(), Catch::StartsWith("llm-decode at context 1048576 and batch 65536 needs "
                                                       "1572865.6 GiB (1572865.5 GiB of it key and value cache), "
                                                       "more than this machine's"));
    // A model of 100,000 of Llama 3 70B's layers: its weights, not the cache, are too many (45 TiB at Q4_0)
    r = on_cpu("llm-decode");
    r.llm = "layers=100000,d_model=8192,heads=64,kv_heads=8,ffn=28672";
    CHECK(refused(r).source() == "--llm");
    // gpt-small at batch 65,536: 16.8 M tokens, whose logits alone are 16.8 M · 8,192 floats (550 GB)
    r = on_cpu("gpt-small");
    r.batches = {65536};
    CHECK(refused(r).source() == "--batch");
    CHECK_THAT(refused(r).message(), Catch::StartsWith("gpt-small at batch 65536 needs 4769.9 GiB"));
    // On CUDA the CPU's memory is not the limit: the GPU trainer checks its own sizes
    r.device = "cuda";
    CHECK_NOTHROW(plan_benchmark(r, no_gpu));
}
