#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "payback/bench/cuda_trainer.hpp"
#include "payback/workload/calibration.hpp"
#include "support/run_cli.hpp"
#include "support/run_in_terminal.hpp"
#include "support/temp_dir.hpp"

using nlohmann::json;
using payback::test::quote;
using payback::test::run;
using payback::test::TempDir;

TEST_CASE("payback bench measures the CPU and writes a calibration profile", "[cli][bench]") {
    TempDir dir;
    const std::string out = (dir.path() / "profile.json").string();
    const auto r = run("bench --device cpu --workload cifar10-tutorial --batch 4,8 --threads 1 --repeats 3 "
                       "--seconds 0.02 --json --out " + quote(out));
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    REQUIRE(j["results"].size() == 2);
    for (const auto& result : j["results"]) {
        CHECK(result["device"] == "cpu");
        CHECK(result["workload"] == "cifar10-tutorial");
        CHECK(result["threads"] == 1);
        CHECK(result["samples_per_second"].get<double>() > 0);
        CHECK(result["samples_per_second_min"].get<double>() <= result["samples_per_second"].get<double>());
        CHECK(result["samples_per_second_max"].get<double>() >= result["samples_per_second"].get<double>());
        CHECK(result["repeats"] == 3);
        CHECK((result["joules_per_sample"].is_null() || result["joules_per_sample"].get<double>() > 0));
        CHECK(!result["device_name"].get<std::string>().empty());
    }
    CHECK(j["results"][0]["batch"] == 4);
    CHECK(j["results"][1]["batch"] == 8);
    CHECK(j.contains("date"));
    CHECK(j["software"].contains("payback"));
    CHECK(r.err.empty());  // progress is a bar on a terminal only (command_common_test.cpp)
    const payback::CalibrationProfile profile = payback::read_profile(out);  // the file is a valid profile
    CHECK(profile.results.size() == 2);
}

TEST_CASE("payback bench skips CUDA with the reason when there is no GPU", "[cli][bench]") {
    const payback::bench::CudaStatus cuda = payback::bench::cuda_status();
    if (cuda.available) {
        WARN("a GPU is present (" << cuda.device_name << "): the skip is not exercised here");
        return;
    }
    const auto r = run("bench --device cuda --json");
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    CHECK(j["results"].empty());
    REQUIRE(j["skipped"].size() == 1);
    CHECK(j["skipped"][0]["reason"] == cuda.reason);
    CHECK_THAT(r.err, Catch::Contains("cuda skipped: " + cuda.reason));
}

TEST_CASE("payback bench refuses unknown workloads and bad batches", "[cli][bench][errors]") {
    const auto unknown = run("bench --workload resnet50");
    CHECK(unknown.code == 2);
    CHECK_THAT(unknown.err, Catch::Contains("unknown workload \"resnet50\""));
    CHECK(run("bench --batch 0").code == 2);
    CHECK(run("bench --device tpu").code == 2);
    TempDir dir;
    const auto missing = run("bench --device cpu --batch 4 --repeats 1 --seconds 0.01 --data " +
                             quote((dir.path() / "none.bin").string()));
    CHECK(missing.code == 2);
    CHECK_THAT(missing.err, Catch::Contains("no such CIFAR-10 file"));
}

TEST_CASE("payback bench says why when the CUDA module cannot be loaded", "[cli][bench][cuda]") {
#ifdef PAYBACK_HAVE_CUDA
    // The module is opened only by bench --device cuda|all; a missing one is a reason to skip, not a crash.
    const auto r = payback::test::run_in_terminal("bench --device cuda --format json", "PAYBACK_CUDA_MODULE=/no/such.so ");
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("cuda skipped: the CUDA module could not be loaded: /no/such.so"));
#else
    WARN("built without CUDA: there is no module to load");
#endif
}

TEST_CASE("payback bench --workload llm-decode measures tokens per second and writes them in the profile", "[cli][bench][llm]") {
    TempDir dir;
    const std::string out = (dir.path() / "profile.json").string();
    const auto r = run("bench --device all --workload llm-decode --llm layers=2,d_model=64,heads=4,kv_heads=2,ffn=128,vocab=96 "
                       "--quant q8_0 --context 16 --batch 1,3 --threads 2 --repeats 2 --seconds 0.01 --json --out " + quote(out));
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    REQUIRE(j["results"].size() == 2);
    for (const auto& result : j["results"]) {
        CHECK(result["workload"] == "llm-decode");
        CHECK(result["device"] == "cpu");
        CHECK(result["quant"] == "q8_0");
        CHECK(result["precision"] == "fp32");
        CHECK(result["context"] == 16);
        CHECK(result["tokens_per_second"].get<double>() > 0);
        CHECK(result["tokens_per_second"] == result["samples_per_second"]);
        CHECK(result["prefill_tokens_per_second"].get<double>() > 0);
        CHECK(result["repeats"] == 2);
        // The model's shape, so that a scenario can scale the rates to its own model (measured_serving.hpp).
        CHECK(result["llm"] == json{{"layers", 2}, {"d_model", 64}, {"heads", 4}, {"kv_heads", 2}, {"ffn", 128}, {"vocab", 96}});
    }
    CHECK(j["results"][0]["batch"] == 1);
    CHECK(j["results"][1]["batch"] == 3);
    // The GPU is not benchmarked for this workload, with or without one.
    REQUIRE(j["skipped"].size() == 1);
    CHECK_THAT(j["skipped"][0]["reason"].get<std::string>(), Catch::Contains("llm-decode runs on the CPU only"));
    const payback::CalibrationProfile profile = payback::read_profile(out);
    REQUIRE(profile.results.size() == 2);
    CHECK(profile.results[1].quant == "q8_0");
    CHECK(profile.results[1].context == 16);
    CHECK(profile.results[1].tokens_per_second == j["results"][1]["tokens_per_second"].get<double>());
    REQUIRE(profile.results[1].llm);
    CHECK(profile.results[1].llm->ffn == 128);
}

TEST_CASE("payback bench refuses a bad llm-decode format, shape or context with its key", "[cli][bench][llm][errors]") {
    const auto quant = run("bench --device cpu --workload llm-decode --quant q4_k");
    CHECK(quant.code == 2);
    CHECK_THAT(quant.err, Catch::Contains("quant: unknown format \"q4_k\""));
    const auto shape = run("bench --device cpu --workload llm-decode --llm ffn=100");
    CHECK(shape.code == 2);
    CHECK_THAT(shape.err, Catch::Contains("llm.ffn: must be a multiple of 32"));
    CHECK(run("bench --device cpu --workload llm-decode --context 0").code == 2);
    CHECK(run("bench --device cpu --workload llm-decode --batch 0").code == 2);
}

TEST_CASE("payback bench --workload gpt-small measures sequences and tokens per second in fp32", "[cli][bench][gpt]") {
    TempDir dir;
    const std::string out = (dir.path() / "profile.json").string();
    const auto r = run("bench --device all --workload gpt-small --batch 1 --threads 2 --repeats 1 --seconds 0.001 "
                       "--json --out " + quote(out));
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    // The GPU runs gpt-small too where there is one; without one it is skipped with the reason.
    const payback::bench::CudaStatus cuda = payback::bench::cuda_status();
    REQUIRE(j["results"].size() == (cuda.available ? 2u : 1u));
    REQUIRE(j["skipped"].size() == (cuda.available ? 0u : 1u));
    if (!cuda.available) CHECK(j["skipped"][0]["reason"] == cuda.reason);
    const json& result = j["results"][0];
    CHECK(result["workload"] == "gpt-small");
    CHECK(result["device"] == "cpu");
    CHECK(result["precision"] == "fp32");
    CHECK(result["batch"] == 1);
    CHECK(result["samples_per_second"].get<double>() > 0);
    // A sample is a sequence of 256 tokens; GFLOP/s count 37,849,399,296 FLOPs a sequence.
    CHECK(result["tokens_per_second"].get<double>() == Approx(256 * result["samples_per_second"].get<double>()));
    CHECK(result["gflops"].get<double>() == Approx(37.849399296 * result["samples_per_second"].get<double>()));
    CHECK_FALSE(result.contains("quant"));
    const payback::CalibrationProfile profile = payback::read_profile(out);
    REQUIRE(profile.results.size() == j["results"].size());
    CHECK(profile.results[0].workload == "gpt-small");
    CHECK(profile.results[0].precision == "fp32");
    CHECK(profile.results[0].tokens_per_second == result["tokens_per_second"].get<double>());
}

TEST_CASE("payback bench refuses bf16 or fp16 on the CPU, and a precision for another workload, naming --precision",
          "[cli][bench][gpt][errors]") {
    for (const std::string device : {"cpu", "all"}) {
        const auto bf16 = run("bench --device " + device + " --workload gpt-small --precision bf16");
        CHECK(bf16.code == 2);
        CHECK(bf16.out.empty());
        CHECK(bf16.err == "payback: --precision: gpt-small on the CPU runs fp32 only, got \"bf16\" (bf16 and fp16 are "
                          "for CUDA: --device cuda)\n");
    }
    const auto other = run("bench --device cpu --workload mlp --precision fp16");
    CHECK(other.code == 2);
    CHECK(other.err == "payback: --precision: only gpt-small takes a precision; mlp trains in fp32\n");
    // On CUDA, fp16 is taken (and skipped with the reason where there is no GPU).
    const auto fp16 = run("bench --device cuda --workload gpt-small --precision fp16");
    CHECK(fp16.code == 0);
    CHECK_THAT(fp16.err, !Catch::Contains("--precision"));
    const auto unknown = run("bench --device cpu --workload gpt-small --precision fp8");
    CHECK(unknown.code == 2);
    CHECK_THAT(unknown.err, Catch::Contains("--precision"));
}
