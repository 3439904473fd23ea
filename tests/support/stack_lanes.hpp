// Lanes of samples stacked from each one's scalar inputs, for tests that compare the batch engine
// with the scalar run sample by sample (the library builds its lanes from a SampleModel instead).
#pragma once

#include <stdexcept>
#include <vector>

#include "payback/whatif/lanes.hpp"

namespace payback::test {

namespace stacking {
template <class Get>
Lanes gather(const std::vector<ModelInputs<double>>& samples, Get&& get) {
    Lanes out(static_cast<Eigen::Index>(samples.size()));
    for (std::size_t i = 0; i < samples.size(); ++i) out[static_cast<Eigen::Index>(i)] = get(samples[i]);
    return out;
}
}  // namespace stacking

/// Stacks one-sample inputs into lanes. All samples must share the structure (horizon, parts'
/// resale methods, number of cloud options); their numbers may differ.
inline ModelInputs<Lanes> stack_lanes(const std::vector<ModelInputs<double>>& samples) {
    using stacking::gather;
    if (samples.empty()) throw std::invalid_argument("stack_lanes: no samples");
    const ModelInputs<double>& first = samples.front();
    for (const auto& s : samples) {
        if (s.horizon_months != first.horizon_months || s.parts.size() != first.parts.size() ||
            s.clouds.size() != first.clouds.size() || s.loan.term_months != first.loan.term_months ||
            s.rental_income.size() != first.rental_income.size())
            throw std::invalid_argument("stack_lanes: samples differ in structure");
        for (std::size_t p = 0; p < first.parts.size(); ++p) {
            const auto &a = s.parts[p], &b = first.parts[p];
            if (a.resale.method != b.resale.method || a.purchase_month != b.purchase_month ||
                a.sell_month != b.sell_month || a.tax_depreciation != b.tax_depreciation ||
                a.resale.observed_fraction != b.resale.observed_fraction)
                throw std::invalid_argument("stack_lanes: samples differ in a part's structure");
        }
    }

    ModelInputs<Lanes> out;
    out.horizon_months = first.horizon_months;
#define PAYBACK_GATHER(field) out.field = gather(samples, [](const auto& s) { return s.field; })
    PAYBACK_GATHER(discount_rate);
    PAYBACK_GATHER(inflation);
    PAYBACK_GATHER(training_hours);
    PAYBACK_GATHER(electricity_escalation);
    PAYBACK_GATHER(maintenance_per_year);
    PAYBACK_GATHER(repair_reserve_rate);
    PAYBACK_GATHER(loan.down_payment);
    PAYBACK_GATHER(loan.annual_rate);
    PAYBACK_GATHER(tax.rate);
    PAYBACK_GATHER(tax.deduct_running_costs);
#undef PAYBACK_GATHER
    out.loan.term_months = first.loan.term_months;
    for (std::size_t m = 0; m < first.energy_kwh.size(); ++m) {
        out.energy_kwh.push_back(gather(samples, [m](const auto& s) { return s.energy_kwh.at(m); }));
        out.energy_cost.push_back(gather(samples, [m](const auto& s) { return s.energy_cost.at(m); }));
    }
    for (std::size_t m = 0; m < first.rental_income.size(); ++m) {
        out.rental_income.push_back(gather(samples, [m](const auto& s) { return s.rental_income.at(m); }));
        out.rental_fees.push_back(gather(samples, [m](const auto& s) { return s.rental_fees.at(m); }));
    }
    for (std::size_t p = 0; p < first.parts.size(); ++p) {
        const PartInputs<double>& model = first.parts[p];
        auto each = [&](auto get) { return gather(samples, [&](const auto& s) { return get(s.parts[p]); }); };
        PartInputs<Lanes> part;
        part.cost = each([](const auto& q) { return q.cost; });
        part.purchase_month = model.purchase_month;
        part.sell_month = model.sell_month;
        part.tax_depreciation = model.tax_depreciation;
        part.resale.method = model.resale.method;
        part.resale.annual_rate = each([](const auto& q) { return q.resale.annual_rate; });
        part.resale.life_years = each([](const auto& q) { return q.resale.life_years; });
        part.resale.salvage_fraction = each([](const auto& q) { return q.resale.salvage_fraction; });
        part.resale.half_life_years = each([](const auto& q) { return q.resale.half_life_years; });
        part.resale.observed_fraction = model.resale.observed_fraction;
        out.parts.push_back(part);
    }
    for (std::size_t c = 0; c < first.clouds.size(); ++c) {
        auto each = [&](auto get) { return gather(samples, [&](const auto& s) { return get(s.clouds[c]); }); };
        CloudInputs<Lanes> cloud;
        cloud.spend_per_month = each([](const auto& q) { return q.spend_per_month; });
        cloud.price_escalation = each([](const auto& q) { return q.price_escalation; });
        cloud.storage_per_month = each([](const auto& q) { return q.storage_per_month; });
        out.clouds.push_back(cloud);
    }
    return out;
}

}  // namespace payback::test
