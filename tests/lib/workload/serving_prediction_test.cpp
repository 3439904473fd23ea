// Serving rates from the predictor: the links' seconds of a layer split by hand, the card that serves a
// model alone, and a split over unlike cards as the shares of each card's time on the whole model.
#include <catch2/catch.hpp>

#include "payback/workload/predictor.hpp"
#include "payback/workload/serving_prediction.hpp"

using namespace payback;

namespace {

Prediction one(const std::string& device, const std::string& model, const std::string& phase) {
    return predict({.device = device, .workload = model, .quant = "q4_k_m", .phase = phase, .batch = 1, .context = 4096},
                   Catalog::shipped(), ModelCatalog::shipped());
}

ServingPrediction serve(const std::vector<ServingCards>& cards, const std::string& model, const SplitLink& link) {
    return predict_serving(cards, {.model = model, .quant = "q4_k_m", .context = 4096, .concurrency = 1}, link,
                           Catalog::shipped(), ModelCatalog::shipped());
}

}  // namespace

TEST_CASE("a layer split's link seconds by hand", "[predict][serving]") {
    // Llama 3.1 70B's d_model 8,192 in F32 is 32,768 B a sequence: over PCIe 4.0 x16 (31.5 GB/s) 1.0402 µs,
    // + 10 µs latency = 11.0402 µs a step at one boundary.
    CHECK(split_decode_link_seconds(8192, 1, 1, {.gb_per_s = 31.5, .latency_s = 10e-6}) ==
          Approx(32768 / 31.5e9 + 10e-6));
    CHECK(split_decode_link_seconds(8192, 1, 1, {.gb_per_s = 31.5, .latency_s = 10e-6}) == Approx(11.0402e-6).epsilon(1e-4));
    // Four sequences at once over three boundaries (four cards) of PCIe 3.0 x16 (15.76 GB/s), d_model 4,096:
    // 3 × (4 × 4,096 × 4 B = 65,536 B ÷ 15.76 GB/s = 4.1584 µs + 10 µs) = 42.475 µs.
    CHECK(split_decode_link_seconds(4096, 3, 4, {.gb_per_s = 15.76, .latency_s = 10e-6}) == Approx(42.475e-6).epsilon(1e-4));
    // A prompt token: 32,768 B ÷ 31.5 GB/s = 1.0402 µs + 10 µs ÷ 512 = 0.0195 µs: 1.0598 µs.
    CHECK(split_prefill_link_seconds(8192, 1, {.gb_per_s = 31.5, .latency_s = 10e-6}) == Approx(1.0598e-6).epsilon(1e-4));
    CHECK(split_decode_link_seconds(8192, 0, 1, {.gb_per_s = 31.5}) == 0.0);  // one card: no boundary
}

TEST_CASE("a model that fits one card is served by the fastest such card alone", "[predict][serving]") {
    const ServingPrediction p = serve({{"RTX 3060 12GB", 1}, {"RTX 4090", 1}}, "llama-3.1-8b", {.gb_per_s = 31.5});
    CHECK(p.gpus_used == 1);
    CHECK(p.decode_link_seconds == 0.0);
    CHECK(p.rates.decode == one("RTX 4090", "llama-3.1-8b", "decode").per_second);
    CHECK(p.rates.prefill == one("RTX 4090", "llama-3.1-8b", "prefill").per_second);
    CHECK(p.rates.predicted);
}

TEST_CASE("unlike cards split a model by their memory: each card's share of its time on the whole model",
          "[predict][serving]") {
    // An RTX 4090 and an RTX 3090, 24 GB each, hold half the layers each.
    const SplitLink link{.gb_per_s = 31.5, .latency_s = 10e-6};
    const ServingPrediction p = serve({{"RTX 4090", 1}, {"RTX 3090", 1}}, "llama-3.1-70b", link);
    const double step = 0.5 / one("RTX 4090", "llama-3.1-70b", "decode").per_second +
                        0.5 / one("RTX 3090", "llama-3.1-70b", "decode").per_second + 32768 / 31.5e9 + 10e-6;
    CHECK(p.gpus_used == 2);
    CHECK(p.rates.decode == Approx(1 / step).epsilon(1e-12));
    const double token = 0.5 / one("RTX 4090", "llama-3.1-70b", "prefill").per_second +
                         0.5 / one("RTX 3090", "llama-3.1-70b", "prefill").per_second + 32768 / 31.5e9 + 10e-6 / 512;
    CHECK(p.rates.prefill == Approx(1 / token).epsilon(1e-12));
    CHECK(p.rates.origin.starts_with("predicted for 1 x RTX 4090 and 1 x RTX 3090 split by layers"));
}

TEST_CASE("a split with a card of a family no table measured takes that card's wider error, and says so",
          "[predict][serving]") {
    // An RTX 5090 (32 GB, blackwell: no llama-bench row) and an RTX 4090 (24 GB, ada: fitted) split Llama 3.1 70B
    const SplitLink link{.gb_per_s = 31.5, .latency_s = 10e-6};
    const Prediction blackwell = one("RTX 5090", "llama-3.1-70b", "decode");
    const Prediction ada = one("RTX 4090", "llama-3.1-70b", "decode");
    REQUIRE_FALSE(blackwell.family_fitted);
    REQUIRE(ada.family_fitted);
    REQUIRE(blackwell.error_high > ada.error_high);
    for (const auto& cards : {std::vector<ServingCards>{{"RTX 5090", 1}, {"RTX 4090", 1}},
                              std::vector<ServingCards>{{"RTX 4090", 1}, {"RTX 5090", 1}}}) {
        const ServingPrediction p = serve(cards, "llama-3.1-70b", link);
        CHECK(p.gpus_used == 2);
        CHECK(p.error_low == std::min(blackwell.error_low, ada.error_low));
        CHECK(p.error_high == blackwell.error_high);
        CHECK_THAT(p.rates.origin, Catch::Contains("(roofline; a card's family unmeasured, + "));
    }
    // Two fitted cards say nothing of it
    CHECK_THAT(serve({{"RTX 4090", 1}, {"RTX 3090", 1}}, "llama-3.1-70b", link).rates.origin,
               !Catch::Contains("unmeasured"));
    // Alone, the unmeasured card's origin says it too
    CHECK_THAT(serve({{"RTX 5090", 1}}, "llama-3.1-8b", link).rates.origin,
               Catch::Contains("predicted for RTX 5090 from its specs (roofline; its family unmeasured), expected error"));
}
