#include <catch2/catch.hpp>

#include <algorithm>

#include "payback/scenario/assumptions.hpp"
#include "support/scenario_text.hpp"
#include "support/temp_dir.hpp"

using namespace payback;

namespace {

const Assumption& find(const std::vector<Assumption>& list, const std::string& key) {
    const auto found = std::find_if(list.begin(), list.end(), [&](const Assumption& a) { return a.key == key; });
    INFO(key);
    REQUIRE(found != list.end());
    return *found;
}

}  // namespace

// The hand scenario's text starts with a blank line: [scenario] is on line 2, the second part's
// price on line 24.
TEST_CASE("each value's source is its line in the scenario file, --set, or the default", "[report]") {
    test::TempDir dir;
    const std::string path = dir.write("hand.toml", test::hand_scenario());
    const std::vector<Override> overrides{{"electricity.price_per_kwh", "0.3"}};
    const Scenario s = load_scenario(path, overrides);
    const auto list = assumptions(s, overrides);

    CHECK(list.front().key == "scenario.name");  // the schema's order, as payback check prints it
    CHECK(list.front().source == path + ":3");
    CHECK(find(list, "rig.parts[1].price").value == "500");
    CHECK(find(list, "rig.parts[1].price").source == path + ":24");
    CHECK(find(list, "scenario.discount_rate").source == path + ":5");
    CHECK(find(list, "scenario.inflation").value == "0");
    CHECK(find(list, "scenario.inflation").source == "default");
    CHECK(find(list, "rig.parts[0].resale.method").value == "none");
    CHECK(find(list, "rig.parts[0].resale.method").source == "default");
    CHECK(find(list, "electricity.price_per_kwh").value == "0.3");
    CHECK(find(list, "electricity.price_per_kwh").source == "--set");
    CHECK(find(list, "rig.cooling.cop_by_month").value == "[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]");
    // Every key appears once.
    for (const Assumption& a : list)
        CHECK(std::count_if(list.begin(), list.end(), [&](const Assumption& b) { return b.key == a.key; }) == 1);
}

TEST_CASE("an [uncertainty] distribution is listed with its line", "[report]") {
    test::TempDir dir;
    const std::string path = dir.write("hand.toml", test::hand_scenario() + R"(
[uncertainty]
"electricity.price_per_kwh" = { dist = "uniform", low = 0.1, high = 0.4 }
)");
    // hand_scenario() ends on line 34; a blank line and the table's header follow.
    const auto list = assumptions(load_scenario(path), {});
    const Assumption& a = find(list, "uncertainty[\"electricity.price_per_kwh\"]");
    CHECK(a.source == path + ":37");
    CHECK(a.value.find("uniform") != std::string::npos);
}

TEST_CASE("values from catalog rows cite the row and its date", "[report]") {
    const std::string path = std::string(PAYBACK_SOURCE_DIR) + "/scenarios/rtx3080-rental.toml";
    const auto list = assumptions(load_scenario(path), {});
    // parts[1] is gpu = "RTX 3080 10GB": its price is the catalog's, its idle draw the file's.
    CHECK_THAT(find(list, "rig.parts[1].price").source, Catch::Matches("pricing/gpus\\.csv:[0-9]+, as of [0-9-]+"));
    CHECK_THAT(find(list, "rig.parts[1].name").source, Catch::StartsWith("pricing/gpus.csv:"));
    CHECK_THAT(find(list, "rig.parts[1].idle_watts").source, Catch::EndsWith("rtx3080-rental.toml:46"));
    CHECK_THAT(find(list, "cloud[0].price_per_hour").source, Catch::StartsWith("pricing/cloud-instances.csv:"));
    CHECK(find(list, "cloud[0].gpus").source == find(list, "cloud[0].price_per_hour").source);  // the same row
    CHECK(find(list, "cloud[0].storage_per_month").source == "default");
    // parts[3] is part = "EVGA SuperNOVA GA 850": its row gives the PSU's 80 PLUS curve.
    CHECK_THAT(find(list, "rig.psu.capacity_watts").source, Catch::StartsWith("pricing/parts.csv:"));
    CHECK(find(list, "rig.psu.mains_volts").source == "default");
    CHECK_THAT(find(list, "rental.occupancy").source, Catch::StartsWith("pricing/rental-markets.csv:"));
    // The grid's intensity follows the region that named it.
    const Assumption& grid = find(list, "electricity.co2_kg_per_kwh");
    CHECK(grid.source == "pricing/grid-carbon.csv, region US");
    CHECK(std::stod(grid.value) > 0.0);
}

TEST_CASE("a scenario parsed from text has no file to cite", "[report]") {
    const auto list = assumptions(parse_scenario(test::hand_scenario(), "inline"), {});
    CHECK(find(list, "rig.parts[1].price").source == "scenario");
}

TEST_CASE("token rates the scenario does not give are listed after their option's name with their origin",
          "[report][tokens]") {
    // llm-4090-vs-api gives the rig's rates (written back, cited by line) and leaves the L4's to the predictor.
    const std::string path = std::string(PAYBACK_SOURCE_DIR) + "/scenarios/llm-4090-vs-api.toml";
    const Scenario s = load_scenario(path);
    const auto list = assumptions(s, {});
    const TokenRates& l4 = *s.clouds.front().tokens_per_second;
    REQUIRE(l4.predicted);
    const Assumption& decode = find(list, "cloud[0].tokens_per_second.decode");
    CHECK(std::stod(decode.value) == l4.decode);  // fmt's shortest form reads back exactly
    CHECK(decode.source == l4.origin);
    CHECK_THAT(decode.source, Catch::StartsWith("predicted for L4 from its specs (roofline), expected error"));
    CHECK(std::stod(find(list, "cloud[0].tokens_per_second.prefill").value) == l4.prefill);
    // Right after cloud[0].name, the prefill rate first.
    const auto name = std::find_if(list.begin(), list.end(), [](const Assumption& a) { return a.key == "cloud[0].name"; });
    REQUIRE(name + 2 < list.end());
    CHECK((name + 1)->key == "cloud[0].tokens_per_second.prefill");
    CHECK((name + 2)->key == "cloud[0].tokens_per_second.decode");
    // The rig's, given by hand, come from the file's line once.
    CHECK_THAT(find(list, "rig.tokens_per_second.decode").source, Catch::StartsWith(path + ":"));
    CHECK(std::count_if(list.begin(), list.end(), [](const Assumption& a) { return a.key == "rig.tokens_per_second.decode"; }) == 1);
}
