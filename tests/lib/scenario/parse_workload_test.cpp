#include <catch2/catch.hpp>

#include <algorithm>
#include <optional>
#include <string>

#include <fmt/format.h>

#include "payback/model/comparison.hpp"
#include "payback/scenario/scenario.hpp"
#include "support/input_errors.hpp"
#include "support/scenario_text.hpp"
#include "support/temp_dir.hpp"
#include "workload/predictor_fit.hpp"

using namespace payback;
using payback::test::input_error;
using payback::test::replaced;
using payback::test::TempDir;

namespace {

// The hand scenario's owner trains the tutorial network instead of stating hours: two epochs of
// 50,000 samples, 36 runs a month, one rig GPU measured at 100 samples/s.
std::string job_scenario() {
    return replaced(test::hand_scenario(), "gpu_hours_per_month = 100",
                    "job = { model = \"cifar10-tutorial\", samples_per_epoch = 50000, epochs = 2, "
                    "runs_per_month = 36, samples_per_second = 100 }");
}

// A profile with an RTX 3090 measured at 2,000 samples/s at batch 256, and a CPU.
const char* profile_json = R"({"date": "2026-11-29T00:00:00Z", "results": [
  {"device": "cuda", "device_name": "NVIDIA GeForce RTX 3090", "workload": "cifar10-tutorial", "batch": 256,
   "threads": 1, "samples_per_second": 2000},
  {"device": "cpu", "device_name": "AMD EPYC", "workload": "cifar10-tutorial", "batch": 256,
   "threads": 2, "samples_per_second": 9000}]})";

// A rig with one catalog RTX 3090 and a Lambda H100 SXM, timed by the profile beside the scenario.
std::string calibrated_scenario() {
    return R"(
[workload]
job = { model = "cifar10-tutorial", samples_per_epoch = 50000, epochs = 2, runs_per_month = 100 }
calibration = "profile.json"

[[rig.parts]]
kind = "gpu"
gpu = "RTX 3090"
price = 1000
idle_watts = 20

[electricity]
price_per_kwh = 0.2

[[cloud]]
name = "h100"
instance = "lambda:gpu_1x_h100_sxm5"
)";
}

}  // namespace

TEST_CASE("a job becomes training hours from the rig's throughput", "[workload][calibration]") {
    const Scenario s = parse_scenario(job_scenario(), "job.toml");
    REQUIRE(s.job);
    // 50,000 × 2 = 100,000 samples a run / 100 samples/s = 1,000 s = 0.2778 h; × 36 runs = 10 h a month.
    CHECK(s.job->samples_per_run() == 100000.0);
    CHECK(s.job->rig_hours_per_run() == Approx(1000.0 / 3600.0));
    CHECK(units::in_hours(s.training_per_month) == Approx(10.0));
    CHECK(*s.job_hours == Approx(1000.0 / 3600.0));  // a run is the billing job
    CHECK_THAT(s.job->gpu_origin, Catch::Contains("given in the scenario"));
}

TEST_CASE("cost per run, epoch and million samples, and kWh per run, on every option", "[workload][comparison]") {
    const Comparison c = compare(parse_scenario(job_scenario(), "job.toml"));
    REQUIRE(c.options.size() == 2);
    // Cloud: $2/h at speedup 2 (200 samples/s): 10 h a month of rig time is 5 instance-hours, $10 a
    // month; a run takes 500 s = 0.1389 h and costs $10 / 36 = $0.2778, $0.1389 an epoch, and
    // $0.2778 / 100,000 samples × 1e6 = $2.778 per million samples.
    const JobCosts& cloud = *c.options[1].job;
    CHECK(cloud.samples_per_second == Approx(200.0));
    CHECK(cloud.hours_per_run == Approx(500.0 / 3600.0));
    CHECK(cloud.cost_per_run == Approx(10.0 / 36.0));
    CHECK(cloud.cost_per_epoch == Approx(5.0 / 36.0));
    CHECK(cloud.cost_per_million_samples == Approx(10.0 / 36.0 * 10.0));
    CHECK_FALSE(cloud.kwh_per_run);  // the typed-in option has no draw
    // Rig: 24 months × 36 runs = 864 runs share its total cost; a run draws (300 + 100) W / 0.8 = 500 W
    // at the wall for 0.2778 h = 0.1389 kWh.
    const JobCosts& rig = *c.options[0].job;
    CHECK(rig.cost_per_run == Approx(c.options[0].total_cost / 864.0));
    CHECK(rig.cost_per_million_samples == Approx(rig.cost_per_run * 10.0));
    CHECK(*rig.kwh_per_run == Approx(0.5 * 1000.0 / 3600.0));
}

TEST_CASE("a profile times the rig's GPU as measured and maps the cloud's by bandwidth", "[workload][calibration]") {
    TempDir dir;
    dir.write("profile.json", profile_json);
    const Scenario s = parse_scenario(calibrated_scenario(), (dir.path() / "s.toml").string());
    REQUIRE(s.job);
    CHECK(s.job->batch == 256);  // the largest batch measured on a GPU
    CHECK(s.job->gpu_samples_per_second == 2000.0);
    // A run: 100,000 samples / 2,000 samples/s = 50 s; 100 runs a month: 5,000 s = 1.389 h.
    CHECK(units::in_hours(s.training_per_month) == Approx(100 * 50.0 / 3600.0));
    // H100 SXM 3,350 GB/s against the 3090's 936 GB/s: 2,000 × 3350 / 936 = 7,158.1 samples/s, 3.579×.
    REQUIRE(s.clouds.size() == 1);
    CHECK(*s.clouds[0].gpu_samples_per_second == Approx(2000.0 * 3350 / 936));
    CHECK(s.clouds[0].speedup == Approx(3350.0 / 936));
    CHECK_THAT(s.clouds[0].throughput_origin, Catch::Contains("expected error -28 % to +19 %"));
}

TEST_CASE("a cloud option's own measured figure overrides the mapping", "[workload][calibration]") {
    TempDir dir;
    dir.write("profile.json", profile_json);
    const Scenario s = parse_scenario(
        replaced(calibrated_scenario(), "instance = \"lambda:gpu_1x_h100_sxm5\"",
                 "instance = \"lambda:gpu_1x_h100_sxm5\"\nsamples_per_second = 5000"),
        (dir.path() / "s.toml").string());
    CHECK(s.clouds[0].speedup == Approx(2.5));  // 5,000 / 2,000
}

TEST_CASE("jobs that cannot be timed are refused with the key to fix", "[workload][errors]") {
    TempDir dir;
    dir.write("profile.json", profile_json);
    const std::string path = (dir.path() / "s.toml").string();
    const auto error_of = [&](const std::string& text) {
        return input_error([&] { parse_scenario(text, path); });
    };
    CHECK(error_of(replaced(calibrated_scenario(), "runs_per_month = 100 }", "runs_per_month = 100, batch = 4 }"))
              .key_path() == "workload.job.batch");
    CHECK(error_of(replaced(calibrated_scenario(), "\"cifar10-tutorial\"", "\"resnet-50\"")).key_path() ==
          "workload.job.model");
    CHECK(error_of(replaced(calibrated_scenario(), "calibration = \"profile.json\"\n", "")).key_path() ==
          "workload.job.samples_per_second");
    CHECK(error_of(replaced(calibrated_scenario(), "profile.json", "missing.json")).key_path() ==
          "workload.calibration");
    CHECK(error_of(replaced(job_scenario(), "[workload]", "[workload]\ngpu_hours_per_month = 5")).key_path() ==
          "workload.job");
    // 36 runs of 100,000 samples at 1 sample/s: 1,000 h a month.
    const auto too_long = error_of(replaced(job_scenario(), "samples_per_second = 100", "samples_per_second = 1"));
    CHECK(too_long.key_path() == "workload.job");
    CHECK_THAT(too_long.message(), Catch::Contains("1000.0 h a month"));
    CHECK(error_of(replaced(test::hand_scenario(), "speedup = 2.0", "samples_per_second = 50")).key_path() ==
          "cloud[0].samples_per_second");
}

namespace {

// One catalog RTX 3090 fine-tuning BERT-large (SQuAD, sequence 384): two epochs of 88,000 samples, 10
// runs a month, no measured figure and no profile; and a Lambda H100 SXM instance.
std::string predicted_scenario() {
    return replaced(replaced(calibrated_scenario(), "calibration = \"profile.json\"\n", ""),
                    "model = \"cifar10-tutorial\", samples_per_epoch = 50000, epochs = 2, runs_per_month = 100",
                    "model = \"bert-large\", samples_per_epoch = 88000, epochs = 2, runs_per_month = 10");
}

double fitted(const std::string& family, std::optional<double> detail::FamilyFractions::*field) {
    const auto& families = detail::predictor_fit().families;
    const auto found = std::find_if(families.begin(), families.end(), [&](const auto& f) { return f.family == family; });
    REQUIRE(found != families.end());
    const std::optional<double>& fraction = (*found).*field;
    REQUIRE(fraction.has_value());
    return *fraction;
}

double bert_large_factor() {
    const auto& factors = detail::predictor_fit().train_model_factor;
    const auto found = std::find_if(factors.begin(), factors.end(), [](const auto& m) { return m.first == "bert-large"; });
    REQUIRE(found != factors.end());
    return found->second;
}

}  // namespace

TEST_CASE("a job naming a catalog model without a figure is timed by the predictor, rig and cloud",
          "[workload][predictor]") {
    const Scenario s = parse_scenario(predicted_scenario(), "predicted.toml");
    REQUIRE(s.job);
    // The roofline (predictor.hpp), mixed precision, compute bound at batch 32 (the weights' traffic,
    // 3 x 335,141,888 x 2 B / 32 = 62.8 MB a sample, is 0.09 ms at 936 GB/s against 19 ms of compute):
    // RTX 3090: 35.58 TFLOPS FP32 x 0.6584 (ampere, fp16) x 1.995 (ampere's transformers) x 1.075
    // (BERT-large) x 0.7083 (a GeForce card's tensor cores accumulate FP32 at half rate) = 35.59 TFLOP/s
    // (its 350 W ÷ 35.58 TFLOPS is above ampere's median watts a TFLOP: no power-limit factor);
    // 739,271,245,824 FLOP a sample (models.csv) -> 48.14 samples/s.
    const double bert_large = bert_large_factor();
    const double rig = 35.58e12 * fitted("ampere", &detail::FamilyFractions::train_fp16) *
                       fitted("ampere", &detail::FamilyFractions::train_transformer) * bert_large *
                       detail::predictor_fit().train_half_rate_factor / 739271245824.0;
    CHECK_THAT(s.job->gpu_samples_per_second, Catch::Matchers::WithinRel(rig, 1e-9));
    CHECK_THAT(s.job->gpu_samples_per_second, Catch::Matchers::WithinRel(48.14, 0.001));
    CHECK(s.job->batch == 32);
    // 88,000 x 2 = 176,000 samples a run / 48.14 samples/s = 3,656 s = 1.0155 h; x 10 runs = 10.155 h a month.
    CHECK_THAT(s.job->rig_hours_per_run(), Catch::Matchers::WithinRel(176000.0 / rig / 3600.0, 1e-12));
    CHECK_THAT(units::in_hours(s.training_per_month), Catch::Matchers::WithinRel(10.155, 0.001));
    // The origin names the predictor and its expected error (the fit's held-out training error).
    const auto& error = detail::predictor_fit().train;
    CHECK(s.job->gpu_origin ==
          fmt::format("predicted for RTX 3090 from its specs (roofline, fp16, batch 32), expected error {:+.0f} %/{:+.0f} %",
                      error.low * 100, error.high * 100));
    // H100 SXM: 66.91 x 1.167 (hopper) x 2.796 x 1.075 = 234.7 TFLOP/s (full-rate tensor cores, at hopper's
    // median watts a TFLOP) -> 317.4 samples/s, 6.59 times the rig.
    const double h100 = 66.91e12 * fitted("hopper", &detail::FamilyFractions::train_fp16) *
                        fitted("hopper", &detail::FamilyFractions::train_transformer) * bert_large / 739271245824.0;
    REQUIRE(s.clouds.size() == 1);
    REQUIRE(s.clouds[0].gpu_samples_per_second);
    REQUIRE(s.clouds[0].per_gpu_speedup);
    CHECK_THAT(*s.clouds[0].gpu_samples_per_second, Catch::Matchers::WithinRel(h100, 1e-9));
    CHECK_THAT(*s.clouds[0].per_gpu_speedup, Catch::Matchers::WithinRel(h100 / rig, 1e-9));
    CHECK_THAT(*s.clouds[0].per_gpu_speedup, Catch::Matchers::WithinRel(6.59, 0.002));
    CHECK_THAT(s.clouds[0].throughput_origin, Catch::Contains("predicted for H100 SXM from its specs"));
    // compare reports the origin per option, as it does a measured or mapped figure's.
    const Comparison c = compare(s);
    REQUIRE(c.options.size() == 2);
    CHECK(c.options[0].job->throughput_origin == s.job->gpu_origin);
    CHECK(c.options[1].job->throughput_origin == s.clouds[0].throughput_origin);
    CHECK_THAT(c.options[1].job->samples_per_second, Catch::Matchers::WithinRel(h100, 1e-9));
}

TEST_CASE("a rig GPU of a family no table measured gets the predictor's wider error, named in its origin",
          "[workload][predictor]") {
    // No GeForce Blackwell card is in Lambda's training tables: the RTX 5090 is predicted from the measured families'
    // FLOPs per byte of bandwidth, with their error predicted so (predictor_test.cpp has the arithmetic).
    const Scenario s = parse_scenario(replaced(predicted_scenario(), "gpu = \"RTX 3090\"", "gpu = \"RTX 5090\""), "p.toml");
    REQUIRE(s.job);
    const auto& error = detail::predictor_fit().train_unfitted;
    CHECK(s.job->gpu_origin == fmt::format("predicted for RTX 5090 from its specs (roofline; its family unmeasured, fp16, "
                                           "batch 32), expected error {:+.0f} %/{:+.0f} %",
                                           error.low * 100, error.high * 100));
}

TEST_CASE("a figure given by hand still wins over the predictor; what it cannot predict is refused",
          "[workload][predictor][errors]") {
    const Scenario given = parse_scenario(replaced(predicted_scenario(), "runs_per_month = 10", "runs_per_month = 10, "
                                                                                               "samples_per_second = 60"),
                                          "given.toml");
    CHECK(given.job->gpu_samples_per_second == 60.0);
    CHECK_THAT(given.job->gpu_origin, Catch::StartsWith("given in the scenario"));
    const auto error_of = [](const std::string& text) {
        return input_error([&] { parse_scenario(text, "bad.toml"); });
    };
    // An LLM is served, not trained as a job.
    const auto llm = error_of(replaced(predicted_scenario(), "\"bert-large\"", "\"llama-3.1-8b\""));
    CHECK(llm.key_path() == "workload.job.model");
    CHECK_THAT(llm.message(), Catch::Contains("is a language model"));
    // A typed-in GPU has no specs to predict from.
    const auto typed = error_of(replaced(predicted_scenario(), "gpu = \"RTX 3090\"", "name = \"my card\""));
    CHECK(typed.key_path() == "workload.job.samples_per_second");
    CHECK_THAT(typed.message(), Catch::Contains("not a pricing/gpus.csv GPU"));
}
