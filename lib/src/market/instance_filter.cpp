#include "payback/market/instance_filter.hpp"

#include <algorithm>
#include <charconv>
#include <functional>
#include <optional>

#include <fmt/format.h>

#include "payback/base/arguments.hpp"
#include "payback/base/error.hpp"
#include "payback/base/suggest.hpp"
#include "payback/market/price_dates.hpp"

namespace payback {

namespace {

struct Condition {
    std::string field;
    std::string op;
    std::string value;
};

const std::vector<std::string> numeric_fields = {"gpu_count", "gpu_memory_gb", "vcpus", "ram_gb", "on_demand_per_hour",
                                                 "spot_per_hour"};
const std::vector<std::string> text_fields = {"provider", "instance", "region", "gpu"};

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t");
    if (first == std::string::npos) return "";
    return text.substr(first, text.find_last_not_of(" \t") - first + 1);
}

Condition parse_condition(const std::string& text) {
    for (const char* op : {">=", "<=", "==", "!=", ">", "<"}) {
        const auto at = text.find(op);
        if (at == std::string::npos) continue;
        Condition c{trimmed(text.substr(0, at)), op, trimmed(text.substr(at + std::string(op).size()))};
        std::vector<std::string> fields = numeric_fields;
        fields.insert(fields.end(), text_fields.begin(), text_fields.end());
        if (std::find(fields.begin(), fields.end(), c.field) == fields.end()) {
            const std::string hint = detail::closest_match(c.field, fields);
            throw InputError(argument::instance_filter, 0, c.field,
                             "unknown field" + (hint.empty() ? std::string() : " (did you mean \"" + hint + "\"?)"));
        }
        if (c.value.empty()) throw InputError(argument::instance_filter, 0, c.field, "missing the value after " + c.op);
        return c;
    }
    throw InputError(argument::instance_filter, 0, "", "expected FIELD OP VALUE such as gpu_memory_gb>=24, got \"" + text + "\"");
}

std::optional<double> numeric(const CloudInstance& i, const std::string& field) {
    if (field == "gpu_count") return i.gpu_count;
    if (field == "gpu_memory_gb") return i.gpu_memory_gb;
    if (field == "vcpus") return i.vcpus;
    if (field == "ram_gb") return i.ram_gb;
    if (field == "on_demand_per_hour") return i.on_demand_per_hour;
    return i.spot_per_hour;
}

bool holds(const CloudInstance& i, const Condition& c) {
    if (std::find(text_fields.begin(), text_fields.end(), c.field) != text_fields.end()) {
        const std::string value = c.field == "provider" ? i.provider
                                  : c.field == "instance" ? i.instance
                                  : c.field == "region"   ? i.region
                                                          : i.gpu;
        if (c.op != "==" && c.op != "!=")
            throw InputError(argument::instance_filter, 0, c.field, "compares text: use == or !=, not " + c.op);
        return (value == c.value) == (c.op == "==");
    }
    double wanted = 0;
    const auto [end, error] = std::from_chars(c.value.data(), c.value.data() + c.value.size(), wanted);
    if (error != std::errc() || end != c.value.data() + c.value.size())
        throw InputError(argument::instance_filter, 0, c.field, "expected a number after " + c.op + ", got \"" + c.value + "\"");
    const auto have = numeric(i, c.field);
    if (!have) return false;
    if (c.op == ">=") return *have >= wanted;
    if (c.op == "<=") return *have <= wanted;
    if (c.op == ">") return *have > wanted;
    if (c.op == "<") return *have < wanted;
    if (c.op == "==") return *have == wanted;
    return *have != wanted;
}

std::vector<Condition> parse_conditions(const std::string& expression) {
    std::vector<Condition> conditions;
    std::size_t start = 0;
    while (start <= expression.size()) {
        const std::size_t comma = std::min(expression.find(',', start), expression.size());
        conditions.push_back(parse_condition(expression.substr(start, comma - start)));
        start = comma + 1;
    }
    return conditions;
}

bool holds_all(const CloudInstance& i, const std::vector<Condition>& conditions) {
    return std::all_of(conditions.begin(), conditions.end(), [&](const Condition& c) { return holds(i, c); });
}

}  // namespace

std::vector<const CloudInstance*> filter_instances(const Catalog& catalog, const std::string& expression) {
    const std::vector<Condition> conditions = parse_conditions(expression);
    std::vector<const CloudInstance*> out;
    for (const CloudInstance& i : catalog.instances())
        if (holds_all(i, conditions)) out.push_back(&i);
    return out;
}

std::vector<const CloudInstance*> instances_in_effect(const Catalog& catalog, const std::optional<std::string>& at) {
    std::vector<std::vector<const CloudInstance*>> items;  // each instance and region's rows
    for (const CloudInstance& i : catalog.instances()) {
        const auto same = std::find_if(items.begin(), items.end(), [&](const auto& rows) {
            return rows.front()->key() == i.key() && rows.front()->region == i.region;
        });
        if (same == items.end()) items.push_back({&i});
        else same->push_back(&i);
    }
    std::vector<const CloudInstance*> out;
    for (const auto& rows : items) {
        std::vector<std::string> dates;
        for (const CloudInstance* row : rows) dates.push_back(row->origin.as_of);
        if (const auto index = at ? row_in_effect(dates, *at) : newest_row(dates)) out.push_back(rows[*index]);
    }
    return out;
}

InstanceMatch match_instances(const Catalog& catalog, const std::string& expression, const std::string& currency,
                              const std::optional<std::string>& at) {
    const std::vector<Condition> conditions = parse_conditions(expression);
    InstanceMatch match;
    for (const CloudInstance* i : instances_in_effect(catalog, at)) {
        if (!holds_all(*i, conditions)) continue;
        const bool measured = catalog.gpu(i->gpu).resnet50_amp_img_s.has_value();
        if (measured && i->on_demand_per_hour && i->currency == currency) match.usable.push_back(i);
        else ++match.left_out;
    }
    if (match.usable.empty())
        throw InputError(argument::instance_filter, 0, "",
                         "no catalog instance matches \"" + expression + "\" with a price and a speed");
    return match;
}

}  // namespace payback
