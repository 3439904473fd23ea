// Catalog::with_history: a price history's prices turned into catalog rows (docs/markets.md, "The
// price history in the scenario commands"), so that --as-of picks among them by the catalogs' one
// rule (row_in_effect).
#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "payback/market/catalog.hpp"
#include "payback/market/price_dates.hpp"
#include "payback/market/price_history.hpp"

namespace payback {

namespace {

// One item's prices in the history: each mode's series, oldest first, and every date of any of them.
struct ItemPrices {
    std::map<std::string, std::vector<const DatedPrice*>> by_mode;
    std::set<std::string> dates;

    // The price of `mode` in effect on `date`; none before its first.
    std::optional<double> price(const std::string& mode, const std::string& date) const {
        const auto found = by_mode.find(mode);
        if (found == by_mode.end()) return std::nullopt;
        std::vector<std::string> as_of;
        for (const DatedPrice* p : found->second) as_of.push_back(p->as_of);
        const auto index = row_in_effect(as_of, date);
        if (!index) return std::nullopt;
        return found->second[*index]->price;
    }
    // The row's origin on `date`: the source of a price that changed then.
    RowOrigin origin(const std::string& file, const std::string& date) const {
        for (const auto& [mode, series] : by_mode)
            for (const DatedPrice* p : series)
                if (p->as_of == date) return {file, 0, date, p->source};
        return {file, 0, date, ""};
    }
};

using ItemKey = std::tuple<std::string, std::string, std::string, std::string>;  // kind, provider, item, region

// Each dated row of the items the catalog describes, in the catalog's order (so an instance's first
// region stays its default), built by `row_on(template, prices, date)`; a date it cannot price is skipped.
template <class Row, class KeyOf, class RowOn>
std::vector<Row> history_rows(const std::vector<Row>& catalog_rows, const std::map<ItemKey, ItemPrices>& items,
                              KeyOf key_of, RowOn row_on) {
    std::vector<Row> rows;
    std::set<ItemKey> done;
    for (const Row& row : catalog_rows) {
        const ItemKey key = key_of(row);
        const auto found = items.find(key);
        if (found == items.end() || !done.insert(key).second) continue;
        for (const std::string& date : found->second.dates)
            if (auto priced = row_on(row, found->second, date)) rows.push_back(std::move(*priced));
    }
    return rows;
}

template <class Row>
std::vector<Row> history_then_catalog(std::vector<Row> first, const std::vector<Row>& then) {
    first.insert(first.end(), then.begin(), then.end());
    return first;
}

}  // namespace

Catalog Catalog::with_history(const std::vector<DatedPrice>& history, const std::string& history_file) const {
    std::map<ItemKey, ItemPrices> items;
    for (const DatedPrice& p : history) {
        ItemPrices& item = items[{p.key.kind, p.key.provider, p.key.item, p.key.region}];
        item.by_mode[p.key.mode].push_back(&p);
        item.dates.insert(p.as_of);
    }
    for (auto& [key, item] : items)  // each series oldest first, whatever order `history` came in
        for (auto& [mode, series] : item.by_mode)
            std::stable_sort(series.begin(), series.end(),
                             [](const DatedPrice* a, const DatedPrice* b) { return a->as_of < b->as_of; });

    Catalog c = *this;
    c.instances_ = history_then_catalog(
        history_rows(instances_, items,
                     [](const CloudInstance& i) { return ItemKey{"instance", i.provider, i.instance, i.region}; },
                     [&](const CloudInstance& row, const ItemPrices& prices,
                         const std::string& date) -> std::optional<CloudInstance> {
                         CloudInstance i = row;
                         i.on_demand_per_hour = prices.price("on_demand", date);
                         i.spot_per_hour = prices.price("spot", date);
                         i.reserved_1y_per_hour = prices.price("reserved_1y", date);
                         i.reserved_3y_per_hour = prices.price("reserved_3y", date);
                         i.origin = prices.origin(history_file, date);
                         return i;
                     }),
        instances_);
    c.api_prices_ = history_then_catalog(
        history_rows(api_prices_, items, [](const ApiPriceRow& a) { return ItemKey{"api", a.provider, a.model, ""}; },
                     [&](const ApiPriceRow& row, const ItemPrices& prices,
                         const std::string& date) -> std::optional<ApiPriceRow> {
                         const auto input = prices.price("input", date), output = prices.price("output", date);
                         if (!input || !output) return std::nullopt;
                         ApiPriceRow a = row;
                         a.input_per_million = *input;
                         a.output_per_million = *output;
                         a.cached_input_per_million = prices.price("cached_input", date);
                         a.origin = prices.origin(history_file, date);
                         return a;
                     }),
        api_prices_);
    c.rental_markets_ = history_then_catalog(
        history_rows(rental_markets_, items,
                     [](const RentalMarket& m) { return ItemKey{"rental", m.market, m.gpu, ""}; },
                     [&](const RentalMarket& row, const ItemPrices& prices,
                         const std::string& date) -> std::optional<RentalMarket> {
                         const auto host = prices.price("host", date);
                         if (!host) return std::nullopt;
                         RentalMarket m = row;
                         m.host_price_per_hour = host;
                         m.host_price_p10_per_hour = prices.price("host_p10", date);
                         m.host_price_p90_per_hour = prices.price("host_p90", date);
                         // The spread only with both ends around this median (an import writes all three).
                         if (!m.host_price_p10_per_hour || !m.host_price_p90_per_hour ||
                             *m.host_price_p10_per_hour > *host || *host > *m.host_price_p90_per_hour)
                             m.host_price_p10_per_hour = m.host_price_p90_per_hour = std::nullopt;
                         m.origin = prices.origin(history_file, date);
                         return m;
                     }),
        rental_markets_);
    return c;
}

}  // namespace payback
