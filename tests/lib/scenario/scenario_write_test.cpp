#include <catch2/catch.hpp>

#include "payback/model/comparison.hpp"
#include "payback/scenario/scenario.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

TEST_CASE("to_toml round-trips every shipped scenario", "[scenario][roundtrip]") {
    for (const char* name : {"venus-2019", "rtx3080-home", "dettmers-3090", "lab-3090-2021"}) {
        INFO(name);
        const Scenario a = load_scenario(std::string(PAYBACK_SOURCE_DIR "/scenarios/") + name + ".toml");
        // Written beside the original: file paths in it (observed prices) are relative to it.
        const Scenario b = parse_scenario(to_toml(a), PAYBACK_SOURCE_DIR "/scenarios/written.toml");
        CHECK(to_toml(b) == to_toml(a));
        CHECK(b.name == a.name);
        CHECK(b.currency == a.currency);
        CHECK(b.horizon_months == a.horizon_months);
        CHECK(b.discount_rate == a.discount_rate);
        CHECK(units::in_hours(b.training_per_month) == Approx(units::in_hours(a.training_per_month)).epsilon(1e-15));
        CHECK(units::in_money_per_kwh(b.electricity_price) ==
              Approx(units::in_money_per_kwh(a.electricity_price)).epsilon(1e-15));
        CHECK(b.rig.name == a.rig.name);
        CHECK(b.rig.when_not_training == a.rig.when_not_training);
        CHECK(b.rig.psu_efficiency == a.rig.psu_efficiency);
        REQUIRE(b.rig.parts.size() == a.rig.parts.size());
        for (std::size_t i = 0; i < a.rig.parts.size(); ++i) {
            const Part &p = a.rig.parts[i], &q = b.rig.parts[i];
            CHECK(q.kind == p.kind);
            CHECK(q.name == p.name);
            CHECK(q.count == p.count);
            CHECK(units::in_money(q.price) == units::in_money(p.price));
            CHECK(units::in_watts(q.load_power) == units::in_watts(p.load_power));
            CHECK(units::in_watts(q.idle_power) == units::in_watts(p.idle_power));
            CHECK(q.resale.method == p.resale.method);
            CHECK(q.resale.annual_rate == p.resale.annual_rate);
            CHECK(q.resale.life_years == p.resale.life_years);
            CHECK(q.resale.salvage_fraction == p.resale.salvage_fraction);
        }
        REQUIRE(b.clouds.size() == a.clouds.size());
        for (std::size_t i = 0; i < a.clouds.size(); ++i) {
            CHECK(b.clouds[i].name == a.clouds[i].name);
            CHECK(units::in_money_per_hour(b.clouds[i].price) ==
                  Approx(units::in_money_per_hour(a.clouds[i].price)).epsilon(1e-15));
            CHECK(b.clouds[i].speedup == a.clouds[i].speedup);
        }
    }
}

TEST_CASE("to_toml round-trips every finance key", "[scenario][roundtrip]") {
    std::vector<Override> overrides = test::everything_on();
    overrides.push_back({"rig.parts[1].retire_month", "20"});
    overrides.push_back({"tax", "{ income_tax_rate = 0.3, depreciation = \"custom\", custom_schedule = [0.5, 0.25, 0.25], "
                                "deduct_running_costs = false }"});
    const Scenario a = parse_scenario(test::hand_scenario(), "hand.toml", overrides);
    const std::string text = to_toml(a);
    const Scenario b = parse_scenario(text, "hand.toml");
    CHECK(to_toml(b) == text);  // a fixed point
    CHECK(b.discount_rate == a.discount_rate);
    CHECK(b.inflation == a.inflation);
    CHECK(b.perspective == Perspective::business);
    REQUIRE(b.financing);
    CHECK(b.financing->apr == 0.09);
    CHECK(b.financing->term_months == 18);
    CHECK(units::in_money(b.financing->down_payment) == 200.0);
    REQUIRE(b.tax);
    CHECK(b.tax->custom_schedule == std::vector<double>{0.5, 0.25, 0.25});
    CHECK_FALSE(b.tax->deduct_running_costs);
    CHECK(b.rig.parts[1].purchase_month == 3);
    CHECK(b.rig.parts[1].retire_month == 20);
    CHECK(b.rig.parts[1].resale.half_life_years == 2.5);
    CHECK(b.clouds[0].escalation == -0.2);
    CHECK(units::in_money(b.clouds[0].storage_per_month) == 15.0);
    CHECK(units::in_money(b.running_costs.maintenance_per_year) == 60.0);
    // The model sees the same numbers.
    CHECK(compare(a).versus[0].npv_savings == compare(b).versus[0].npv_savings);
}

TEST_CASE("a real discount rate is written as given", "[scenario][roundtrip]") {
    std::string text = test::hand_scenario();
    text.replace(text.find("discount_rate = 0.0"), 19, "real_discount_rate = 0.03\ninflation = 0.02");
    const Scenario a = parse_scenario(text, "hand.toml");
    const std::string written = to_toml(a);
    CHECK_THAT(written, Catch::Contains("real_discount_rate = 0.03\n"));
    CHECK_THAT(written, !Catch::Contains("\ndiscount_rate"));
    CHECK(parse_scenario(written, "hand.toml").discount_rate == a.discount_rate);
}

TEST_CASE("to_toml round-trips every hardware key", "[scenario][roundtrip][hardware]") {
    std::string text = test::hand_scenario();
    text.replace(text.find("psu_efficiency = 0.8"), 20, "psu = { rating = \"platinum\", capacity_watts = 1200, mains_volts = 230 }");
    const std::vector<Override> overrides = {
        {"rig.schedule", "[\"weekdays 09-18 training\", \"daily 22-06 rented\"]"},
        {"workload.gpu_hours_per_month", "195.53571428571428"},
        {"workload.deferrable", "true"},
        {"rig.cooling", "{ overhead_fraction = 0.05, cop_by_month = [0, 0, 0, 0, 0, 3, 3, 3, 0, 0, 0, 0] }"},
        {"rig.circuit", "{ volts = 230, breaker_amps = 16 }"},
        {"rig.parts[0].rented_watts", "280"},
        {"rig.parts[0].off_watts", "2"},
        {"rig.parts[0].power_limit_watts", "250"},
        {"rig.parts[0].pcie", "{ generation = 4, lanes = 16 }"},
        {"rig.parts[0].nvlink_gb_per_s", "56.25"},
        {"rig.parts[1].pcie_lanes", "24"},
        {"rig.parts[1].pcie_slots", "[{ generation = 4, lanes = 16 }, { generation = 4, lanes = 8 }]"},
        {"electricity", "{ tiers = [{ up_to_kwh = 300, price = 0.12 }, { price = 0.3 }], base_load_kwh_per_month = 250, "
                        "co2_kg_per_kwh = 0.35 }"},
        {"cloud[0].power_watts", "300"},
        {"cloud[0].region", "\"aws:us-east-1\""}};
    const Scenario a = parse_scenario(text, PAYBACK_SOURCE_DIR "/hand.toml", overrides);
    const std::string written = to_toml(a);
    const Scenario b = parse_scenario(written, PAYBACK_SOURCE_DIR "/hand.toml");
    CHECK(to_toml(b) == written);
    REQUIRE(b.rig.psu);
    CHECK(b.rig.psu->rating == PsuRating::platinum);
    CHECK(b.rig.schedule == a.rig.schedule);
    CHECK(b.deferrable_training);
    CHECK(b.rig.cooling.cop_by_month == a.rig.cooling.cop_by_month);
    CHECK(b.tariff_kind == "tiered");
    CHECK(b.tariff.base_load_kwh_per_month == 250);
    CHECK(b.clouds[0].pue == a.clouds[0].pue);
    CHECK(compare(a).versus[0].npv_savings == compare(b).versus[0].npv_savings);
}
