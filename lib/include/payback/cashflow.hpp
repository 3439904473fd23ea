// The cash-flow table of one option: months × line items, like SAM's cf_* arrays. Line items are
// signed cash flows to the owner: costs negative, income (resale) positive. Every output (tables,
// CSV, JSON) is read from here.
#pragma once

#include <string>
#include <vector>

#include "payback/engine.hpp"

namespace payback {

enum class OptionKind { diy, cloud };
const char* to_string(OptionKind kind);

struct CashFlows {
    std::string option;
    OptionKind kind = OptionKind::diy;
    std::vector<int> month;  ///< 1 .. horizon
    // Line items, signed.
    std::vector<double> capex;   ///< at the start of the month
    std::vector<double> energy;  ///< at the end of the month
    std::vector<double> cloud;   ///< at the end of the month
    std::vector<double> resale;  ///< at the end of the month (the horizon)
    // Sums.
    std::vector<double> net;                    ///< capex + energy + cloud + resale
    std::vector<double> cumulative;             ///< running sum of net
    std::vector<double> discounted;             ///< each item discounted to time 0 by its timing
    std::vector<double> cumulative_discounted;  ///< running sum of discounted
    // Physical and informational columns, not cash.
    std::vector<double> energy_kwh;   ///< at the wall
    std::vector<double> asset_value;  ///< what the parts would sell for at the end of the month

    std::size_t months() const { return month.size(); }

    /// Column names in output order, and a column by name (throws std::out_of_range).
    static const std::vector<std::string>& column_names();
    double value(const std::string& column, std::size_t row) const;
};

/// A sink for simulate() that records the rig's table and one table per cloud option.
class CashFlowRecorder {
public:
    CashFlowRecorder(const ModelInputs<double>& in, const std::string& rig_name,
                     const std::vector<std::string>& cloud_names);
    void operator()(const MonthFlows<double>& flows);
    std::vector<CashFlows> tables() &&;  ///< the rig first, then the clouds in scenario order

private:
    double discount_rate_;
    std::vector<CashFlows> tables_;
};

}  // namespace payback
