// Tokens a second of a catalog model on the device a `payback bench --workload llm-decode` profile
// measured: the benchmark's own small model gives the device's achieved rates, which the predictor's
// decode and prefill model (predictor.hpp) carries over to the catalog model. Decode reads the weights
// once a step and every sequence's KV cache, so the measured rate gives the bytes a second the device
// achieves; prefill is compute-bound, so it gives the FLOPs a second. docs/inference.md, "Rates from a
// measured profile", works an example by hand.
#pragma once

#include "payback/workload/calibration.hpp"
#include "payback/workload/model_catalog.hpp"
#include "payback/workload/serving_prediction.hpp"

namespace payback {

/// The llm-decode measurement the rates come from: the one at the request's quant where the profile has
/// one, at the batch closest to the request's concurrency (the larger on a tie).
const BenchResult& llm_decode_result(const CalibrationProfile& profile, const ServingRequest& request);

/// The request's decode and prefill rates on the profile's device, origin "measured on DEVICE (profile
/// FILE, llm-decode SHAPE QUANT), scaled to MODEL by ...", expected error as the predictor's decode
/// error when the profile measured the request's quant, wider when it did not. InputError (the profile's
/// file, key "results" or "results[i].KEY") when the profile has no llm-decode result, or its chosen
/// result lacks tokens_per_second, prefill_tokens_per_second, the model's shape (llm) or its context.
ServingPrediction serving_from_profile(const CalibrationProfile& profile, const ServingRequest& request,
                                       const ModelCatalog& models);

}  // namespace payback
