// A decision replayed: what the model predicted with the prices known on the day it was made, against
// what the prices observed afterwards made of it, and which observed series made the difference
// (docs/markets.md, "Backtests").
//
// Predicted: the scenario read with the catalog prices in effect on the decision date (--as-of), and
// an observed resale's used prices known by then, the last one carried forward (the naive forecast).
// Realized: each catalog cloud option at the mean over the horizon's months of its price in effect on
// each month's first day (the decision date for the first, the last price known on `until` after
// it), and the used prices observed up to `until`. The attribution swaps one observed series into the
// prediction at a time.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "payback/market/catalog.hpp"
#include "payback/market/price_schedule.hpp"
#include "payback/scenario/scenario.hpp"

namespace payback {

struct BacktestSide {
    double npv_savings = 0.0;  ///< of building against the option
    std::optional<double> payback_months;
};

/// How far one observed series alone moves the prediction: realized-with-only-it minus predicted.
struct BacktestAttribution {
    std::string input;  ///< "cloud prices" or "used GPU prices"
    double npv_savings_change = 0.0;
};

struct BacktestOption {
    std::string cloud;  ///< the cloud option's name
    BacktestSide predicted;
    BacktestSide realized;
    std::vector<BacktestAttribution> attribution;
};

struct BacktestResult {
    std::string decided;
    std::string until;
    std::vector<BacktestOption> options;  ///< one per cloud option, in the scenario's order
};

/// `known` is the scenario read with the prices in effect on `decided` ("YYYY-MM-DD"); `catalog`
/// holds every instance's dated rows; `until` ("YYYY-MM-DD", not before `decided`) ends the observed
/// series. Throws InputError (key "--decided" or "--until") when the dates are out of order, or when an
/// observed resale has no used price on or before `decided`.
BacktestResult backtest(const Scenario& known, const Catalog& catalog, const std::string& decided,
                        const std::string& until);

/// The mean, over `months` calendar months from `decided`'s, of the price in effect (row_in_effect
/// over `as_of_dates`) on each month's first day, on `decided` itself for the first month and on
/// `until` for months that begin after it. `prices[i]` is the price of `as_of_dates[i]`.
double observed_mean_price(const std::vector<std::string>& as_of_dates, const std::vector<double>& prices,
                           const std::string& decided, const std::string& until, int months);

/// `schedule` with only its observations on or before `date`; none when it has none by then.
std::optional<PriceSchedule> known_on(const PriceSchedule& schedule, const std::string& date);

}  // namespace payback
