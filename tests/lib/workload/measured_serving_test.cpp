// Rates from a measured llm-decode profile, scaled to a catalog model by the predictor's bytes a decode
// step and FLOPs a prompt token: tests/fixtures/profiles/llm-decode-cpu.json's round figures by hand.
#include <catch2/catch.hpp>

#include "payback/base/error.hpp"
#include "payback/workload/measured_serving.hpp"
#include "support/input_errors.hpp"

using namespace payback;
using payback::test::input_error;

namespace {

const std::string fixture = PAYBACK_SOURCE_DIR "/tests/fixtures/profiles/llm-decode-cpu.json";

ServingPrediction serve(const CalibrationProfile& profile, const std::string& quant, int concurrency) {
    return serving_from_profile(profile, {.model = "llama-3.1-8b", .quant = quant, .context = 4096, .concurrency = concurrency},
                                ModelCatalog::shipped());
}

}  // namespace

TEST_CASE("a measured llm-decode run scaled to Llama 3.1 8B by hand", "[tokens][profile]") {
    const CalibrationProfile profile = read_profile(fixture);
    // The benchmark's model (12 layers, d_model 768, 12 heads of 64, 4 KV heads: kv_dim 256, FFN 2,048,
    // vocabulary 32,000): a layer's matrices 2 × 768² + 2 × 256 × 768 + 3 × 2,048 × 768 = 6,291,456
    // weights, × 12 + 32,000 × 768 = 100,073,472; at Q4_0's 4.5 bits 56,291,328 B. Its float32 cache at
    // context 512: 2 × 12 × 256 × 512 × 4 B = 12,582,912 B a sequence. Batch 1 at 200 tokens/s:
    // (56,291,328 + 12,582,912) B × 200 = 13.774848 GB/s achieved.
    // Llama 3.1 8B at Q4_0: the weights a token reads (8,030,261,248 less the input embedding's 128,256 ×
    // 4,096 = 7,504,924,672) × 4.5 / 8 = 4,221,520,128 B; its FP16 cache at 4,096: 2 × 32 × 8 × 128 × 4,096
    // × 2 B = 536,870,912 B. Decode: 13.774848e9 / 4,758,391,040 = 2.89485 tokens/s.
    // Prefill: the benchmark's 2 × 100,073,472 + 2 × 12 × 512 × 768 = 209,584,128 FLOPs a token × 2,000
    // tokens/s = 419.168256 GFLOP/s; Llama's 15,009,849,344 + 2 × 32 × 4,096 × 32 × 128 = 16,083,591,168
    // FLOPs a token: 26.0619 tokens/s.
    const ServingPrediction one = serve(profile, "q4_0", 1);
    CHECK(one.rates.decode == Approx(13.774848e9 / 4758391040.0));
    CHECK(one.rates.decode == Approx(2.89485).epsilon(1e-5));
    CHECK(one.rates.prefill == Approx(419168256000.0 / 16083591168.0));
    CHECK(one.rates.prefill == Approx(26.0619).epsilon(1e-5));
    CHECK(one.rates.predicted);  // derived, not given: a scenario written back names the profile instead
    CHECK_THAT(one.rates.origin, Catch::StartsWith("measured on Test CPU (profile " + fixture +
                                                   ": llm-decode, 12 layers, d_model 768, q4_0, batch 1, context 512"));
    CHECK_THAT(one.rates.origin, Catch::Contains("scaled to llama-3.1-8b q4_0"));
    CHECK_THAT(one.rates.origin, Catch::Contains("13.8 GB/s achieved"));
    CHECK_THAT(one.rates.origin, Catch::Contains("419 GFLOP/s achieved"));
    // The same quant keeps the predictor's decode band (-11 %/+46 %).
    CHECK(one.error_low == Approx(-0.1059));
    CHECK(one.error_high == Approx(0.4601));

    // Eight sequences at once take the batch-8 run: (56,291,328 + 8 × 12,582,912) B a step × 100 steps a
    // second = 15.6954624 GB/s; Llama's step 4,221,520,128 + 8 × 536,870,912 = 8,516,487,424 B:
    // 8 × 15.6954624e9 / 8,516,487,424 = 14.7436 tokens/s.
    const ServingPrediction eight = serve(profile, "q4_0", 8);
    CHECK(eight.rates.decode == Approx(8 * 15.6954624e9 / 8516487424.0));
    CHECK(eight.rates.decode == Approx(14.7436).epsilon(1e-5));
    CHECK_THAT(eight.rates.origin, Catch::Contains("batch 8"));
}

TEST_CASE("another quant is scaled by its bytes, with the wider error such scaling has", "[tokens][profile]") {
    // Q8_0's 8.5 bits: 7,504,924,672 × 8.5 / 8 = 7,973,982,464 B + 536,870,912 B of cache a step.
    const ServingPrediction q8 = serve(read_profile(fixture), "q8_0", 1);
    CHECK(q8.rates.decode == Approx(13.774848e9 / (7973982464.0 + 536870912.0)));
    CHECK(q8.error_low == Approx(-0.55));
    CHECK(q8.error_high == Approx(1.21));
}

TEST_CASE("the run whose batch is closest to the concurrency in ratio is chosen", "[tokens][profile]") {
    const CalibrationProfile profile = read_profile(fixture);
    const auto batch_for = [&](int concurrency) {
        return llm_decode_result(profile, {.model = "llama-3.1-8b", .quant = "q4_0", .context = 4096,
                                           .concurrency = concurrency}).batch;
    };
    CHECK(batch_for(1) == 1);
    CHECK(batch_for(2) == 1);   // |ln 2| < |ln 4|
    CHECK(batch_for(3) == 8);   // ln 8/3 = 0.98 < ln 3 = 1.10
    CHECK(batch_for(64) == 8);
}

TEST_CASE("a profile that cannot give token rates names its file and key", "[tokens][profile][errors]") {
    CalibrationProfile training = read_profile(fixture);
    std::erase_if(training.results, [](const BenchResult& b) { return b.workload == "llm-decode"; });
    const InputError no_llm = input_error([&] { (void)serve(training, "q4_0", 1); });
    CHECK(no_llm.source() == fixture);
    CHECK(no_llm.key_path() == "results");
    CHECK_THAT(no_llm.message(), Catch::Contains("holds no llm-decode result (it measured cifar10-tutorial)"));

    CalibrationProfile no_rate = read_profile(fixture);
    no_rate.results[1].tokens_per_second.reset();
    CHECK(input_error([&] { (void)serve(no_rate, "q4_0", 1); }).key_path() == "results[1].tokens_per_second");
    CalibrationProfile no_prefill = read_profile(fixture);
    no_prefill.results[2].prefill_tokens_per_second.reset();
    CHECK(input_error([&] { (void)serve(no_prefill, "q4_0", 8); }).key_path() == "results[2].prefill_tokens_per_second");
    CalibrationProfile no_shape = read_profile(fixture);
    no_shape.results[1].llm.reset();
    const InputError shape = input_error([&] { (void)serve(no_shape, "q4_0", 1); });
    CHECK(shape.key_path() == "results[1].llm");
    CHECK_THAT(shape.message(), Catch::Contains("payback bench --workload llm-decode"));
}

TEST_CASE("a profile records llm-decode's shape and reads it back", "[tokens][profile]") {
    const CalibrationProfile profile = read_profile(fixture);
    const CalibrationProfile again = parse_profile(to_json(profile), "again.json");
    REQUIRE(again.results[1].llm);
    CHECK(again.results[1].llm->layers == 12);
    CHECK(again.results[1].llm->kv_heads == 4);
    CHECK(again.results[1].llm->vocab == 32000);
    CHECK_FALSE(again.results[0].llm);  // a training run has none
    // A shape key that is not a whole number >= 1 is named.
    const std::string text = to_json(profile);
    const auto at = text.find("\"kv_heads\": 4");
    REQUIRE(at != std::string::npos);
    const std::string bad = text.substr(0, at) + "\"kv_heads\": 0" + text.substr(at + 13);
    CHECK(input_error([&] { (void)parse_profile(bad, "bad.json"); }).key_path() == "results[1].llm.kv_heads");
}
