// Every key a scenario file may hold, declared once: its path, type, unit, allowed range, default,
// the options it bears on and a help line. The TOML reader takes each key's range and default from
// here (toml_reader.hpp), `payback docs --keys` prints it (docs/keys.md), and `payback init`, the
// Python package's payback.keys() and the fuzz dictionary's test read it. Model: NREL SSC's var_info
// tables, one row per input.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace payback {

enum class KeyType { number, integer, boolean, text, choice, table, tables, numbers, texts, matrix };
const char* to_string(KeyType type);

/// The values a number or integer may take. `limit` is a plausible magnitude, not a law of nature: a
/// larger value is a typo or a unit mix-up ("price = 1e300"), refused with `limit_reason`.
struct KeyRange {
    double lo = 0.0;
    double hi = 0.0;
    bool lo_open = false;
    bool hi_open = false;
    bool fraction = false;  ///< a share written as 0.85: hint when 85 (a percentage) is given
    std::optional<double> limit{};
    const char* limit_reason = "";
};

struct ScenarioKey {
    std::string path;  ///< as in the file, arrays of tables marked []: "rig.parts[].price"
    KeyType type = KeyType::number;
    std::string unit;  ///< "currency", "W", "kWh", "h", "months", "/yr", "fraction", ... ("" for none)
    std::optional<KeyRange> range{};         ///< numbers, integers and arrays of numbers
    std::optional<double> default_number{};  ///< what the reader takes when the key is absent
    std::string default_text;  ///< the default in words when it is not a constant ("the catalog row's")
    std::string options;       ///< the options it bears on: "rig", "rental", "cloud", "all"
    std::string help;          ///< one line; choices list their values
};

/// Every key, in the order of docs/keys.md (the order of a scenario file).
const std::vector<ScenarioKey>& scenario_keys();

/// The key at `path` ("rig.parts[].price"); nullptr when the schema has no such key.
const ScenarioKey* find_scenario_key(std::string_view path);

/// A key path as --set writes it ("rig.parts[3].price") in the table's form ("rig.parts[].price").
std::string key_pattern(std::string_view key_path);

/// The unit of the key at `key_path` ("rig.parts[3].price"), "currency" written as `currency`
/// ("USD/kWh"); "" for a key without one or not in the table.
std::string unit_of(std::string_view key_path, std::string_view currency);

/// The key's default in words: default_text, else default_number, else "" (required or optional).
std::string default_in_words(const ScenarioKey& key);

/// The key's range in words ("0 to 1", "> 0", "at most 10^9 ..."); "" without one.
std::string range_in_words(const ScenarioKey& key);

/// Currencies in which a kWh costs well under 2 units and a part well under 10^9: USD, EUR, GBP, CHF,
/// CAD, AUD, NZD, SGD. In others (JPY, INR, KRW, ...) money limits are 10^5 times larger.
bool major_currency(std::string_view currency);
inline constexpr double minor_currency_scale = 1e5;

/// docs/keys.md: every key with its type, unit, range, default and help, as Markdown.
std::string keys_markdown();

}  // namespace payback
