// The predictor: the roofline by hand on two devices (with the fitted fractions of
// lib/src/workload/predictor_fit.cpp, today's values in the comments), the memory check against an
// 8 GB and a 12 GB card, a profile's measurement and its scaling, a model split over several GPUs
// against published multi-GPU tables, and bad input naming the argument.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "base/csv_reader.hpp"
#include "payback/base/error.hpp"
#include "payback/workload/predictor.hpp"
#include "support/input_errors.hpp"
#include "support/shipped_catalogs.hpp"
#include "support/temp_dir.hpp"
#include "workload/predictor_fit.hpp"

using namespace payback;
using Catch::Matchers::Contains;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

namespace {

const detail::FamilyFractions& family(const std::string& name) {
    const auto& families = detail::predictor_fit().families;
    const auto found = std::find_if(families.begin(), families.end(), [&](const auto& f) { return f.family == name; });
    REQUIRE(found != families.end());
    return *found;
}

// A training transformer's fitted factor against bert-base's (BERT-large's: 1.075 today).
double model_factor(const std::string& name) {
    const auto& factors = detail::predictor_fit().train_model_factor;
    const auto found = std::find_if(factors.begin(), factors.end(), [&](const auto& m) { return m.first == name; });
    REQUIRE(found != factors.end());
    return found->second;
}

Prediction run(const PredictRequest& request) { return predict(request, Catalog::shipped(), ModelCatalog::shipped()); }

InputError refused(const PredictRequest& request) { return test::input_error([&] { run(request); }); }

}  // namespace

TEST_CASE("decode on the RTX 4090 by hand: Llama 3 8B at Q4_0, 1024 tokens of context", "[predictor]") {
    const auto& ada = family("ada");
    // bytes a step: weights (8,030,261,248 less the input embedding's 128,256 × 4,096 = 525,336,576, of
    //             which a token reads one row) 7,504,924,672 × 4.5 / 8 = 4,221,520,128
    //             + KV cache 2 × 32 layers × 8 KV heads × 128 × 1024 tokens × 2 B = 134,217,728 → 4,355,737,856 B
    // at 1008 GB/s × 0.952 (ada's fitted fraction) = 959.8 GB/s: 4.538 ms; compute is far below
    // (15.5 GFLOP at 82.6 TFLOPS × 1.63 = 134 TFLOP/s: 0.116 ms); ada's fitted unpacking cost is 0;
    // + ada's overhead 3.218 ms × 0.4954 (what current llama.cpp CUDA builds pay of it) = 1.594 ms → 6.132 ms:
    // 163.1 tokens/s
    REQUIRE(*ada.decode_unpack_flops == 0);
    const double overhead = *ada.decode_overhead_s * detail::predictor_fit().decode_overhead_current;
    const double seconds = 4355737856.0 / (1008e9 * *ada.decode_bandwidth) + overhead;
    const Prediction p = run({.device = "RTX 4090", .workload = "llama-3-8b", .quant = "q4_0", .context = 1024});
    CHECK(p.tokens);
    CHECK(p.phase == "decode");
    CHECK_THAT(p.per_second, WithinRel(1 / seconds, 1e-9));
    CHECK_THAT(p.per_second, WithinRel(163.1, 0.001));
    CHECK_THAT(p.how, Contains("+ 1.59 ms a step (current llama.cpp CUDA)"));
    CHECK_FALSE(p.measured);
    CHECK(p.error_low < 0);
    CHECK(p.error_high > 0);
    // Four sequences at once read the weights once (4,221,520,128 B) and four KV caches (4 × 134,217,728 B):
    // 4.958 ms; one sequence's compute hides under that, the three others' add theirs: 3 × (15,009,849,344 FLOPs
    // a token + attention's 4 × 32 layers × 1024 × 4096 = 536,870,912) = 46,640,160,768 FLOPs at 82.6 TFLOPS × the
    // fitted share 0.423: 1.335 ms; + 1.594 ms overhead = 7.887 ms for 4 tokens: 507.2 tokens/s, 3.1× one sequence
    const double share = detail::predictor_fit().decode_batch_share;
    const Prediction four = run({.device = "RTX 4090", .workload = "llama-3-8b", .quant = "q4_0", .batch = 4, .context = 1024});
    const double four_seconds = (4221520128.0 + 4 * 134217728.0) / (1008e9 * *ada.decode_bandwidth) +
                                3 * (15009849344.0 + 536870912.0) / (82.6e12 * share) + overhead;
    CHECK_THAT(four.per_second, WithinRel(4 / four_seconds, 1e-9));
    CHECK_THAT(four.per_second, WithinRel(507.2, 0.001));
    CHECK_THAT(four.how, Contains("+ 1.33 ms computing 3 more sequences"));
    CHECK(four.per_second > 3 * p.per_second);
    CHECK(four.per_second < 4 * p.per_second);
}

TEST_CASE("decode on Apple silicon by hand: quantized weights cost unpacking, F16 weights do not", "[predictor]") {
    const auto& apple = family("apple");
    // M1 Max, Llama 3 8B at Q4_0, 1024 tokens: 4,355,737,856 B (as on the RTX 4090) at 400 GB/s × 0.922 = 368.8 GB/s:
    // 11.81 ms; unpacking the 7,504,924,672 weights read × 1.39 FP32 operations at 10.4 TFLOPS: 1.00 ms; + apple's
    // overhead 5.86 ms = 18.67 ms: 53.6 tokens/s (compute, 15.5 GFLOP at 10.4 × 0.83 TFLOP/s = 1.8 ms, is below)
    const double memory = 4355737856.0 / (400e9 * *apple.decode_bandwidth);
    const double unpack = 7504924672.0 * *apple.decode_unpack_flops / 10.4e12;
    const Prediction q4 = run({.device = "Apple M1 Max", .workload = "llama-3-8b", .quant = "q4_0", .context = 1024});
    CHECK_THAT(q4.per_second, WithinRel(1 / (memory + unpack + *apple.decode_overhead_s), 1e-9));
    CHECK_THAT(q4.per_second, WithinRel(53.6, 0.01));
    CHECK_THAT(q4.how, Contains("unpacking q4_0"));
    // F16: 15,009,849,344 + 134,217,728 B at 368.8 GB/s = 41.06 ms, no unpacking, + 5.86 ms: 21.3 tokens/s
    const Prediction f16 = run({.device = "Apple M1 Max", .workload = "llama-3-8b", .quant = "f16", .context = 1024});
    CHECK_THAT(f16.per_second,
               WithinRel(1 / ((15009849344.0 + 134217728.0) / (400e9 * *apple.decode_bandwidth) + *apple.decode_overhead_s),
                         1e-9));
    // The M3 Max has no FLOPs in gpus.csv: its 400 GB/s times apple's FLOPs per byte (the median of the M1 Max's
    // 10.4 TFLOPS / 400 GB/s = 26 and the M2 Ultra's 27.2 / 800 = 34: 30) = 12 TFLOPS unpack: 0.87 ms
    CHECK(*apple.flops_per_byte == 30);
    const Prediction m3 = run({.device = "Apple M3 Max", .workload = "llama-3-8b", .quant = "q4_0", .context = 1024});
    CHECK_THAT(m3.per_second, WithinRel(1 / (memory + 7504924672.0 * *apple.decode_unpack_flops / 12e12 +
                                             *apple.decode_overhead_s), 1e-9));
}

TEST_CASE("prefill on a device gpus.csv gives no FP32 figure: its bandwidth at its family's FLOPs a byte",
          "[predictor]") {
    const auto& apple = family("apple");
    const auto& fit = detail::predictor_fit();
    // M3 Max, Llama 3 8B at F16, a 512-token prompt: 15,009,849,344 FLOP a token (models.csv) + attention
    // 2 × 32 layers × 512 × 4,096 = 134,217,728 → 15,144,067,072 FLOP; at 400 GB/s × 30 FLOP a byte = 12 TFLOPS
    // × 0.833 (apple's prefill fraction) = 10.0 TFLOP/s: 1.514 ms, 660.3 tokens/s. (The weights' 15.0 GB once a
    // 512-token micro-batch at 368.8 GB/s is 0.08 ms a token: compute bound.)
    const Prediction p = run({.device = "Apple M3 Max", .workload = "llama-3-8b", .phase = "prefill", .context = 512});
    CHECK_THAT(p.per_second, WithinRel(12e12 * *apple.prefill / 15144067072.0, 1e-9));
    CHECK_THAT(p.per_second, WithinRel(660.3, 0.001));
    CHECK_THAT(p.how, Contains("no FP32 figure published: 12.0 TFLOPS from its bandwidth"));
    // The stand-in's own error (the M3 Max's four prefill rows in the llama-bench table, not fitted on: -44.8 % to
    // -13.5 %) widens the phase's held-out range (-27.2 % to +54.9 %) to -44.8 % to +54.9 %
    CHECK_THAT(fit.prefill_without_fp32.low, WithinRel(-0.448, 0.002));
    CHECK(p.error_low == fit.prefill_without_fp32.low);
    CHECK(p.error_high == fit.prefill.high);
    // The M1 Max, whose 10.4 TFLOPS Apple published, keeps the phase's range
    const Prediction m1 = run({.device = "Apple M1 Max", .workload = "llama-3-8b", .phase = "prefill", .context = 512});
    CHECK_THAT(m1.per_second, WithinRel(10.4e12 * *apple.prefill / 15144067072.0, 1e-9));
    CHECK(m1.error_low == fit.prefill.low);
    CHECK_THAT(m1.how, !Contains("no FP32 figure"));
}

TEST_CASE("training on the H100 SXM by hand: BERT-large at sequence 384, mixed precision", "[predictor]") {
    const auto& hopper = family("hopper");
    const double bert_large = model_factor("bert-large");
    // 66.91 TFLOPS FP32 × 1.167 (hopper, mixed precision) × 2.796 (hopper's transformers against ResNet-50)
    // × 1.075 (BERT-large against BERT-base) = 234.7 TFLOP/s achievable (its 700 W ÷ 66.91 TFLOPS = 10.46 W
    // a TFLOP is hopper's median, so no power-limit factor; full-rate tensor cores); 739,271,245,824 FLOP a
    // sample (models.csv) → 317.4 samples/s. The weights' traffic, 3 × 335,141,888 × 2 B at batch 256 = 7.9 MB a
    // sample, takes 2.2 µs at 3350 GB/s: compute bound.
    const double expected =
        66.91e12 * *hopper.train_fp16 * *hopper.train_transformer * bert_large / 739271245824.0;
    const Prediction p = run({.device = "H100 SXM", .workload = "bert-large", .batch = 256});
    CHECK_FALSE(p.tokens);
    CHECK(p.phase == "train");
    CHECK(p.precision == "fp16");
    CHECK(p.quant.empty());
    CHECK_THAT(p.per_second, WithinRel(expected, 1e-9));
    CHECK_THAT(p.per_second, WithinRel(317.4, 0.001));
    // Lambda measured 311 (held out of the fit): within the stated expected error
    CHECK(311 * (1 + p.error_low) <= p.per_second);
    CHECK(p.per_second <= 311 * (1 + p.error_high));
    // FP32 (TF32) uses hopper's FP32 fraction, 0.794 against 1.167: slower
    const Prediction fp32 = run({.device = "H100 SXM", .workload = "bert-large", .precision = "fp32", .batch = 256});
    CHECK_THAT(fp32.per_second, WithinRel(expected * *hopper.train_fp32 / *hopper.train_fp16, 1e-9));
}

TEST_CASE("training on GeForce by hand: its tensor cores accumulate FP32 at half rate, the Titan RTX's at full",
          "[predictor]") {
    const auto& turing = family("turing");
    const auto& fit = detail::predictor_fit();
    const double bert_large = model_factor("bert-large");
    // RTX 2080 Ti (gpus.csv tensor_fp32_accumulate = half): 13.45 TFLOPS FP32 x 1.209 (turing, mixed precision)
    // x 1.657 (turing's transformers) x 1.075 (BERT-large) x 0.708 (half rate) = 20.52 TFLOP/s achievable;
    // 739,271,245,824 FLOP a sample -> 27.76 samples/s. The Titan RTX (full rate), same family and chip:
    // 16.3 x 1.209 x 1.657 x 1.075 = 35.11 TFLOP/s -> 47.49 samples/s. Neither is power-limited: 250 W ÷ 13.45
    // and 280 W ÷ 16.3 TFLOPS are 18.6 and 17.2 W a TFLOP, above turing's median 16.6.
    REQUIRE(fit.train_half_rate_factor < 1);
    const double per_tflop = 1e12 * *turing.train_fp16 * *turing.train_transformer * bert_large / 739271245824.0;
    const Prediction geforce = run({.device = "RTX 2080 Ti", .workload = "bert-large", .batch = 32});
    const Prediction titan = run({.device = "Titan RTX", .workload = "bert-large", .batch = 32});
    CHECK_THAT(geforce.per_second, WithinRel(13.45 * per_tflop * fit.train_half_rate_factor, 1e-9));
    CHECK_THAT(geforce.per_second, WithinRel(27.76, 0.001));
    CHECK_THAT(geforce.how, Contains("tensor cores accumulating FP32 at half rate"));
    CHECK_THAT(titan.per_second, WithinRel(16.3 * per_tflop, 1e-9));
    CHECK_THAT(titan.per_second, WithinRel(47.49, 0.001));
    CHECK_THAT(titan.how, !Contains("half rate"));
    // The factor is for a transformer in mixed precision: ResNet-50 (convolutions) and FP32 (TF32 or plain
    // FP32, no FP16 tensor math) go by FP32 peak alone, 13.45 / 16.3 = 0.825 of the Titan's.
    for (const auto& [workload, precision] : {std::pair{"resnet50", "fp16"}, std::pair{"bert-large", "fp32"}}) {
        INFO(workload << " " << precision);
        const Prediction g = run({.device = "RTX 2080 Ti", .workload = workload, .precision = precision, .batch = 32});
        const Prediction t = run({.device = "Titan RTX", .workload = workload, .precision = precision, .batch = 32});
        CHECK_THAT(g.per_second / t.per_second, WithinRel(13.45 / 16.3, 1e-9));
    }
}

TEST_CASE("training on a power-limited card by hand: the 250 W A100 PCIe against the 400 W SXM4 module",
          "[predictor]") {
    const auto& fit = detail::predictor_fit();
    const auto& a100 = family("ampere-datacenter");
    // Both are 19.49 TFLOPS FP32. The PCIe card's 250 W ÷ 19.49 = 12.83 W a TFLOP against its family's median
    // 17.96 (written by the fit): 0.714, to the fitted exponent 0.568 = 0.826 of the SXM4's, whose 400 W ÷
    // 19.49 = 20.5 is above the median and capped at 1.
    REQUIRE(*a100.watts_per_tflop > 12.83);
    REQUIRE(*a100.watts_per_tflop < 20.5);
    const double factor = std::pow(250 / 19.49 / *a100.watts_per_tflop, fit.train_power_exponent);
    CHECK_THAT(factor, WithinRel(0.826, 0.001));
    for (const char* workload : {"resnet50", "bert-base"}) {
        INFO(workload);
        const Prediction pcie = run({.device = "A100 40GB PCIe", .workload = workload, .batch = 64});
        const Prediction sxm = run({.device = "A100 40GB SXM4", .workload = workload, .batch = 64});
        CHECK_THAT(pcie.per_second / sxm.per_second, WithinRel(factor, 1e-9));
        CHECK_THAT(pcie.how, Contains("× 0.83 for a power limit low for its peak"));
        CHECK_THAT(sxm.how, !Contains("power limit"));
    }
    // More power than the family's usual buys nothing: the GH200's 1,000 W (which feed its CPU too) count as
    // the H100 SXM's 700 W, so per FP32 TFLOP the two are predicted alike (67 and 66.91 TFLOPS).
    const Prediction gh200 = run({.device = "GH200", .workload = "bert-base", .batch = 64});
    const Prediction h100 = run({.device = "H100 SXM", .workload = "bert-base", .batch = 64});
    CHECK_THAT(gh200.per_second / h100.per_second, WithinRel(67 / 66.91, 1e-9));
}

TEST_CASE("a family without data by hand: training per byte of bandwidth, and the error of families left out",
          "[predictor]") {
    const auto& fit = detail::predictor_fit();
    const auto& blackwell = family("blackwell");
    // No GeForce Blackwell card is in Lambda's tables. The RTX 5090: 1792 GB/s × 21.37 FLOP a byte (the measured
    // families' geometric mean, written by the fit) = 38.30 TFLOP/s; its 575 W ÷ 104.9 TFLOPS = 5.481 W a TFLOP
    // against blackwell's median 5.938: 0.923 to the power 0.568 = 0.956 → 36.60 TFLOP/s; ResNet-50's
    // 24,535,105,536 FLOP a sample → 1,492 samples/s. (A fraction of FP32 peak, the measured families' mean 0.94
    // of its 104.9 TFLOPS, said 3,849: three times the RTX 4090's 1,299.)
    REQUIRE_FALSE(blackwell.train_fp16);
    const double power = std::pow(575 / 104.9 / *blackwell.watts_per_tflop, fit.train_power_exponent);
    CHECK_THAT(power, WithinRel(0.956, 0.001));
    const Prediction p = run({.device = "RTX 5090", .workload = "resnet50", .batch = 64});
    CHECK_THAT(p.per_second, WithinRel(1792e9 * fit.train_fp16_flops_per_byte * power / 24535105536.0, 1e-9));
    CHECK_THAT(p.per_second, WithinRel(1492, 0.001));
    CHECK_FALSE(p.family_fitted);
    CHECK(p.error_low == fit.train_unfitted.low);
    CHECK(p.error_high == fit.train_unfitted.high);
    CHECK_THAT(p.how, Contains("no blackwell device was measured for train"));
    // A measured family keeps its own fraction and its held-out error.
    const Prediction ada = run({.device = "RTX 4090", .workload = "resnet50", .batch = 64});
    CHECK(ada.family_fitted);
    CHECK(ada.error_high == fit.train.high);
    CHECK_THAT(ada.how, !Contains("was measured"));
    // Decode: no Volta device is in the llama-bench tables, so the V100 reads at the families' mean fraction and
    // overhead, with their error: Llama 3 8B at F16, context 1024: 7,504,924,672 × 2 B + 134,217,728 B of cache =
    // 15,144,067,072 B at 897 GB/s × 0.918 = 823.5 GB/s: 18.39 ms + 4.91 ms × 0.4954 (current CUDA builds) =
    // 20.82 ms: 48.0 tokens/s.
    const Prediction v100 = run({.device = "V100 16GB", .workload = "llama-3-8b", .context = 1024});
    CHECK_FALSE(v100.family_fitted);
    CHECK_THAT(v100.per_second, WithinRel(1 / (15144067072.0 / (897e9 * *fit.fallback.decode_bandwidth) +
                                               *fit.fallback.decode_overhead_s * fit.decode_overhead_current), 1e-9));
    CHECK_THAT(v100.per_second, WithinRel(48.0, 0.002));
    CHECK(v100.error_low == fit.decode_unfitted.low);
    CHECK(v100.error_high == fit.decode_unfitted.high);
    // Families left out are predicted worse than the held-out devices of measured ones, in every phase (today:
    // training median 19.4 % against 6.2 %, prefill 20.8 % against 19.3 %, decode 14.7 % against 4.0 %).
    for (const auto& [measured, unfitted] : {std::pair{fit.train, fit.train_unfitted}, std::pair{fit.prefill, fit.prefill_unfitted},
                                             std::pair{fit.decode, fit.decode_unfitted}}) {
        CHECK(unfitted.median_abs > measured.median_abs);
        CHECK(unfitted.worst_abs > measured.worst_abs);
    }
}

TEST_CASE("families the fit never saw, against newer llama.cpp: the GB10 decoding, batched and prompting, the RX 7900 XTX",
          "[predictor]") {
    // tests/fixtures/predictor/llama-bench-unfitted.csv: llama.cpp's own benches/dgx-spark.md (November 2025) and a
    // ROCm table in llama.cpp pull request 26284; neither family (blackwell, rdna3) has a row in the fitted data. A
    // tgN test at depth d decodes N tokens after d, an average context of d + N/2. Today: the GB10 +5.3 %, +6.1 %,
    // +6.4 %, +6.6 % and +10.4 % from depth 0 to 32,768; the RX 7900 XTX (ROCm: no current-CUDA overhead) -6.1 %
    // and -5.1 %. gpt-oss 20B and 120B on the GB10 in their own format (experts in MXFP4, the rest in Q8_0), every
    // other layer's cache 128 tokens: -6.2 % to +5.1 % and +2.1 % to +12.8 % from depth 0 to 32,768. llama-batched-bench's B
    // sequences (a prompt of 512, 4,096 or 8,192 tokens each, then 32 tokens: context 528, 4,112 or 8,208) read the
    // weights once a step for all B, and each beyond the first adds its compute, up to 8 at the share fitted to an
    // RTX 3090, beyond at a prompt's: +8.8 %, +6.0 %, -0.4 %, +7.6 %, +5.6 % at B = 2 to 32 and context 528
    // (reading the weights once alone said +12 % to +49 %), +1.4 % to +9.7 % at 4,112, +1.5 % to +10.2 % at 8,208,
    // where 32 caches are 15.1 GB a step against 7.5 GB of weights; these rows are among the fit's batched checks.
    // A ppN test at depth d evaluates tokens d to d + N, whose attention the prefill roofline counts at the average
    // position context / 2: context 2d + N. Prompts are predicted from FP32 peak, and these two run theirs below
    // what the fitted NVIDIA families get from it: the GB10 +46 %, +43 %, +42 %, +39 %, +36 %, the RX 7900 XTX
    // (whose 61.4 TFLOPS count RDNA 3's dual issue) +93 %: inside the unfitted range, within a factor 2.
    const auto table = detail::CsvTable::load(PAYBACK_SOURCE_DIR "/tests/fixtures/predictor/llama-bench-unfitted.csv");
    REQUIRE(table.rows() == 38);
    std::map<int, std::pair<double, double>> gb10_prefill;  // depth: published, predicted
    std::vector<double> batched_errors;
    for (std::size_t i = 0; i < table.rows(); ++i) {
        const double measured = table.number(i, "tokens_per_second");
        const bool prefill = table.text(i, "phase") == "prefill";
        const int depth = static_cast<int>(table.number(i, "depth"));
        const int tokens = static_cast<int>(table.number(i, "tokens"));
        const int batch = static_cast<int>(table.number(i, "batch"));
        const int context = prefill ? 2 * depth + tokens : depth + tokens / 2;
        const Prediction p = run({.device = table.text(i, "device"), .workload = table.text(i, "model"),
                                  .quant = table.text(i, "quant"), .phase = table.text(i, "phase"), .batch = batch,
                                  .context = context});
        INFO(p.device << ", " << p.workload << " " << p.quant << " " << p.phase << " at context " << context << ", batch "
                      << batch << ": published " << measured << ", predicted " << p.per_second);
        CHECK_FALSE(p.family_fitted);
        CHECK(measured * (1 + p.error_low) <= p.per_second);
        CHECK(p.per_second <= measured * (1 + p.error_high));
        const double error = p.per_second / measured - 1;
        CHECK(std::abs(error) < (prefill ? 1.0 : 0.13));
        if (batch > 1) batched_errors.push_back(error);
        if (prefill && p.device == "GB10 DGX Spark") gb10_prefill[depth] = {measured, p.per_second};
    }
    // Inside the batched error the fit states; the highest of its checks is the GB10's two sequences at 8,208
    REQUIRE(batched_errors.size() == 15);
    const auto [lowest, highest] = std::minmax_element(batched_errors.begin(), batched_errors.end());
    CHECK(*lowest >= detail::predictor_fit().decode_batched.low);
    CHECK_THAT(*highest, WithinAbs(detail::predictor_fit().decode_batched.high, 0.002));
    // What the context costs a prompt is the attention term's: from depth 0 to 32,768 the published rate falls to
    // 1,283.36 / 2,276.28 = 0.564 of itself, the predicted to 0.525.
    REQUIRE(gb10_prefill.size() == 5);
    const auto& [first_published, first_predicted] = gb10_prefill.at(0);
    const auto& [last_published, last_predicted] = gb10_prefill.at(32768);
    CHECK_THAT(last_predicted / first_predicted, WithinRel(last_published / first_published, 0.10));
}

TEST_CASE("current llama.cpp's decode overhead: the share r of the 2023-24 overhead that 2025 CUDA rows leave",
          "[predictor]") {
    // tests/fixtures/predictor/llama-bench-current.csv: a 512-token prompt in micro-batches of 1 decodes a token at a
    // time and computes the output head for the last token only, so each token reads the matrices less the input
    // embedding and the output head (2 × 128,256 × 4,096 = 1,050,673,152 of Llama 3 8B's 8,030,261,248):
    // 6,979,588,096 × 4.5 / 8 = 3,926,018,304 B, and a KV cache of 131,072 B a token of context (depth + 256).
    // RTX 3090 at depth 0: + 33,554,432 B = 3,959,572,736 B at 936 GB/s × 0.915 (ampere) = 4.623 ms; the published
    // 155.02 tokens/s is 6.451 ms: 1.828 ms left against ampere's 3.680 ms, 0.497. RTX 4090 at depth 32,768:
    // + 4,328,521,728 B = 8,254,540,032 B at 959.8 GB/s = 8.600 ms; 98.14 tokens/s is 10.190 ms: 1.590 ms against
    // ada's 3.218 ms, 0.494. r is their geometric mean, 0.4954.
    const auto table = detail::CsvTable::load(PAYBACK_SOURCE_DIR "/tests/fixtures/predictor/llama-bench-current.csv");
    double log_sum = 0;
    int one_token_rows = 0;
    for (std::size_t i = 0; i < table.rows(); ++i) {
        if (table.number(i, "ubatch") != 1) continue;  // several tokens a step: the next test
        ++one_token_rows;
        const GpuSpec& gpu = Catalog::shipped().gpu(table.text(i, "device"));
        const auto& f = family(gpu.architecture);
        REQUIRE(table.text(i, "model") == "llama-3-8b");
        REQUIRE(table.text(i, "quant") == "q4_0");
        REQUIRE(*f.decode_unpack_flops == 0);
        const double context = table.number(i, "depth") + table.number(i, "prompt") / 2;
        const double bytes = 3926018304.0 + 131072.0 * context;
        const double left = 1 / table.number(i, "tokens_per_second") - bytes / (*gpu.memory_bandwidth_gb_s * 1e9 * *f.decode_bandwidth);
        log_sum += std::log(left / *f.decode_overhead_s);
        CHECK_THAT(left / *f.decode_overhead_s, WithinRel(gpu.name == "RTX 3090" ? 0.497 : 0.494, 0.002));
    }
    REQUIRE(one_token_rows == 2);
    CHECK_THAT(detail::predictor_fit().decode_overhead_current, WithinRel(std::exp(log_sum / 2), 1e-5));
    // NVIDIA devices pay it, others not: the M1 Max's overhead is its family's as fitted (the first Apple test)
    CHECK_THAT(run({.device = "Apple M1 Max", .workload = "llama-3-8b", .context = 1024}).how, !Contains("current llama.cpp"));
}

TEST_CASE("several sequences at once: each beyond the first adds its compute, up to 8 at a share fitted to a 3090",
          "[predictor]") {
    // llama.cpp decodes k sequences as one micro-batch of k tokens, with the kernels a prompt evaluated k tokens a
    // step runs; tests/fixtures/predictor/llama-bench-current.csv has the RTX 3090's at k = 2 to 8 (pull request
    // 15802), which the share of FP32 peak for tokens 2 to 8 is fitted to: 0.423. At batch 8 and context 256: the
    // weights once, 7,504,924,672 × 4.5 / 8 = 4,221,520,128 B, + 8 caches of 33,554,432 B = 4,489,955,584 B at
    // 936 GB/s × 0.915 (ampere) = 5.242 ms, under which one sequence's compute hides; the 7 others' add 7 ×
    // (15,009,849,344 + 4 × 32 × 256 × 4,096) = 106,008,469,504 FLOPs at 35.58 TFLOPS × 0.423 = 15.05 TFLOP/s,
    // 7.044 ms; + 3.680 ms × 0.4954 = 1.823 ms → 14.109 ms: 567.0 tokens/s, where the one-prompt micro-batch of 8
    // published 570.67: -0.6 % (reading the weights once alone said 1,132.4, +98.4 %).
    const auto& ampere = family("ampere");
    const auto& fit = detail::predictor_fit();
    CHECK_THAT(fit.decode_batch_share, WithinAbs(0.423, 0.0005));
    const double memory = 4489955584.0 / (936e9 * *ampere.decode_bandwidth);
    const double overhead = *ampere.decode_overhead_s * fit.decode_overhead_current;
    const double seconds = memory + 106008469504.0 / (35.58e12 * fit.decode_batch_share) + overhead;
    const Prediction eight = run({.device = "RTX 3090", .workload = "llama-3-8b", .quant = "q4_0", .batch = 8, .context = 256});
    CHECK_THAT(eight.per_second, WithinRel(8 / seconds, 1e-9));
    CHECK_THAT(eight.per_second / 570.67 - 1, WithinAbs(-0.006, 0.001));
    // Beyond 8, the matrix kernels a prompt uses: at 64, the 56 further sequences' 848,067,756,032 FLOPs at ampere's
    // prompt share, 2.039 × 0.778 (quantized) of 35.58 TFLOPS = 56.45 TFLOP/s: 15.02 ms, + the 7 at 0.423 (7.044 ms)
    // + 64 caches (4,221,520,128 + 64 × 33,554,432 B at 856.6 GB/s: 7.435 ms) + 1.823 ms = 31.32 ms: 2,043 tokens/s
    const Prediction many = run({.device = "RTX 3090", .workload = "llama-3-8b", .quant = "q4_0", .batch = 64, .context = 256});
    const double prompt_share = *ampere.prefill * fit.prefill_quantized_factor;
    const double many_seconds = (4221520128.0 + 64 * 33554432.0) / (936e9 * *ampere.decode_bandwidth) +
                                106008469504.0 / (35.58e12 * fit.decode_batch_share) +
                                848067756032.0 / (35.58e12 * prompt_share) + overhead;
    CHECK_THAT(many.per_second, WithinRel(64 / many_seconds, 1e-9));
    CHECK_THAT(many.per_second, WithinRel(2043.1, 0.001));
    // Checked on rows not fitted on: the GB10's llama-batched-bench at 2 to 32 sequences and contexts of 528 to
    // 8,208 (two tests on), an RTX 4090's prompt in micro-batches of 16 to 512 (the next test) and an M1 Pro's of 2
    // to 4 (Metal, after it): -11.1 % to +10.2 %; a prediction of several sequences states the wider of that and
    // decode's
    CHECK_THAT(fit.decode_batched.low, WithinAbs(-0.111, 0.001));
    CHECK_THAT(fit.decode_batched.high, WithinAbs(0.102, 0.001));
    CHECK(eight.error_low == std::min(fit.decode.low, fit.decode_batched.low));
    CHECK(eight.error_high == std::max(fit.decode.high, fit.decode_batched.high));
    CHECK(many.error_low == eight.error_low);
    // One sequence keeps the held-out range
    const Prediction one = run({.device = "RTX 3090", .workload = "llama-3-8b", .quant = "q4_0", .context = 256});
    CHECK(one.error_low == fit.decode.low);
    CHECK(one.error_high == fit.decode.high);
    // More sequences never lower the tokens a second
    double previous_rate = one.per_second;
    for (int batch = 2; batch <= 4096; batch *= 2) {
        const Prediction p = run({.device = "RTX 3090", .workload = "llama-3-8b", .quant = "q4_0", .batch = batch, .context = 256});
        INFO("batch " << batch << ": " << p.per_second);
        CHECK(p.per_second > previous_rate);
        previous_rate = p.per_second;
    }
}

TEST_CASE("a prompt in micro-batches of 16 to 512 on an RTX 4090 (2024): the tokens beyond 8 at a prompt's share",
          "[predictor]") {
    // tests/fixtures/predictor/llama-bench-microbatch-2024.csv: Llama 3 8B Q4_0 pp512 in micro-batches of k, pull
    // request 7676's master column (June 2024, the software the fractions were fitted to: ada's whole overhead,
    // 3.218 ms). One sequence: every matrix but the output head, 6,979,588,096 × 4.5 / 8 = 3,926,018,304 B, and its
    // cache at context 256, 33,554,432 B, once a step: 4.125 ms at 959.8 GB/s. A token's FLOPs without the head:
    // 15,009,849,344 − 2 × 525,336,576 + 4 × 32 × 256 × 4,096 = 14,093,389,824; 7 at 82.6 TFLOPS × 0.423, 2.824 ms;
    // k − 8 at ada's prompt share 1.626 × 0.778 of 82.6 = 104.5 TFLOP/s, 0.1348 ms each. k = 16: 4.125 + 2.824 +
    // 8 × 0.1348 + 3.218 = 11.246 ms, 1,422.7 tokens/s (published 1,601.20: -11.1 %); k = 512: 4.125 + 2.824 +
    // 504 × 0.1348 + 3.218 = 78.12 ms, 6,554 (6,279.91: +4.4 %).
    const auto& ada = family("ada");
    const auto& fit = detail::predictor_fit();
    const double token_flops = 15009849344.0 - 2 * 525336576.0 + 4.0 * 32 * 256 * 4096;
    const auto predicted = [&](int k) {
        return k / ((3926018304.0 + 33554432.0) / (1008e9 * *ada.decode_bandwidth) +
                    7 * token_flops / (82.6e12 * fit.decode_batch_share) +
                    (k - 8) * token_flops / (82.6e12 * *ada.prefill * fit.prefill_quantized_factor) + *ada.decode_overhead_s);
    };
    CHECK_THAT(predicted(16), WithinRel(1422.7, 0.001));
    CHECK_THAT(predicted(512), WithinRel(6554.0, 0.001));
    const auto table = detail::CsvTable::load(PAYBACK_SOURCE_DIR "/tests/fixtures/predictor/llama-bench-microbatch-2024.csv");
    REQUIRE(table.rows() == 6);
    for (std::size_t i = 0; i < table.rows(); ++i) {
        const int k = static_cast<int>(table.number(i, "ubatch"));
        const double error = predicted(k) / table.number(i, "tokens_per_second") - 1;
        INFO("micro-batch " << k << ": " << error);
        CHECK(error >= fit.decode_batched.low - 1e-4);
        CHECK(error <= fit.decode_batched.high + 1e-4);
    }
    CHECK_THAT(predicted(16) / 1601.20 - 1, WithinAbs(fit.decode_batched.low, 0.001));  // the checked rows' lowest
}

TEST_CASE("several sequences on Apple's GPUs: Metal reads the weights again for each, checked on an M1 Pro",
          "[predictor]") {
    // tests/fixtures/predictor/llama-bench-metal-2024.csv: an M1 Pro's prompts of 1 to 4 tokens in one step, LLaMA 2
    // 13B at Q4_0 and Q8_0 (llama.cpp pull request 10491, November 2024). Metal's kernels for a few tokens pass over
    // the weights once for each: the M1 Pro's 4 tokens at Q4_0 took 4 / 25.55 = 156.6 ms against 1 / 21.24 = 47.1 ms
    // for one, 36.5 ms more a token, where a read of its 7,229,263,680 B of weights at 200 GB/s is 36.1 ms (the CUDA
    // share b in its place said 50.96 tokens/s, +99.5 %). By hand at batch 4, context 4: the weights
    // (13,015,864,320 − 32,000 × 5,120 = 12,852,024,320 × 4.5 / 8 B) and 4 caches of 2 × 40 × 40 × 128 × 4 × 2 =
    // 3,276,800 B, 7,242,370,880 B at 200 GB/s × 0.922 (apple) = 39.27 ms; 3 more reads of the weights, 3 × 39.20 ms;
    // unpacking 12,852,024,320 weights × 1.39 at 6.0 TFLOPS (no FP32 figure: 200 GB/s × apple's 30 FLOPs a byte),
    // 2.97 ms; apple's overhead 5.86 ms (no current-CUDA share): 165.7 ms, 24.14 tokens/s (published 25.55: -5.5 %).
    const auto& apple = family("apple");
    const auto& fit = detail::predictor_fit();
    const double bandwidth = 200e9 * *apple.decode_bandwidth;
    const double weights = 12852024320.0 * 4.5 / 8;
    const double seconds = (weights + 4 * 3276800.0) / bandwidth + 3 * weights / bandwidth +
                           12852024320.0 * *apple.decode_unpack_flops / 6e12 + *apple.decode_overhead_s;
    const Prediction four = run({.device = "Apple M1 Pro", .workload = "llama-2-13b", .quant = "q4_0", .batch = 4, .context = 4});
    CHECK_THAT(four.per_second, WithinRel(4 / seconds, 1e-9));
    CHECK_THAT(four.per_second, WithinRel(24.14, 0.001));
    CHECK_THAT(four.how, Contains("Metal reads the weights again"));
    // Every row within the error a prediction states: one token the decode fit's, several the batched checks'
    // (these rows are among them: -3.6 % to -5.5 %)
    const auto table = detail::CsvTable::load(PAYBACK_SOURCE_DIR "/tests/fixtures/predictor/llama-bench-metal-2024.csv");
    REQUIRE(table.rows() == 8);
    for (std::size_t i = 0; i < table.rows(); ++i) {
        const int tokens = static_cast<int>(table.number(i, "tokens"));
        const Prediction p = run({.device = "Apple M1 Pro", .workload = table.text(i, "model"),
                                  .quant = table.text(i, "quant"), .batch = tokens, .context = std::max(1, tokens / 2)});
        const double error = p.per_second / table.number(i, "tokens_per_second") - 1;
        INFO(p.quant << ", " << tokens << " tokens a step: " << error);
        CHECK(p.family_fitted);
        CHECK(error >= p.error_low);
        CHECK(error <= p.error_high);
        CHECK(std::abs(error) < 0.06);
        if (tokens > 1) {
            CHECK(error >= fit.decode_batched.low);
            CHECK(error <= fit.decode_batched.high);
        }
    }
    // More sequences still never lower the tokens a second, past the 8 Metal reads the weights for
    double previous_rate = run({.device = "Apple M2 Ultra", .workload = "llama-3-8b", .quant = "q4_0", .context = 256}).per_second;
    for (int batch = 2; batch <= 64; ++batch) {
        const Prediction p = run({.device = "Apple M2 Ultra", .workload = "llama-3-8b", .quant = "q4_0", .batch = batch, .context = 256});
        INFO("batch " << batch << ": " << p.per_second);
        CHECK(p.per_second > previous_rate);
        previous_rate = p.per_second;
    }
}

TEST_CASE("gpt-oss by hand on the GB10: its own format, and the experts each sequence reads", "[predictor]") {
    // gpt-oss-20b at mxfp4 (the experts in MXFP4, 4.25 bits; the rest in Q8_0, 8.5): a token reads the 1,218,690,624
    // matrices outside the experts, 1,294,858,788 B, and 2,391,309,376 expert weights, 1,270,383,106 B; with a cache
    // of 2 × 24 × 8 × 64 × 16 × 2 = 786,432 B at context 16, 2,566,028,326 B at 273 GB/s × the fallback's 0.918
    // (no blackwell device measured for decode) = 10.24 ms, + the fallback's overhead × 0.495 (current CUDA), 2.43 ms:
    // 78.9 tokens/s, where llama.cpp's benches/dgx-spark.md published 84.10 (tg32, -6.2 %). Before mxfp4, --quant q4_0
    // read all of them at 4.5 bits: 2.03 GB, 94 tokens/s at context 528 against 81.11 (+16 %).
    const auto& fit = detail::predictor_fit();
    const double bandwidth = 273e9 * *fit.fallback.decode_bandwidth;
    const double overhead = *fit.fallback.decode_overhead_s * fit.decode_overhead_current;
    const double shared = 1218690624.0 * 8.5 / 8, experts = 2391309376.0 * 4.25 / 8;
    const Prediction one = run({.device = "GB10 DGX Spark", .workload = "gpt-oss-20b", .quant = "mxfp4", .context = 16});
    CHECK_THAT(one.per_second, WithinRel(1 / ((shared + experts + 786432.0) / bandwidth + overhead), 1e-9));
    CHECK_THAT(one.per_second, WithinRel(78.9, 0.001));
    // Four sequences read the shared matrices once and the experts any of them routes to: 32 × (1 − (7/8)^4) = 13.24
    // of 32 a layer, 7,916,541,782 weights, 4,205,662,822 B (four tokens' own would be 16, 5.08 GB), with their
    // compute as any model's: 1,294,858,788 + 4,205,662,822 + 4 × 786,432 B = 5.50 GB a step
    const Prediction four = run({.device = "GB10 DGX Spark", .workload = "gpt-oss-20b", .quant = "mxfp4", .batch = 4, .context = 16});
    CHECK_THAT(four.how, Contains("5.50 GB a step"));
    const Prediction many = run({.device = "GB10 DGX Spark", .workload = "gpt-oss-20b", .quant = "mxfp4", .batch = 64, .context = 16});
    CHECK_THAT(many.how, Contains(fmt::format("{:.2f} GB a step", (shared + 19116933120.0 * 4.25 / 8 + 64 * 786432.0) / 1e9)));
}

TEST_CASE("an 8B model at Q4_0 and 8k context fits an 8 GB and a 12 GB card alone, only the 12 GB one at batch 4",
          "[predictor][memory]") {
    // 4.2068 GB of weights + 1 GB of KV cache + 0.0016 GB of activations = 5.2084 GB (memory_fit_test.cpp)
    const PredictRequest one{.device = "RTX 3070", .workload = "llama-3-8b", .quant = "q4_0", .context = 8192};
    const Prediction on_8gb = run(one);
    CHECK_THAT(on_8gb.memory_gb_needed, WithinRel(5.2084, 1e-4));
    CHECK(on_8gb.memory_gb == 8);
    CHECK(on_8gb.fits_memory);
    PredictRequest twelve = one;
    twelve.device = "RTX 3060 12GB";
    CHECK(run(twelve).fits_memory);
    // batch 4: 4.2068 + 4 × 1 + 4 × 0.0016 = 8.2133 GB: over 8, under 12
    PredictRequest four = one;
    four.batch = 4;
    CHECK_FALSE(run(four).fits_memory);
    four.device = "RTX 3060 12GB";
    CHECK(run(four).fits_memory);
    // Llama 3 70B at Q4_0 (70,553,706,496 × 4.5 / 8 = 36.97 GB of weights) fits no 24 GB card but fits
    // a 128 GB Mac, whose GPU may use 75 % of it (96 GB)
    const Prediction big = run({.device = "RTX 4090", .workload = "llama-3-70b", .quant = "q4_0"});
    CHECK_FALSE(big.fits_memory);
    const Prediction mac = run({.device = "Apple M3 Max", .workload = "llama-3-70b", .quant = "q4_0"});
    CHECK(mac.memory_gb == 96);
    CHECK(mac.fits_memory);
}

TEST_CASE("an LLM split over two RTX 4090s by hand: their memory, one device's time and one hop", "[predictor][split]") {
    const auto& ada = family("ada");
    // As on one RTX 4090 (the first test): 4,355,737,856 B at 1008 GB/s × ada's fraction + ada's overhead as
    // current CUDA builds pay it, then + 1 hop of 0.1834 ms: 6.132 + 0.183 = 6.315 ms, 158.3 tokens/s against
    // 163.1 on one card
    const double one_card = 4355737856.0 / (1008e9 * *ada.decode_bandwidth) +
                            *ada.decode_overhead_s * detail::predictor_fit().decode_overhead_current;
    const Prediction two = run({.device = "RTX 4090", .workload = "llama-3-8b", .quant = "q4_0", .context = 1024, .gpus = 2});
    CHECK(two.gpus == 2);
    CHECK(two.split_seconds == split_hop_seconds);
    CHECK_THAT(two.per_second, WithinRel(1 / (one_card + 0.0001834), 1e-9));
    CHECK_THAT(two.per_second, WithinRel(158.3, 0.001));
    CHECK_THAT(two.how, Contains("0.18 ms for 1 hop between 2 GPUs"));
    // Eight cards: 7 hops, 1.284 ms
    const Prediction eight = run({.device = "RTX 4090", .workload = "llama-3-8b", .quant = "q4_0", .context = 1024, .gpus = 8});
    CHECK_THAT(eight.per_second, WithinRel(1 / (one_card + 7 * 0.0001834), 1e-9));
    CHECK_THAT(eight.how, Contains("1.28 ms for 7 hops between 8 GPUs"));
    // Llama 3 70B at Q4_0 at 4096 tokens: 36.97 GB of weights + 2 × 80 × 8 × 128 × 4096 × 2 B = 1.25 GB of KV
    // cache (+ activations) fits no single 24 GB card, but two cards' 48 GB
    const PredictRequest big{.device = "RTX 4090", .workload = "llama-3-70b", .quant = "q4_0"};
    CHECK_FALSE(run(big).fits_memory);
    PredictRequest split = big;
    split.gpus = 2;
    const Prediction on_two = run(split);
    CHECK(on_two.memory_gb == 48);
    CHECK(on_two.fits_memory);
    CHECK(on_two.memory_gb_needed == run(big).memory_gb_needed);
    // A prompt is predicted as on one of the devices
    split.phase = "prefill";
    PredictRequest one_prefill = big;
    one_prefill.phase = "prefill";
    CHECK(run(split).per_second == run(one_prefill).per_second);
}

TEST_CASE("the hop is the median of the published multi-GPU rows, and 70B splits come within the decode error",
          "[predictor][split]") {
    // Xiongjie Dai's llama-bench tables, LLaMA 3, May 2024, tg 512 (the fixture's source column): each 8B
    // row on N cards against the same card alone gives (1/rate_N − 1/rate_1) / (N − 1) a hop; the 70B
    // rows, which fit no single card, were not used to fit and check the prediction.
    const auto table = detail::CsvTable::load(PAYBACK_SOURCE_DIR "/tests/fixtures/predictor/llama-bench-split.csv");
    struct Row {
        std::string device, model, quant, use;
        int gpus = 0;
        double rate = 0;
    };
    std::vector<Row> rows;
    for (std::size_t i = 0; i < table.rows(); ++i)
        rows.push_back({table.text(i, "device"), table.text(i, "model"), table.text(i, "quant"), table.text(i, "use"),
                        static_cast<int>(table.number(i, "gpus")), table.number(i, "tokens_per_second")});
    REQUIRE(rows.size() == 24);
    std::map<std::string, double> alone;
    for (const Row& r : rows)
        if (r.gpus == 1) alone[r.device + r.quant] = r.rate;
    std::vector<double> hops;
    for (const Row& r : rows)
        if (r.use == "fit" && r.gpus > 1) hops.push_back((1 / r.rate - 1 / alone.at(r.device + r.quant)) / (r.gpus - 1));
    REQUIRE(hops.size() == 12);
    std::sort(hops.begin(), hops.end());
    const double median = (hops[5] + hops[6]) / 2;  // 0.1797 and 0.1871 ms
    CHECK(std::abs(median - split_hop_seconds) < 1e-7);

    // The 70B rows: tg 512 averages 256 tokens of context. The prediction is for current CUDA builds, which pay
    // about half the 2024 overhead a step, against these May 2024 rows: +3.5 % to +17.9 % today (+2.4 % to +13.8 %
    // with the 2024 overhead), all within the decode phase's expected error and under the 25 %.
    for (const Row& r : rows) {
        if (r.use != "check") continue;
        const Prediction p =
            run({.device = r.device, .workload = r.model, .quant = r.quant, .context = 256, .gpus = r.gpus});
        INFO(r.gpus << " × " << r.device << ", " << r.model << " " << r.quant << ": published " << r.rate
                    << ", predicted " << p.per_second);
        CHECK(p.fits_memory);
        CHECK(r.rate * (1 + p.error_low) <= p.per_second);
        CHECK(p.per_second <= r.rate * (1 + p.error_high));
        CHECK(std::abs(p.per_second / r.rate - 1) < 0.25);
    }
}

TEST_CASE("with a profile: a measured device returns its measurement, another is scaled by the roofline", "[predictor]") {
    CalibrationProfile profile;
    profile.source = "profile.json";
    BenchResult r;
    r.device = "cuda";
    r.device_name = "NVIDIA GeForce RTX 3090";
    r.workload = "cifar10-tutorial";
    r.batch = 256;
    r.samples_per_second = 100000;
    profile.results.push_back(r);
    r.batch = 4;
    r.samples_per_second = 5000;
    profile.results.push_back(r);
    const Catalog& catalog = Catalog::shipped();
    const ModelCatalog& models = ModelCatalog::shipped();
    const Prediction measured =
        predict_from_profile({.device = "RTX 3090", .workload = "cifar10-tutorial", .batch = 256}, profile, catalog, models);
    CHECK(measured.measured);
    CHECK(measured.per_second == 100000);
    CHECK(measured.error_low == 0);
    // no result at batch 64: the largest batch measured, 256
    CHECK(predict_from_profile({.device = "RTX 3090", .workload = "cifar10-tutorial", .batch = 64}, profile, catalog,
                               models).per_second == 100000);
    // the RTX 4090 was not measured: 100,000 × roofline(4090) ÷ roofline(3090)
    const PredictRequest on_4090{.device = "RTX 4090", .workload = "cifar10-tutorial", .batch = 256};
    const Prediction scaled = predict_from_profile(on_4090, profile, catalog, models);
    const double ratio = run(on_4090).per_second /
                         run({.device = "RTX 3090", .workload = "cifar10-tutorial", .batch = 256}).per_second;
    CHECK_FALSE(scaled.measured);
    CHECK_THAT(scaled.per_second, WithinRel(100000 * ratio, 1e-9));
    CHECK_THAT(scaled.how, Contains("NVIDIA GeForce RTX 3090"));
    // a workload the profile did not measure on a GPU
    const InputError none = test::input_error(
        [&] { predict_from_profile({.device = "RTX 4090", .workload = "mlp"}, profile, catalog, models); });
    CHECK(none.key_path() == "from");
}

TEST_CASE("bad input names the argument, with a suggestion for a mistyped name", "[predictor][errors]") {
    const InputError device = refused({.device = "RTX 409", .workload = "llama-3-8b"});
    CHECK(device.key_path() == "device");
    CHECK_THAT(device.what(), Contains("did you mean \"RTX 4090\"?"));
    const InputError model = refused({.device = "RTX 4090", .workload = "lama-3-8b"});
    CHECK(model.key_path() == "workload");
    CHECK_THAT(model.what(), Contains("did you mean \"llama-3-8b\"?"));
    const InputError quant_on_training = refused({.device = "RTX 4090", .workload = "resnet50", .quant = "q4_0"});
    CHECK(quant_on_training.key_path() == "quant");
    const InputError unknown_quant = refused({.device = "RTX 4090", .workload = "llama-3-8b", .quant = "q4_1"});
    CHECK(unknown_quant.key_path() == "quant");
    CHECK_THAT(unknown_quant.what(), Contains("did you mean"));
    CHECK(refused({.device = "RTX 4090", .workload = "llama-3-8b", .batch = 0}).key_path() == "batch");
    CHECK(refused({.device = "RTX 4090", .workload = "bert-large", .batch = 65537}).message() ==
          "must be 1 to 65536, got 65537");  // as payback bench --batch
    CHECK(refused({.device = "", .workload = "llama-3-8b"}).message() ==
          "must name a device of gpus.csv (payback catalog gpus lists them)");  // no guess at "T4"
    CHECK(refused({.device = "RTX 4090", .workload = "llama-3-8b", .context = 8193}).key_path() == "context");
    CHECK(refused({.device = "RTX 4090", .workload = "llama-3-8b", .phase = "train"}).key_path() == "phase");
    CHECK(refused({.device = "RTX 4090", .workload = "resnet50", .phase = "decode"}).key_path() == "phase");
    CHECK(refused({.device = "RTX 4090", .workload = "resnet50", .precision = "int8"}).key_path() == "precision");
    CHECK(refused({.device = "RTX 4090", .workload = "llama-3-8b", .gpus = 0}).key_path() == "gpus");
    CHECK(refused({.device = "RTX 4090", .workload = "llama-3-8b", .gpus = 65}).key_path() == "gpus");
    const InputError split_training = refused({.device = "RTX 4090", .workload = "resnet50", .gpus = 2});
    CHECK(split_training.key_path() == "gpus");
    CHECK_THAT(split_training.what(), Contains("training workload"));
    // every phase needs a bandwidth, which a user's own gpus.csv row may lack
    const test::TempDir dir;
    const Catalog catalog = Catalog::load(test::catalogs_with_gpu_without_bandwidth(dir.path()).string());
    const InputError no_bandwidth = test::input_error(
        [&] { predict({.device = "Mystery Card", .workload = "llama-3-8b"}, catalog, ModelCatalog::shipped()); });
    CHECK(no_bandwidth.key_path() == "device");
    CHECK(no_bandwidth.message() == "Mystery Card has no memory_bandwidth_gb_s in gpus.csv, which the decode prediction needs");
}
