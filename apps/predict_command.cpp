// payback predict --device NAME --workload NAME [--precision fp32|fp16|bf16] [--quant f16|q8_0|q4_0|q4_k_m]
//   [--phase train|prefill|decode] [--batch N] [--context N] [--gpus N] [--from PROFILE.json] [--json]
#include <memory>

#include <fmt/format.h>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/report/prediction_json.hpp"
#include "payback/workload/predictor.hpp"

namespace payback::cli {

namespace {

struct PredictArgs {
    PredictRequest request;
    std::string profile;
    bool json = false;
};

std::string text(const Prediction& p) {
    std::string out = fmt::format("{} on {}{}: {:.4g} {} per second ({}, expected error {:+.0f} % to {:+.0f} %)\n",
                                  p.workload, p.device,
                                  p.tokens ? fmt::format(", {} {} at context {}", p.quant, p.phase, p.context)
                                           : fmt::format(", {} training", p.precision),
                                  p.per_second, p.tokens ? "tokens" : "samples", p.measured ? "measured" : "predicted",
                                  100 * p.error_low, 100 * p.error_high);
    // GiB: memory is sized in 2^30 bytes (memory_fit.hpp), bandwidth and the roofline's bytes below in 10^9.
    out += fmt::format("memory: {:.2f} GiB needed of {:.2f} GiB{}: {}\n", p.memory_gb_needed, p.memory_gb,
                       p.gpus > 1 ? fmt::format(" on {} GPUs", p.gpus) : "", p.fits_memory ? "fits" : "does not fit");
    out += p.how + "\n";
    return out;
}

}  // namespace

void add_predict_command(CLI::App& app) {
    auto args = std::make_shared<PredictArgs>();
    CLI::App* command = app.add_subcommand(
        "predict", "Predict a model's speed on a device: a roofline fitted to published measurements, or a profile's");
    command->add_option("--device", args->request.device, "A device of pricing/gpus.csv")->required();
    command->add_option("--workload", args->request.workload, "A model of pricing/models.csv")->required();
    command->add_option("--precision", args->request.precision, "fp32, fp16 or bf16 (default fp16: mixed precision)");
    command->add_option("--quant", args->request.quant, "An LLM's weights: f16, q8_0, q4_0 or q4_k_m (default f16)");
    command->add_option("--phase", args->request.phase,
                        "train, prefill or decode (default train for a training workload, decode for an LLM)");
    command->add_option("--batch", args->request.batch, "Samples per step, or sequences decoded at once (default 1)");
    command->add_option("--context", args->request.context,
                        "An LLM's context in tokens (default 4096, or the model's maximum)");
    command->add_option("--gpus", args->request.gpus,
                        "Split an LLM's layers over this many of the device (default 1): their memory, plus the hops "
                        "between them");
    command->add_option("--from", args->profile,
                        "A calibration profile (payback bench --out): its measurement of the device, or the nearest "
                        "measured device's scaled by the roofline");
    command->add_flag("--json", args->json, "Print JSON");
    add_example(*command, {"payback predict --device \"RTX 4090\" --workload llama-3-8b --quant q4_0",
                           "payback predict --device \"RTX 3060 12GB\" --workload llama-3.1-8b --quant q4_0 --context 8192 --batch 4",
                           "payback predict --device \"RTX 3090\" --workload llama-3-70b --quant q4_k_m --gpus 2",
                           "payback predict --device \"H100 SXM\" --workload bert-large --json"});
    command->callback([args] {
        const PredictRequest& request = args->request;
        const Prediction p = args->profile.empty()
                                 ? predict(request, Catalog::shipped(), ModelCatalog::shipped())
                                 : predict_from_profile(request, read_profile(args->profile), Catalog::shipped(),
                                                        ModelCatalog::shipped());
        emit(args->json ? prediction_json(p).dump(2) + "\n" : text(p));
    });
}

}  // namespace payback::cli
