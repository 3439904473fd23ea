// The cash-flow table of one option: months × line items, like SAM's cf_* arrays. Line items are
// signed cash flows to the owner: costs negative, income (resale, loan proceeds, tax savings)
// positive. Every output (tables, CSV, JSON) is read from here.
#pragma once

#include <string>
#include <vector>

#include "payback/model/engine.hpp"

namespace payback {

enum class OptionKind { diy, cloud, api };  ///< api: a per-token [[api]] option
const char* to_string(OptionKind kind);

/// One part's capex column: the part's name and its signed purchase per month.
struct PartCapex {
    std::string part;
    std::vector<double> capex;
};

struct CashFlows {
    std::string option;
    OptionKind kind = OptionKind::diy;
    std::vector<int> month;  ///< 1 .. horizon
    // Line items, signed. capex and loan_proceeds fall at the start of the month, the rest at its end.
    std::vector<double> capex;
    std::vector<double> energy;
    std::vector<double> maintenance;
    std::vector<double> repair;          ///< the repair reserve
    std::vector<double> cloud;
    std::vector<double> storage;
    std::vector<double> rental_income;
    std::vector<double> rental_fees;
    std::vector<double> resale;          ///< parts sold: retired ones, and all that are left at the horizon
    std::vector<double> loan_proceeds;
    std::vector<double> loan_interest;
    std::vector<double> loan_principal;
    std::vector<double> tax;             ///< positive: taxes saved; negative: taxes owed
    // Sums.
    std::vector<double> net;                    ///< the sum of the line items
    std::vector<double> cumulative;             ///< running sum of net
    std::vector<double> discounted;             ///< each item discounted to time 0 by its timing
    std::vector<double> cumulative_discounted;  ///< running sum of discounted
    // Physical and informational columns, not cash.
    std::vector<double> energy_kwh;   ///< at the wall
    std::vector<double> asset_value;  ///< what the parts held would sell for at the end of the month
    std::vector<double> work_hours;   ///< the owner's hours of work done in the month
    // The parts of `tax` that payback leaves out with their causes (docs/finance.md).
    std::vector<double> tax_on_sale;      ///< on the gain or loss of the parts sold in the month
    std::vector<double> tax_on_interest;  ///< the deduction of the loan's interest
    /// capex by part (diy only), in the scenario's part order; they sum to `capex`.
    std::vector<PartCapex> capex_by_part;

    std::size_t months() const { return month.size(); }

    /// Column names in output order, and a column by name (throws std::out_of_range).
    static const std::vector<std::string>& column_names();
    /// The line items, the columns that add up to `net`.
    static const std::vector<std::string>& line_item_names();
    double value(const std::string& column, std::size_t row) const;
    const std::vector<double>& column(const std::string& name) const;
};

/// A sink for simulate() that records the rig's table and one table per cloud option.
class CashFlowRecorder {
public:
    CashFlowRecorder(const ModelInputs<double>& in, const std::string& rig_name,
                     const std::vector<std::string>& part_names, const std::vector<std::string>& cloud_names);
    void operator()(const MonthFlows<double>& flows);
    std::vector<CashFlows> tables() &&;  ///< the rig first, then the clouds in scenario order

private:
    double discount_rate_;
    std::vector<CashFlows> tables_;
};

/// The flows of building instead of renting (rig minus cloud) on a time line of horizon + 1
/// points: index 0 is now (month 1's start), index t the end of month t, where the start of
/// month t + 1 falls too. This is what the IRR is computed on.
std::vector<double> incremental_flows(const CashFlows& rig, const CashFlows& cloud);

}  // namespace payback
