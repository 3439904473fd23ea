#include "payback/report/prediction_json.hpp"

namespace payback {

nlohmann::ordered_json prediction_json(const Prediction& p) {
    nlohmann::ordered_json j;
    j["device"] = p.device;
    j["workload"] = p.workload;
    j["precision"] = p.precision;
    j["quant"] = p.quant.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(p.quant);
    j["phase"] = p.phase;
    j["batch"] = p.batch;
    j[p.tokens ? "tokens_per_second" : "samples_per_second"] = p.per_second;
    j["expected_error"] = {{"low", p.error_low}, {"high", p.error_high}};
    j["basis"] = p.measured ? "measured" : "predicted";
    j["family_fitted"] = p.family_fitted;
    j["fits_memory"] = p.fits_memory;
    j["memory_gb_needed"] = p.memory_gb_needed;
    j["memory_gb"] = p.memory_gb;
    j["gpus"] = p.gpus;
    j["split_seconds_per_step"] = p.split_seconds;
    return j;
}

}  // namespace payback
