// One model on several devices: each device's own prediction, those the model fits first, each group fastest
// first; with every device, one the catalog lacks a figure for is skipped and said, while a named one is an error.
#include <catch2/catch.hpp>

#include <algorithm>

#include "payback/base/error.hpp"
#include "payback/workload/device_comparison.hpp"
#include "support/input_errors.hpp"
#include "support/shipped_catalogs.hpp"
#include "support/temp_dir.hpp"

using namespace payback;

namespace {

DeviceComparison compare(const PredictRequest& request, const std::vector<std::string>& devices) {
    return compare_devices(request, devices, nullptr, Catalog::shipped(), ModelCatalog::shipped());
}

}  // namespace

TEST_CASE("every device: each as predicted alone, those the model fits first, each group fastest first",
          "[predict][compare]") {
    const PredictRequest request{.workload = "llama-3.1-70b", .quant = "q4_k_m"};
    const DeviceComparison c = compare(request, {});
    // decode needs only the bandwidth, which every gpus.csv device has
    CHECK(c.predictions.size() == Catalog::shipped().gpus().size());
    CHECK(c.skipped.empty());
    const auto first_no = std::find_if(c.predictions.begin(), c.predictions.end(), [](const Prediction& p) { return !p.fits_memory; });
    // 41 GiB of Q4_K_M weights and cache: the 80 GB H100 SXM holds it, the 24 GB RTX 4090 does not
    CHECK(std::all_of(first_no, c.predictions.end(), [](const Prediction& p) { return !p.fits_memory; }));
    CHECK(std::any_of(c.predictions.begin(), first_no, [](const Prediction& p) { return p.device == "H100 SXM"; }));
    CHECK(std::any_of(first_no, c.predictions.end(), [](const Prediction& p) { return p.device == "RTX 4090"; }));
    const auto faster = [](const Prediction& a, const Prediction& b) { return a.per_second > b.per_second; };
    CHECK(std::is_sorted(c.predictions.begin(), first_no, faster));
    CHECK(std::is_sorted(first_no, c.predictions.end(), faster));
    for (const Prediction& p : c.predictions) {
        PredictRequest alone = request;
        alone.device = p.device;
        CHECK(p.per_second == predict(alone, Catalog::shipped(), ModelCatalog::shipped()).per_second);
    }
}

TEST_CASE("a device lacking a figure the phase needs is skipped among every device and refused by name",
          "[predict][compare][errors]") {
    // Every shipped device has what each phase needs (a bandwidth; FP32 where published, else a stand-in); a row a
    // user adds may not: the shipped catalogs with one device without a bandwidth
    const test::TempDir dir;
    const Catalog catalog = Catalog::load(test::catalogs_with_gpu_without_bandwidth(dir.path()).string());
    const PredictRequest request{.workload = "llama-3.1-8b", .phase = "prefill"};
    const DeviceComparison every = compare_devices(request, {}, nullptr, catalog, ModelCatalog::shipped());
    REQUIRE(every.skipped.size() == 1);
    CHECK(every.skipped[0].first == "Mystery Card");
    CHECK(every.skipped[0].second == "Mystery Card has no memory_bandwidth_gb_s in gpus.csv, which the prefill "
                                     "prediction needs");
    CHECK(every.predictions.size() + 1 == catalog.gpus().size());
    const DeviceComparison named = compare(request, {"RTX 3090", "RTX 4090"});
    REQUIRE(named.predictions.size() == 2);
    CHECK(named.predictions[0].device == "RTX 4090");  // fastest first
    const InputError e = test::input_error(
        [&] { compare_devices(request, {"RTX 4090", "Mystery Card"}, nullptr, catalog, ModelCatalog::shipped()); });
    CHECK(e.key_path() == "device");
    // A misspelt name is refused, as alone
    CHECK(test::input_error([&] { compare(request, {"RTX 409"}); }).key_path() == "device");
}

TEST_CASE("a comparison's launch price is gpus.csv's times the devices the model is split over, or none",
          "[predict][compare]") {
    const DeviceComparison c = compare({.workload = "llama-3-70b", .quant = "q4_k_m", .gpus = 2}, {"RTX 4090", "B200"});
    for (const Prediction& p : c.predictions) {
        INFO(p.device);
        if (p.device == "RTX 4090") CHECK(launch_price_usd(p, Catalog::shipped()) == 2 * 1599.0);  // 1,599 USD each
        else CHECK_FALSE(launch_price_usd(p, Catalog::shipped()));  // gpus.csv gives the B200 no launch price
    }
}
