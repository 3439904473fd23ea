// One model predicted on several devices side by side (`payback predict --device all|A,B`,
// `payback.predict_devices`): what a buyer compares for one model.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "payback/workload/predictor.hpp"

namespace payback {

struct DeviceComparison {
    /// Each device as `predict` alone gives it: those the model fits first, each group fastest first.
    std::vector<Prediction> predictions;
    /// Comparing every device: those gpus.csv lacks a figure for that the phase needs, and why ("Card A has
    /// no memory_bandwidth_gb_s in gpus.csv, which the decode prediction needs").
    std::vector<std::pair<std::string, std::string>> skipped;
};

/// What the prediction's devices cost at launch (gpus.csv's price × `gpus`); none where the catalog has no
/// price. Over the prediction's rate it is what a buyer compares.
std::optional<double> launch_price_usd(const Prediction& p, const Catalog& catalog);

/// `request` on each of `devices` (gpus.csv names; empty: every device of the catalog), with `profile`
/// where given as `predict_from_profile`. A named device that cannot be predicted is an InputError, as
/// alone; with every device, one lacking a figure the phase needs is skipped and said; none left is an
/// InputError (key "device").
DeviceComparison compare_devices(const PredictRequest& request, const std::vector<std::string>& devices,
                                 const CalibrationProfile* profile, const Catalog& catalog, const ModelCatalog& models);

}  // namespace payback
