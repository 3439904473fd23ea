// The key table (payback/scenario/keys.hpp): the one place each scenario key is declared. The reader
// takes ranges and defaults from it, so these tests check the table against what parsing does.
#include <catch2/catch.hpp>

#include <filesystem>
#include <set>
#include <string>

#include <toml++/toml.h>

#include "payback/scenario/keys.hpp"
#include "payback/scenario/scenario.hpp"
#include "support/input_errors.hpp"
#include "support/scenario_text.hpp"

using namespace payback;
using test::check_error;
using test::input_error;
using test::replaced;

namespace {

// Every leaf of a TOML table with its key path as --set writes it ("rig.parts[0].price").
void leaves(const toml::node& node, const std::string& path, std::vector<std::pair<std::string, const toml::node*>>& out) {
    if (const auto* table = node.as_table()) {
        for (const auto& [key, child] : *table)
            leaves(child, path.empty() ? std::string(key.str()) : path + "." + std::string(key.str()), out);
    } else if (const auto* array = node.as_array(); array && array->is_array_of_tables()) {
        for (std::size_t i = 0; i < array->size(); ++i) leaves(*array->get(i), path + "[" + std::to_string(i) + "]", out);
    } else {
        out.emplace_back(path, &node);
    }
}

}  // namespace

TEST_CASE("the key table: unique paths, each under a declared table, ranges where numbers are read", "[keys]") {
    std::set<std::string> seen;
    for (const ScenarioKey& k : scenario_keys()) {
        INFO(k.path);
        CHECK(seen.insert(k.path).second);
        CHECK_FALSE(k.help.empty());
        CHECK((k.options == "rig" || k.options == "rental" || k.options == "cloud" || k.options == "api" ||
               k.options == "all"));
        const auto dot = k.path.rfind('.');
        if (dot != std::string::npos) {
            std::string parent = k.path.substr(0, dot);
            if (parent.size() > 2 && parent.compare(parent.size() - 2, 2, "[]") == 0) parent.resize(parent.size() - 2);
            CHECK(find_scenario_key(parent) != nullptr);
        }
        const bool numeric = k.type == KeyType::number || k.type == KeyType::integer || k.type == KeyType::numbers;
        CHECK(numeric == k.range.has_value());
        if (k.default_number && k.range) {
            CHECK(*k.default_number >= k.range->lo);
            CHECK(*k.default_number <= k.range->hi);
        }
    }
    CHECK(key_pattern("rig.parts[12].pcie_slots[0].lanes") == "rig.parts[].pcie_slots[].lanes");
    CHECK(find_scenario_key("rig.parts[].price")->unit == "currency");
    CHECK(find_scenario_key("rig.parts.price") == nullptr);
    CHECK(unit_of("rig.parts[3].price", "EUR") == "EUR");
    CHECK(unit_of("electricity.tiers[0].price", "GBP") == "GBP/kWh");
    CHECK(unit_of("rig.parts[0].load_watts", "USD") == "W");
    CHECK(unit_of("rig.parts[0].count", "USD").empty());
    CHECK(unit_of("no.such.key", "USD").empty());
}

TEST_CASE("every value a scenario resolves to is a declared key", "[keys]") {
    // payback check's output (to_toml) of every shipped scenario: each leaf's pattern is in the table.
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(PAYBACK_SOURCE_DIR) / "scenarios")) {
        if (entry.path().extension() != ".toml") continue;
        const Scenario s = load_scenario(entry.path().string());
        std::vector<std::pair<std::string, const toml::node*>> found;
        const toml::table resolved = toml::parse(to_toml(s));
        leaves(resolved, "", found);
        for (const auto& [path, node] : found) {
            if (path.rfind("uncertainty.", 0) == 0) continue;  // named by the keys they describe
            INFO(entry.path().filename().string() << ": " << path);
            CHECK(find_scenario_key(key_pattern(path)) != nullptr);
        }
    }
}

TEST_CASE("a key left out takes the table's default", "[keys]") {
    // The hand scenario gives none of these: what parsing fills in is what the table declares.
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml");
    const auto default_of = [](const char* path) { return *find_scenario_key(path)->default_number; };
    CHECK(s.inflation == default_of("scenario.inflation"));
    CHECK(s.rig.parts[0].count == default_of("rig.parts[].count"));
    CHECK(s.rig.parts[0].purchase_month == default_of("rig.parts[].purchase_month"));
    CHECK(units::in_watts(s.rig.parts[0].off_power) == default_of("rig.parts[].off_watts"));
    CHECK(s.clouds[0].escalation == default_of("cloud[].escalation"));
    CHECK(s.clouds[0].committed_hours_per_month == default_of("cloud[].committed_hours_per_month"));
    CHECK(s.electricity_escalation == default_of("electricity.escalation"));
    CHECK(s.deferrable_training == (default_of("workload.deferrable") != 0.0));
    const Scenario loan = parse_scenario(test::hand_scenario() + "\n[financing]\napr = 0.05\n", "hand.toml");
    CHECK(loan.financing->term_months == default_of("financing.term_months"));
    const Scenario spot = parse_scenario(
        replaced(test::hand_scenario(), "price_per_hour = 2.0", "price_per_hour = 2.0\nmode = \"spot\""), "hand.toml");
    REQUIRE(spot.clouds[0].spot);
    CHECK(spot.clouds[0].spot->checkpoint_interval_hours == default_of("cloud[].checkpoint_interval_hours"));
    CHECK(spot.clouds[0].spot->restart_hours == default_of("cloud[].restart_hours"));
}

TEST_CASE("absurd magnitudes are refused: a part's price and watts", "[keys][errors]") {
    // 3e300 would otherwise print as a 300-digit number; 10^9 is more than any part costs.
    const auto price = input_error(
        [] { parse_scenario(replaced(test::hand_scenario(), "price = 1000", "price = 3e300"), "hand.toml"); });
    check_error(price, "hand.toml", 17, "rig.parts[0].price",
                "must be at most 1e+09 (more money than any part, price or bill in the model), got 3e+300");
    const auto watts = input_error(
        [] { parse_scenario(replaced(test::hand_scenario(), "load_watts = 300", "load_watts = 2e6"), "hand.toml"); });
    check_error(watts, "hand.toml", 19, "rig.parts[0].load_watts", "must be at most 1e+06");
    // Below the range the message is the range's, as before the limit existed.
    const auto negative = input_error(
        [] { parse_scenario(replaced(test::hand_scenario(), "price = 1000", "price = -5"), "hand.toml"); });
    check_error(negative, "hand.toml", 17, "rig.parts[0].price", "must be >= 0, got -5");
}

TEST_CASE("money limits scale for currencies whose units are worth little", "[keys]") {
    // A 2-billion-yen part is 13 million dollars: plausible in JPY, not in USD.
    const std::string yen = replaced(test::hand_scenario(), "name = \"hand\"", "name = \"hand\"\ncurrency = \"JPY\"");
    const Scenario s = parse_scenario(replaced(yen, "price = 1000", "price = 2e9"), "hand.toml");
    CHECK(units::in_money(s.rig.parts[0].price) == 2e9);
    CHECK_THROWS_AS(parse_scenario(replaced(test::hand_scenario(), "price = 1000", "price = 2e9"), "hand.toml"),
                    InputError);
    CHECK_THROWS_AS(parse_scenario(replaced(yen, "price = 1000", "price = 2e14"), "hand.toml"), InputError);
    CHECK_FALSE(major_currency("JPY"));
    CHECK(major_currency("EUR"));
}

TEST_CASE("the key table in words: ranges and defaults as docs/keys.md prints them", "[keys]") {
    CHECK(range_in_words(*find_scenario_key("rig.psu_efficiency")) == "(0, 1]");
    CHECK(range_in_words(*find_scenario_key("rig.parts[].count")) == "[1, 1000]");
    CHECK(range_in_words(*find_scenario_key("rig.parts[].load_watts")) ==
          "≥ 0, at most 10^6 (a megawatt: kW or mW typed as W?)");
    CHECK(default_in_words(*find_scenario_key("scenario.horizon_months")) == "36");
    CHECK(default_in_words(*find_scenario_key("cloud[].mode")) == "on_demand");
    CHECK(default_in_words(*find_scenario_key("rig.parts[].price")) == "the catalog row's (USD scenarios)");
    CHECK(default_in_words(*find_scenario_key("rig.parts[].retire_month")).empty());
}
