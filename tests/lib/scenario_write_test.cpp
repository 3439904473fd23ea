#include <catch2/catch.hpp>

#include "payback/scenario.hpp"

using namespace payback;

TEST_CASE("to_toml round-trips every shipped scenario", "[scenario][roundtrip]") {
    for (const char* name : {"venus-2019", "rtx3080-home", "dettmers-3090"}) {
        INFO(name);
        const Scenario a = load_scenario(std::string(PAYBACK_SOURCE_DIR "/scenarios/") + name + ".toml");
        const Scenario b = parse_scenario(to_toml(a), "written.toml");
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
