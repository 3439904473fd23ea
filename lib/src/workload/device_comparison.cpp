#include "payback/workload/device_comparison.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "payback/base/error.hpp"

namespace payback {

std::optional<double> launch_price_usd(const Prediction& p, const Catalog& catalog) {
    const std::optional<double>& each = catalog.gpu(p.device).launch_price_usd;
    return each ? std::optional<double>(*each * p.gpus) : std::nullopt;
}

DeviceComparison compare_devices(const PredictRequest& request, const std::vector<std::string>& devices,
                                 const CalibrationProfile* profile, const Catalog& catalog, const ModelCatalog& models) {
    const bool every = devices.empty();
    std::vector<std::string> names = devices;
    if (every)
        for (const GpuSpec& g : catalog.gpus()) names.push_back(g.name);
    DeviceComparison out;
    for (const std::string& device : names) {
        PredictRequest one = request;
        one.device = device;
        try {
            out.predictions.push_back(predict_with(one, profile, catalog, models));
        } catch (const InputError& e) {
            if (!every || e.key_path() != "device") throw;
            out.skipped.emplace_back(device, e.message());
        }
    }
    if (out.predictions.empty())
        throw InputError("predict", 0, "device",
                         fmt::format("no device could be predicted: {}", out.skipped.front().second));
    std::stable_sort(out.predictions.begin(), out.predictions.end(), [](const Prediction& a, const Prediction& b) {
        return a.fits_memory != b.fits_memory ? a.fits_memory : a.per_second > b.per_second;
    });
    return out;
}

}  // namespace payback
