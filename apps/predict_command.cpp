// payback predict --device NAME|NAME,NAME,...|all --workload NAME [--precision fp32|fp16|bf16]
//   [--quant f16|q8_0|q4_0|q4_k_m|mxfp4] [--phase train|prefill|decode] [--batch N] [--context N] [--gpus N]
//   [--from PROFILE.json] [--json]
#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/base/error.hpp"
#include "payback/report/prediction_json.hpp"
#include "payback/workload/device_comparison.hpp"
#include "payback/workload/predictor.hpp"
#include "text_table.hpp"

namespace payback::cli {

namespace {

struct PredictArgs {
    PredictRequest request;
    std::string profile;
    bool json = false;
};

std::string text(const Prediction& p) {
    // Decoding several sequences: the rate is all of theirs; each user sees a batch-th of it.
    const bool sequences = p.tokens && p.phase == "decode" && p.batch > 1;
    std::string out = fmt::format(
        "{} on {}{}{}: {:.4g} {} per second ({}{}, expected error {:+.0f} % to {:+.0f} %)\n", p.workload, p.device,
        p.tokens ? fmt::format(", {} {} at context {}", p.quant, p.phase, p.context) : fmt::format(", {} training", p.precision),
        sequences ? fmt::format(", {} sequences at once", p.batch) : !p.tokens && p.batch > 1 ? fmt::format(", batch {}", p.batch) : "",
        p.per_second, p.tokens ? "tokens" : "samples", sequences ? fmt::format("{:.4g} each; ", p.per_second / p.batch) : "",
        p.measured ? "measured" : "predicted", 100 * p.error_low, 100 * p.error_high);
    // GiB: memory is sized in 2^30 bytes (memory_fit.hpp), bandwidth and the roofline's bytes below in 10^9.
    out += fmt::format("memory: {:.2f} GiB needed of {:.2f} GiB{}: {}\n", p.memory_gb_needed, p.memory_gb,
                       p.gpus > 1 ? fmt::format(" on {} GPUs", p.gpus) : "", p.fits_memory ? "fits" : "does not fit");
    out += p.how + "\n";
    return out;
}

// --device all: every gpus.csv device (an empty list); "A,B": those; else the one name.
std::vector<std::string> devices_of(const std::string& device) {
    std::vector<std::string> names;
    if (device == "all") return names;
    std::size_t start = 0;
    while (start <= device.size()) {
        const std::size_t comma = std::min(device.find(',', start), device.size());
        std::string name = device.substr(start, comma - start);
        name.erase(0, name.find_first_not_of(' '));
        name.erase(name.find_last_not_of(' ') + 1);
        names.push_back(name);
        start = comma + 1;
    }
    return names;
}

// Several devices side by side (compare_devices' order), with the launch price per unit of speed.
std::string comparison_text(const DeviceComparison& comparison) {
    const std::vector<Prediction>& predictions = comparison.predictions;
    const Prediction& first = predictions.front();
    using A = TextTable::Align;
    TextTable table({{"device", A::left},
                     {first.tokens ? "tokens/s" : "samples/s"},
                     {"memory GiB", A::left},
                     {"launch $"},
                     {first.tokens ? "$ per token/s" : "$ per sample/s"},
                     {"basis", A::left},
                     {"error %", A::left}});
    for (const Prediction& p : predictions) {
        const std::optional<double> price = launch_price_usd(p, Catalog::shipped());
        const double price_per_rate = price ? *price / p.per_second : 0;
        table.add_row({p.gpus > 1 ? fmt::format("{} × {}", p.gpus, p.device) : p.device, amount(p.per_second, 1),
                       fmt::format("{:.1f} of {:.0f}{}", p.memory_gb_needed, p.memory_gb, p.fits_memory ? "" : ": no"),
                       price ? amount(*price, 0) : "-",
                       price ? amount(price_per_rate, price_per_rate < 100 ? 2 : 0) : "-",
                       p.measured ? "measured" : "predicted",
                       p.measured ? "-"
                                  : fmt::format("{:+.0f}/{:+.0f}{}", 100 * p.error_low, 100 * p.error_high,
                                                p.family_fitted ? "" : " *")});
    }
    std::string out = fmt::format("{}, {}{}:\n", first.workload,
                                  first.tokens ? fmt::format("{} {} at context {}", first.quant, first.phase, first.context)
                                               : fmt::format("{} training", first.precision),
                                  first.batch > 1 ? fmt::format(", batch {}", first.batch) : "");
    out += table.render(Style::for_stdout(false), 100);
    out += "error %: the expected error, from the fit's held-out measurements.\n"
           "*: no device of the family was measured for this phase; the others stand in, with a wider error.\n"
           "\"no\": the model does not fit the device's memory (listed last; --gpus N splits it over N).\n";
    // One line a reason: "Not predicted (has no memory_bandwidth_gb_s in gpus.csv, ...): Card A, Card B."
    std::vector<std::pair<std::string, std::vector<std::string>>> reasons;
    for (const auto& [device, message] : comparison.skipped) {
        const std::string reason = message.starts_with(device + " ") ? message.substr(device.size() + 1) : message;
        auto same = std::find_if(reasons.begin(), reasons.end(), [&](const auto& r) { return r.first == reason; });
        if (same == reasons.end()) same = reasons.insert(reasons.end(), {reason, {}});
        same->second.push_back(device);
    }
    for (const auto& [reason, devices] : reasons)
        out += fmt::format("Not predicted ({}): {}.\n", reason, fmt::join(devices, ", "));
    return out;
}

}  // namespace

void add_predict_command(CLI::App& app) {
    auto args = std::make_shared<PredictArgs>();
    CLI::App* command = app.add_subcommand(
        "predict", "Predict a model's speed on a device: a roofline fitted to published measurements, or a profile's");
    command->add_option("--device", args->request.device,
                        "A device of pricing/gpus.csv; several, comma-separated, or all: a table, fastest first")
        ->required();
    command->add_option("--workload", args->request.workload, "A model of pricing/models.csv")->required();
    command->add_option("--precision", args->request.precision, "fp32, fp16 or bf16 (default fp16: mixed precision)");
    command->add_option("--quant", args->request.quant,
                        "An LLM's weights: f16, q8_0, q4_0, q4_k_m or mxfp4 (gpt-oss's: experts in MXFP4, the rest in "
                        "Q8_0; default f16)");
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
                           "payback predict --device all --workload llama-3.1-70b --quant q4_k_m",
                           "payback predict --device \"H100 SXM\" --workload bert-large --json"});
    command->callback([args] {
        const std::vector<std::string> devices = devices_of(args->request.device);
        const std::optional<CalibrationProfile> profile = read_profile_if_given(args->profile);
        const CalibrationProfile* from = profile ? &*profile : nullptr;
        if (devices.size() == 1) {
            PredictRequest request = args->request;
            request.device = devices.front();
            const Prediction p = predict_with(request, from, Catalog::shipped(), ModelCatalog::shipped());
            emit(args->json ? prediction_json(p).dump(2) + "\n" : text(p));
            return;
        }
        const DeviceComparison comparison =
            compare_devices(args->request, devices, from, Catalog::shipped(), ModelCatalog::shipped());
        if (!args->json) return emit(comparison_text(comparison));
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const Prediction& p : comparison.predictions) list.push_back(prediction_json(p));
        emit(list.dump(2) + "\n");
        for (const auto& [device, message] : comparison.skipped)
            std::fprintf(stderr, "payback: predict: %s not predicted: %s\n", device.c_str(), message.c_str());
    });
}

}  // namespace payback::cli
