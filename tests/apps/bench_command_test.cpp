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
