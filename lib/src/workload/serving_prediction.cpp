#include "payback/workload/serving_prediction.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "payback/workload/predictor.hpp"

namespace payback {

namespace {

// "RTX 4090", "2 x RTX 3090 and 1 x RTX 4090".
std::string cards_named(const std::vector<ServingCards>& cards) {
    std::string out;
    for (const ServingCards& c : cards)
        out += (out.empty() ? "" : " and ") + (c.count == 1 && cards.size() == 1 ? c.gpu : fmt::format("{} x {}", c.count, c.gpu));
    return out;
}

struct CardRates {
    const ServingCards* cards = nullptr;
    Prediction prefill, decode;
};

}  // namespace

double split_decode_link_seconds(int d_model, int boundaries, int batch, const SplitLink& link) {
    return boundaries * (batch * d_model * split_activation_bytes / (link.gb_per_s * 1e9) + link.latency_s);
}

double split_prefill_link_seconds(int d_model, int boundaries, const SplitLink& link) {
    return boundaries * (d_model * split_activation_bytes / (link.gb_per_s * 1e9) + link.latency_s / split_prefill_ubatch);
}

ServingPrediction predict_serving(const std::vector<ServingCards>& cards, const ServingRequest& request,
                                  const SplitLink& link, const Catalog& catalog, const ModelCatalog& models) {
    std::vector<CardRates> per_kind;
    for (const ServingCards& c : cards) {
        PredictRequest r{.device = c.gpu, .workload = request.model, .quant = request.quant, .phase = "decode",
                         .batch = request.concurrency, .context = request.context};
        CardRates rates{.cards = &c, .prefill = {}, .decode = predict(r, catalog, models)};
        r.phase = "prefill";
        rates.prefill = predict(r, catalog, models);
        per_kind.push_back(std::move(rates));
    }
    ServingPrediction out;
    // The fastest card that holds the model alone serves it; the others stay out of it.
    const CardRates* alone = nullptr;
    for (const CardRates& k : per_kind)
        if (k.decode.fits_memory && (!alone || k.decode.per_second > alone->decode.per_second)) alone = &k;
    if (alone) {
        const Prediction& d = alone->decode;
        out.rates = {alone->prefill.per_second, d.per_second, "", true};
        out.error_low = d.error_low;
        out.error_high = d.error_high;
        out.rates.origin = fmt::format("predicted for {} from its specs ({}), {}", d.device, roofline_basis(d),
                                       expected_error_text(d.error_low, d.error_high));
        return out;
    }
    // A layer split over every card: each holds a share of the layers in proportion to its memory and
    // reads them in turn, so a step takes the shares of each card's time on the whole model.
    // The error is the widest of the kinds': a card of a family no table measured widens the whole split's.
    double memory = 0;
    int count = 0;
    out.error_low = per_kind.front().decode.error_low;
    out.error_high = per_kind.front().decode.error_high;
    bool all_fitted = true;
    for (const CardRates& k : per_kind) {
        memory += k.decode.memory_gb * k.cards->count;
        count += k.cards->count;
        out.error_low = std::min(out.error_low, k.decode.error_low);
        out.error_high = std::max(out.error_high, k.decode.error_high);
        all_fitted = all_fitted && k.decode.family_fitted;
    }
    const double batch = request.concurrency;
    double decode_step = 0, prefill_token = 0;
    for (const CardRates& k : per_kind) {
        const double share = memory > 0 ? k.decode.memory_gb * k.cards->count / memory : 1.0 / double(per_kind.size());
        decode_step += share * batch / k.decode.per_second;
        prefill_token += share / k.prefill.per_second;
    }
    const int d_model = *models.model(request.model).d_model;
    out.gpus_used = count;
    out.decode_link_seconds = split_decode_link_seconds(d_model, count - 1, request.concurrency, link);
    const double prefill_link = split_prefill_link_seconds(d_model, count - 1, link);
    out.rates = {1 / (prefill_token + prefill_link), batch / (decode_step + out.decode_link_seconds), "", true};
    out.rates.origin = fmt::format("predicted for {} split by layers from their specs (roofline{}, + {:.3f} ms a step "
                                   "over the {:.1f} GB/s link), {}",
                                   cards_named(cards), all_fitted ? "" : "; a card's family unmeasured",
                                   out.decode_link_seconds * 1e3, link.gb_per_s,
                                   expected_error_text(out.error_low, out.error_high));
    return out;
}

}  // namespace payback
