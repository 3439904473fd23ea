// The month-by-month model, written once and generic over its numeric type: `double` for one
// scenario, an Eigen array (lanes.hpp) for many samples at once. Inputs are plain numbers in one
// canonical unit each (suffixes say which); model_inputs() (model_inputs.hpp) converts a
// unit-typed Scenario.
//
// Timing (conventions.hpp, docs/finance.md): a part's capex and a loan's proceeds fall at the
// start of the part's purchase month (month 1 is time 0); every other flow falls at the end of
// its month. Prices escalate in annual steps: month m is in year (m - 1) / 12. simulate() streams
// one month at a time to a sink, so the batch path keeps only the running sums its metrics need.
//
// Each input struct lists its members in members() (marked_members.hpp), beside their declarations:
// a number marked with how it acts on the outputs (linear, compounding, or through a part's sale),
// a struct that marks its own, or structure that samples share. The batch reads the marks
// (input_fields.hpp); a static_assert after each struct refuses a member added without one.
#pragma once

#include <vector>

#include "payback/base/conventions.hpp"
#include "payback/base/marked_members.hpp"
#include "payback/base/numeric.hpp"
#include "payback/finance/finance.hpp"
#include "payback/finance/sale_value.hpp"

namespace payback {

template <class T>
struct PartInputs {
    T cost{};  ///< price × count, in the scenario's currency
    int purchase_month = 1;  ///< bought at the start of this month
    int sell_month = 1;      ///< sold at the end of this month (the horizon unless retired earlier)
    ResaleCurve<T> resale;
    /// Fraction of the cost deducted for taxes in each year of service (finance::depreciation_schedule).
    std::vector<double> tax_depreciation;
    /// Share of the resale value left after the wear of renting, at each month boundary (0..horizon);
    /// empty: no wear.
    std::vector<double> wear_kept;

    static constexpr auto members() {
        return std::tuple{mark(&PartInputs::cost, Response::linear, "the price of a part"),
                          fixed(&PartInputs::purchase_month), fixed(&PartInputs::sell_month),
                          nested(&PartInputs::resale), fixed(&PartInputs::tax_depreciation),
                          fixed(&PartInputs::wear_kept)};
    }
};
static_assert(every_member_listed<PartInputs<double>>());

/// What the model books as `part`'s sale: its value at the end of its sell month.
template <class T>
T sale_value(const PartInputs<T>& part) {
    const int age = part.sell_month - part.purchase_month + 1;  // months held at that month's end
    const double kept = part.wear_kept.empty() ? 1.0 : part.wear_kept[static_cast<std::size_t>(part.sell_month)];
    return sale_value(part.cost, part.resale, age, part.sell_month, kept);
}

template <class T>
struct CloudInputs {
    T spend_per_month{};    ///< the month's bill at month-1 prices (cloud_cost.hpp)
    T price_escalation{};   ///< per year, nominal
    T storage_per_month{};  ///< in today's money; grows with inflation

    static constexpr auto members() {
        return std::tuple{mark(&CloudInputs::spend_per_month, Response::linear, "a cloud's bill"),
                          mark(&CloudInputs::price_escalation, Response::compounding, "a cloud price's escalation"),
                          mark(&CloudInputs::storage_per_month, Response::linear, "a cloud's storage")};
    }
};
static_assert(every_member_listed<CloudInputs<double>>());

/// A loan for the parts bought in month 1, less the down payment; none when term_months is 0.
template <class T>
struct LoanInputs {
    T down_payment{};
    T annual_rate{};  ///< APR, compounded monthly: the monthly rate is APR / 12
    int term_months = 0;

    static constexpr auto members() {
        return std::tuple{mark(&LoanInputs::down_payment, Response::compounding, "the loan"),
                          mark(&LoanInputs::annual_rate, Response::compounding, "the loan"),
                          fixed(&LoanInputs::term_months)};
    }
};
static_assert(every_member_listed<LoanInputs<double>>());

/// Income taxes; rate 0 is the hobbyist perspective (no tax effects).
template <class T>
struct TaxInputs {
    T rate{};
    T deduct_running_costs{};  ///< 1: running costs and cloud spend are deductible; 0: they are not

    static constexpr auto members() {
        return std::tuple{mark(&TaxInputs::rate, Response::compounding, "the tax rate"),
                          mark(&TaxInputs::deduct_running_costs, Response::compounding, "the tax rate")};
    }
};
static_assert(every_member_listed<TaxInputs<double>>());

template <class T>
struct ModelInputs {
    int horizon_months = 1;
    T discount_rate{};           ///< annual, nominal
    T inflation{};               ///< annual; grows maintenance and storage
    T training_hours{};          ///< the owner's work per month, in hours of the stock rig
    /// The rig's energy each month (rig_energy.hpp): kWh at the wall with cooling, and what it adds
    /// to the bill at this year's prices, before escalation. One entry per month of the horizon.
    std::vector<T> energy_kwh;
    std::vector<T> energy_cost;
    /// Renting the rig out, each month (rental.hpp): income before the fee, and the fee. Empty: none.
    std::vector<T> rental_income;
    std::vector<T> rental_fees;
    T electricity_escalation{};  ///< per year, nominal
    T maintenance_per_year{};    ///< in today's money
    T repair_reserve_rate{};     ///< fraction of the owned parts' cost set aside per year
    LoanInputs<T> loan;
    TaxInputs<T> tax;
    std::vector<PartInputs<T>> parts;
    std::vector<CloudInputs<T>> clouds;

    /// In this order the batch flattens the numbers (input_fields.hpp).
    static constexpr auto members() {
        using M = ModelInputs;
        return std::tuple{fixed(&M::horizon_months),
                          mark(&M::discount_rate, Response::compounding, "the discount rate"),
                          mark(&M::inflation, Response::compounding, "inflation"),
                          mark(&M::training_hours, Response::linear, "the hours of work"),
                          mark(&M::energy_kwh, Response::linear, "the rig's energy"),
                          mark(&M::energy_cost, Response::linear, "the rig's energy"),
                          mark(&M::rental_income, Response::linear, "the rental income"),
                          mark(&M::rental_fees, Response::linear, "the rental income"),
                          mark(&M::electricity_escalation, Response::compounding, "the electricity price's escalation"),
                          mark(&M::maintenance_per_year, Response::linear, "maintenance"),
                          mark(&M::repair_reserve_rate, Response::linear, "the repair reserve"),
                          nested(&M::loan),
                          nested(&M::tax),
                          nested(&M::parts),
                          nested(&M::clouds)};
    }
};
static_assert(every_member_listed<ModelInputs<double>>());

/// One option's line items for one month, signed as cash to the owner: costs negative, income
/// positive. capex and loan_proceeds fall at the month's start, the rest at its end.
template <class T>
struct LineItems {
    T capex, loan_proceeds;
    T energy, maintenance, repair, cloud, storage, rental_income, rental_fees, resale;
    T loan_interest, loan_principal, tax;
    // Parts of `tax` that payback leaves out, as it leaves out what causes them (not line items).
    T tax_on_sale;      ///< on the gain (or loss) of the parts sold this month
    T tax_on_interest;  ///< the deduction of the loan's interest

    T at_start() const { return capex + loan_proceeds; }
    T at_end() const {
        return energy + maintenance + repair + cloud + storage + rental_income + rental_fees + resale +
               loan_interest + loan_principal + tax;
    }
    /// The same without debt flows and their tax effect (SAM's payback leaves them out) and
    /// without hardware sales and their tax (simple payback counts none; payback-if-sold counts
    /// the hardware at its value instead).
    T operating_at_start() const { return capex; }
    T operating_at_end() const { return operating_part_of(at_end()); }
    /// operating_at_end() from an at_end() already summed.
    T operating_part_of(const T& end) const {
        return end - resale - loan_interest - loan_principal - tax_on_sale - tax_on_interest;
    }
};

/// One month of every option.
template <class T>
struct MonthFlows {
    int month;  ///< 1-based
    LineItems<T> rig;
    std::vector<T> rig_capex_by_part;  ///< signed, one per part
    T energy_kwh;         ///< at the wall
    T asset_value_start;  ///< what the parts held would sell for at the start of the month
    T asset_value_end;    ///< ... and at its end, before that month's sales
    T work_hours;         ///< the owner's hours of work this month (the same on every option)
    std::vector<LineItems<T>> clouds;
};

/// The same model stopped after `months` (<= the horizon): parts still held are sold then, the
/// loan is paid off, parts bought later are never bought. Selling at `months` and renting after.
template <class T>
ModelInputs<T> truncated(ModelInputs<T> in, int months) {
    in.horizon_months = months;
    std::vector<PartInputs<T>> kept;
    for (auto& part : in.parts) {
        if (part.purchase_month > months) continue;
        part.sell_month = std::min(part.sell_month, months);
        kept.push_back(std::move(part));
    }
    in.parts = std::move(kept);
    return in;
}

/// Present-value factor of a flow `months` after time 0, discounting monthly at (1+r)^(1/12).
template <class T>
T discount_factor(const T& annual_rate, double months) {
    return numeric_ops<T>::pow(1.0 + annual_rate, -months / conventions::months_per_year);
}

/// Runs the model month by month, handing each month's flows to `sink(const MonthFlows<T>&)`.
template <class T, class Sink>
void simulate(const ModelInputs<T>& in, Sink&& sink) {
    using ops = numeric_ops<T>;
    const T zero = ops::fill_like(in.discount_rate, 0.0);
    const LineItems<T> nothing{zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero, zero};

    // The loan: a level payment each month of its term, the balance paid off at the horizon.
    T financed = zero;
    for (const auto& part : in.parts)
        if (part.purchase_month == 1) financed = financed + part.cost;
    const bool has_loan = in.loan.term_months > 0;
    const T principal = has_loan ? ops::max(financed - in.loan.down_payment, 0.0) : zero;
    const T monthly_rate = in.loan.annual_rate / 12.0;
    const T payment = has_loan ? finance::annuity_payment(principal, monthly_rate, in.loan.term_months) : zero;
    T balance = principal;

    std::vector<T> depreciated(in.parts.size(), zero);  // each part's tax deductions so far, in money
    std::vector<T> held_value(in.parts.size(), zero);   // each part's value at the last month's end
    std::vector<ResaleSteps<T>> resale;
    resale.reserve(in.parts.size());
    for (const auto& part : in.parts) resale.emplace_back(part.resale);
    // Absent taxes cost nothing to leave out (the batch path's lanes all hold a zero rate then).
    const bool taxed = !ops::all(ops::equal(in.tax.rate, 0.0));

    // Escalation steps once a year: the factors are recomputed when the year changes.
    T inflation = zero, electricity_growth = zero;
    std::vector<T> cloud_growth(in.clouds.size(), zero);

    MonthFlows<T> f;
    f.rig = nothing;
    f.clouds.assign(in.clouds.size(), nothing);
    f.rig_capex_by_part.assign(in.parts.size(), zero);
    f.work_hours = in.training_hours;
    for (int m = 1; m <= in.horizon_months; ++m) {
        if ((m - 1) % 12 == 0) {
            const int whole_years = (m - 1) / 12;
            const auto year = static_cast<double>(whole_years);
            inflation = ops::pow(1.0 + in.inflation, year);
            electricity_growth = ops::pow(1.0 + in.electricity_escalation, year);
            for (std::size_t c = 0; c < in.clouds.size(); ++c)
                cloud_growth[c] = ops::pow(1.0 + in.clouds[c].price_escalation, year);
        }
        LineItems<T>& rig = f.rig;  // every field is set below
        rig.capex = rig.resale = zero;
        T owned_cost = zero, depreciation = zero, gain = zero;
        T value_start = zero, value_end = zero;
        bool owns_parts = false;
        for (std::size_t p = 0; p < in.parts.size(); ++p) {
            const PartInputs<T>& part = in.parts[p];
            f.rig_capex_by_part[p] = m == part.purchase_month ? zero - part.cost : zero;
            if (m == part.purchase_month) rig.capex = rig.capex - part.cost;
            if (m < part.purchase_month || m > part.sell_month) continue;
            owns_parts = true;
            owned_cost = owned_cost + part.cost;
            const int age = m - part.purchase_month;  // months held at the start of month m
            const double kept_start = part.wear_kept.empty() ? 1.0 : part.wear_kept[static_cast<std::size_t>(m - 1)];
            const double kept_end = part.wear_kept.empty() ? 1.0 : part.wear_kept[static_cast<std::size_t>(m)];
            // A part's value at a month's start is its value at the last month's end.
            const T start = m > part.purchase_month ? held_value[p]
                                                    : sale_value(part.cost, resale[p].at(age, m - 1), kept_start);
            value_start = value_start + start;
            const T value = sale_value(part.cost, resale[p].at(age + 1, m), kept_end);
            held_value[p] = value;
            value_end = value_end + value;
            const std::size_t tax_year = static_cast<std::size_t>(age) / 12;
            if (taxed && tax_year < part.tax_depreciation.size()) {
                const T deduction = part.cost * (part.tax_depreciation[tax_year] / 12.0);
                depreciated[p] = depreciated[p] + deduction;
                depreciation = depreciation + deduction;
            }
            if (m == part.sell_month) {
                rig.resale = rig.resale + value;
                if (taxed) gain = gain + value - (part.cost - depreciated[p]);  // over the remaining tax basis
            }
        }

        const std::size_t index = static_cast<std::size_t>(m - 1);
        const T wall_kwh = in.energy_kwh[index];
        rig.energy = zero - in.energy_cost[index] * electricity_growth;
        const bool rented = !in.rental_income.empty();
        rig.rental_income = rented ? in.rental_income[index] : zero;
        rig.rental_fees = rented ? T(zero - in.rental_fees[index]) : zero;
        rig.maintenance = owns_parts ? T(zero - in.maintenance_per_year / 12.0 * inflation) : zero;
        rig.repair = zero - owned_cost * in.repair_reserve_rate / 12.0;

        rig.loan_proceeds = rig.loan_interest = rig.loan_principal = zero;
        if (has_loan) {
            if (m == 1) rig.loan_proceeds = principal;
            const bool due = m <= in.loan.term_months;
            const T interest = due ? balance * monthly_rate : zero;
            // The last payment clears the balance (no rounding residue); selling pays off the rest.
            const bool last = m == in.loan.term_months || m == in.horizon_months;
            const T repaid = due ? (last ? balance : payment - interest) : zero;
            balance = balance - repaid;
            rig.loan_interest = zero - interest;
            rig.loan_principal = zero - repaid;
        }

        // Tax effect (positive: a saving): deductible costs and depreciation lower taxes; the gain
        // on a sale over the remaining tax basis raises them (a loss lowers them).
        rig.tax = rig.tax_on_sale = rig.tax_on_interest = zero;
        if (taxed) {
            const T deductible = zero - (rig.energy + rig.maintenance + rig.repair + rig.rental_fees);
            rig.tax_on_sale = zero - in.tax.rate * gain;
            rig.tax_on_interest = zero - in.tax.rate * in.tax.deduct_running_costs * rig.loan_interest;
            rig.tax = in.tax.rate * (in.tax.deduct_running_costs * deductible + depreciation - rig.rental_income) +
                      rig.tax_on_sale + rig.tax_on_interest;
        }

        for (std::size_t c = 0; c < in.clouds.size(); ++c) {
            const CloudInputs<T>& cloud = in.clouds[c];
            LineItems<T>& items = f.clouds[c];
            items.cloud = zero - cloud.spend_per_month * cloud_growth[c];
            items.storage = zero - cloud.storage_per_month * inflation;
            items.tax = taxed ? T(in.tax.rate * in.tax.deduct_running_costs * (zero - items.cloud - items.storage)) : zero;
        }

        f.month = m;
        f.energy_kwh = wall_kwh;
        f.asset_value_start = value_start;
        f.asset_value_end = value_end;
        sink(static_cast<const MonthFlows<T>&>(f));
    }
}

}  // namespace payback
