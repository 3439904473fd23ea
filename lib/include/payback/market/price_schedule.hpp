// Observed used-market prices of one item over time, read from a dated, sourced CSV catalog
// (pricing/used-gpu-prices.csv), so resale can follow what cards really fetched rather than a curve.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "payback/base/calendar.hpp"

namespace payback {

/// One observation: `when` is a calendar_month(); `price` is per unit, in the schedule's currency.
struct PricePoint {
    double when;
    double price;
};

/// The observed prices of one item, sorted by date, all in one currency.
struct PriceSchedule {
    std::string item;
    std::string currency;
    std::vector<PricePoint> points;
};

/// Reads the rows of `item` from a used-price CSV with columns date,item,price,currency,units_sold,
/// as_of,source (units_sold may be empty). The whole file is checked, not only `item`'s rows.
/// InputError: unknown item (with a "did you mean" hint), a bad date or as_of, a negative or
/// non-finite price, a units_sold that is not a whole number, a currency that is not three capital
/// letters, an item priced twice on one date or in two currencies, an empty item, as_of or source.
PriceSchedule load_price_schedule(const std::string& csv_path, const std::string& item);

/// The price at `when` (a calendar_month()): linear between observations, held flat before the
/// first and after the last. Throws std::invalid_argument for a schedule with no points.
double price_at(const PriceSchedule& schedule, double when);

}  // namespace payback
