#include "payback/market/price_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <utility>

#include <fmt/format.h>

#include "base/csv_reader.hpp"
#include "payback/base/error.hpp"
#include "payback/base/suggest.hpp"

namespace payback {

namespace {

using detail::is_blank;

bool is_currency_code(const std::string& text) {
    return text.size() == 3 &&
           std::all_of(text.begin(), text.end(), [](char c) { return c >= 'A' && c <= 'Z'; });
}

// What the file has said so far about one item, to catch a repeated date or a second currency.
struct ItemSeen {
    std::string currency;
    int currency_line = 0;
    std::map<double, int> date_lines;  // calendar_month -> line of the row
    std::vector<PricePoint> points;
};

// Checks the cells of one row that do not depend on other rows; the date is checked by the caller.
void check_row(const detail::CsvTable& table, std::size_t row) {
    const std::string& name = table.text(row, "item");
    if (is_blank(name)) throw table.error(row, "item", "empty: every row must name the item it prices");

    const double price = table.number(row, "price");
    if (price < 0.0) throw table.error(row, "price", fmt::format("expected a price >= 0, got {}", price));

    const std::string& currency = table.text(row, "currency");
    if (!is_currency_code(currency))
        throw table.error(
            row, "currency",
            fmt::format("expected a three-letter currency code such as USD, got \"{}\"", currency));

    if (!table.text(row, "units_sold").empty()) {
        const double units = table.number(row, "units_sold");
        if (units < 0.0 || units != std::floor(units))
            throw table.error(row, "units_sold",
                              fmt::format("expected a whole number of units >= 0 or nothing, got {}", units));
    }

    const std::string& as_of = table.text(row, "as_of");
    if (is_blank(as_of)) throw table.error(row, "as_of", "empty: every row must say when its price was read");
    if (!parse_calendar_date(as_of))
        throw table.error(row, "as_of",
                          fmt::format("expected a date YYYY-MM-DD or YYYY-MM, got \"{}\"", as_of));
    if (is_blank(table.text(row, "source")))
        throw table.error(row, "source", "empty: every row must say where its price came from");
}

const std::vector<std::string> price_columns = {"date",       "item",  "price", "currency",
                                                "units_sold", "as_of", "source"};


// Every item's schedule from a checked file, items in the order the file first names them.
std::vector<PriceSchedule> read_schedules(const detail::CsvTable& table) {
    table.require_columns(price_columns);

    std::map<std::string, ItemSeen> items;
    std::vector<std::string> item_names;  // in file order
    for (std::size_t row = 0; row < table.rows(); ++row) {
        const int line = table.line_of(row);
        const std::string& date_text = table.text(row, "date");
        const auto when = parse_calendar_date(date_text);
        if (!when)
            throw table.error(row, "date",
                              fmt::format("expected a date YYYY-MM-DD or YYYY-MM, got \"{}\"", date_text));

        check_row(table, row);
        const std::string& name = table.text(row, "item");
        const std::string& currency = table.text(row, "currency");
        const double price = table.number(row, "price");

        auto [seen, is_new] = items.try_emplace(name);
        if (is_new) {
            item_names.push_back(name);
            seen->second.currency = currency;
            seen->second.currency_line = line;
        } else if (seen->second.currency != currency) {
            throw table.error(
                row, "currency",
                fmt::format("\"{}\" is priced in {} on line {}; all its rows must use one currency", name,
                            seen->second.currency, seen->second.currency_line));
        }
        const auto [first, is_first] = seen->second.date_lines.try_emplace(*when, line);
        if (!is_first)
            throw table.error(
                row, "date",
                fmt::format("\"{}\" already has a price for {} on line {}", name, date_text, first->second));
        seen->second.points.push_back({*when, price, date_text});
    }

    std::vector<PriceSchedule> schedules;
    for (const std::string& name : item_names) {
        ItemSeen& seen = items.at(name);
        PriceSchedule schedule{name, seen.currency, std::move(seen.points)};
        std::sort(schedule.points.begin(), schedule.points.end(),
                  [](const PricePoint& a, const PricePoint& b) { return a.when < b.when; });
        schedules.push_back(std::move(schedule));
    }
    return schedules;
}

}  // namespace

UsedPriceTable UsedPriceTable::load(const std::string& csv_path) {
    UsedPriceTable t;
    t.schedules_ = read_schedules(detail::CsvTable::load(csv_path));
    t.path_ = csv_path;
    return t;
}

UsedPriceTable UsedPriceTable::parse(std::string_view text, const std::string& csv_path) {
    UsedPriceTable t;
    t.schedules_ = read_schedules(detail::CsvTable::parse(text, csv_path));
    t.path_ = csv_path;
    return t;
}

const PriceSchedule& UsedPriceTable::schedule(const std::string& item) const {
    std::vector<std::string> item_names;  // in file order, for the hint
    for (const PriceSchedule& s : schedules_) {
        if (s.item == item) return s;
        item_names.push_back(s.item);
    }
    std::string message = fmt::format("no rows for item \"{}\"", item);
    const std::string hint = detail::closest_match(item, item_names);
    if (!hint.empty()) {
        message += fmt::format("; did you mean \"{}\"?", hint);
    } else if (item_names.empty()) {
        message += "; the file has no data rows";
    } else {
        message += "; the file has: ";
        for (std::size_t i = 0; i < item_names.size(); ++i) {
            if (i > 0) message += ", ";
            message += item_names[i];
        }
    }
    throw InputError(path_, 0, "item", message);
}

double price_at(const PriceSchedule& schedule, double when) {
    const auto& points = schedule.points;
    if (points.empty())
        throw std::invalid_argument("price_at: the schedule of \"" + schedule.item + "\" is empty");
    if (std::isnan(when)) throw std::invalid_argument("price_at: the date is NaN");
    if (when <= points.front().when) return points.front().price;
    if (when >= points.back().when) return points.back().price;
    const auto upper = std::upper_bound(points.begin(), points.end(), when,
                                        [](double t, const PricePoint& p) { return t < p.when; });
    const auto lower = upper - 1;
    const double share = (when - lower->when) / (upper->when - lower->when);
    return lower->price + share * (upper->price - lower->price);
}

std::vector<std::string> dates_read(const PriceSchedule& schedule, const std::vector<double>& whens) {
    const auto& points = schedule.points;
    std::set<std::size_t> read;  // indices: the points are in date order
    for (const double when : whens) {
        if (points.empty()) break;
        if (when <= points.front().when) {
            read.insert(0);
        } else if (when >= points.back().when) {
            read.insert(points.size() - 1);
        } else {  // as price_at: the pair around `when`, the later one only when it weighs
            const auto upper = std::upper_bound(points.begin(), points.end(), when,
                                                [](double t, const PricePoint& p) { return t < p.when; });
            const auto index = static_cast<std::size_t>(upper - points.begin());
            read.insert(index - 1);
            if (when > points[index - 1].when) read.insert(index);
        }
    }
    std::vector<std::string> dates;
    for (const std::size_t i : read) dates.push_back(points[i].date);
    return dates;
}

}  // namespace payback
