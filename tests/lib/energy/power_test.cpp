#include <catch2/catch.hpp>

#include <random>

#include "payback/energy/power.hpp"

using namespace payback;

namespace {

// 400 W training, 50 W idle (DC), a fixed 0.8 PSU, $0.20/kWh flat.
EnergyModel flat_model() {
    EnergyModel m;
    m.psu.fixed_efficiency = 0.8;
    m.tariff = flat_tariff(0.2);
    return m;
}

StateWatts hand_watts() {
    StateWatts w;
    w.dc[static_cast<std::size_t>(PowerState::training)] = 400;
    w.dc[static_cast<std::size_t>(PowerState::idle)] = 50;
    return w;
}

// Time of use: $0.20 off-peak, $0.50 on weekdays 16-21 (hours 16..20), every month.
Tariff peak_tariff() {
    Tariff t;
    t.name = "test peak";
    t.periods = {{"off-peak", {{std::nullopt, 0.2}}}, {"peak", {{std::nullopt, 0.5}}}};
    for (auto& month : t.weekday)
        for (int h = 16; h < 21; ++h) month[static_cast<std::size_t>(h)] = 1;
    return t;
}

}  // namespace

TEST_CASE("a month's energy: 400 W x 100 h + 50 W x 630 h at the wall", "[power]") {
    const EnergyModel m = flat_model();
    const MonthEnergy e = month_energy(m, spread_evenly(100, PowerState::idle), 1, hand_watts());
    // (40 + 31.5) kWh DC / 0.8 = 89.375 kWh; x $0.20 = $17.875.
    CHECK(e.wall_kwh == Approx(89.375).epsilon(1e-12));
    CHECK(e.cooling_kwh == 0.0);
    CHECK(e.cost == Approx(17.875).epsilon(1e-12));
}

TEST_CASE("the month total equals the sum over the week's hours x 730/168", "[power][property]") {
    std::mt19937 random(7);
    std::uniform_real_distribution<double> share(0.0, 1.0);
    EnergyModel m = flat_model();
    m.psu.curve = PsuSpec{PsuRating::gold, 1000, 115};
    m.cooling.cop_by_month.fill(3.0);
    for (int trial = 0; trial < 20; ++trial) {
        UsageProfile p;
        for (auto& hour : p.share) {
            const double t = share(random);
            hour[static_cast<std::size_t>(PowerState::training)] = t;
            hour[static_cast<std::size_t>(PowerState::idle)] = 1 - t;
        }
        double by_hand = 0;
        for (int h = 0; h < hours_per_week; ++h)
            by_hand += (p.share_of(h, PowerState::training) * wall_watts(*m.psu.curve, 400) +
                        p.share_of(h, PowerState::idle) * wall_watts(*m.psu.curve, 50)) / 1000.0;
        const MonthEnergy e = month_energy(m, p, 5, hand_watts());
        CHECK(e.wall_kwh == Approx(by_hand * 730.0 / 168.0).epsilon(1e-12));
        CHECK(e.cooling_kwh == Approx(e.wall_kwh / 3.0).epsilon(1e-12));  // an air conditioner at COP 3
    }
}

TEST_CASE("cooling: a flat overhead, or 1/COP in the months with air conditioning", "[power]") {
    Cooling c;
    c.overhead_fraction = 0.05;
    c.cop_by_month[6] = 2.5;  // July
    CHECK(c.factor(1) == 0.05);
    CHECK(c.factor(7) == Approx(0.05 + 0.4));
}

TEST_CASE("deferrable training moves out of the peak and saves its price difference", "[power][schedule]") {
    EnergyModel m = flat_model();
    m.tariff = peak_tariff();
    const UsageProfile naive = spread_evenly(100, PowerState::idle);
    const UsageProfile moved = cheapest_schedule(m, naive, 1, hand_watts(), PowerState::idle);
    // The same training hours, none of them in the 25 peak hours of the week.
    CHECK(moved.hours_per_month(PowerState::training) == Approx(100.0).epsilon(1e-12));
    for (int d = 0; d < 5; ++d)
        for (int h = 16; h < 21; ++h) CHECK(moved.share_of(d * 24 + h, PowerState::training) == 0.0);
    // Naive: 100 x 25/168 = 14.881 training hours a month fall in the peak, each drawing
    // (400 - 50) / 0.8 = 437.5 W more than idling: 6.510 kWh at $0.50 instead of $0.20 = $1.953125.
    const double saving = month_energy(m, naive, 1, hand_watts()).cost - month_energy(m, moved, 1, hand_watts()).cost;
    CHECK(saving == Approx(100.0 * 25.0 / 168.0 * 0.4375 * 0.3).epsilon(1e-12));
}

TEST_CASE("deferrable training never costs more than the schedule as given", "[power][schedule][property]") {
    std::mt19937 random(11);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    EnergyModel m = flat_model();
    m.tariff = peak_tariff();
    m.tariff.periods[1].tiers = {{300.0, 0.5}, {std::nullopt, 0.1}};  // declining blocks: greedy can be wrong
    m.tariff.base_load_kwh_per_month = 250;
    for (int trial = 0; trial < 50; ++trial) {
        UsageProfile p;
        for (auto& hour : p.share) {
            const double rented = unit(random) < 0.2 ? 1.0 : 0.0;
            const double t = (1 - rented) * unit(random);
            hour[static_cast<std::size_t>(PowerState::rented)] = rented;
            hour[static_cast<std::size_t>(PowerState::training)] = t;
            hour[static_cast<std::size_t>(PowerState::idle)] = 1 - rented - t;
        }
        StateWatts w = hand_watts();
        w.dc[static_cast<std::size_t>(PowerState::rented)] = 380;
        const UsageProfile moved = cheapest_schedule(m, p, 1 + trial % 12, w, PowerState::idle);
        CHECK(month_energy(m, moved, 1 + trial % 12, w).cost <= month_energy(m, p, 1 + trial % 12, w).cost + 1e-9);
        CHECK(moved.hours_per_month(PowerState::training) == Approx(p.hours_per_month(PowerState::training)));
        CHECK(moved.hours_per_month(PowerState::rented) == Approx(p.hours_per_month(PowerState::rented)));
    }
}

TEST_CASE("on a flat tariff moving training saves nothing", "[power][schedule]") {
    const EnergyModel m = flat_model();
    const UsageProfile naive = spread_evenly(100, PowerState::idle);
    const UsageProfile moved = cheapest_schedule(m, naive, 3, hand_watts(), PowerState::idle);
    CHECK(month_energy(m, moved, 3, hand_watts()).cost == Approx(month_energy(m, naive, 3, hand_watts()).cost));
}
