#include "scenario/overrides.hpp"

#include <sstream>

#include "payback/base/error.hpp"

namespace payback {

namespace {

struct PathStep {
    std::string key;
    std::optional<std::size_t> index;  // "parts[0]" is key "parts", index 0
};

std::vector<PathStep> split_path(const std::string& path, const std::string& origin) {
    std::vector<PathStep> steps;
    std::istringstream parts(path);
    std::string segment;
    while (std::getline(parts, segment, '.')) {
        PathStep step;
        const auto bracket = segment.find('[');
        step.key = segment.substr(0, bracket);
        if (bracket != std::string::npos) {
            const auto close = segment.find(']', bracket);
            const std::string digits = segment.substr(bracket + 1, close - bracket - 1);
            if (close != segment.size() - 1 || digits.empty() || digits.size() > 6 ||
                digits.find_first_not_of("0123456789") != std::string::npos)
                throw InputError(origin, 0, path, "expected an index such as parts[0], got \"" + segment + "\"");
            step.index = std::stoul(digits);
        }
        if (step.key.empty()) throw InputError(origin, 0, path, "empty key in the key path");
        steps.push_back(step);
    }
    if (steps.empty()) throw InputError(origin, 0, path, "empty key path");
    return steps;
}

// The value as TOML; a bare word that is not TOML (off, straight_line) is taken as a string.
// The result is a one-key document {v = value}, so the value keeps its source region.
toml::table parse_value(const std::string& value, const std::string& origin) {
    try {
        return toml::parse("v = " + value, origin);
    } catch (const toml::parse_error&) {
        std::ostringstream quoted;
        quoted << toml::value<std::string>(value);
        return toml::parse("v = " + quoted.str(), origin);
    }
}

// Moves the parsed value into place as its concrete type (toml++ inserts values, not nodes).
template <class Put>
void place_value(toml::table& parsed, Put&& put) {
    parsed.get("v")->visit([&](auto&& node) { put(std::move(node)); });
}

}  // namespace

Override parse_override(const std::string& assignment) {
    const auto eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0)
        throw InputError("--set " + assignment, 0, "", "expected key.path=value, e.g. electricity.price_per_kwh=0.3");
    return {assignment.substr(0, eq), assignment.substr(eq + 1)};
}

namespace detail {

void apply_override(toml::table& root, const Override& o) {
    const std::string origin = "--set " + o.key_path + "=" + o.value;
    const auto steps = split_path(o.key_path, origin);
    toml::table* table = &root;
    std::string walked;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        const PathStep& step = steps[i];
        walked += (walked.empty() ? "" : ".") + step.key;
        const bool last = i + 1 == steps.size();
        if (last && !step.index) {
            auto parsed = parse_value(o.value, origin);
            place_value(parsed, [&](auto&& node) { table->insert_or_assign(step.key, std::move(node)); });
            return;
        }
        toml::node* next = table->get(step.key);
        if (step.index) {
            toml::array* array = next ? next->as_array() : nullptr;
            if (!array) throw InputError(origin, 0, walked, "is not a list in the scenario");
            walked += '[';
            walked += std::to_string(*step.index);
            walked += ']';
            if (*step.index >= array->size())
                throw InputError(origin, 0, walked,
                                 "no such element: the list has " + std::to_string(array->size()));
            if (last) {
                auto parsed = parse_value(o.value, origin);
                const auto at = array->begin() + static_cast<std::ptrdiff_t>(*step.index);
                place_value(parsed, [&](auto&& node) { array->replace(at, std::move(node)); });
                return;
            }
            next = array->get(*step.index);
        } else if (!next) {
            // Parsed rather than default-constructed, so the new table's source is the override.
            auto parsed = parse_value("{}", origin);
            next = &table->insert_or_assign(step.key, std::move(*parsed.get_as<toml::table>("v"))).first->second;
        }
        table = next->as_table();
        if (!table) throw InputError(origin, 0, walked, "is not a table in the scenario");
    }
}

}  // namespace detail
}  // namespace payback
