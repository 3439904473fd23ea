// A validating reader over one toml++ table. Every getter checks type, finiteness and range and
// throws InputError naming the source, line and full key path; finish() rejects keys nobody read,
// with a "did you mean" hint. Each key's range and default come from the key table
// (payback/scenario/keys.hpp): a key it does not declare is a bug (std::logic_error), so the table
// lists every key the readers (scenario_parse.cpp and parse_*.cpp) read.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <toml++/toml.h>

#include "payback/base/error.hpp"
#include "payback/scenario/keys.hpp"

namespace payback::detail {

/// The allowed values of a number, and how to describe them when a value falls outside.
struct NumberRule {
    double lo;
    double hi;
    bool lo_open = false;
    bool hi_open = false;
    bool is_fraction = false;  ///< a share written as 0.85: hint when 85 (a percentage) is given
    std::optional<double> limit{};  ///< a plausible magnitude (KeyRange::limit), refused beyond
    const char* limit_reason = "";

    /// A key's range, its money limit scaled by `money_scale` for minor currencies.
    static NumberRule of(const KeyRange& range, double money_scale);

    static NumberRule non_negative();
    static NumberRule positive();
    static NumberRule between(double lo, double hi);
    static NumberRule fraction();             ///< [0, 1]
    static NumberRule positive_fraction();    ///< (0, 1]
    static NumberRule rate();                 ///< (-1, 1], e.g. a discount rate

    bool admits(double value) const;
    /// What a value outside says; `value` picks between the range and the plausible limit.
    std::string describe(double value) const;
};

class TomlReader {
public:
    /// `file` is the scenario file; `key_path` is where this table sits ("" at the root), `schema`
    /// its path in the key table ("rig.parts[]"). Money is limited `money_scale` times more than the
    /// table says (minor currencies: major_currency).
    TomlReader(const toml::table& table, const std::string& file, std::string key_path, int line, std::string schema = "",
               double money_scale = 1.0);

    /// A number in the key's declared range.
    double number(std::string_view key) const;
    /// The same, or the key's declared default when absent.
    double number_or(std::string_view key) const;
    /// The same, or `fallback` when absent: a default the table states in words (a catalog row's).
    double number_or(std::string_view key, double fallback) const;
    /// An integer in the key's declared range, else `fallback` (the declared default when not given).
    std::int64_t integer_or(std::string_view key) const;
    std::int64_t integer_or(std::string_view key, std::int64_t fallback) const;
    /// The same within [lo, hi] as well: a bound that depends on the scenario (the horizon).
    std::int64_t integer_or(std::string_view key, std::int64_t fallback, std::int64_t lo, std::int64_t hi) const;
    /// true or false, else the key's declared default.
    bool boolean_or(std::string_view key) const;
    /// An array of numbers, each in the key's declared range; errors name the element (`key[2]`).
    std::vector<double> numbers(std::string_view key) const;
    /// An array of strings; errors name the element.
    std::vector<std::string> strings(std::string_view key) const;
    /// A rows × cols array of arrays of integers in [lo, hi] (a 12 × 24 tariff schedule).
    std::vector<std::vector<int>> integer_matrix(std::string_view key, std::size_t rows, std::size_t cols, int lo,
                                                 int hi) const;
    bool contains(std::string_view key) const;
    /// Every key of this table, in the file's order.
    std::vector<std::string> keys() const;
    /// The line `key` is on (0 when it has none).
    int line_of(std::string_view key) const;
    /// The directory of the scenario file, against which file names in it are resolved.
    std::string file() const { return file_; }
    std::string string(std::string_view key) const;
    std::string string_or(std::string_view key, std::string fallback) const;

    /// One of `choices` by name; the fallback when absent, or an error when there is none.
    template <class E>
    E choice(std::string_view key, const std::vector<std::pair<std::string, E>>& choices,
             std::optional<E> fallback = std::nullopt) const {
        const auto names = names_of(choices);
        const std::string picked = choice_name(key, names, fallback.has_value());
        if (picked.empty()) return *fallback;
        for (const auto& [name, value] : choices)
            if (name == picked) return value;
        return *fallback;  // unreachable: choice_name only returns listed names
    }

    std::optional<TomlReader> table(std::string_view key, bool required) const;
    /// At most max_table_entries tables ([[rig.parts]], [[cloud]], ...).
    std::vector<TomlReader> array_of_tables(std::string_view key, bool required) const;
    static constexpr std::size_t max_table_entries = 1000;

    /// Throws for the first key of this table that no getter asked for.
    void finish() const;

    InputError error(std::string_view key, const std::string& message) const;

private:
    const toml::node* find(std::string_view key, bool required, const char* expected) const;
    /// The key table's row of `key` in this table; std::logic_error when it has none.
    const ScenarioKey& declared(std::string_view key) const;
    NumberRule rule_of(std::string_view key) const;
    double checked(const toml::node& node, std::string_view key, const NumberRule& rule) const;
    std::string child_schema(std::string_view key) const;
    std::string child_path(std::string_view key) const;
    std::pair<std::string, int> origin_of(const toml::node& node) const;
    InputError error_at(const toml::node& node, std::string_view key, const std::string& message) const;
    std::string choice_name(std::string_view key, const std::vector<std::string>& names,
                            bool optional) const;
    template <class E>
    static std::vector<std::string> names_of(const std::vector<std::pair<std::string, E>>& choices) {
        std::vector<std::string> names;
        for (const auto& choice : choices) names.push_back(choice.first);
        return names;
    }

    TomlReader(const toml::table& table, std::string file, std::string source, std::string key_path, int line,
               std::string schema, double money_scale);
    TomlReader child(const toml::node& node, const toml::table& table, std::string key_path,
                     std::string schema) const;

    const toml::table* table_;
    std::string file_;    ///< the scenario file
    std::string source_;  ///< where this table came from: the file, or a --set override
    std::string key_path_;
    int line_;
    std::string schema_;  ///< key_path_ as the key table writes it: "rig.parts[]", "uncertainty.<key>"
    double money_scale_;
    mutable std::vector<std::string> read_;
};

/// The TOML type of a node in words, with its value where short: `string "36"`, `boolean true`.
std::string describe_node(const toml::node& node);

}  // namespace payback::detail
