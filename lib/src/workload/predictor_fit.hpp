// The predictor's fitted constants (lib/src/workload/predictor_fit.cpp, written by
// tools/fit_predictor.py --write; names are views of string literals, so the table is built without
// allocating): achievable fractions per architecture family and the error of the
// fit on the measurements it held out.
#pragma once

#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace payback::detail {

/// One family's fractions; none where the data had no device of the family for that phase.
struct FamilyFractions {
    std::string_view family;
    std::optional<double> train_fp16;        ///< mixed-precision training: of fp32_tflops
    std::optional<double> train_fp32;        ///< FP32 (TF32 where the GPU has it) training: of fp32_tflops
    std::optional<double> prefill;           ///< prompt processing with F16 weights: of fp32_tflops
    std::optional<double> decode_bandwidth;  ///< token generation: of memory_bandwidth_gb_s
    std::optional<double> decode_overhead_s; ///< token generation: seconds per step besides the bytes
    std::optional<double> train_transformer;  ///< a transformer's training against ResNet-50's, this family
    std::optional<double> decode_unpack_flops;  ///< token generation: FP32 operations to unpack a quantized weight
    std::optional<double> flops_per_byte;  ///< fp32_tflops ÷ memory bandwidth, for a device gpus.csv gives no FLOPs
    std::optional<double> watts_per_tflop;  ///< the median board_power_watts ÷ fp32_tflops of the family's devices
};

/// Signed relative error (predicted ÷ measured − 1) on the held-out measurements of one phase.
struct PhaseError {
    double low = 0, high = 0;             ///< the lowest and the highest
    double median_abs = 0, worst_abs = 0;
};

struct PredictorFit {
    std::vector<FamilyFractions> families;
    /// for a family without data: the fitted families' geometric mean (median overhead and unpacking cost); its
    /// training fractions are empty (train_fp16_flops_per_byte stands in)
    FamilyFractions fallback;
    std::vector<std::pair<std::string_view, double>> train_model_factor;  ///< a transformer's, relative to bert-base's 1
    double transformer_factor = 1;  ///< a training transformer the fit did not see: the fitted ones' mean
    double prefill_quantized_factor = 1;  ///< quantized weights' prefill relative to F16's
    /// A transformer's mixed-precision training on a GPU whose tensor cores accumulate FP32 at half rate (GeForce)
    double train_half_rate_factor = 1;
    /// Training scales with (the device's watts per TFLOP ÷ its family's median, at most 1) to this power
    double train_power_exponent = 0;
    /// A family without training data: achievable FLOP/s per byte/s of memory bandwidth (mixed precision, FP32),
    /// the fitted families' geometric mean; a fraction of FP32 peak does not carry over between families
    double train_fp16_flops_per_byte = 0, train_fp32_flops_per_byte = 0;
    /// What current llama.cpp CUDA builds (2025) pay a decode step besides the bytes, as a share of the 2023-24
    /// tables' fitted overhead: applied to NVIDIA devices (tests/fixtures/predictor/llama-bench-current.csv)
    double decode_overhead_current = 1;
    /// Decoding several sequences at once: each beyond the first, up to 8 (llama.cpp's vector kernels for a few
    /// tokens a step), adds its FLOPs to the step at this share of FP32 peak, fitted to the RTX 3090's micro-batches
    /// of 2-8 tokens in tests/fixtures/predictor/llama-bench-current.csv; further ones at a prompt's share
    double decode_batch_share = 1;
    PhaseError train, prefill, decode;
    /// A device of a family the phase's data has none of: each measured family predicted as one
    PhaseError train_unfitted, prefill_unfitted, decode_unfitted;
    /// Prefill on a device gpus.csv gives no FP32 figure (Apple's M3 chips), at the stand-in the predictor uses
    /// (its bandwidth × its family's FLOPs per byte): those devices' rows of the table, not fitted on
    PhaseError prefill_without_fp32;
    /// Decode of several sequences at once, on rows not fitted on: the GB10's llama-batched-bench (2 to 32
    /// sequences at contexts of 528 to 8,208, tests/fixtures/predictor/llama-bench-unfitted.csv), an RTX 4090's
    /// prompt in micro-batches of 16 to 512 tokens (llama-bench-microbatch-2024.csv) and an M1 Pro's of 2 to 4
    /// (Metal, llama-bench-metal-2024.csv)
    PhaseError decode_batched;
};

const PredictorFit& predictor_fit();

}  // namespace payback::detail
