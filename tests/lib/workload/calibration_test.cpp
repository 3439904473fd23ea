#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "payback/base/error.hpp"
#include "payback/workload/calibration.hpp"
#include "support/input_errors.hpp"

using namespace payback;
using payback::test::input_error;

namespace {

BenchResult result(std::string device, std::string name, std::string workload, int batch, double rate) {
    BenchResult r;
    r.device = std::move(device);
    r.device_name = std::move(name);
    r.workload = std::move(workload);
    r.batch = batch;
    r.threads = 1;
    r.samples_per_second = rate;
    r.samples_per_second_min = rate * 0.9;
    r.samples_per_second_max = rate * 1.1;
    r.repeats = 7;
    return r;
}

CalibrationProfile profile_of(std::vector<BenchResult> results) {
    CalibrationProfile p;
    p.source = "profile.json";
    p.date = "2026-11-29T12:00:00Z";
    p.software = {{"payback", "0.1.0"}};
    p.results = std::move(results);
    return p;
}

}  // namespace

TEST_CASE("a profile survives a round trip through JSON", "[calibration]") {
    CalibrationProfile p = profile_of({result("cpu", "AMD EPYC", "cifar10-tutorial", 4, 1234.5),
                                       result("cuda", "NVIDIA H200", "mlp", 256, 98765.0)});
    p.results[1].joules_per_sample = 0.0125;
    p.results[1].energy_source = "NVML GPU 0";
    const CalibrationProfile back = parse_profile(to_json(p), "profile.json");
    REQUIRE(back.results.size() == 2);
    CHECK(back.date == p.date);
    CHECK(back.software == p.software);
    CHECK(back.results[0].device_name == "AMD EPYC");
    CHECK(back.results[0].samples_per_second == 1234.5);
    CHECK(back.results[0].samples_per_second_min == Approx(1111.05));
    CHECK_FALSE(back.results[0].joules_per_sample);
    CHECK(back.results[1].joules_per_sample == Approx(0.0125));
    CHECK(back.results[1].energy_source == "NVML GPU 0");
}

TEST_CASE("an llm-decode result keeps its precision, format, context and token rates through JSON", "[calibration]") {
    CalibrationProfile p = profile_of({result("cpu", "Intel Xeon", "llm-decode", 4, 120.5),
                                       result("cpu", "Intel Xeon", "mlp", 256, 3000.0)});
    BenchResult& llm = p.results[0];
    llm.quant = "q4_0";
    llm.context = 512;
    llm.tokens_per_second = 120.5;
    llm.prefill_tokens_per_second = 850.25;
    llm.joules_per_sample = 0.75;  // a token is the sample
    const std::string text = to_json(p);
    const CalibrationProfile back = parse_profile(text, "profile.json");
    REQUIRE(back.results.size() == 2);
    CHECK(back.results[0].precision == "fp32");
    CHECK(back.results[0].quant == "q4_0");
    CHECK(back.results[0].context == 512);
    CHECK(back.results[0].tokens_per_second == 120.5);
    CHECK(back.results[0].prefill_tokens_per_second == 850.25);
    CHECK(back.results[0].joules_per_sample == 0.75);
    CHECK(back.results[1].quant.empty());  // a training result writes none of the llm fields
    CHECK(back.results[1].context == 0);
    CHECK_FALSE(back.results[1].tokens_per_second);
    CHECK(to_json(back) == text);

    CalibrationProfile gpt = profile_of({result("cpu", "Intel Xeon", "gpt-small", 8, 2.5)});
    gpt.results[0].tokens_per_second = 2.5 * 256;  // a sample is a sequence of 256 tokens
    const CalibrationProfile gpt_back = parse_profile(to_json(gpt), "profile.json");
    CHECK(gpt_back.results[0].tokens_per_second == 640.0);
    CHECK(gpt_back.results[0].precision == "fp32");
    CHECK(gpt_back.results[0].quant.empty());
    CHECK(to_json(gpt_back) == to_json(gpt));

    auto key_of_bad = [](const std::string& fields) {
        return input_error([&] {
                   parse_profile(R"({"results": [{"device": "cpu", "device_name": "x", "workload": "llm-decode",
                                     "batch": 1, "threads": 2, "samples_per_second": 5, )" + fields + "}]}",
                                 "p.json");
               }).key_path();
    };
    CHECK(key_of_bad(R"("quant": "q4_k")") == "results[0].quant");
    CHECK(key_of_bad(R"("precision": "fp8")") == "results[0].precision");
    CHECK(key_of_bad(R"("context": 1.5)") == "results[0].context");
    CHECK(key_of_bad(R"("tokens_per_second": 0)") == "results[0].tokens_per_second");
}

TEST_CASE("a profile path not given reads as none; a given one as read_profile reads it", "[calibration]") {
    CHECK_FALSE(read_profile_if_given(""));
    const std::string path = PAYBACK_SOURCE_DIR "/tests/fixtures/profiles/llm-decode-cpu.json";
    const std::optional<CalibrationProfile> given = read_profile_if_given(path);
    REQUIRE(given);
    CHECK(to_json(*given) == to_json(read_profile(path)));
    CHECK(test::input_error([] { read_profile_if_given("/nonexistent/profile.json"); }).source() ==
          "/nonexistent/profile.json");
}

TEST_CASE("bad profiles are refused naming the file, line and key", "[calibration][errors]") {
    const InputError syntax = input_error([] { parse_profile("{\n  \"results\": [\n  }", "p.json"); });
    CHECK(syntax.source() == "p.json");
    CHECK(syntax.line() == 3);
    CHECK_THAT(syntax.message(), Catch::Contains("JSON syntax error"));

    CHECK(input_error([] { parse_profile("{}", "p.json"); }).key_path() == "results");
    const auto missing = input_error([] {
        parse_profile(R"({"results": [{"device": "cpu", "device_name": "x", "workload": "mlp", "batch": 4,
                          "threads": 2}]})",
                      "p.json");
    });
    CHECK(missing.key_path() == "results[0].samples_per_second");
    const auto negative = input_error([] {
        parse_profile(R"({"results": [{"device": "cpu", "device_name": "x", "workload": "mlp", "batch": 4,
                          "threads": 2, "samples_per_second": -5}]})",
                      "p.json");
    });
    CHECK(negative.key_path() == "results[0].samples_per_second");
    const auto device = input_error([] {
        parse_profile(R"({"results": [{"device": "tpu", "device_name": "x", "workload": "mlp", "batch": 4,
                          "threads": 2, "samples_per_second": 5}]})",
                      "p.json");
    });
    CHECK(device.key_path() == "results[0].device");
    const auto batch = input_error([] {
        parse_profile(R"({"results": [{"device": "cpu", "device_name": "x", "workload": "mlp", "batch": 2.5,
                          "threads": 2, "samples_per_second": 5}]})",
                      "p.json");
    });
    CHECK(batch.key_path() == "results[0].batch");
    // Found by fuzzing (tests/fuzz/crashes/calibration): a number beyond a double escaped as an
    // internal error instead of a bad-input one.
    const auto overflow = input_error([] { parse_profile(R"({"date": 3E333333})", "p.json"); });
    CHECK(overflow.source() == "p.json");
    CHECK(overflow.message() == "not a calibration profile (number overflow parsing '3E333333')");
    // A count too large for an int was cast anyway (undefined behaviour, UBSan's float-cast-overflow).
    const auto repeats = input_error([] {
        parse_profile(R"({"results": [{"device": "cpu", "device_name": "x", "workload": "mlp", "batch": 4,
                          "threads": 2, "samples_per_second": 5, "repeats": 1e300}]})",
                      "p.json");
    });
    CHECK(repeats.key_path() == "results[0].repeats");
    CHECK(repeats.message() == "expected a whole number >= 0, got 1e+300");
}

TEST_CASE("driver names match catalog GPUs by their model words", "[calibration]") {
    CHECK(same_gpu("NVIDIA GeForce RTX 3090", "RTX 3090"));
    CHECK_FALSE(same_gpu("NVIDIA GeForce RTX 3090", "RTX 3090 Ti"));
    CHECK_FALSE(same_gpu("NVIDIA GeForce RTX 3090 Ti", "RTX 3090"));
    CHECK(same_gpu("NVIDIA A100-SXM4-80GB", "A100 80GB SXM4"));
    CHECK_FALSE(same_gpu("NVIDIA A100-SXM4-80GB", "A100 40GB SXM4"));
    CHECK(same_gpu("NVIDIA H200", "H200"));
    CHECK(same_gpu("Tesla T4", "T4"));
    CHECK(same_gpu("NVIDIA GeForce RTX 3080", "RTX 3080 10GB"));  // the driver gives no size
    CHECK_FALSE(same_gpu("NVIDIA GeForce RTX 2080 Ti", "RTX 2080"));
    CHECK_FALSE(same_gpu("anything", ""));
}

TEST_CASE("a measured GPU is used as measured; another is mapped by memory bandwidth", "[calibration]") {
    const CalibrationProfile p = profile_of({result("cuda", "NVIDIA GeForce RTX 3090", "cifar10-tutorial", 256, 10000),
                                             result("cpu", "AMD EPYC", "cifar10-tutorial", 256, 3000)});
    const auto measured = gpu_throughput(p, "RTX 3090", "cifar10-tutorial", 256);
    REQUIRE(measured);
    CHECK(measured->samples_per_second == 10000);
    CHECK_FALSE(measured->mapped);
    CHECK_THAT(measured->origin, Catch::StartsWith("measured: profile.json"));

    // pricing/gpus.csv: H200 4,800 GB/s, RTX 3090 936 GB/s: 10,000 × 4800 / 936 = 51,282.05.
    const auto mapped = gpu_throughput(p, "H200", "cifar10-tutorial", 256);
    REQUIRE(mapped);
    CHECK(mapped->samples_per_second == Approx(51282.05).epsilon(1e-6));
    CHECK(mapped->mapped);
    CHECK(mapped->error_low == -0.28);
    CHECK(mapped->error_high == 0.19);
    CHECK_THAT(mapped->origin, Catch::Contains("expected error -28 % to +19 %"));

    CHECK_FALSE(gpu_throughput(p, "H200", "cifar10-tutorial", 4));  // no GPU measurement at batch 4
    CHECK_FALSE(gpu_throughput(p, "H200", "mlp", 256));
    CHECK(measured_gpu_batches(p, "cifar10-tutorial") == std::vector<int>{256});
}

TEST_CASE("the mapping starts from the measured GPU nearest in bandwidth", "[calibration]") {
    // A100 80GB SXM4 has 2,039 GB/s: |ln(2039/936)| = 0.778 < |ln(4800/2039)| = 0.856, so the 3090 is
    // the anchor: 10,000 × 2039 / 936 = 21,784.19.
    const CalibrationProfile p = profile_of({result("cuda", "NVIDIA H200", "mlp", 64, 90000),
                                             result("cuda", "NVIDIA GeForce RTX 3090", "mlp", 64, 10000)});
    const auto mapped = gpu_throughput(p, "A100 80GB SXM4", "mlp", 64);
    REQUIRE(mapped);
    CHECK(mapped->samples_per_second == Approx(21784.19).epsilon(1e-6));
    CHECK_THAT(mapped->origin, Catch::StartsWith("mapped from NVIDIA GeForce RTX 3090"));
}
