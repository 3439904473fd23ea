// Observed used-market prices of one item over time, read from a dated, sourced CSV catalog
// (pricing/used-gpu-prices.csv), so resale can follow what cards really fetched rather than a curve.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "payback/base/calendar.hpp"

namespace payback {

/// One observation: `when` is a calendar_month(); `price` is per unit, in the schedule's currency;
/// `date` is the row's date as written (the day the price held, what prices_as_of reports).
struct PricePoint {
    double when;
    double price;
    std::string date;
};

/// The observed prices of one item, sorted by date, all in one currency.
struct PriceSchedule {
    std::string item;
    std::string currency;
    std::vector<PricePoint> points;
};

/// The used prices of a CSV with columns date,item,price,currency,units_sold,as_of,source
/// (units_sold may be empty), read and checked whole once: one schedule per item.
class UsedPriceTable {
public:
    /// Reads and checks the whole file. InputError (naming file, line and column): a bad date or
    /// as_of, a negative or non-finite price, a units_sold that is not a whole number, a currency
    /// that is not three capital letters, an item priced twice on one date or in two currencies, an
    /// empty item, as_of or source.
    static UsedPriceTable load(const std::string& csv_path);
    /// The same from text in memory, errors naming `csv_path`.
    static UsedPriceTable parse(std::string_view text, const std::string& csv_path);

    /// The schedule of `item`; InputError (the file, line 0, key "item") with a "did you mean" or
    /// the file's items on a miss.
    const PriceSchedule& schedule(const std::string& item) const;
    /// Every item's schedule, in the order the file first names them.
    const std::vector<PriceSchedule>& schedules() const { return schedules_; }
    const std::string& path() const { return path_; }

private:
    std::string path_;
    std::vector<PriceSchedule> schedules_;
};

/// The price at `when` (a calendar_month()): linear between observations, held flat before the
/// first and after the last. Throws std::invalid_argument for a schedule with no points.
double price_at(const PriceSchedule& schedule, double when);

/// The dates of the observations price_at reads for any of `whens`: the bracketing pair inside the
/// series, the first or last one outside it; oldest first, each once.
std::vector<std::string> dates_read(const PriceSchedule& schedule, const std::vector<double>& whens);

}  // namespace payback
