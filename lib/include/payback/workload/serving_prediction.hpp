// Tokens a second for serving an LLM on a set of GPUs, from the predictor: one card when the model
// fits it, else the model split by layers over all the cards (llama.cpp's --split-mode layer), each
// card reading its share of the weights in turn and handing the activations to the next over the link
// between them (docs/inference.md, "Predicted rates").
#pragma once

#include <string>
#include <vector>

#include "payback/market/catalog.hpp"
#include "payback/market/token_serving.hpp"
#include "payback/workload/model_catalog.hpp"
#include "payback/workload/predictor.hpp"

namespace payback {

/// Cards of one gpus.csv kind.
struct ServingCards {
    std::string gpu;
    int count = 1;
};

/// What is served, at which concurrency (the decode batch) and context.
struct ServingRequest {
    std::string model;
    std::string quant;
    int context = 4096;
    int concurrency = 1;
};

/// The link between two cards of a layer split: its bandwidth per direction, and a fixed latency per
/// hand-over (the copy's launch and the devices' synchronisation).
struct SplitLink {
    double gb_per_s = 0;
    /// Fitted: the hop of published multi-GPU llama-bench rows (predictor.hpp), which also holds those
    /// rigs' transfer of a 4,096-wide hidden state, about 1 µs of its 183 µs over PCIe.
    double latency_s = split_hop_seconds;
};

/// A layer boundary's hand-over carries the F32 hidden state (llama.cpp keeps activations in F32).
inline constexpr double split_activation_bytes = 4;
/// llama.cpp evaluates a prompt in micro-batches of this many tokens: a prefill hand-over carries one.
inline constexpr double split_prefill_ubatch = 512;

/// Seconds a decode step spends on the links: boundaries × (batch × d_model × 4 B ÷ bandwidth + latency).
double split_decode_link_seconds(int d_model, int boundaries, int batch, const SplitLink& link);
/// Seconds a prompt token spends on the links: boundaries × (d_model × 4 B ÷ bandwidth + latency ÷ 512).
double split_prefill_link_seconds(int d_model, int boundaries, const SplitLink& link);

struct ServingPrediction {
    TokenRates rates;            ///< aggregate prefill and decode tokens a second; origin says how
    int gpus_used = 1;           ///< 1, or every card when split
    double decode_link_seconds = 0;  ///< per decode step, 0 on one card
    double error_low = 0, error_high = 0;  ///< the decode prediction's expected error
};

/// One card (the fastest that fits alone) when the model fits one, else a layer split over every card
/// in proportion to each card's usable memory: a step takes Σ share × (that card's step on the whole
/// model) + the links' seconds. InputError (source "predict") as predict() raises it.
ServingPrediction predict_serving(const std::vector<ServingCards>& cards, const ServingRequest& request,
                                  const SplitLink& link, const Catalog& catalog, const ModelCatalog& models);

}  // namespace payback
