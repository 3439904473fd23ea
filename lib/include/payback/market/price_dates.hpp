// When prices held: which of an item's dated catalog rows is in effect at a date (the seam a price
// history feeds later: any series of (as_of, row) answers the same way), and how old the prices of
// an answer are against today ($PAYBACK_TODAY fixes today for tests and reproducible runs).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace payback {

/// Of the `as_of` dates ("YYYY-MM-DD"; ISO dates order as text) of one item's rows, the index of the row in effect at `date`:
/// the latest as_of on or before it (the first such row on a tie); none when every row is later.
std::optional<std::size_t> row_in_effect(const std::vector<std::string>& as_of_dates, const std::string& date);

/// The index of the newest row (the first on a tie); none when there are no rows.
std::optional<std::size_t> newest_row(const std::vector<std::string>& as_of_dates);

/// Days from `from` to `to` ("YYYY-MM-DD", or "YYYY-MM" for the first of the month as catalogs allow),
/// negative when `to` is earlier. Throws std::invalid_argument on a malformed date.
long days_between(const std::string& from, const std::string& to);

/// Today as "YYYY-MM-DD": $PAYBACK_TODAY when set (InputError when it is not a real date), else the
/// system clock's date in UTC.
std::string today();

/// How old the prices of one answer are.
struct PriceAge {
    std::optional<std::string> prices_as_of;  ///< the oldest as_of among the rows used; none: no catalog prices
    long age_days = 0;                        ///< today - prices_as_of
    int max_age_days = 90;
    bool stale = false;  ///< age_days > max_age_days
    /// "warning: prices as of 2025-06-01 are 549 days old (--max-age 90); ..." when stale, else "".
    std::string warning() const;
};

/// The age of the oldest of `as_of_dates` on `today`; not stale when there are none.
PriceAge price_age(const std::vector<std::string>& as_of_dates, const std::string& today, int max_age_days);

}  // namespace payback
