#include "payback/whatif/backtest.hpp"

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "payback/base/calendar.hpp"
#include "payback/base/error.hpp"
#include "payback/market/price_dates.hpp"
#include "payback/model/comparison.hpp"

namespace payback {

namespace {

// The first day of the month `months` after the month of `date`.
std::string month_start(const std::string& date, int months) {
    const CalendarDate d = *parse_date(date);
    const int index = d.year * 12 + (d.month - 1) + months;
    return fmt::format("{:04}-{:02}-01", index / 12, index % 12 + 1);
}

// The price of `cloud`'s mode in a catalog row; none when the row has none.
std::optional<double> mode_price(const CloudInstance& row, CloudMode mode) {
    const std::optional<double> prices[] = {row.on_demand_per_hour, row.spot_per_hour, row.reserved_1y_per_hour,
                                            row.reserved_3y_per_hour};
    return prices[static_cast<std::size_t>(mode)];
}

bool price_from_catalog(const CloudOption& cloud) {
    return std::any_of(cloud.from_catalog.begin(), cloud.from_catalog.end(),
                       [](const auto& entry) { return entry.first == "price_per_hour"; });
}

// `s` with each catalog cloud option at its observed mean price over the horizon.
Scenario with_observed_cloud_prices(Scenario s, const Catalog& catalog, const std::string& decided,
                                    const std::string& until) {
    for (CloudOption& cloud : s.clouds) {
        if (cloud.instance.empty() || !price_from_catalog(cloud)) continue;
        std::vector<std::string> dates;
        std::vector<double> prices;
        for (const CloudInstance& row : catalog.instances())
            if (row.key() == cloud.instance && row.region == cloud.price_region)
                if (const auto price = mode_price(row, cloud.mode)) {
                    dates.push_back(row.origin.as_of);
                    prices.push_back(*price);
                }
        cloud.price = units::money_per_hour(observed_mean_price(dates, prices, decided, until, s.horizon_months));
    }
    return s;
}

// `s` with each observed resale's used prices cut at `date`; InputError under `key` when a part has
// none by then.
Scenario with_used_prices_known_on(Scenario s, const std::string& date, const std::string& key) {
    for (Part& part : s.rig.parts) {
        if (!part.observed_prices) continue;
        auto known = known_on(*part.observed_prices, date);
        if (!known)
            throw InputError(key, 0, "",
                             fmt::format("no used price of {} on or before {} in {}", part.observed_prices->item,
                                         date, part.observed_file));
        part.observed_prices = std::move(known);
    }
    return s;
}

std::vector<BacktestSide> sides(const Scenario& s) {
    const Comparison c = compare(s);
    std::vector<BacktestSide> out;
    for (const VersusResult& v : c.versus) out.push_back({v.npv_savings, v.payback_months});
    return out;
}

}  // namespace

double observed_mean_price(const std::vector<std::string>& as_of_dates, const std::vector<double>& prices,
                           const std::string& decided, const std::string& until, int months) {
    double sum = 0.0;
    for (int m = 0; m < months; ++m) {
        const std::string day = m == 0 ? decided : std::min(month_start(decided, m), until);
        const auto row = row_in_effect(as_of_dates, day);
        if (!row) throw std::invalid_argument("no price in effect on " + day);
        sum += prices[*row];
    }
    return sum / months;
}

std::optional<PriceSchedule> known_on(const PriceSchedule& schedule, const std::string& date) {
    const double until = *parse_calendar_date(date);
    PriceSchedule known{schedule.item, schedule.currency, {}};
    for (const PricePoint& p : schedule.points)
        if (p.when <= until) known.points.push_back(p);
    if (known.points.empty()) return std::nullopt;
    return known;
}

BacktestResult backtest(const Scenario& known, const Catalog& catalog, const std::string& decided,
                        const std::string& until) {
    if (until < decided)
        throw InputError("--until", 0, "", fmt::format("{} is before the decision, {}", until, decided));
    const Scenario predicted = with_used_prices_known_on(known, decided, "--decided");
    const Scenario observed_cloud = with_observed_cloud_prices(predicted, catalog, decided, until);
    const Scenario observed_resale = with_used_prices_known_on(known, until, "--until");
    const Scenario realized = with_observed_cloud_prices(observed_resale, catalog, decided, until);

    const auto before = sides(predicted);
    const auto after = sides(realized);
    const auto cloud_only = sides(observed_cloud);
    const auto resale_only = sides(observed_resale);
    BacktestResult result{decided, until, {}};
    for (std::size_t i = 0; i < before.size(); ++i)
        result.options.push_back(
            {known.clouds[i].name,
             before[i],
             after[i],
             {{"cloud prices", cloud_only[i].npv_savings - before[i].npv_savings},
              {"used GPU prices", resale_only[i].npv_savings - before[i].npv_savings}}});
    return result;
}

}  // namespace payback
