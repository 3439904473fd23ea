#include "scenario/toml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>

#include <fmt/format.h>

#include "payback/base/suggest.hpp"

namespace payback::detail {

NumberRule NumberRule::non_negative() { return {0.0, HUGE_VAL}; }
NumberRule NumberRule::positive() { return {0.0, HUGE_VAL, true}; }
NumberRule NumberRule::between(double lo, double hi) { return {lo, hi}; }
NumberRule NumberRule::fraction() { return {0.0, 1.0, false, false, true}; }
NumberRule NumberRule::positive_fraction() { return {0.0, 1.0, true, false, true}; }
NumberRule NumberRule::rate() { return {-1.0, 1.0, true, false, true}; }

NumberRule NumberRule::of(const KeyRange& range, double money_scale) {
    NumberRule rule{range.lo, range.hi, range.lo_open, range.hi_open, range.fraction};
    if (range.limit) rule.limit = *range.limit * money_scale;
    rule.limit_reason = range.limit_reason;
    return rule;
}

bool NumberRule::admits(double value) const {
    const bool above_lo = lo_open ? value > lo : value >= lo;
    const bool below_hi = hi_open ? value < hi : value <= hi;
    return above_lo && below_hi && (!limit || value <= *limit);
}

std::string NumberRule::describe(double value) const {
    if (limit && value > *limit && value >= lo) return fmt::format("must be at most {:g} ({})", *limit, limit_reason);
    if (std::isinf(hi)) return fmt::format("must be {} {}", lo_open ? ">" : ">=", lo);
    if (is_fraction)
        return fmt::format("must be a fraction in {}{}, {}{}", lo_open ? "(" : "[", lo, hi,
                           hi_open ? ")" : "]");
    return fmt::format("must be between {} and {}", lo, hi);
}

std::string describe_node(const toml::node& node) {
    std::ostringstream out;
    switch (node.type()) {
        case toml::node_type::string:
            out << "string \"" << *node.value<std::string>() << '"';
            break;
        case toml::node_type::integer: out << "integer " << *node.value<std::int64_t>(); break;
        case toml::node_type::floating_point: out << "number " << *node.value<double>(); break;
        case toml::node_type::boolean: out << "boolean " << (*node.value<bool>() ? "true" : "false"); break;
        case toml::node_type::table: out << "a table"; break;
        case toml::node_type::array: out << "an array"; break;
        default: out << "a date or time"; break;
    }
    return out.str();
}

TomlReader::TomlReader(const toml::table& table, const std::string& file, std::string key_path, int line, std::string schema,
                       double money_scale)
    : TomlReader(table, file, file, std::move(key_path), line, std::move(schema), money_scale) {}

TomlReader::TomlReader(const toml::table& table, std::string file, std::string source, std::string key_path,
                       int line, std::string schema, double money_scale)
    : table_(&table),
      file_(std::move(file)),
      source_(std::move(source)),
      key_path_(std::move(key_path)),
      line_(line),
      schema_(std::move(schema)),
      money_scale_(money_scale) {}

// A table inside this one: its messages name where it came from, the file or an override.
TomlReader TomlReader::child(const toml::node& node, const toml::table& table, std::string key_path,
                             std::string schema) const {
    auto [source, line] = origin_of(node);
    const bool from_file = source == file_;
    return TomlReader(table, file_, source, std::move(key_path), from_file && line == 0 ? line_ : line,
                      std::move(schema), money_scale_);
}

// [uncertainty]'s tables are named by the key they describe: the table has one row for them all.
std::string TomlReader::child_schema(std::string_view key) const {
    if (schema_ == "uncertainty" && key != "correlations") return "uncertainty.<key>";
    return schema_.empty() ? std::string(key) : schema_ + "." + std::string(key);
}

const ScenarioKey& TomlReader::declared(std::string_view key) const {
    const std::string path = child_schema(key);
    if (const ScenarioKey* found = find_scenario_key(path)) return *found;
    throw std::logic_error("scenario key " + path + " is read but not declared in lib/src/scenario/keys.cpp");
}

NumberRule TomlReader::rule_of(std::string_view key) const {
    const ScenarioKey& k = declared(key);
    if (!k.range) throw std::logic_error("scenario key " + k.path + " is read as a number but declares no range");
    return NumberRule::of(*k.range, k.unit.rfind("currency", 0) == 0 ? money_scale_ : 1.0);
}

std::string TomlReader::child_path(std::string_view key) const {
    return key_path_.empty() ? std::string(key) : key_path_ + "." + std::string(key);
}

// A node from the scenario file reports file:line; one set with --set reports the override.
std::pair<std::string, int> TomlReader::origin_of(const toml::node& node) const {
    const auto& region = node.source();
    if (region.path && *region.path != file_) return {*region.path, 0};
    return {file_, static_cast<int>(region.begin.line)};
}

InputError TomlReader::error(std::string_view key, const std::string& message) const {
    if (const toml::node* node = table_->get(key)) return error_at(*node, key, message);
    return InputError(source_, line_, child_path(key), message);
}

InputError TomlReader::error_at(const toml::node& node, std::string_view key,
                                const std::string& message) const {
    auto [source, line] = origin_of(node);
    return InputError(source, line, child_path(key), message);
}

const toml::node* TomlReader::find(std::string_view key, bool required, const char* expected) const {
    (void)declared(key);
    read_.emplace_back(key);
    const toml::node* node = table_->get(key);
    if (!node && required) throw error(key, fmt::format("missing required key ({})", expected));
    return node;
}

double TomlReader::checked(const toml::node& node, std::string_view key, const NumberRule& rule) const {
    const auto value = node.value<double>();  // integers convert too
    if (!value || node.is_boolean()) throw error_at(node, key, "expected a number, got " + describe_node(node));
    if (!std::isfinite(*value)) throw error_at(node, key, fmt::format("expected a finite number, got {}", *value));
    if (!rule.admits(*value)) {
        std::string message = fmt::format("{}, got {}", rule.describe(*value), *value);
        if (rule.is_fraction && *value > 1.0 && *value <= 100.0)
            message += fmt::format(" (a percentage? write {} for {}%)", *value / 100.0, *value);
        throw error_at(node, key, message);
    }
    return *value;
}

double TomlReader::number(std::string_view key) const {
    const NumberRule rule = rule_of(key);
    return checked(*find(key, true, "a number"), key, rule);
}

double TomlReader::number_or(std::string_view key) const {
    const ScenarioKey& k = declared(key);
    if (!k.default_number) throw std::logic_error("scenario key " + k.path + " declares no default");
    return number_or(key, *k.default_number);
}

double TomlReader::number_or(std::string_view key, double fallback) const {
    if (table_->contains(key)) return number(key);
    (void)declared(key);
    read_.emplace_back(key);
    return fallback;
}

std::int64_t TomlReader::integer_or(std::string_view key) const {
    const ScenarioKey& k = declared(key);
    if (!k.default_number) throw std::logic_error("scenario key " + k.path + " declares no default");
    return integer_or(key, static_cast<std::int64_t>(*k.default_number));
}

std::int64_t TomlReader::integer_or(std::string_view key, std::int64_t fallback) const {
    return integer_or(key, fallback, INT64_MIN, INT64_MAX);
}

std::int64_t TomlReader::integer_or(std::string_view key, std::int64_t fallback, std::int64_t lo,
                                    std::int64_t hi) const {
    const ScenarioKey& k = declared(key);
    if (!k.range) throw std::logic_error("scenario key " + k.path + " is read as an integer but declares no range");
    lo = std::max(lo, static_cast<std::int64_t>(std::ceil(k.range->lo)));
    if (std::isfinite(k.range->hi)) hi = std::min(hi, static_cast<std::int64_t>(std::floor(k.range->hi)));
    const toml::node* node = find(key, false, "an integer");
    if (!node) return fallback;
    if (!node->is_integer())
        throw error_at(*node, key, "expected an integer, got " + describe_node(*node));
    const std::int64_t value = *node->value<std::int64_t>();
    if (value < lo || value > hi)
        throw error_at(*node, key,
                       hi == INT64_MAX ? fmt::format("must be at least {}, got {}", lo, value)
                                       : fmt::format("must be between {} and {}, got {}", lo, hi, value));
    return value;
}

bool TomlReader::boolean_or(std::string_view key) const {
    const ScenarioKey& k = declared(key);
    if (!k.default_number) throw std::logic_error("scenario key " + k.path + " declares no default");
    const toml::node* node = find(key, false, "true or false");
    if (!node) return *k.default_number != 0.0;
    if (!node->is_boolean()) throw error_at(*node, key, "expected true or false, got " + describe_node(*node));
    return *node->value<bool>();
}

std::vector<double> TomlReader::numbers(std::string_view key) const {
    const NumberRule rule = rule_of(key);
    const toml::node* node = find(key, true, "an array of numbers");
    const toml::array* array = node->as_array();
    if (!array) throw error_at(*node, key, "expected an array of numbers, got " + describe_node(*node));
    std::vector<double> values;
    for (std::size_t i = 0; i < array->size(); ++i) {
        const toml::node& element = *array->get(i);
        std::string element_key(key);
        element_key += fmt::format("[{}]", i);
        const auto value = element.value<double>();
        if (!value || element.is_boolean())
            throw error_at(element, element_key, "expected a number, got " + describe_node(element));
        if (!std::isfinite(*value) || !rule.admits(*value))
            throw error_at(element, element_key, fmt::format("{}, got {}", rule.describe(*value), *value));
        values.push_back(*value);
    }
    return values;
}

std::vector<std::string> TomlReader::strings(std::string_view key) const {
    const toml::node* node = find(key, true, "an array of strings");
    const toml::array* array = node->as_array();
    if (!array) throw error_at(*node, key, "expected an array of strings, got " + describe_node(*node));
    std::vector<std::string> values;
    for (std::size_t i = 0; i < array->size(); ++i) {
        const toml::node& element = *array->get(i);
        if (!element.is_string())
            throw error_at(element, fmt::format("{}[{}]", key, i), "expected a string, got " + describe_node(element));
        values.push_back(*element.value<std::string>());
    }
    return values;
}

std::vector<std::vector<int>> TomlReader::integer_matrix(std::string_view key, std::size_t rows, std::size_t cols,
                                                         int lo, int hi) const {
    const toml::node* node = find(key, true, "an array of arrays of integers");
    const toml::array* array = node->as_array();
    const std::string shape = fmt::format("{} arrays of {} integers", rows, cols);
    if (!array || array->size() != rows)
        throw error_at(*node, key, fmt::format("expected {}, got {}", shape, describe_node(*node)));
    std::vector<std::vector<int>> matrix;
    for (std::size_t r = 0; r < rows; ++r) {
        const toml::node& row_node = *array->get(r);
        const toml::array* row = row_node.as_array();
        const std::string row_key = fmt::format("{}[{}]", key, r);
        if (!row || row->size() != cols)
            throw error_at(row_node, row_key, fmt::format("expected {} integers, got {}", cols, describe_node(row_node)));
        auto& values = matrix.emplace_back();
        for (std::size_t c = 0; c < cols; ++c) {
            const toml::node& cell = *row->get(c);
            const std::string cell_key = fmt::format("{}[{}]", row_key, c);
            if (!cell.is_integer()) throw error_at(cell, cell_key, "expected an integer, got " + describe_node(cell));
            const auto value = *cell.value<std::int64_t>();
            if (value < lo || value > hi)
                throw error_at(cell, cell_key, fmt::format("must be between {} and {}, got {}", lo, hi, value));
            values.push_back(static_cast<int>(value));
        }
    }
    return matrix;
}

bool TomlReader::contains(std::string_view key) const { return table_->contains(key); }

std::vector<std::string> TomlReader::keys() const {
    std::vector<std::pair<int, std::string>> keys;
    for (const auto& [key, node] : *table_) keys.emplace_back(static_cast<int>(node.source().begin.line), std::string(key.str()));
    std::stable_sort(keys.begin(), keys.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> names;
    for (auto& entry : keys) names.push_back(std::move(entry.second));
    return names;
}

int TomlReader::line_of(std::string_view key) const {
    const toml::node* node = table_->get(key);
    return node ? static_cast<int>(node->source().begin.line) : 0;
}

std::string TomlReader::string(std::string_view key) const {
    const toml::node* node = find(key, true, "a string");
    if (!node->is_string()) throw error_at(*node, key, "expected a string, got " + describe_node(*node));
    return *node->value<std::string>();
}

std::string TomlReader::string_or(std::string_view key, std::string fallback) const {
    if (table_->contains(key)) return string(key);
    (void)declared(key);
    read_.emplace_back(key);
    return fallback;
}

std::string TomlReader::choice_name(std::string_view key, const std::vector<std::string>& names,
                                    bool optional) const {
    std::string quoted;
    for (const auto& name : names) quoted += (quoted.empty() ? "\"" : ", \"") + name + "\"";
    const toml::node* node = find(key, !optional, ("one of " + quoted).c_str());
    if (!node) return "";
    if (!node->is_string())
        throw error_at(*node, key, "expected one of " + quoted + ", got " + describe_node(*node));
    std::string given = *node->value<std::string>();
    if (std::find(names.begin(), names.end(), given) != names.end()) return given;
    std::string message = "expected one of " + quoted + ", got \"" + given + "\"";
    if (auto hint = closest_match(given, names); !hint.empty())
        message += " (did you mean \"" + hint + "\"?)";
    throw error_at(*node, key, message);
}

std::optional<TomlReader> TomlReader::table(std::string_view key, bool required) const {
    const toml::node* node = find(key, required, "a table");
    if (!node) return std::nullopt;
    const toml::table* sub = node->as_table();
    if (!sub) throw error_at(*node, key, "expected a table, got " + describe_node(*node));
    return child(*node, *sub, child_path(key), child_schema(key));
}

std::vector<TomlReader> TomlReader::array_of_tables(std::string_view key, bool required) const {
    std::vector<TomlReader> out;
    const toml::node* node = find(key, required, "an array of tables");
    if (!node) return out;
    const toml::array* items = node->as_array();
    if (!items) throw error_at(*node, key, "expected an array of tables, got " + describe_node(*node));
    // Every entry costs model time each month; a list this long is a generated file gone wrong.
    if (items->size() > max_table_entries)
        throw error_at(*node, key, fmt::format("at most {} entries, got {}", max_table_entries, items->size()));
    for (std::size_t i = 0; i < items->size(); ++i) {
        const toml::node& item = *items->get(i);
        std::string path = child_path(key);
        path += '[';
        path += std::to_string(i);
        path += ']';
        if (!item.is_table()) {
            auto [source, line] = origin_of(item);
            throw InputError(source, line, path, "expected a table, got " + describe_node(item));
        }
        out.push_back(child(item, *item.as_table(), path, child_schema(key) + "[]"));
    }
    return out;
}

void TomlReader::finish() const {
    for (const auto& [key, node] : *table_) {
        const std::string name(key.str());
        if (std::find(read_.begin(), read_.end(), name) != read_.end()) continue;
        std::string message = "unknown key";
        if (auto hint = closest_match(name, read_); !hint.empty())
            message += " (did you mean \"" + hint + "\"?)";
        throw error_at(node, name, message);
    }
}

}  // namespace payback::detail
