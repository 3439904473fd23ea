#include "scenario/key_paths.hpp"

#include <vector>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "payback/base/error.hpp"
#include "payback/base/suggest.hpp"

namespace payback::detail {
namespace {

// Every numeric key path of a TOML table, in the form --set takes ("rig.parts[0].price").
void numeric_paths(const toml::node& node, const std::string& path, std::vector<std::string>& out) {
    if (const auto* table = node.as_table()) {
        for (const auto& [key, child] : *table)
            numeric_paths(child, path.empty() ? std::string(key.str()) : path + "." + std::string(key.str()), out);
    } else if (const auto* array = node.as_array()) {
        for (std::size_t i = 0; i < array->size(); ++i)
            numeric_paths(*array->get(i), path + fmt::format("[{}]", i), out);
    } else if (node.is_floating_point()) {
        out.push_back(path);
    }
}

}  // namespace

double numeric_key_value(const Scenario& s, const std::string& key, const std::string& source, int line) {
    const toml::table resolved = toml::parse(to_toml(s));
    const toml::node_view<const toml::node> node = resolved.at_path(key);
    if (node && node.is_integer())
        throw InputError(source, line, key, "is a whole number; only keys that vary continuously can be varied");
    if (node && node.is_floating_point()) return *node.value<double>();
    std::vector<std::string> known;
    numeric_paths(resolved, "", known);
    const std::string hint = closest_match(key, known);
    throw InputError(source, line, key,
                     node ? "is not a number" : "no such numeric scenario key" +
                                                    (hint.empty() ? std::string() : "; did you mean " + hint + "?"));
}

}  // namespace payback::detail
