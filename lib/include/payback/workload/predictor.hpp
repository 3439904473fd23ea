// How fast a model runs on a device, from the device's specs and the model's FLOPs and bytes: a
// roofline, time = max(FLOPs ÷ achievable FLOP/s, bytes ÷ achievable bandwidth) + a fixed overhead per
// step, whose achievable fractions per architecture family were fitted to published measurements
// (Lambda's deeplearning-benchmark for training, llama.cpp's llama-bench tables for prefill and
// decode; tools/fit_predictor.py, docs/benchmark.md). With a calibration profile, a device the profile
// measured returns its measurement, and another is scaled from the nearest measured one by the same
// model. Memory: weights + KV cache + activations against the device's memory.
#pragma once

#include <optional>
#include <string>

#include "payback/market/catalog.hpp"
#include "payback/workload/calibration.hpp"
#include "payback/workload/model_catalog.hpp"

namespace payback {

/// What to predict; empty strings take the defaults.
struct PredictRequest {
    std::string device{};     ///< a gpus.csv name
    std::string workload{};   ///< a models.csv name
    std::string precision{};  ///< fp32, fp16 or bf16; default fp16 (mixed precision)
    std::string quant{};      ///< an LLM's weights: a quants.csv name; default f16; none for a training workload
    std::string phase{};      ///< train, prefill or decode; default train for a training workload, decode for an LLM
    int batch = 1;          ///< samples per step, or sequences decoded at once
    std::optional<int> context{};  ///< an LLM's KV cache length, tokens; default 4096 or the model's maximum
    int gpus = 1;  ///< identical devices an LLM's layers are split over (llama.cpp's default, --split-mode layer)
};

/// What one more device costs a decode step when an LLM's layers are split over several: the hidden
/// state crosses a link and the devices synchronize. Fitted to the multi-GPU rows of Xiongjie Dai's
/// llama-bench tables (tests/fixtures/predictor/llama-bench-split.csv, docs/benchmark.md).
inline constexpr double split_hop_seconds = 0.0001834;

struct Prediction {
    std::string device, workload, precision, quant, phase;  ///< quant empty for a training workload
    int batch = 1;
    int gpus = 1;                 ///< devices the layers are split over
    double split_seconds = 0;     ///< what the split adds to a step: (gpus − 1) × split_hop_seconds
    int context = 0;              ///< 0 for a training workload
    double per_second = 0;        ///< samples per second (train) or tokens per second (prefill, decode)
    bool tokens = false;          ///< per_second counts tokens
    double error_low = 0;         ///< expected relative error, from the fit's held-out measurements
    double error_high = 0;
    /// The phase's data had a device of this one's architecture family; if not, the other families stand in
    /// and the error is theirs predicted so (each measured family left out of the fit in turn): wider.
    bool family_fitted = true;
    bool measured = false;        ///< basis: "measured" (from a profile) or "predicted"
    bool fits_memory = true;
    double memory_gb_needed = 0;  ///< GB of 2^30 bytes (memory_fit.hpp)
    double memory_gb = 0;         ///< what the device lets a model use: 75 % of unified memory
    std::string how;              ///< one line: what the figure was computed from
};

/// The memory a model may use on one of `gpu`'s devices, GB of 2^30 bytes: all of a card's, 75 % of
/// unified memory (what macOS lets the GPU wire; AMD's Variable Graphics Memory is alike). 0: unknown.
double usable_memory_gb(const GpuSpec& gpu);

/// "expected error -11 %/+46 %": a prediction's error band (fractions, low negative) as every origin
/// text words it.
std::string expected_error_text(double low, double high);

/// "roofline", or "roofline; its family unmeasured" for a prediction whose architecture family had no
/// device in the phase's data (its expected error is then the wider one measured for that).
std::string roofline_basis(const Prediction& p);

/// The roofline's prediction; InputError (source "predict", the argument as key, suggestions for
/// names) on an unknown device or model, a quant the model has no row for, a phase it has no figures
/// for, a batch below 1, a context outside 1..the model's maximum, or gpus outside 1..64 or above 1
/// for a training workload. Split over several devices, an LLM may use all their memory; its layers
/// run one device after another, so a step takes one device's time plus the hops.
Prediction predict(const PredictRequest& request, const Catalog& catalog, const ModelCatalog& models);

/// With a profile (`payback bench`): its measurement when it measured the device and workload (at the
/// batch when it has it, else at its largest), else the nearest measured GPU's measurement scaled by the
/// roofline's ratio of the two. InputError (key "from") when it measured no GPU on the workload.
Prediction predict_from_profile(const PredictRequest& request, const CalibrationProfile& profile,
                                const Catalog& catalog, const ModelCatalog& models);

/// `predict_from_profile` where `profile` is given, else `predict`: what `--from` chooses.
Prediction predict_with(const PredictRequest& request, const CalibrationProfile* profile, const Catalog& catalog,
                        const ModelCatalog& models);

}  // namespace payback
