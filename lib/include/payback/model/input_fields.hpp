// Every number of ModelInputs that may differ between samples, visited in one fixed order: the batch
// paths read and write the inputs as a flat list (sample_model.hpp) and check samples share the rest.
#pragma once

#include "payback/model/engine.hpp"

namespace payback {

/// How a number of the inputs acts on the model's outputs, marked beside each number in
/// for_each_marked_field. The batch's superposed evaluator holds only where every key moves
/// numbers that are linear or that feed a part's sale alone (sample_model.cpp, evaluator.hpp).
enum class Response {
    linear,       ///< flows in proportion: every total and gap is linear in it
    compounding,  ///< powers, kinks or products of flows: a rate, an escalation, the loan, taxes
    sale,         ///< a part's resale curve: a power, but of the part's sale value alone
};

/// Calls `visit(T&, Response, const char* what)` for each numeric field of `in`, always in the same
/// order for the same structure: the one list of the inputs' numbers, each with how it acts on the
/// model and what it is (the words of the path's "a key moves ...").
template <class T, class Visit>
void for_each_marked_field(ModelInputs<T>& in, Visit&& visit) {
    visit(in.discount_rate, Response::compounding, "the discount rate");
    visit(in.inflation, Response::compounding, "inflation");
    visit(in.training_hours, Response::linear, "the hours of work");
    for (auto& v : in.energy_kwh) visit(v, Response::linear, "the rig's energy");
    for (auto& v : in.energy_cost) visit(v, Response::linear, "the rig's energy");
    for (auto& v : in.rental_income) visit(v, Response::linear, "the rental income");
    for (auto& v : in.rental_fees) visit(v, Response::linear, "the rental income");
    visit(in.electricity_escalation, Response::compounding, "the electricity price's escalation");
    visit(in.maintenance_per_year, Response::linear, "maintenance");
    visit(in.repair_reserve_rate, Response::linear, "the repair reserve");
    visit(in.loan.down_payment, Response::compounding, "the loan");
    visit(in.loan.annual_rate, Response::compounding, "the loan");
    visit(in.tax.rate, Response::compounding, "the tax rate");
    visit(in.tax.deduct_running_costs, Response::compounding, "the tax rate");
    for (auto& part : in.parts) {
        visit(part.cost, Response::linear, "the price of a part");
        visit(part.resale.annual_rate, Response::sale, "a part's resale curve");
        visit(part.resale.life_years, Response::sale, "a part's resale curve");
        visit(part.resale.salvage_fraction, Response::sale, "a part's resale curve");
        visit(part.resale.half_life_years, Response::sale, "a part's resale curve");
    }
    for (auto& cloud : in.clouds) {
        visit(cloud.spend_per_month, Response::linear, "a cloud's bill");
        visit(cloud.price_escalation, Response::compounding, "a cloud price's escalation");
        visit(cloud.storage_per_month, Response::linear, "a cloud's storage");
    }
}

/// Calls `visit(T&)` for each numeric field of `in`, in for_each_marked_field's order.
template <class T, class Visit>
void for_each_field(ModelInputs<T>& in, Visit&& visit) {
    for_each_marked_field(in, [&](T& x, Response /*response*/, const char* /*what*/) { visit(x); });
}

/// Whether two inputs share everything but their numbers (months, parts' timing and methods,
/// schedules): only then can they be lanes of one batch.
bool same_structure(const ModelInputs<double>& a, const ModelInputs<double>& b);

}  // namespace payback
