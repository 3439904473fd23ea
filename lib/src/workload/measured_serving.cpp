#include "payback/workload/measured_serving.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "payback/base/error.hpp"
#include "payback/workload/predictor.hpp"
#include "workload/predictor_fit.hpp"

namespace payback {

namespace {

constexpr const char* llm_decode = "llm-decode";
// llm-decode keeps its KV cache in float32; the predictor sizes a served model's in FP16 (llama.cpp's).
constexpr double bench_kv_bytes = 4;
constexpr double served_kv_bytes = 2;
// Scaling a measured rate to another quant by weight bytes alone: on llama-bench.csv's pairs of one
// model at two quants on the same device and table (tests/fixtures/predictor, 38 decode pairs), the
// bytes ratio put the other quant's rate at -55 % to +121 % of its measurement (unpacking and fixed
// overheads do not scale with bytes). The same quant keeps the predictor's band.
constexpr double other_quant_error_low = -0.55;
constexpr double other_quant_error_high = 1.21;

// The weights llm-decode's products read for every token, as lib/bench's llm_matrix_weights counts
// them: q and o (d × d), k and v (d × kv_dim), gate, up and down (d × ffn) per layer, and the output.
double bench_matrix_weights(const LlmShape& m) {
    const double d = m.d_model, kv = double(m.d_model) / m.heads * m.kv_heads;
    return (2 * d * d + 2 * kv * d + 3 * d * m.ffn) * m.layers + double(m.vocab) * d;
}

}  // namespace

const BenchResult& llm_decode_result(const CalibrationProfile& profile, const ServingRequest& request) {
    const BenchResult* best = nullptr;
    const auto distance = [&](const BenchResult& b) {
        return std::tuple(b.quant != request.quant, std::abs(std::log(double(b.batch) / request.concurrency)), -b.batch);
    };
    std::set<std::string> measured;
    for (const BenchResult& b : profile.results) {
        measured.insert(b.workload);
        if (b.workload == llm_decode && (!best || distance(b) < distance(*best))) best = &b;
    }
    if (!best)
        throw InputError(profile.source, 0, "results",
                         fmt::format("holds no {} result (it measured {}): run `payback bench --workload llm-decode` "
                                     "on the device that serves the tokens",
                                     llm_decode, measured.empty() ? "nothing" : fmt::format("{}", fmt::join(measured, ", "))));
    return *best;
}

ServingPrediction serving_from_profile(const CalibrationProfile& profile, const ServingRequest& request,
                                       const ModelCatalog& models) {
    const BenchResult& b = llm_decode_result(profile, request);
    const auto index = static_cast<std::size_t>(&b - profile.results.data());
    const auto missing = [&](const char* key, const std::string& why) {
        return InputError(profile.source, 0, fmt::format("results[{}].{}", index, key), "missing: " + why);
    };
    const std::string rerun = "run `payback bench --workload llm-decode` again to record it";
    if (!b.tokens_per_second) throw missing("tokens_per_second", "the measured decode rate; " + rerun);
    if (!b.prefill_tokens_per_second) throw missing("prefill_tokens_per_second", "the measured prompt rate; " + rerun);
    if (!b.llm) throw missing("llm", "the benchmark model's shape (layers, d_model, ...); " + rerun);
    if (b.context < 1) throw missing("context", "the cached positions each measured token attended to; " + rerun);
    const LlmShape& shape = *b.llm;
    const ModelSpec& model = models.model(request.model);
    const QuantFormat& quant = models.quant(request.quant);

    // Decode: a step reads the weights once and each sequence's cache, so bytes a step × steps a second
    // is what the device achieves; the served model's step takes its own bytes at that rate (the
    // predictor's decode bytes: a mixture of experts reads more experts the more sequences at once).
    const double bench_weight_bytes = bench_matrix_weights(shape) * models.quant(b.quant).bits_per_weight / 8;
    const double bench_kv = 2.0 * shape.layers * (double(shape.d_model) / shape.heads * shape.kv_heads) * b.context *
                            bench_kv_bytes;
    const double bytes_per_second = (bench_weight_bytes + b.batch * bench_kv) * *b.tokens_per_second / b.batch;
    const int batch = request.concurrency;
    const double weight_bytes = quant.bytes(model.shared_weights(), model.step_expert_weights(batch));
    const double kv = model.kv_cache_bytes(request.context, served_kv_bytes);
    const double decode = batch * bytes_per_second / (weight_bytes + batch * kv);

    // Prefill: 2 FLOPs a matrix weight a token and attention at the prompt's average position (the
    // predictor's count), so FLOPs a token × tokens a second is what the device achieves.
    const double bench_flops = 2 * bench_matrix_weights(shape) + 2.0 * shape.layers * b.context * shape.d_model;
    const double flops_per_second = bench_flops * *b.prefill_tokens_per_second;
    const double flops =
        *model.flops_per_token + 4.0 * model.attended_positions(request.context / 2.0) * *model.heads * *model.head_dim;
    const double prefill = flops_per_second / flops;

    ServingPrediction out;
    const bool same_quant = b.quant == request.quant;
    out.error_low = same_quant ? detail::predictor_fit().decode.low : other_quant_error_low;
    out.error_high = same_quant ? detail::predictor_fit().decode.high : other_quant_error_high;
    out.rates = {prefill, decode, "", true};
    out.rates.origin = fmt::format(
        "measured on {} (profile {}: llm-decode, {} layers, d_model {}, {}, batch {}, context {}: {:.4g} decode and "
        "{:.4g} prefill tokens/s), scaled to {} {} by bytes a decode step ({:.3g} GB/s achieved) and FLOPs a "
        "prompt token ({:.3g} GFLOP/s achieved), {}",
        b.device_name, profile.source, shape.layers, shape.d_model, b.quant, b.batch, b.context, *b.tokens_per_second,
        *b.prefill_tokens_per_second, model.name, quant.name, bytes_per_second / 1e9, flops_per_second / 1e9,
        expected_error_text(out.error_low, out.error_high));
    return out;
}

}  // namespace payback
