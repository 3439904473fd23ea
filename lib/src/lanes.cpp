#include "payback/lanes.hpp"

#include <stdexcept>

namespace payback {

namespace {
template <class Get>
Lanes gather(const std::vector<ModelInputs<double>>& samples, Get&& get) {
    Lanes out(static_cast<Eigen::Index>(samples.size()));
    for (std::size_t i = 0; i < samples.size(); ++i) out[static_cast<Eigen::Index>(i)] = get(samples[i]);
    return out;
}
}  // namespace

ModelInputs<Lanes> stack_lanes(const std::vector<ModelInputs<double>>& samples) {
    if (samples.empty()) throw std::invalid_argument("stack_lanes: no samples");
    const ModelInputs<double>& first = samples.front();
    for (const auto& s : samples)
        if (s.horizon_months != first.horizon_months || s.parts.size() != first.parts.size() ||
            s.clouds.size() != first.clouds.size())
            throw std::invalid_argument("stack_lanes: samples differ in structure");

    ModelInputs<Lanes> out;
    out.horizon_months = first.horizon_months;
    out.discount_rate = gather(samples, [](const auto& s) { return s.discount_rate; });
    out.training_hours = gather(samples, [](const auto& s) { return s.training_hours; });
    out.idle_when_not_training = gather(samples, [](const auto& s) { return s.idle_when_not_training; });
    out.load_watts = gather(samples, [](const auto& s) { return s.load_watts; });
    out.idle_watts = gather(samples, [](const auto& s) { return s.idle_watts; });
    out.psu_efficiency = gather(samples, [](const auto& s) { return s.psu_efficiency; });
    out.price_per_kwh = gather(samples, [](const auto& s) { return s.price_per_kwh; });
    for (std::size_t p = 0; p < first.parts.size(); ++p) {
        for (const auto& s : samples)
            if (s.parts[p].resale.method != first.parts[p].resale.method)
                throw std::invalid_argument("stack_lanes: samples differ in a part's resale method");
        PartInputs<Lanes> part;
        part.cost = gather(samples, [p](const auto& s) { return s.parts[p].cost; });
        part.resale.method = first.parts[p].resale.method;
        part.resale.annual_rate = gather(samples, [p](const auto& s) { return s.parts[p].resale.annual_rate; });
        part.resale.life_years = gather(samples, [p](const auto& s) { return s.parts[p].resale.life_years; });
        part.resale.salvage_fraction =
            gather(samples, [p](const auto& s) { return s.parts[p].resale.salvage_fraction; });
        out.parts.push_back(part);
    }
    for (std::size_t c = 0; c < first.clouds.size(); ++c) {
        CloudInputs<Lanes> cloud;
        cloud.price_per_hour = gather(samples, [c](const auto& s) { return s.clouds[c].price_per_hour; });
        cloud.speedup = gather(samples, [c](const auto& s) { return s.clouds[c].speedup; });
        out.clouds.push_back(cloud);
    }
    return out;
}

}  // namespace payback
