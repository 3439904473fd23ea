#include "payback/model/model_inputs.hpp"

#include <cmath>

#include "payback/base/calendar.hpp"
#include "payback/finance/finance.hpp"
#include "payback/market/cloud_cost.hpp"
#include "payback/scenario/rig_energy.hpp"

namespace payback {

namespace {

// The observed used price of one unit, as a fraction of its purchase price, at each month
// boundary of the scenario: boundary k is `start` + k months.
std::vector<double> observed_fractions(const Part& part, const Scenario& s) {
    const PriceSchedule& schedule = *part.observed_prices;
    const double start = *parse_calendar_date(*s.start);
    const double price = units::in_money(part.price);
    std::vector<double> fractions;
    for (int k = 0; k <= s.horizon_months; ++k)
        fractions.push_back(price > 0 ? price_at(schedule, start + k) / price : 0.0);
    return fractions;
}

// Each month's rental income and fees, and the wear it puts on the GPUs' resale value.
void add_rental(const Scenario& s, const RigEnergy& energy, ModelInputs<double>& in) {
    double rented_per_gpu = 0.0;
    std::vector<double> kept = {1.0};
    for (int m = 1; m <= s.horizon_months; ++m) {
        const double rentable = energy.rentable_gpu_hours[static_cast<std::size_t>(m - 1)];
        const RentalMonth<double> month = rental_month(s.rental->terms, m, rentable);
        in.rental_income.push_back(month.gross);
        in.rental_fees.push_back(month.fees);
        const int gpus = energy.gpus_held[static_cast<std::size_t>(m - 1)];
        if (gpus > 0) rented_per_gpu += month.rented_gpu_hours / gpus;
        kept.push_back(wear_kept_fraction<double>(rented_per_gpu, s.rental->terms.wear_per_1000_hours));
    }
    for (std::size_t p = 0; p < s.rig.parts.size(); ++p)
        if (s.rig.parts[p].kind == PartKind::gpu && s.rental->terms.wear_per_1000_hours > 0) in.parts[p].wear_kept = kept;
}

}  // namespace

ModelInputs<double> model_inputs(const Scenario& s) { return model_inputs(s, rig_energy(s)); }

ModelInputs<double> model_inputs(const Scenario& s, const RigEnergy& energy) {
    ModelInputs<double> in;
    in.horizon_months = s.horizon_months;
    in.discount_rate = s.discount_rate;
    in.inflation = s.inflation;
    in.training_hours = energy.work_hours_per_month;
    in.energy_kwh = energy.wall_kwh;
    in.energy_cost = energy.cost;
    in.electricity_escalation = s.electricity_escalation;
    in.maintenance_per_year = units::in_money(s.running_costs.maintenance_per_year);
    in.repair_reserve_rate = s.running_costs.repair_reserve;
    in.loan = {0.0, 0.0, 0};
    if (s.financing)
        in.loan = {units::in_money(s.financing->down_payment), s.financing->apr, s.financing->term_months};
    in.tax = {0.0, 0.0};
    std::vector<double> schedule;
    if (s.tax) {
        in.tax = {s.tax->income_tax_rate, s.tax->deduct_running_costs ? 1.0 : 0.0};
        schedule = finance::depreciation_schedule(s.tax->depreciation, s.tax->life_years, s.tax->custom_schedule);
    }
    for (const Part& part : s.rig.parts) {
        PartInputs<double> p;
        p.cost = units::in_money(part.price) * part.count;
        p.purchase_month = part.purchase_month;
        p.sell_month = std::min(part.retire_month.value_or(s.horizon_months), s.horizon_months);
        p.resale = part.resale;
        if (part.resale.method == ResaleMethod::observed) p.resale.observed_fraction = observed_fractions(part, s);
        p.tax_depreciation = schedule;
        in.parts.push_back(std::move(p));
    }
    if (s.rental) add_rental(s, energy, in);
    for (const CloudOption& cloud : s.clouds)
        in.clouds.push_back({cloud_month(cloud, in.training_hours, s.job_hours).spend, cloud.escalation,
                             units::in_money(cloud.storage_per_month)});
    return in;
}

}  // namespace payback
