#include "payback/scenario/assumptions.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <tuple>

#include <fmt/format.h>
#include <toml++/toml.h>

#include "payback/base/text_file.hpp"

namespace payback {

namespace {

struct Leaf {
    std::string path;
    std::string value;
    int line, column;  // in the resolved scenario's TOML: the schema's order
};

std::string value_text(const toml::node& node) {
    if (const auto* s = node.as_string()) return s->get();
    if (const auto* i = node.as_integer()) return fmt::format("{}", i->get());
    if (const auto* f = node.as_floating_point()) return fmt::format("{}", f->get());
    if (const auto* b = node.as_boolean()) return b->get() ? "true" : "false";
    if (const auto* a = node.as_array()) {
        // A matrix (a tariff's 12 × 24 schedule) is too wide to read in a table: its shape says what it is.
        if (!a->empty() && a->is_array_of_tables() == false && (*a)[0].is_array())
            return fmt::format("{} × {} table", a->size(), (*a)[0].as_array()->size());
        std::string out;
        for (const auto& element : *a) out += (out.empty() ? "" : ", ") + value_text(element);
        return "[" + out + "]";
    }
    return "";
}

// Every value of the resolved scenario with its key path as --set names it ("rig.parts[0].price").
void flatten(const toml::node& node, const std::string& path, std::vector<Leaf>& out) {
    if (const auto* table = node.as_table()) {
        for (const auto& [key, child] : *table) {
            if (path.empty() && key.str() == "uncertainty") continue;  // its keys are key paths: listed apart
            flatten(child, path.empty() ? std::string(key.str()) : path + "." + std::string(key.str()), out);
        }
        return;
    }
    if (const auto* array = node.as_array(); array && array->is_array_of_tables()) {
        for (std::size_t i = 0; i < array->size(); ++i) flatten(*array->get(i), path + fmt::format("[{}]", i), out);
        return;
    }
    const auto& begin = node.source().begin;
    out.push_back({path, value_text(node), static_cast<int>(begin.line), static_cast<int>(begin.column)});
}

bool set_by(const std::string& path, const std::vector<Override>& overrides) {
    return std::any_of(overrides.begin(), overrides.end(), [&](const Override& o) {
        if (path == o.key_path) return true;
        // An override of a whole table or array sets everything under it.
        return path.size() > o.key_path.size() && path.compare(0, o.key_path.size(), o.key_path) == 0 &&
               (path[o.key_path.size()] == '.' || path[o.key_path.size()] == '[');
    });
}

}  // namespace

std::string option_key_path(const Scenario& s, std::size_t i) {
    std::size_t same_kind = 0;
    for (std::size_t k = 0; k < i; ++k)
        if (s.clouds[k].api.has_value() == s.clouds[i].api.has_value()) ++same_kind;
    return fmt::format("{}[{}]", s.clouds[i].api ? "api" : "cloud", same_kind);
}

namespace {

// Key path -> the catalog row that filled it.
std::map<std::string, std::string> catalog_origins(const Scenario& s) {
    std::map<std::string, std::string> out;
    for (std::size_t i = 0; i < s.rig.parts.size(); ++i)
        for (const auto& [key, origin] : s.rig.parts[i].from_catalog) out[fmt::format("rig.parts[{}].{}", i, key)] = origin;
    for (std::size_t i = 0; i < s.clouds.size(); ++i)
        for (const auto& [key, origin] : s.clouds[i].from_catalog) out[option_key_path(s, i) + "." + key] = origin;
    if (s.rental)
        for (const auto& [key, origin] : s.rental->from_catalog) out["rental." + key] = origin;
    return out;
}

// The cloud option a "cloud[i]...." path is under, if any.
std::optional<std::size_t> cloud_index(const std::string& path) {
    std::size_t index = 0;
    if (std::sscanf(path.c_str(), "cloud[%zu]", &index) == 1) return index;
    return std::nullopt;
}

std::optional<std::size_t> part_index(const std::string& path) {
    std::size_t index = 0;
    if (std::sscanf(path.c_str(), "rig.parts[%zu]", &index) == 1) return index;
    return std::nullopt;
}

std::string ends_with_key(const std::string& path) { return path.substr(path.find_last_of('.') + 1); }

class Sources {
public:
    Sources(const Scenario& s, const std::vector<Override>& overrides)
        : s_(s), overrides_(overrides), catalog_(catalog_origins(s)) {
        try {
            file_ = toml::parse(detail::read_text_file(s.source), s.source);
        } catch (const std::exception&) {  // parsed from text, or gone since: no line numbers
        }
    }

    std::string of(const std::string& path) const {
        if (set_by(path, overrides_)) return "--set";
        if (const auto found = catalog_.find(path); found != catalog_.end()) return found->second;
        if (const int line = line_of(path); line > 0) return at_line(line);
        if (path == "workload.job.samples_per_second" && s_.job) return s_.job->gpu_origin;
        if (const auto p = part_index(path); p && *p < s_.rig.parts.size()) {
            // A part named by catalog row takes its kind and name from that row, as it does its price.
            const Part& part = s_.rig.parts[*p];
            const std::string key = ends_with_key(path);
            if ((key == "kind" || key == "name") && !part.from_catalog.empty()) return part.from_catalog.front().second;
        }
        if (path == "electricity.grid_region") return "electricity.region";
        if (path == "rig.psu.rating" || path == "rig.psu.capacity_watts")
            for (const Part& part : s_.rig.parts)  // the PSU named by catalog row gives its curve
                if (part.kind == PartKind::psu && !part.from_catalog.empty()) return part.from_catalog.front().second;
        if (const auto c = cloud_index(path); c && *c < s_.clouds.size() && !s_.clouds[*c].instance.empty()) {
            const CloudOption& cloud = s_.clouds[*c];
            const std::string key = path.substr(path.find("].") + 2);
            if ((key == "pue" || key == "co2_kg_per_kwh") && (cloud.pue != 1.0 || cloud.co2_kg_per_kwh != 0.0))
                return fmt::format("pricing/cloud-regions.csv, {}:{}",
                                   cloud.instance.substr(0, cloud.instance.find(':')), cloud.price_region);
            // The rest of what the instance's row gives, cited by the row its price came from.
            const auto row = std::find_if(cloud.from_catalog.begin(), cloud.from_catalog.end(),
                                          [](const auto& entry) { return entry.first == "price_per_hour"; });
            const bool from_row = key == "gpus" || key == "region" || key == "on_demand_price_per_hour" ||
                                  key == "billing.increment_seconds" || key == "billing.minimum_seconds";
            if (from_row && row != cloud.from_catalog.end()) return row->second;
        }
        return file_ ? "default" : "scenario";
    }

    int line_of(const std::string& path) const {
        if (!file_) return 0;
        const auto node = file_->at_path(path);
        return node ? static_cast<int>(node.node()->source().begin.line) : 0;
    }

    std::string at_line(int line) const { return line > 0 ? fmt::format("{}:{}", s_.source, line) : "scenario"; }

private:
    const Scenario& s_;
    const std::vector<Override>& overrides_;
    std::map<std::string, std::string> catalog_;
    std::optional<toml::table> file_;
};

// Values a region key looked up that have no key of their own in the resolved scenario.
void looked_up(const Scenario& s, const Leaf& leaf, std::vector<Assumption>& out) {
    if (leaf.path == "electricity.region")
        out.push_back({"electricity.price_per_kwh", fmt::format("{}", units::in_money_per_kwh(s.electricity_price)),
                       s.electricity_origin});
    if (leaf.path == "electricity.grid_region")
        out.push_back({"electricity.co2_kg_per_kwh", fmt::format("{}", s.grid_co2_kg_per_kwh),
                       "pricing/grid-carbon.csv, region " + s.grid_region});
    if (const auto c = cloud_index(leaf.path); c && *c < s.clouds.size() && ends_with_key(leaf.path) == "region") {
        const CloudOption& cloud = s.clouds[*c];
        if (cloud.region.empty()) return;  // the catalog instance's region: pue and co2 have their own keys
        const std::string origin = "pricing/cloud-regions.csv, " + cloud.region;
        out.push_back({fmt::format("cloud[{}].pue", *c), fmt::format("{}", cloud.pue), origin});
        out.push_back({fmt::format("cloud[{}].co2_kg_per_kwh", *c), fmt::format("{}", cloud.co2_kg_per_kwh), origin});
    }
}

// Token rates the scenario does not write (to_toml leaves derived ones out, so that a changed workload
// derives them anew), shown after the name of the option that serves at them, with their origin.
void derived_rates(const Scenario& s, const Leaf& leaf, std::vector<Assumption>& out) {
    const auto add = [&](const std::string& option, const std::optional<TokenRates>& rates) {
        if (leaf.path != option + ".name" || !rates || !rates->predicted) return;
        out.push_back({option + ".tokens_per_second.prefill", fmt::format("{}", rates->prefill), rates->origin});
        out.push_back({option + ".tokens_per_second.decode", fmt::format("{}", rates->decode), rates->origin});
    };
    add("rig", s.rig.tokens_per_second);
    for (std::size_t i = 0; i < s.clouds.size(); ++i) add(option_key_path(s, i), s.clouds[i].tokens_per_second);
}

}  // namespace

std::vector<Assumption> assumptions(const Scenario& s, const std::vector<Override>& overrides) {
    std::vector<Leaf> leaves;
    flatten(toml::parse(to_toml(s)), "", leaves);
    std::stable_sort(leaves.begin(), leaves.end(),
                     [](const Leaf& a, const Leaf& b) { return std::tie(a.line, a.column) < std::tie(b.line, b.column); });
    const Sources sources(s, overrides);
    std::vector<Assumption> out;
    for (const Leaf& leaf : leaves) {
        out.push_back({leaf.path, leaf.value, sources.of(leaf.path)});
        looked_up(s, leaf, out);
        derived_rates(s, leaf, out);
    }
    for (const UncertainInput& input : s.uncertainty.inputs) {
        const std::string key = fmt::format("uncertainty[\"{}\"]", input.key);
        out.push_back({key, describe(input.distribution), set_by("uncertainty", overrides) ? "--set" : sources.at_line(input.line)});
    }
    for (std::size_t i = 0; i < s.uncertainty.correlations.size(); ++i) {
        const RankCorrelation& c = s.uncertainty.correlations[i];
        const std::string key = fmt::format("uncertainty.correlations[{}]", i);
        out.push_back({key, fmt::format("rank {} between {} and {}", c.rank, c.a, c.b),
                       set_by(key, overrides) ? "--set" : sources.at_line(sources.line_of(key))});
    }
    return out;
}

}  // namespace payback
