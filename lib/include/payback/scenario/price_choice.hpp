// Which catalogs and which day a scenario's prices come from, as --as-of and --db (and Python's
// as_of= and db=) ask.
#pragma once

#include <string>

#include "payback/market/price_dates.hpp"
#include "payback/scenario/scenario.hpp"

namespace payback {

/// `as_of` "YYYY-MM-DD" (empty: the newest prices); the price history read before the catalogs is
/// `db` (which must exist), else $PAYBACK_DB's or, with `as_of`, the default path's
/// (default_price_history_path()) when there is a file there: a stray default history never changes
/// an answer that asks for no date. InputError naming --as-of or --db for a bad date or a missing file.
PriceChoice choose_prices(const std::string& as_of, const std::string& db);

/// How old the catalog prices `scenario` used are: on the day its prices were chosen for
/// (Scenario::prices.at, --as-of), else today(); stale past `max_age_days`.
PriceAge price_age_of(const Scenario& scenario, int max_age_days);

}  // namespace payback
