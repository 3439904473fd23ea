// The model's timing and calendar conventions, in one place (docs/model.md explains them).
#pragma once

namespace payback::conventions {

/// A month is 730 hours (8,760 h / 12).
inline constexpr double hours_per_month = 730.0;
/// Months in a year, for converting annual rates and ages.
inline constexpr double months_per_year = 12.0;
// Capital is spent at the start of month 1 (time 0); running costs, cloud spend and the sale of
// the rig fall at the end of their month. Month m's end is discounted by (1+r)^(-m/12).
/// Longest horizon a scenario may ask for: 50 years.
inline constexpr int max_horizon_months = 600;

}  // namespace payback::conventions
