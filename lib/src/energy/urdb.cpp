#include "payback/energy/urdb.hpp"


#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "payback/base/conventions.hpp"
#include "payback/base/error.hpp"
#include "payback/base/text_file.hpp"

namespace payback {

namespace {

using nlohmann::json;

/// Days in a payback month, for tiers written as "kWh daily".
constexpr double days_per_month = conventions::hours_per_month / 24.0;

// Walks a record, naming every value by its JSON path so an error says exactly what is wrong where.
class Reader {
public:
    Reader(std::string source, std::string prefix) : source_(std::move(source)), prefix_(std::move(prefix)) {}

    InputError error(const std::string& path, const std::string& message) const {
        return InputError(source_, 0, prefix_ + path, message);
    }

    /// object[key], where `path` names the object ("" at the record's top).
    const json& member(const json& object, const std::string& path, const std::string& key,
                       const char* expected) const {
        const auto it = object.find(key);
        const std::string at = path.empty() ? key : path + "." + key;
        if (it == object.end()) throw error(at, fmt::format("missing; expected {}", expected));
        return *it;
    }

    const json& array(const json& value, const std::string& path, const char* expected) const {
        if (!value.is_array())
            throw error(path, fmt::format("expected {}, got {}", expected, describe(value)));
        return value;
    }

    double number(const json& value, const std::string& path, const char* expected) const {
        if (!value.is_number())
            throw error(path, fmt::format("expected {}, got {}", expected, describe(value)));
        const double x = value.get<double>();
        if (!std::isfinite(x)) throw error(path, fmt::format("expected {}, got {}", expected, x));
        return x;
    }

    std::string string(const json& value, const std::string& path) const {
        if (!value.is_string()) throw error(path, fmt::format("expected a string, got {}", describe(value)));
        return value.get<std::string>();
    }

    static std::string describe(const json& value) {
        if (value.is_array()) return fmt::format("an array of {}", value.size());
        if (value.is_object()) return "an object";
        if (value.is_string()) return fmt::format("the string \"{}\"", value.get<std::string>());
        if (value.is_null()) return "null";
        return value.dump();
    }

private:
    std::string source_;
    std::string prefix_;  // "items[0]." when the record sits in an API response, else ""
};

std::vector<Tier> read_tiers(const Reader& r, const json& period, const std::string& path) {
    r.array(period, path, "an array of tiers");
    if (period.empty()) throw r.error(path, "a period needs at least one tier");
    std::vector<Tier> tiers;
    double previous_max = 0;
    for (std::size_t i = 0; i < period.size(); ++i) {
        const json& tier = period[i];
        const std::string at = fmt::format("{}[{}]", path, i);
        if (!tier.is_object())
            throw r.error(at, fmt::format("expected a tier object, got {}", Reader::describe(tier)));
        double scale = 1.0;  // kWh per month for one unit of "max"
        if (const auto unit = tier.find("unit"); unit != tier.end()) {
            const std::string name = r.string(*unit, at + ".unit");
            if (name == "kWh daily")
                scale = days_per_month;
            else if (name != "kWh")
                throw r.error(at + ".unit", fmt::format("unit \"{}\" is not supported; expected \"kWh\" (a "
                                                        "monthly limit) or \"kWh daily\"",
                                                        name));
        }
        double rate =
            r.number(r.member(tier, at, "rate", "a price per kWh"), at + ".rate", "a price per kWh");
        if (const auto adj = tier.find("adj"); adj != tier.end() && !adj->is_null()) {
            rate += r.number(*adj, at + ".adj", "an adjustment per kWh");
            if (rate < 0)
                throw r.error(at + ".adj",
                              fmt::format("rate + adj is {:.6g} per kWh; a price must be >= 0", rate));
        }
        if (rate < 0) throw r.error(at + ".rate", fmt::format("expected a price >= 0 per kWh, got {}", rate));
        std::optional<double> max_kwh;
        if (const auto max = tier.find("max"); max != tier.end() && !max->is_null()) {
            const double limit = r.number(*max, at + ".max", "a kWh limit");
            max_kwh = limit * scale;
            if (limit <= 0 || *max_kwh <= previous_max)
                throw r.error(at + ".max", i == 0 ? fmt::format("expected a limit > 0, got {}", limit)
                                                  : fmt::format("expected a limit above the previous tier's, "
                                                                "got {}",
                                                                limit));
            previous_max = *max_kwh;
        } else if (i + 1 < period.size()) {
            throw r.error(at + ".max", "missing; only the last tier may be open-ended");
        }
        tiers.push_back(Tier{max_kwh, rate});
    }
    return tiers;
}

MonthHourMatrix read_schedule(const Reader& r, const json& record, const std::string& key,
                              std::size_t periods) {
    const json& months = r.array(r.member(record, "", key, "12 months of 24 period indices"), key,
                                 "12 months of 24 period indices");
    if (months.size() != 12)
        throw r.error(key,
                      fmt::format("expected 12 months of 24 period indices, got {} months", months.size()));
    MonthHourMatrix matrix{};
    for (std::size_t m = 0; m < 12; ++m) {
        const std::string month_path = fmt::format("{}[{}]", key, m);
        const json& hours = r.array(months[m], month_path, "24 period indices");
        if (hours.size() != 24)
            throw r.error(month_path, fmt::format("expected 24 period indices, got {}", hours.size()));
        for (std::size_t h = 0; h < 24; ++h) {
            const std::string at = fmt::format("{}[{}]", month_path, h);
            const json& value = hours[h];
            if (!value.is_number_integer())
                throw r.error(at, fmt::format("expected a period index, got {}", Reader::describe(value)));
            const auto p = value.get<long long>();
            if (p < 0 || static_cast<unsigned long long>(p) >= periods)
                throw r.error(
                    at, fmt::format("period {} does not exist; energyratestructure has periods 0..{}", p,
                                    periods - 1));
            matrix[m][h] = static_cast<int>(p);
        }
    }
    return matrix;
}

}  // namespace

Tariff parse_urdb_tariff(std::string_view text, const std::string& source) {
    json document;
    try {
        document = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        const int line = detail::line_of_offset(text, e.byte);
        std::string message = e.what();
        if (const auto bracket = message.find("] ");
            message.rfind("[json.exception", 0) == 0 && bracket != std::string::npos)
            message.erase(0, bracket + 2);
        throw InputError(source, line, "", fmt::format("not valid JSON: {}", message));
    } catch (const json::out_of_range& e) {  // a number beyond a double (1e999), found while parsing
        const std::string message = e.what();
        throw InputError(source, 0, "", fmt::format("not valid JSON: {}", message.substr(message.find("] ") + 2)));
    }
    if (!document.is_object())
        throw InputError(
            source, 0, "",
            fmt::format("expected a URDB record (a JSON object), got {}", Reader::describe(document)));

    const json* record = &document;
    std::string prefix;
    if (const auto items = document.find("items"); items != document.end()) {
        if (!items->is_array() || items->empty())
            throw InputError(
                source, 0, "items",
                fmt::format("expected a non-empty array of records, got {}", Reader::describe(*items)));
        record = &(*items)[0];
        prefix = "items[0].";
        if (!record->is_object())
            throw InputError(
                source, 0, "items[0]",
                fmt::format("expected a URDB record (an object), got {}", Reader::describe(*record)));
    }
    const Reader r(source, prefix);

    Tariff tariff;
    tariff.name = r.string(r.member(*record, "", "name", "the rate's name"), "name");
    if (const auto utility = record->find("utility"); utility != record->end() && !utility->is_null())
        tariff.name = fmt::format("{} ({})", tariff.name, r.string(*utility, "utility"));

    const json& structure = r.array(r.member(*record, "", "energyratestructure", "an array of periods"),
                                    "energyratestructure", "an array of periods");
    if (structure.empty()) throw r.error("energyratestructure", "expected at least one period, got none");
    for (std::size_t p = 0; p < structure.size(); ++p) {
        const std::string path = fmt::format("energyratestructure[{}]", p);
        tariff.periods.push_back(TouPeriod{fmt::format("period {}", p), read_tiers(r, structure[p], path)});
    }
    tariff.weekday = read_schedule(r, *record, "energyweekdayschedule", tariff.periods.size());
    tariff.weekend = read_schedule(r, *record, "energyweekendschedule", tariff.periods.size());
    validate(tariff, source);
    return tariff;
}

Tariff load_urdb_tariff(const std::string& path) {
    return parse_urdb_tariff(detail::read_text_file(path), path);
}

}  // namespace payback
