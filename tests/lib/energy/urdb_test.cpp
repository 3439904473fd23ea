#include <catch2/catch.hpp>

#include <array>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "payback/base/error.hpp"
#include "payback/energy/tariff.hpp"
#include "payback/energy/urdb.hpp"
#include "support/input_errors.hpp"

using namespace payback;
using nlohmann::json;

namespace {

const std::string fixture = PAYBACK_SOURCE_DIR "/tests/fixtures/tariffs/urdb-sample.json";
const std::string tariffs_dir = PAYBACK_SOURCE_DIR "/pricing/tariffs";

json read_json(const std::string& path) {
    std::ifstream file(path);
    REQUIRE(file.good());
    return json::parse(file);
}

// The InputError that parsing `text` throws.
InputError parse_error(const std::string& text) {
    return payback::test::input_error([&] { parse_urdb_tariff(text, "edited.json"); });
}

// The fixture with one edit applied, serialised.
template <class Edit>
std::string edited(Edit edit) {
    json record = read_json(fixture);
    edit(record);
    return record.dump(2);
}

void check_error(const InputError& e, int line, const std::string& key_path, const std::string& fragment) {
    payback::test::check_error(e, "edited.json", line, key_path, fragment);
}

std::array<double, hours_per_week> constant_profile(double kwh) {
    std::array<double, hours_per_week> profile;
    profile.fill(kwh);
    return profile;
}

constexpr int monday = 0;
constexpr int saturday = 5;
int week_hour(int day, int hour) { return day * 24 + hour; }

}  // namespace

// ---- the fixture ----

TEST_CASE("urdb: the fixture loads with rate + adj and daily limits converted", "[urdb]") {
    const Tariff t = load_urdb_tariff(fixture);
    CHECK(t.name == "TOU-FIXTURE (Fixture Power & Light)");
    CHECK(t.base_load_kwh_per_month == 0.0);
    REQUIRE(t.periods.size() == 3);
    CHECK(t.periods[0].name == "period 0");
    REQUIRE(t.periods[0].tiers.size() == 2);
    CHECK(t.periods[0].tiers[0].rate == Approx(0.15));  // 0.20 + adj -0.05
    CHECK(*t.periods[0].tiers[0].max_kwh == 300.0);     // "kWh": a monthly limit as written
    CHECK(t.periods[0].tiers[1].rate == Approx(0.25));
    CHECK_FALSE(t.periods[0].tiers[1].max_kwh.has_value());
    CHECK(t.periods[1].tiers[0].rate == Approx(0.35));  // 0.40 - 0.05
    CHECK(t.periods[1].tiers[1].rate == Approx(0.45));
    // 10 "kWh daily" x 730/24 days = 304.1666667 kWh a month.
    CHECK(*t.periods[2].tiers[0].max_kwh == Approx(304.1666667));
    CHECK(t.periods[2].tiers[0].rate == Approx(0.50));
    CHECK(t.periods[2].tiers[1].rate == Approx(0.60));  // "sell" is ignored
    // Schedules: January weekday 16:00 is period 1, July's is period 2, 15:00 and weekends period 0.
    CHECK(t.weekday[0][16] == 1);
    CHECK(t.weekday[6][16] == 2);
    CHECK(t.weekday[6][20] == 2);
    CHECK(t.weekday[6][21] == 0);
    CHECK(t.weekday[6][15] == 0);
    CHECK(t.weekend[6][16] == 0);
    CHECK_NOTHROW(validate(t, fixture));
}

TEST_CASE("urdb: a July bill from the fixture, by hand", "[urdb]") {
    const Tariff t = load_urdb_tariff(fixture);
    // 1 kWh every hour: peak (period 2) 25 x 730/168 = 108.6309524 kWh, period 0 143 x 730/168 =
    // 621.3690476 kWh, total 730.
    const std::vector<double> kwh = kwh_by_period(t, 7, constant_profile(1.0));
    CHECK(kwh[1] == 0.0);
    CHECK(kwh[2] == Approx(108.6309524));
    CHECK(kwh[0] == Approx(621.3690476));
    // Period 2 at 730 kWh: 304.1666667 x 0.50 + 425.8333333 x 0.60 = 152.0833 + 255.5 = 407.5833333.
    // Period 0 at 730 kWh: 300 x 0.15 + 430 x 0.25 = 45 + 107.5 = 152.5.
    // Bill: 108.6309524/730 x 407.5833333 + 621.3690476/730 x 152.5 = 60.6523 + 129.8065 = 190.4588294.
    CHECK(bill(t, kwh) == Approx(190.4588294));
    CHECK(marginal_rate(t, 7, week_hour(monday, 17), 0) == Approx(0.50));
    CHECK(marginal_rate(t, 7, week_hour(monday, 17), 305) == Approx(0.60));
    CHECK(marginal_rate(t, 7, week_hour(saturday, 17), 305) == Approx(0.25));
}

TEST_CASE("urdb: an API response takes its first item", "[urdb]") {
    json first = read_json(fixture);
    json second = first;
    second["name"] = "SECOND";
    const json response = {{"items", json::array({first, second})}};
    const Tariff t = parse_urdb_tariff(response.dump(), "response.json");
    CHECK(t.name == "TOU-FIXTURE (Fixture Power & Light)");
    CHECK(t.periods.size() == 3);
    // Without a utility the name stands alone.
    first.erase("utility");
    CHECK(parse_urdb_tariff(first.dump(), "record.json").name == "TOU-FIXTURE");
}

// ---- errors ----

TEST_CASE("urdb: missing fields are named", "[urdb][errors]") {
    for (const char* key :
         {"energyratestructure", "energyweekdayschedule", "energyweekendschedule", "name"}) {
        INFO(key);
        check_error(parse_error(edited([&](json& r) { r.erase(key); })), 0, key, "missing");
    }
    check_error(parse_error(edited([](json& r) { r["energyratestructure"][1][0].erase("rate"); })), 0,
                "energyratestructure[1][0].rate", "missing; expected a price per kWh");
}

TEST_CASE("urdb: wrong shapes are named with their JSON path", "[urdb][errors]") {
    check_error(parse_error(edited([](json& r) { r["energyweekdayschedule"].erase(11); })), 0,
                "energyweekdayschedule", "got 11 months");
    check_error(parse_error(edited([](json& r) { r["energyweekendschedule"][3].erase(0); })), 0,
                "energyweekendschedule[3]", "expected 24 period indices, got 23");
    check_error(parse_error(edited([](json& r) { r["energyweekdayschedule"] = "all peak"; })), 0,
                "energyweekdayschedule", "got the string \"all peak\"");
    check_error(parse_error(edited([](json& r) { r["energyweekdayschedule"][2][5] = 1.5; })), 0,
                "energyweekdayschedule[2][5]", "expected a period index, got 1.5");
    check_error(parse_error(edited([](json& r) { r["energyratestructure"] = json::array(); })), 0,
                "energyratestructure", "at least one period");
    check_error(parse_error(edited([](json& r) { r["energyratestructure"][2] = json::array(); })), 0,
                "energyratestructure[2]", "at least one tier");
    check_error(parse_error(edited([](json& r) { r["energyratestructure"][0][1] = 0.25; })), 0,
                "energyratestructure[0][1]", "expected a tier object, got 0.25");
    check_error(parse_error(edited([](json& r) { r["energyratestructure"][0][0]["rate"] = "0.2"; })), 0,
                "energyratestructure[0][0].rate", "got the string \"0.2\"");
    check_error(parse_error(edited([](json& r) { r["name"] = 42; })), 0, "name", "expected a string, got 42");
}

TEST_CASE("urdb: a period index out of range", "[urdb][errors]") {
    check_error(parse_error(edited([](json& r) { r["energyweekdayschedule"][6][16] = 3; })), 0,
                "energyweekdayschedule[6][16]",
                "period 3 does not exist; energyratestructure has periods 0..2");
    check_error(parse_error(edited([](json& r) { r["energyweekendschedule"][0][0] = -1; })), 0,
                "energyweekendschedule[0][0]", "period -1 does not exist");
}

TEST_CASE("urdb: bad tiers", "[urdb][errors]") {
    check_error(parse_error(edited([](json& r) { r["energyratestructure"][0][0]["unit"] = "kWh/kW"; })), 0,
                "energyratestructure[0][0].unit", "unit \"kWh/kW\" is not supported");
    check_error(parse_error(edited([](json& r) { r["energyratestructure"][1][0]["adj"] = -0.5; })), 0,
                "energyratestructure[1][0].adj", "rate + adj is -0.1");
    check_error(parse_error(edited([](json& r) { r["energyratestructure"][0][1]["rate"] = -0.25; })), 0,
                "energyratestructure[0][1].rate", "got -0.25");
    check_error(parse_error(edited([](json& r) { r["energyratestructure"][0][0].erase("max"); })), 0,
                "energyratestructure[0][0].max", "only the last tier may be open-ended");
    check_error(parse_error(edited([](json& r) {
                    r["energyratestructure"][0][1]["max"] = 200;
                    r["energyratestructure"][0].push_back({{"rate", 0.3}});
                })),
                0, "energyratestructure[0][1].max", "above the previous tier's, got 200");
    check_error(parse_error(edited([](json& r) { r["energyratestructure"][0][0]["max"] = 0; })), 0,
                "energyratestructure[0][0].max", "expected a limit > 0, got 0");
}

TEST_CASE("urdb: items, syntax errors and files", "[urdb][errors]") {
    check_error(parse_error(R"({"items": []})"), 0, "items", "non-empty array");
    check_error(parse_error(R"({"items": [3]})"), 0, "items[0]", "an object");
    // Inside an API response every path starts with items[0].
    json broken = read_json(fixture);
    broken["energyweekdayschedule"].erase(0);
    check_error(parse_error(json{{"items", {broken}}}.dump()), 0, "items[0].energyweekdayschedule",
                "got 11 months");
    check_error(parse_error("[1, 2]"), 0, "", "a JSON object");
    // A syntax error names its line: the comma ending line 3 is caught at the "}" on line 4.
    check_error(parse_error("{\n  \"name\": \"x\",\n  \"utility\": \"y\",\n}\n"), 4, "", "not valid JSON");
    // Found by fuzzing (tests/fuzz/crashes/urdb): a number beyond a double escaped as an internal error.
    check_error(parse_error("{\"name\": 1e999}"), 0, "", "not valid JSON: number overflow parsing '1e999'");

    const std::string missing = fixture + ".absent";
    try {
        load_urdb_tariff(missing);
        FAIL("a missing file loaded");
    } catch (const InputError& e) {
        CHECK(e.source() == missing);
        CHECK(e.message() == "no such file");
    }
    CHECK_THROWS_AS(load_urdb_tariff(PAYBACK_SOURCE_DIR "/tests/fixtures/tariffs"), InputError);
}

// ---- the real tariffs in pricing/tariffs ----

TEST_CASE("urdb: every file in pricing/tariffs loads and says where it is from", "[urdb][pricing]") {
    int files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(tariffs_dir)) {
        if (entry.path().extension() != ".json") continue;
        ++files;
        const std::string path = entry.path().string();
        INFO(path);
        const json record = read_json(path);
        for (const char* key : {"source", "as_of", "notes"}) {
            REQUIRE(record.contains(key));
            CHECK(record[key].is_string());
            CHECK_FALSE(record[key].get<std::string>().empty());
        }
        CHECK(record["as_of"].get<std::string>().size() == 10);  // YYYY-MM-DD
        CHECK_NOTHROW(load_urdb_tariff(path));
    }
    CHECK(files >= 1);
}

TEST_CASE("urdb: PG&E E-TOU-C against the cited figures", "[urdb][pricing]") {
    const Tariff t = load_urdb_tariff(tariffs_dir + "/pge-e-tou-c.json");
    CHECK(t.name == "E-TOU-C Residential Time of Use Baseline Region X (Pacific Gas & Electric Co)");
    REQUIRE(t.periods.size() == 4);
    // OpenEI URDB 69de71a5406310365e0f080d: summer (June-September) peak 0.441 within the baseline,
    // 0.5224 above; off-peak 0.318 / 0.3994; winter peak 0.31617 / 0.39757, off-peak 0.28617 / 0.36757.
    // Rounded to cents these are PG&E's March 2026 figures as other sources quote them: summer peak
    // 0.44 / 0.52, winter peak 0.32 / 0.40, off-peak within the baseline 0.32 summer, 0.29 winter.
    const auto rate = [&](int month, int day, int hour, double total) {
        return marginal_rate(t, month, week_hour(day, hour), total);
    };
    CHECK(rate(7, monday, 16, 0) == Approx(0.441));  // peak starts at 4 p.m.
    CHECK(rate(7, monday, 20, 0) == Approx(0.441));  // and runs to 9 p.m.
    CHECK(rate(7, monday, 21, 0) == Approx(0.318));
    CHECK(rate(7, monday, 15, 0) == Approx(0.318));
    CHECK(rate(7, saturday, 18, 0) == Approx(0.441));   // every day, weekends included
    CHECK(rate(6, monday, 18, 0) == Approx(0.441));     // June is summer
    CHECK(rate(9, monday, 18, 0) == Approx(0.441));     // September is summer
    CHECK(rate(10, monday, 18, 0) == Approx(0.31617));  // October is winter
    CHECK(rate(5, monday, 18, 0) == Approx(0.31617));   // May is winter
    CHECK(rate(1, saturday, 3, 0) == Approx(0.28617));
    // Above the baseline: summer 9.8 kWh/day x 730/24 = 298.0833 kWh, winter 9.7 x 730/24 = 295.0417.
    CHECK(*t.periods[0].tiers[0].max_kwh == Approx(298.0833333));
    CHECK(*t.periods[2].tiers[0].max_kwh == Approx(295.0416667));
    CHECK(rate(7, monday, 18, 298.0) == Approx(0.441));
    CHECK(rate(7, monday, 18, 298.1) == Approx(0.5224));
    CHECK(rate(7, monday, 3, 400) == Approx(0.3994));
    CHECK(rate(1, monday, 18, 400) == Approx(0.39757));
    CHECK(rate(1, monday, 3, 400) == Approx(0.36757));
    // The baseline credit is one step in every period: 0.5224 - 0.441 = 0.3994 - 0.318
    // = 0.39757 - 0.31617 = 0.36757 - 0.28617 = 0.0814.
    for (const TouPeriod& period : t.periods)
        CHECK(period.tiers[1].rate - period.tiers[0].rate == Approx(0.0814));
}

TEST_CASE("urdb: a 1 kW rig on E-TOU-C in July, above a 500 kWh household", "[urdb][pricing]") {
    Tariff t = load_urdb_tariff(tariffs_dir + "/pge-e-tou-c.json");
    t.base_load_kwh_per_month = 500;  // already past the 298 kWh summer baseline
    // 1 kWh every hour: 730 kWh, 5/24 of it in the peak (35 of 168 week-hours), all above the baseline.
    // 730 x (5/24 x 0.5224 + 19/24 x 0.3994) = 730 x (0.1088333 + 0.3161917) = 730 x 0.425025 = 310.26825.
    const std::vector<double> rig = kwh_by_period(t, 7, constant_profile(1.0));
    CHECK(rig[0] == Approx(730.0 * 5.0 / 24.0));
    CHECK(incremental_bill(t, 7, rig) == Approx(310.26825));
    // In January at the winter rates: 730 x (5/24 x 0.39757 + 19/24 x 0.36757) = 730 x 0.3738200 = 272.8886.
    const std::vector<double> winter_rig = kwh_by_period(t, 1, constant_profile(1.0));
    CHECK(incremental_bill(t, 1, winter_rig) == Approx(272.88860));
}
