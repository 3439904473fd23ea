#include "payback/workload/predictor.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <fmt/format.h>

#include "payback/base/error.hpp"
#include "payback/base/suggest.hpp"
#include "payback/workload/memory_fit.hpp"
#include "workload/predictor_fit.hpp"

namespace payback {

std::string expected_error_text(double low, double high) {
    return fmt::format("expected error {:+.0f} %/{:+.0f} %", low * 100, high * 100);
}

std::string roofline_basis(const Prediction& p) {
    return p.family_fitted ? "roofline" : "roofline; its family unmeasured";
}

namespace {

using detail::FamilyFractions;
using detail::predictor_fit;

constexpr const char* source = "predict";
// An LLM's context when none is given, capped by the model's own maximum.
constexpr int default_context = 4096;
// llama.cpp evaluates a prompt in micro-batches of this many tokens, reading the weights once for each.
constexpr double prefill_ubatch = 512;
// Training keeps FP16/FP32 weights, gradients and Adam's two moments: 16 bytes a parameter
// (Rajbhandari et al., ZeRO, https://arxiv.org/abs/1910.02054, section 3.1); activations not counted.
constexpr double training_bytes_per_parameter = 16;
// A training step reads the weights in the forward and backward passes and writes them in the update.
constexpr double training_weight_passes = 3;
constexpr double fp16_bytes = 2;  // an FP16 KV cache entry, or a weight as mixed-precision training reads it
// macOS lets the GPU wire about 75 % of unified memory (recommendedMaxWorkingSetSize); AMD's Variable
// Graphics Memory gives at most 96 of 128 GB. The same share for every unified-memory device.
constexpr double unified_memory_share = 0.75;
// The most devices a split may name: the published rows go to 8; beyond a few dozen it is a typo.
constexpr int max_split_gpus = 64;
// As `payback bench --batch`: samples a step, or sequences decoded at once, beyond any served or trained.
constexpr int max_batch = 65536;
// llama.cpp multiplies up to this many tokens a step by quantized weights with vector kernels (CUDA's mmvq,
// MMVQ_MAX_BATCH_SIZE; Metal's small-batch kernels), and more with the matrix kernels a prompt uses.
constexpr int vector_kernel_tokens = 8;

[[noreturn]] void bad(const std::string& key, const std::string& message) { throw InputError(source, 0, key, message); }

const GpuSpec& find_device(const Catalog& catalog, const std::string& name) {
    if (name.empty()) bad("device", "must name a device of gpus.csv (payback catalog gpus lists them)");
    std::vector<std::string> known;
    for (const GpuSpec& g : catalog.gpus()) {
        if (g.name == name) return g;
        known.push_back(g.name);
    }
    const std::string hint = detail::closest_match(name, known);
    bad("device", fmt::format("no device named \"{}\" in gpus.csv{}", name,
                              hint.empty() ? std::string() : "; did you mean \"" + hint + "\"?"));
}

const ModelSpec& find_model(const ModelCatalog& models, const std::string& name) {
    try {
        return models.model(name);
    } catch (const InputError& e) {
        bad("workload", e.message());
    }
}

// The GPU's family's value of this fraction; none where the data had no device of the family for it.
const std::optional<double>& family_value(const GpuSpec& gpu, std::optional<double> FamilyFractions::*field) {
    static const std::optional<double> none;
    for (const FamilyFractions& f : predictor_fit().families)
        if (f.family == gpu.architecture && f.*field) return f.*field;
    return none;
}

bool family_fitted(const GpuSpec& gpu, std::optional<double> FamilyFractions::*field) {
    return family_value(gpu, field).has_value();
}

// The family's fraction, or the fitted families' mean where the data had no device of it.
double fraction(const GpuSpec& gpu, std::optional<double> FamilyFractions::*field) {
    const std::optional<double>& own = family_value(gpu, field);
    return own ? *own : *(predictor_fit().fallback.*field);  // not value_or: the fallback's may be empty
}

// The phase's expected error: its held-out measurements', or for a family the data had none of, the error of
// each measured family predicted as one.
void set_error(Prediction& p, bool fitted, const detail::PhaseError& measured, const detail::PhaseError& unfitted) {
    p.family_fitted = fitted;
    p.error_low = fitted ? measured.low : unfitted.low;
    p.error_high = fitted ? measured.high : unfitted.high;
}

// A case the fit's phase error does not cover, checked on rows not fitted on: the wider of the two ranges.
void widen_error(Prediction& p, const detail::PhaseError& checked) {
    p.error_low = std::min(p.error_low, checked.low);
    p.error_high = std::max(p.error_high, checked.high);
}

// Said in a prediction's `how` when its family had no device in the phase's data.
std::string unfitted_note(const Prediction& p, const GpuSpec& gpu, const char* stand_in) {
    return p.family_fitted ? std::string()
                           : fmt::format("; no {} device was measured for {}: {}", gpu.architecture, p.phase, stand_in);
}

double required_spec(const GpuSpec& gpu, const std::optional<double>& value, const char* column, const std::string& phase) {
    if (!value)
        bad("device", fmt::format("{} has no {} in gpus.csv, which the {} prediction needs", gpu.name, column, phase));
    return *value;
}

// A model's training throughput against ResNet-50's on the same device: the family's factor for transformers
// times the model's own against bert-base (a transformer the fit did not see: the fitted ones' mean).
double train_model_factor(const GpuSpec& gpu, const ModelSpec& model) {
    if (!model.heads) return 1.0;
    const double family = fraction(gpu, &FamilyFractions::train_transformer);
    for (const auto& [name, factor] : predictor_fit().train_model_factor)
        if (name == model.name) return family * factor;
    return family * (model.name == "bert-base" ? 1.0 : predictor_fit().transformer_factor);
}

// A card whose power limit is low for its peak cannot hold its boost clock through training (the 250 W A100
// 40GB PCIe against the 400 W SXM4 module at the same peak): its watts per TFLOP against its family's median,
// at most 1, to the fitted exponent. More power than the family's usual buys nothing beyond the peak (and the
// GH200's feeds its CPU too); a device without a board power in gpus.csv counts as the median.
double power_limit_factor(const GpuSpec& gpu) {
    if (!gpu.board_power_watts || !gpu.fp32_tflops) return 1.0;
    const double ratio = *gpu.board_power_watts / *gpu.fp32_tflops / fraction(gpu, &FamilyFractions::watts_per_tflop);
    return std::pow(std::min(1.0, ratio), predictor_fit().train_power_exponent);
}

// FP32 FLOP/s: gpus.csv's, or for a device without one its bandwidth times the family's FLOPs per byte.
double compute_flops(const GpuSpec& gpu, double bandwidth) {
    return gpu.fp32_tflops ? *gpu.fp32_tflops * 1e12 : bandwidth * fraction(gpu, &FamilyFractions::flops_per_byte);
}

// The request checked and its defaults filled in, as the prediction reports them.
struct Resolved {
    const GpuSpec* gpu = nullptr;
    const ModelSpec* model = nullptr;
    const QuantFormat* quant = nullptr;  // LLMs only
    Prediction out;
};

Resolved resolve(const PredictRequest& request, const Catalog& catalog, const ModelCatalog& models) {
    Resolved r;
    r.gpu = &find_device(catalog, request.device);
    r.model = &find_model(models, request.workload);
    Prediction& p = r.out;
    p.device = r.gpu->name;
    p.workload = r.model->name;
    p.batch = request.batch;
    if (request.batch < 1 || request.batch > max_batch)
        bad("batch", fmt::format("must be 1 to {}, got {}", max_batch, request.batch));
    p.gpus = request.gpus;
    if (request.gpus < 1 || request.gpus > max_split_gpus)
        bad("gpus", fmt::format("must be 1 to {}, got {}", max_split_gpus, request.gpus));
    p.precision = request.precision.empty() ? "fp16" : request.precision;
    if (p.precision != "fp32" && p.precision != "fp16" && p.precision != "bf16")
        bad("precision", fmt::format("expected fp32, fp16 or bf16, got \"{}\"", p.precision));
    const bool llm = r.model->kind == ModelKind::llm;
    p.phase = !request.phase.empty() ? request.phase : llm ? "decode" : "train";
    if (p.phase != "train" && p.phase != "prefill" && p.phase != "decode")
        bad("phase", fmt::format("expected train, prefill or decode, got \"{}\"", p.phase));
    if (llm && p.phase == "train")
        bad("phase", fmt::format("{} is an LLM: the predictor has prefill and decode for it, not training", p.workload));
    if (!llm && p.phase != "train")
        bad("phase", fmt::format("{} is a training workload: its phase is train, not {}", p.workload, p.phase));
    if (!llm) {
        if (!request.quant.empty())
            bad("quant", fmt::format("{} is a training workload and has no quantized weights; --quant is for LLMs",
                                     p.workload));
        if (request.context) bad("context", fmt::format("{} is a training workload and has no KV cache", p.workload));
        if (request.gpus > 1)
            bad("gpus", fmt::format("{} is a training workload; --gpus splits an LLM's layers over devices (a rig's "
                                    "data-parallel training is its scaling, docs/hardware.md)",
                                    p.workload));
        return r;
    }
    p.tokens = true;
    p.quant = request.quant.empty() ? "f16" : request.quant;
    try {
        r.quant = &models.quant(p.quant);
    } catch (const InputError& e) {
        bad("quant", e.message());
    }
    p.context = request.context.value_or(std::min(default_context, *r.model->context));
    if (p.context < 1 || p.context > *r.model->context)
        bad("context", fmt::format("{} takes 1 to {} tokens of context, got {}", p.workload, *r.model->context, p.context));
    return r;
}

void check_memory(const Resolved& r, Prediction& p) {
    if (r.quant)
        p.memory_gb_needed = llm_memory(*r.model, *r.quant, p.context, p.batch).total_gb();
    else
        p.memory_gb_needed = r.model->parameters * training_bytes_per_parameter / bytes_per_gb;
    p.memory_gb = usable_memory_gb(*r.gpu) * p.gpus;
    p.fits_memory = p.memory_gb_needed <= p.memory_gb;
}

// The roofline on one resolved request: per_second, how, and the phase's expected error.
void roofline(const Resolved& r, Prediction& p) {
    const GpuSpec& gpu = *r.gpu;
    const ModelSpec& model = *r.model;
    const auto& fit = predictor_fit();
    const double bandwidth = required_spec(gpu, gpu.memory_bandwidth_gb_s, "memory_bandwidth_gb_s", p.phase) * 1e9;
    if (p.phase == "train") {
        const auto share = p.precision == "fp32" ? &FamilyFractions::train_fp32 : &FamilyFractions::train_fp16;
        set_error(p, family_fitted(gpu, share), fit.train, fit.train_unfitted);
        // A family without training data: the FLOPs the fitted families achieve per byte of bandwidth (consumer
        // Ampere and Ada doubled their FP32 rate per clock, so a fraction of FP32 peak does not carry over).
        const double achievable =
            p.family_fitted ? required_spec(gpu, gpu.fp32_tflops, "fp32_tflops", p.phase) * 1e12 * fraction(gpu, share)
                            : bandwidth * (p.precision == "fp32" ? fit.train_fp32_flops_per_byte : fit.train_fp16_flops_per_byte);
        // GeForce tensor cores accumulate FP32 at half their FP16-accumulate rate; mixed precision accumulates in
        // FP32, and a transformer's time is mostly in those GEMMs.
        const bool half_rate = p.precision != "fp32" && model.heads && gpu.tensor_fp32_accumulate == "half";
        const double power = power_limit_factor(gpu);
        const double flops =
            achievable * train_model_factor(gpu, model) * (half_rate ? fit.train_half_rate_factor : 1.0) * power;
        const double bytes = training_weight_passes * model.parameters *
                             (p.precision == "fp32" ? 4.0 : fp16_bytes) / p.batch;
        const double seconds = std::max(*model.flops_per_sample / flops, bytes / (bandwidth * fraction(gpu, &FamilyFractions::decode_bandwidth)));
        p.per_second = 1 / seconds;
        p.how = fmt::format("roofline: {:.3g} FLOP a sample at {:.1f} TFLOP/s achievable ({} family, {}{}{}{})",
                            *model.flops_per_sample, flops / 1e12, gpu.architecture, p.precision,
                            half_rate ? ", tensor cores accumulating FP32 at half rate" : "",
                            power < 1 ? fmt::format(", × {:.2f} for a power limit low for its peak", power) : "",
                            unfitted_note(p, gpu, "the FLOPs the measured families achieve per byte of bandwidth"));
        return;
    }
    const double head_width = double(*model.heads) * *model.head_dim;
    // A token reads the matrices outside the experts and its experts', in the format's bits for each.
    const double weight_bytes_per_token = r.quant->bytes(model.shared_weights(), model.active_expert_weights());
    const double kv_bytes = model.kv_cache_bytes(p.context, fp16_bytes);
    const double achievable_bandwidth = bandwidth * fraction(gpu, &FamilyFractions::decode_bandwidth);
    const double fp32 = compute_flops(gpu, bandwidth);
    // The share of FP32 peak a prompt's matrix kernels reach: prefill's, and decode's sequences beyond the few.
    const double prompt_share =
        fraction(gpu, &FamilyFractions::prefill) * (p.quant == "f16" ? 1.0 : fit.prefill_quantized_factor);
    if (p.phase == "prefill") {
        // Attention over a prompt of `context` tokens: QKᵀ and ×V at the average position context ÷ 2.
        const double flops = *model.flops_per_token + 4.0 * model.attended_positions(p.context / 2.0) * head_width;
        const double seconds = std::max(flops / (fp32 * prompt_share),
                                        r.quant->bytes(model.shared_weights(), model.expert_weights()) / prefill_ubatch /
                                            achievable_bandwidth);
        p.per_second = 1 / seconds;
        set_error(p, family_fitted(gpu, &FamilyFractions::prefill), fit.prefill, fit.prefill_unfitted);
        if (!gpu.fp32_tflops) widen_error(p, fit.prefill_without_fp32);  // the stand-in for its compute
        p.how = fmt::format("roofline: {:.3g} FLOP a token at {:.1f} TFLOP/s achievable ({} family, {} weights{}{}{})", flops,
                            fp32 * prompt_share / 1e12, gpu.architecture, p.quant,
                            unfitted_note(p, gpu, "the measured families' mean fraction"),
                            gpu.fp32_tflops ? "" : fmt::format("; no FP32 figure published: {:.1f} TFLOPS from its bandwidth "
                                                               "at the family's FLOPs a byte", fp32 / 1e12),
                            p.gpus > 1 ? fmt::format("; as on one of the {} GPUs: the split's cost to prompts is not "
                                                     "modelled",
                                                     p.gpus)
                                       : "");
        return;
    }
    // decode: one step produces a token for each of `batch` sequences; a mixture of experts reads more
    // experts the more sequences it decodes at once, up to all of them.
    const double step_experts = model.step_expert_weights(p.batch);
    const double weight_bytes = r.quant->bytes(model.shared_weights(), step_experts);
    const double step_weights = model.shared_weights() + step_experts;
    const double bytes = weight_bytes + p.batch * kv_bytes;
    const double memory_seconds = bytes / achievable_bandwidth;
    const double sequence_flops = *model.flops_per_token + 4.0 * model.attended_positions(p.context) * head_width;
    // One sequence's compute overlaps the weights' reading (the fitted one-sequence tables hold it); each further
    // one's adds to the step: up to vector_kernel_tokens at a share of FP32 peak fitted to a 3090's micro-batches,
    // beyond that at a prompt's share.
    const double compute_seconds = sequence_flops / (fp32 * fraction(gpu, &FamilyFractions::prefill));
    // Apple's GPUs run llama.cpp's Metal kernels, whose products of a few tokens pass over the weights once for
    // each token (an M1 Pro's prompts of 2 to 4 tokens; llama.cpp pull request 29110 measures the same in 2026):
    // there a further token up to vector_kernel_tokens costs another read of its weights, not its compute.
    const bool metal = gpu.vendor == "Apple";
    const double vector_token_seconds = metal ? weight_bytes_per_token / achievable_bandwidth
                                              : sequence_flops / (fp32 * fit.decode_batch_share);
    const double more_sequences_seconds = (std::min(p.batch, vector_kernel_tokens) - 1) * vector_token_seconds +
                                          std::max(0, p.batch - vector_kernel_tokens) * sequence_flops / (fp32 * prompt_share);
    // The overhead fitted to 2023-24 tables; current CUDA builds pay a share of it (CUDA graphs, fused kernels).
    const bool cuda = gpu.vendor == "NVIDIA";
    const double overhead = fraction(gpu, &FamilyFractions::decode_overhead_s) * (cuda ? fit.decode_overhead_current : 1.0);
    // Quantized weights are unpacked once a step, at a cost in FP32 operations a weight fitted per family.
    const double unpack_seconds =
        p.quant == "f16" ? 0.0 : step_weights * fraction(gpu, &FamilyFractions::decode_unpack_flops) / fp32;
    // Split over several devices, each reads its layers' share at its own bandwidth, one after another:
    // the memory time is one device's, and each further device adds a hop.
    p.split_seconds = (p.gpus - 1) * split_hop_seconds;
    p.per_second = p.batch / (std::max(memory_seconds, compute_seconds) + more_sequences_seconds + unpack_seconds +
                              overhead + p.split_seconds);
    set_error(p, family_fitted(gpu, &FamilyFractions::decode_bandwidth), fit.decode, fit.decode_unfitted);
    if (p.batch > 1) widen_error(p, fit.decode_batched);  // the further sequences' error, on rows not fitted on
    p.how = fmt::format("roofline: {:.2f} GB a step at {:.0f} GB/s achievable + {:.2f} ms a step{}{}{}{} ({} family{})",
                        bytes / 1e9, achievable_bandwidth / 1e9, overhead * 1e3, cuda ? " (current llama.cpp CUDA)" : "",
                        p.batch > 1 ? fmt::format(" + {:.2f} ms {} {} more sequence{}{}", more_sequences_seconds * 1e3,
                                                  metal ? "for" : "computing", p.batch - 1, p.batch > 2 ? "s" : "",
                                                  metal ? " (Metal reads the weights again for each of up to 7)" : "")
                                    : "",
                        unpack_seconds > 0 ? fmt::format(" + {:.2f} ms unpacking {}", unpack_seconds * 1e3, p.quant) : "",
                        p.gpus > 1 ? fmt::format(" + {:.2f} ms for {} hop{} between {} GPUs", p.split_seconds * 1e3,
                                                 p.gpus - 1, p.gpus > 2 ? "s" : "", p.gpus)
                                   : "",
                        gpu.architecture, unfitted_note(p, gpu, "the measured families' mean fraction"));
}

}  // namespace

Prediction predict(const PredictRequest& request, const Catalog& catalog, const ModelCatalog& models) {
    Resolved r = resolve(request, catalog, models);
    check_memory(r, r.out);
    roofline(r, r.out);
    return r.out;
}

Prediction predict_from_profile(const PredictRequest& request, const CalibrationProfile& profile, const Catalog& catalog,
                                const ModelCatalog& models) {
    Resolved r = resolve(request, catalog, models);
    Prediction& p = r.out;
    check_memory(r, p);
    if (p.tokens)
        throw InputError(profile.source, 0, "from",
                         fmt::format("the profile holds samples per second of training workloads; {} is an LLM",
                                     p.workload));
    // The GPU results of this workload, at the requested batch where the profile has it, else at the largest.
    std::vector<const BenchResult*> results;
    for (const BenchResult& b : profile.results)
        if (b.device == "cuda" && b.workload == p.workload) results.push_back(&b);
    if (results.empty())
        throw InputError(profile.source, 0, "from", fmt::format("the profile measured no GPU on {}", p.workload));
    const bool has_batch = std::any_of(results.begin(), results.end(), [&](const BenchResult* b) { return b->batch == p.batch; });
    int largest = 0;
    for (const BenchResult* b : results) largest = std::max(largest, b->batch);
    std::erase_if(results, [&](const BenchResult* b) { return b->batch != (has_batch ? p.batch : largest); });
    for (const BenchResult* b : results) {
        if (same_gpu(b->device_name, p.device)) {
            p.per_second = b->samples_per_second;
            p.measured = true;
            p.how = fmt::format("measured: {}, {}, batch {}", profile.source, b->device_name, b->batch);
            return p;
        }
    }
    roofline(r, p);
    const double target = p.per_second;
    // The nearest measured GPU: the one the roofline puts closest in speed to the target.
    const BenchResult* nearest = nullptr;
    double nearest_ratio = 0;
    for (const BenchResult* b : results) {
        for (const GpuSpec& g : catalog.gpus()) {
            if (!same_gpu(b->device_name, g.name)) continue;
            PredictRequest anchor_request = request;
            anchor_request.device = g.name;
            Resolved anchor = resolve(anchor_request, catalog, models);
            roofline(anchor, anchor.out);
            const double ratio = target / anchor.out.per_second;
            if (!nearest || std::abs(std::log(ratio)) < std::abs(std::log(nearest_ratio))) {
                nearest = b;
                nearest_ratio = ratio;
            }
            break;
        }
    }
    if (!nearest)
        throw InputError(profile.source, 0, "from",
                         fmt::format("no GPU the profile measured on {} is in gpus.csv", p.workload));
    p.per_second = nearest->samples_per_second * nearest_ratio;
    p.how = fmt::format("{} measured {:.0f} samples/s ({}, batch {}), scaled by the roofline's {:.3f}", nearest->device_name,
                        nearest->samples_per_second, profile.source, nearest->batch, nearest_ratio);
    return p;
}

Prediction predict_with(const PredictRequest& request, const CalibrationProfile* profile, const Catalog& catalog,
                        const ModelCatalog& models) {
    return profile ? predict_from_profile(request, *profile, catalog, models) : predict(request, catalog, models);
}

double usable_memory_gb(const GpuSpec& gpu) {
    return gpu.memory_gb.value_or(0) * (gpu.unified_memory ? unified_memory_share : 1.0);
}

}  // namespace payback
