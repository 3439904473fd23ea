// Every number of ModelInputs that may differ between samples, visited in one fixed order: the batch
// paths read and write the inputs as a flat list (sample_model.hpp) and check samples share the rest.
#pragma once

#include "payback/model/engine.hpp"

namespace payback {

/// Calls `visit(T&)` for each numeric field of `in`, always in the same order for the same structure.
template <class T, class Visit>
void for_each_field(ModelInputs<T>& in, Visit&& visit) {
    visit(in.discount_rate);
    visit(in.inflation);
    visit(in.training_hours);
    for (auto& v : in.energy_kwh) visit(v);
    for (auto& v : in.energy_cost) visit(v);
    for (auto& v : in.rental_income) visit(v);
    for (auto& v : in.rental_fees) visit(v);
    visit(in.electricity_escalation);
    visit(in.maintenance_per_year);
    visit(in.repair_reserve_rate);
    visit(in.loan.down_payment);
    visit(in.loan.annual_rate);
    visit(in.tax.rate);
    visit(in.tax.deduct_running_costs);
    for (auto& part : in.parts) {
        visit(part.cost);
        visit(part.resale.annual_rate);
        visit(part.resale.life_years);
        visit(part.resale.salvage_fraction);
        visit(part.resale.half_life_years);
    }
    for (auto& cloud : in.clouds) {
        visit(cloud.spend_per_month);
        visit(cloud.price_escalation);
        visit(cloud.storage_per_month);
    }
}

/// Whether two inputs share everything but their numbers (months, parts' timing and methods,
/// schedules): only then can they be lanes of one batch.
bool same_structure(const ModelInputs<double>& a, const ModelInputs<double>& b);

}  // namespace payback
