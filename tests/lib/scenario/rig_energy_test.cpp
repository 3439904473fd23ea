#include <catch2/catch.hpp>

#include <cmath>

#include "payback/model/comparison.hpp"
#include "payback/model/rig_report.hpp"
#include "payback/scenario/rig_energy.hpp"
#include "payback/scenario/rig_links.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {
Scenario hand(const std::vector<Override>& overrides = {}) {
    return parse_scenario(test::hand_scenario(), PAYBACK_SOURCE_DIR "/hand.toml", overrides);
}
}  // namespace

TEST_CASE("an 80 PLUS curve at the actual load", "[rig_energy][psu]") {
    // Gold, 1000 W, 115 V: training 400 W DC is 40 % load, 87 + 3 x (40 - 20) / 30 = 89 %;
    // idle 50 W is 5 %, below the 20 % point: 87 %. 400 x 100 / 0.89 + 50 x 630 / 0.87 Wh.
    const Scenario s = parse_scenario(
        [] {
            std::string text = test::hand_scenario();
            text.replace(text.find("psu_efficiency = 0.8"), 20, "psu = { rating = \"gold\", capacity_watts = 1000 }");
            return text;
        }(),
        "hand.toml");
    const auto energy = rig_energy(s);
    CHECK(energy.wall_kwh[0] == Approx((400.0 * 100 / 0.89 + 50.0 * 630 / 0.87) / 1000).epsilon(1e-12));
    CHECK(energy.peak_wall_watts == Approx(400.0 / 0.89));
}

TEST_CASE("a usage schedule sets the training hours and the energy", "[rig_energy][usage]") {
    // The workload may stay, when it agrees with the schedule (within 0.05 h).
    const auto s = hand({{"rig.schedule", "[\"weekdays 09-18 training\"]"}, {"workload.gpu_hours_per_month", "195.53"}});
    const auto energy = rig_energy(s);
    // 45 h of 400 W and 123 h of 50 W a week: 24.15 kWh DC, / 0.8, x 730/168 = 131.17 kWh a month.
    CHECK(energy.wall_kwh[0] == Approx(24.15 / 0.8 * 730.0 / 168.0).epsilon(1e-12));
    CHECK(energy.rig_hours_per_month == Approx(45.0 * 730.0 / 168.0));
    CHECK(units::in_hours(s.training_per_month) == Approx(45.0 * 730.0 / 168.0));
    // The cloud does the same work: 195.5 h / speedup 2 at $2.
    const auto c = compare(s);
    CHECK(-c.cashflows[1].cloud[0] == Approx(45.0 * 730.0 / 168.0).epsilon(1e-12));
}

TEST_CASE("rented hours draw the rented watts", "[rig_energy][usage]") {
    const auto s = hand({{"rig.schedule", "[\"daily 00-24 rented\"]"}, {"rig.parts[0].rented_watts", "250"},
                         {"workload.gpu_hours_per_month", "0"}});
    const auto energy = rig_energy(s);
    // GPU 250 + CPU 100 (its load, as it has no rented_watts) for 730 h / 0.8.
    CHECK(energy.wall_kwh[0] == Approx(350.0 * 730 / 0.8 / 1000).epsilon(1e-12));
    CHECK(energy.rented_hours_per_month == Approx(730.0));
}

TEST_CASE("a power limit lowers the draw and stretches the hours", "[rig_energy][power_limit]") {
    // 300 W capped at 225 W: r = 0.75 keeps 1 - 0.75 x 0.25^2 = 95.3125 % of the throughput, so the
    // 100 h of work take 104.918 h at (225 + 100) W.
    const auto energy = rig_energy(hand({{"rig.parts[0].power_limit_watts", "225"}}));
    const double factor = 1 - 0.75 * 0.0625;
    CHECK(energy.throughput_factor == Approx(factor));
    const double hours = 100 / factor;
    CHECK(energy.rig_hours_per_month == Approx(hours).epsilon(1e-12));
    CHECK(energy.work_hours_per_month == Approx(100.0).epsilon(1e-12));
    CHECK(energy.wall_kwh[0] == Approx((325.0 * hours + 50.0 * (730 - hours)) / 0.8 / 1000).epsilon(1e-12));
}

TEST_CASE("cooling by season follows the calendar from scenario.start", "[rig_energy][cooling]") {
    const auto s = hand({{"scenario.start", "\"2024-06\""},
                         {"rig.cooling", "{ cop_by_month = [0, 0, 0, 0, 0, 2.5, 2.5, 2.5, 0, 0, 0, 0] }"}});
    const auto energy = rig_energy(s);
    CHECK(calendar_month_of(s, 1) == 6);
    CHECK(calendar_month_of(s, 8) == 1);
    // June to August: + 1 / 2.5 = 40 % for the air conditioner; September on: none.
    CHECK(energy.wall_kwh[0] == Approx(89.375 * 1.4).epsilon(1e-12));
    CHECK(energy.cooling_kwh[2] == Approx(89.375 * 0.4).epsilon(1e-12));
    CHECK(energy.wall_kwh[3] == Approx(89.375).epsilon(1e-12));
}

TEST_CASE("a time-of-use tariff from inline periods and schedules; deferrable training saves", "[rig_energy][tariff]") {
    std::string weekday = "[";
    for (int m = 0; m < 12; ++m) {
        weekday += m ? ", [" : "[";
        for (int h = 0; h < 24; ++h) weekday += (h ? ", " : "") + std::string(h >= 16 && h < 21 ? "1" : "0");
        weekday += "]";
    }
    weekday += "]";
    std::string text = test::hand_scenario();
    text.replace(text.find("price_per_kwh = 0.2"), 19,
                 "periods = [{ name = \"off-peak\", price = 0.2 }, { name = \"peak\", price = 0.5 }]\n"
                 "weekday_schedule = " + weekday + "\nweekend_schedule = " + weekday);
    const Scenario s = parse_scenario(text, "hand.toml", {{"workload.deferrable", "true"}});
    const auto energy = rig_energy(s);
    REQUIRE(energy.period_names == std::vector<std::string>{"off-peak", "peak"});
    // Every day has a 16-21 peak here: 35 of 168 hours. Naive training puts 100 x 35/168 h in it;
    // moved, it puts none: (400 - 50)/0.8 W x 20.83 h x $0.30 = $2.734375 a month saved.
    CHECK(energy.naive_cost[0] - energy.cost[0] == Approx(100.0 * 35 / 168 * 0.4375 * 0.3).epsilon(1e-12));
    // Idle draw stays in the peak: 50 / 0.8 W x 35 h a week x 730/168 over 24 months.
    CHECK(energy.kwh_by_period[1] == Approx(24 * 0.0625 * 35 * 730.0 / 168).epsilon(1e-12));
    const auto report = rig_report(s, energy);
    REQUIRE(report.naive_energy_cost);
    CHECK(*report.naive_energy_cost - *report.scheduled_energy_cost == Approx(24 * 2.734375).epsilon(1e-12));
}

TEST_CASE("a tiered tariff charges the rig at the household's marginal tier", "[rig_energy][tariff]") {
    // Base 400 kWh; 0.12 up to 450, then 0.30: the rig's 89.375 kWh are 50 at 0.12 and 39.375 at 0.30.
    const auto s = parse_scenario(
        [] {
            std::string text = test::hand_scenario();
            text.replace(text.find("price_per_kwh = 0.2"), 19,
                         "tiers = [{ up_to_kwh = 450, price = 0.12 }, { price = 0.30 }]\nbase_load_kwh_per_month = 400");
            return text;
        }(),
        "hand.toml");
    CHECK(rig_energy(s).cost[0] == Approx(50 * 0.12 + 39.375 * 0.30).epsilon(1e-12));
}

TEST_CASE("a URDB tariff file: PG&E E-TOU-C", "[rig_energy][tariff][urdb]") {
    const auto s = hand({{"electricity", "{ urdb = \"pricing/tariffs/pge-e-tou-c.json\", base_load_kwh_per_month = 500 }"}});
    CHECK(s.tariff_kind == "urdb");
    const auto energy = rig_energy(s);
    // January, above baseline: every kWh costs at least the winter off-peak 0.36757 and at most
    // the peak 0.39757 (pricing/tariffs/README.md).
    CHECK(energy.cost[0] > 89.375 * 0.36757);
    CHECK(energy.cost[0] < 89.375 * 0.39757);
}

TEST_CASE("the circuit: four RTX 3090s overload a 120 V 15 A circuit", "[rig_report][circuit]") {
    // 4 x 350 W + 100 W CPU = 1,500 W DC / 0.8 = 1,875 W at the wall, 130 % of 1,440 W.
    const auto s = hand({{"rig.parts[0].load_watts", "350"}, {"rig.parts[0].count", "4"}});
    const auto report = rig_report(s, rig_energy(s));
    CHECK(report.peak_wall_watts == Approx(1875.0));
    CHECK(report.circuit_check.limit_watts == Approx(1440.0));
    CHECK(report.circuit_check.load_fraction == Approx(1875.0 / 1440.0));
    CHECK(report.circuit_check.over);
    // Each GPU takes 437.5 W at the wall beside the CPU's 125 W: (1440 - 125) / 437.5 = 3 fit.
    CHECK(report.circuit_check.gpus_that_fit == 3);
    CHECK(report.heat_btu_per_hour[static_cast<std::size_t>(PowerState::training)] == Approx(1875.0 * 3.412141633));
    // On a 20 A circuit (1,920 W) it fits.
    const auto s20 = hand({{"rig.parts[0].load_watts", "350"}, {"rig.parts[0].count", "4"},
                           {"rig.circuit", "{ volts = 120, breaker_amps = 20 }"}});
    CHECK_FALSE(rig_report(s20, rig_energy(s20)).circuit_check.over);
}

TEST_CASE("emissions: the rig's kWh and the cloud's hours x draw x PUE x grid", "[rig_report][carbon]") {
    const auto s = hand({{"electricity.co2_kg_per_kwh", "0.4"}, {"cloud[0].power_watts", "300"},
                         {"cloud[0].pue", "1.1"}, {"cloud[0].co2_kg_per_kwh", "0.3"}});
    const auto c = compare(s);
    CHECK(c.options[0].co2_kg_total == Approx(24 * 89.375 * 0.4));        // 858 kg
    CHECK(c.options[1].co2_kg_total == Approx(24 * 50 * 0.3 * 1.1 * 0.3));  // 118.8 kg
    const auto by_region = hand({{"electricity.grid_region", "\"US-CA\""}, {"cloud[0].region", "\"aws:us-east-1\""},
                                 {"cloud[0].power_watts", "300"}});
    CHECK(by_region.grid_co2_kg_per_kwh > 0);
    CHECK(by_region.clouds[0].pue == Approx(1.15));
}

TEST_CASE("multi-GPU: an NVLink bridge scales better than x8 PCIe links", "[rig_scaling]") {
    const std::vector<Override> two_on_x8 = {{"rig.parts[0].count", "2"},
                                             {"rig.parts[1].pcie_lanes", "16"},
                                             {"rig.parts[1].pcie_slots", "[{ generation = 3, lanes = 8 }, { generation = 3, lanes = 8 }]"}};
    const RigScaling pcie = rig_scaling(hand(two_on_x8));
    auto bridged_overrides = two_on_x8;
    bridged_overrides.push_back({"rig.parts[0].nvlink_gb_per_s", "56.25"});
    const RigScaling bridged = rig_scaling(hand(bridged_overrides));
    CHECK(pcie.gpus == 2);
    CHECK(pcie.link_gb_per_s == Approx(8 * 0.985));
    CHECK(pcie.efficiency < 1.0);
    CHECK(bridged.efficiency > pcie.efficiency);
    CHECK(rig_scaling(hand()).efficiency == 1.0);  // one GPU
    // A cloud instance of 8 GPUs each 1.5x a rig GPU, against the two-GPU rig.
    const double speedup = cloud_speedup(1.5, 8, 300, pcie, default_scaling_workload());
    CHECK(speedup > 1.5 * 8 / 2 * 0.9);
    CHECK(speedup <= 1.5 * 8 / (2 * pcie.efficiency) + 1e-12);
}

TEST_CASE("Venus and the RTX 3080 build pass their circuit and wiring checks", "[rig_report][circuit]") {
    for (const char* name : {"venus-2019", "rtx3080-home"}) {
        INFO(name);
        const Scenario s = load_scenario(std::string(PAYBACK_SOURCE_DIR "/scenarios/") + name + ".toml");
        const auto report = rig_report(s, rig_energy(s));
        CHECK_FALSE(report.circuit_check.over);
        CHECK(report.circuit_check.load_fraction < 0.5);
    }
    // A second RTX 3080 does not fit the i7's single x16 slot as listed: the wiring check says so.
    CHECK_THROWS_WITH(load_scenario(PAYBACK_SOURCE_DIR "/scenarios/rtx3080-home.toml",
                                    {{"rig.parts[4].count", "2"}, {"rig.psu.capacity_watts", "1200"}}),
                      Catch::Contains("cannot be wired as listed"));
}
