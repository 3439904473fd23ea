// payback predict over several devices (--device A,B or all): the same predictions as one device at a
// time, those the model fits first, fastest first, with the launch price per unit of speed.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/shipped_catalogs.hpp"
#include "support/temp_dir.hpp"

using nlohmann::json;
using payback::test::check_bad_input;
using payback::test::lines_of;
using payback::test::quote;
using payback::test::Result;
using payback::test::run;
using payback::test::run_program;

namespace {

const std::string llama = " --workload llama-3.1-70b --quant q4_k_m";

// The data rows of the comparison table: the lines between the header and the notes.
std::vector<std::string> table_rows(const std::string& text) {
    std::vector<std::string> rows;
    for (const std::string& line : lines_of(text))
        if (!line.starts_with("llama") && !line.starts_with("device") && !line.starts_with("error %") &&
            !line.starts_with("*:") && !line.starts_with("\"no\"") && !line.starts_with("Not predicted") && !line.empty())
            rows.push_back(line);
    return rows;
}

}  // namespace

TEST_CASE("predict over a list of devices gives each device's own prediction, fastest first", "[cli][predict]") {
    const Result list = run("predict --device 'RTX 3090,RTX 4090, RTX 5090'" + llama + " --gpus 2 --json");
    INFO(list.err);
    REQUIRE(list.code == 0);
    const json predictions = json::parse(list.out);
    REQUIRE(predictions.size() == 3);
    // Each as `predict --device NAME` alone gives it
    for (const json& p : predictions) {
        const Result alone = run("predict --device '" + p.at("device").get<std::string>() + "'" + llama + " --gpus 2 --json");
        CHECK(json::parse(alone.out) == p);
    }
    // 2 × 32 GB holds the 41 GiB model on the RTX 5090s; 2 × 24 on the others: all fit, fastest first
    CHECK(predictions[0].at("device") == "RTX 5090");
    CHECK(predictions[0].at("tokens_per_second").get<double>() >= predictions[1].at("tokens_per_second").get<double>());
    CHECK(predictions[1].at("tokens_per_second").get<double>() >= predictions[2].at("tokens_per_second").get<double>());
}

TEST_CASE("predict --device all: every device, those the model fits first, with its price per unit of speed",
          "[cli][predict]") {
    const Result r = run("predict --device all" + llama);
    INFO(r.err);
    REQUIRE(r.code == 0);
    const std::vector<std::string> rows = table_rows(r.out);
    // One row for each gpus.csv device: decode needs only the bandwidth, which every row has
    std::ifstream gpus(PAYBACK_SOURCE_DIR "/pricing/gpus.csv");
    std::size_t devices = 0;
    for (std::string line; std::getline(gpus, line);) devices += !line.empty();
    CHECK(rows.size() == devices - 1);
    // 41.0 GiB of weights and cache: a 24 GB card says no, and every "no" comes after every fit
    const auto first_no = std::find_if(rows.begin(), rows.end(), [](const std::string& row) {
        return row.find(": no") != std::string::npos;
    });
    REQUIRE(first_no != rows.end());
    CHECK(std::all_of(first_no, rows.end(), [](const std::string& row) { return row.find(": no") != std::string::npos; }));
    CHECK(std::any_of(rows.begin(), first_no, [](const std::string& row) { return row.starts_with("H100 SXM "); }));
    CHECK(std::any_of(first_no, rows.end(), [](const std::string& row) { return row.starts_with("RTX 4090 "); }));
    // The RTX 4090's launch price over its rate: 1,599 USD ÷ (its own prediction) tokens a second
    const double rate = json::parse(run("predict --device 'RTX 4090'" + llama + " --json").out)
                            .at("tokens_per_second")
                            .get<double>();
    const auto rtx4090 = std::find_if(rows.begin(), rows.end(), [](const std::string& row) {
        return row.starts_with("RTX 4090 ");
    });
    REQUIRE(rtx4090 != rows.end());
    CHECK_THAT(*rtx4090, Catch::Contains(fmt::format("1,599  {:>13.2f}", 1599 / rate)));
    // Each row's expected error, as its own --json gives it; "*" where no device of the family was measured
    // (Llama decode: the RTX 4090's ada family was, the RTX 5090's blackwell was not)
    for (const std::string device : {"RTX 4090", "RTX 5090"}) {
        const json one = json::parse(run("predict --device '" + device + "'" + llama + " --json").out);
        const auto row = std::find_if(rows.begin(), rows.end(), [&](const std::string& r) { return r.starts_with(device + " "); });
        REQUIRE(row != rows.end());
        CHECK(row->ends_with(fmt::format("predicted  {:+.0f}/{:+.0f}{}", 100 * one.at("expected_error").at("low").get<double>(),
                                         100 * one.at("expected_error").at("high").get<double>(),
                                         one.at("family_fitted").get<bool>() ? "" : " *")));
        CHECK(one.at("family_fitted").get<bool>() == (device == "RTX 4090"));
    }
    CHECK_THAT(*rtx4090, Catch::EndsWith("predicted  -11/+46"));
    CHECK_THAT(r.out, Catch::Contains("\n*: no device of the family was measured for this phase"));
}

TEST_CASE("predict --device all leaves out a device lacking a figure the phase needs, and says so", "[cli][predict]") {
    // Every shipped device has what each phase needs; a user's own gpus.csv row may lack its bandwidth
    const payback::test::TempDir dir;
    const std::string catalogs =
        "export PAYBACK_PRICING_DIR=" + quote(payback::test::catalogs_with_gpu_without_bandwidth(dir.path()).string());
    const Result r = run_program(PAYBACK_BINARY, "predict --device all --workload llama-3.1-8b --phase prefill", catalogs);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("Not predicted (has no memory_bandwidth_gb_s in gpus.csv, which the prefill "
                                      "prediction needs): Mystery Card"));
    const std::vector<std::string> rows = table_rows(r.out);
    CHECK(std::none_of(rows.begin(), rows.end(), [](const std::string& row) { return row.starts_with("Mystery Card"); }));
    // Apple's M3 Max, whose FP32 figure Apple does not publish, is predicted from its bandwidth
    CHECK(std::any_of(rows.begin(), rows.end(), [](const std::string& row) { return row.starts_with("Apple M3 Max"); }));
    // Named in a list, the same device is an error
    const Result named =
        run_program(PAYBACK_BINARY, "predict --device 'RTX 4090,Mystery Card' --workload llama-3.1-8b --phase prefill", catalogs);
    check_bad_input(named);
    CHECK(named.err == "payback: predict: device: Mystery Card has no memory_bandwidth_gb_s in gpus.csv, which the "
                       "prefill prediction needs\n");
}

TEST_CASE("a mistyped name in a list of devices is refused with the closest name", "[cli][predict][errors]") {
    const Result r = run("predict --device 'RTX 4090,RTX 409'" + llama);
    check_bad_input(r);
    CHECK(r.err == "payback: predict: device: no device named \"RTX 409\" in gpus.csv; did you mean \"RTX 4090\"?\n");
}

TEST_CASE("predict's text for one device: its rate, and for several sequences at once each one's share of it",
          "[cli][predict]") {
    const std::string eight = "predict --device 'RTX 3090' --workload llama-3-8b --quant q4_0 --context 256 --batch 8";
    const Result text = run(eight);
    INFO(text.err);
    REQUIRE(text.code == 0);
    const double rate = json::parse(run(eight + " --json").out).at("tokens_per_second").get<double>();
    // 567.0 tokens/s for the 8 (predictor_test.cpp has it by hand): a user of one sequence sees 70.88 of them
    CHECK(lines_of(text.out).front() ==
          fmt::format("llama-3-8b on RTX 3090, q4_0 decode at context 256, 8 sequences at once: {:.4g} tokens per second "
                      "({:.4g} each; predicted, expected error -11 % to +46 %)",
                      rate, rate / 8));
    CHECK_THAT(text.out, Catch::Matchers::Contains("567 tokens per second (70.88 each;"));
    // One sequence says neither; a training batch is named
    CHECK(lines_of(run("predict --device 'RTX 3090' --workload llama-3-8b --quant q4_0 --context 256").out)
              .front()
              .starts_with("llama-3-8b on RTX 3090, q4_0 decode at context 256: "));
    CHECK(lines_of(run("predict --device 'RTX 4090' --workload resnet50 --batch 64").out)
              .front()
              .starts_with("resnet50 on RTX 4090, fp16 training, batch 64: "));
}
