#include <catch2/catch.hpp>

#include <array>
#include <cstddef>
#include <limits>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "payback/base/error.hpp"
#include "payback/energy/tariff.hpp"
#include "support/input_errors.hpp"

using namespace payback;

namespace {

using WeekProfile = std::array<double, hours_per_week>;

WeekProfile constant_profile(double kwh) {
    WeekProfile profile;
    profile.fill(kwh);
    return profile;
}

// Two periods: 0 off-peak, 1 peak on weekdays 16:00-21:00 in every month; weekends all off-peak.
Tariff weekday_peak_tariff(std::vector<Tier> off_peak, std::vector<Tier> peak) {
    Tariff t;
    t.name = "weekday peak";
    t.periods = {TouPeriod{"off-peak", std::move(off_peak)}, TouPeriod{"peak", std::move(peak)}};
    for (auto& month : t.weekday)
        for (int h = 16; h < 21; ++h) month[static_cast<std::size_t>(h)] = 1;
    return t;
}

// The InputError that validate() throws.
InputError validation_error(const Tariff& t) {
    return payback::test::input_error([&] { validate(t, "test.toml"); });
}

void check_error(const InputError& e, const std::string& key_path, const std::string& fragment) {
    payback::test::check_error(e, "test.toml", 0, key_path, fragment);
}

double sum(const std::vector<double>& values) { return std::accumulate(values.begin(), values.end(), 0.0); }

}  // namespace

// ---- flat and tiered ----

TEST_CASE("tariff: a flat rate bills kWh x rate", "[tariff]") {
    const Tariff t = flat_tariff(0.2);
    REQUIRE(t.periods.size() == 1);
    CHECK(bill(t, {100}) == Approx(20.0));  // 100 kWh x 0.2
    CHECK(bill(t, {0}) == 0.0);
    // The household's own use does not change a flat rig's price: 100 x 0.2 whatever the base.
    Tariff with_base = t;
    with_base.base_load_kwh_per_month = 400;
    CHECK(incremental_bill(with_base, 7, {100}) == Approx(20.0));
    CHECK(marginal_rate(with_base, 1, 0, 1e6) == 0.2);
}

TEST_CASE("tariff: the rig pays the household's marginal tier", "[tariff]") {
    Tariff t = tiered_tariff({{500.0, 0.12}, {std::nullopt, 0.30}});
    // 600 kWh alone: 500 x 0.12 + 100 x 0.30 = 60 + 30 = 90.
    CHECK(bill(t, {600}) == Approx(90.0));
    t.base_load_kwh_per_month = 400;
    // Base 400 kWh, rig 200: the rig's first 100 kWh fill tier 1, the next 100 land in tier 2:
    // 100 x 0.12 + 100 x 0.30 = 12 + 30 = 42 (bill(600) - bill(400) = 90 - 48).
    CHECK(incremental_bill(t, 1, {200}) == Approx(42.0));
    // 50 kWh stays under 500: 50 x 0.12 = 6.
    CHECK(incremental_bill(t, 1, {50}) == Approx(6.0));
    // Without a base load the same 200 kWh are all tier 1: 200 x 0.12 = 24.
    t.base_load_kwh_per_month = 0;
    CHECK(incremental_bill(t, 1, {200}) == Approx(24.0));
    CHECK(incremental_bill(t, 1, {0}) == 0.0);
}

TEST_CASE("tariff: marginal_rate is the tier the next kWh falls in", "[tariff]") {
    const Tariff t = tiered_tariff({{500.0, 0.12}, {800.0, 0.20}, {std::nullopt, 0.30}});
    CHECK(marginal_rate(t, 3, 0, 0) == 0.12);
    CHECK(marginal_rate(t, 3, 0, 499.9) == 0.12);
    CHECK(marginal_rate(t, 3, 0, 500) == 0.20);  // 500 kWh used: the 501st is in tier 2
    CHECK(marginal_rate(t, 3, 0, 799) == 0.20);
    CHECK(marginal_rate(t, 3, 0, 5000) == 0.30);
}

TEST_CASE("tariff: a max on the last tier is ignored", "[tariff]") {
    // 300 kWh: 100 x 0.1 + the remaining 200 x 0.2 (not capped at 200) = 10 + 40 = 50.
    const Tariff t = tiered_tariff({{100.0, 0.1}, {200.0, 0.2}});
    CHECK(bill(t, {300}) == Approx(50.0));
    CHECK(marginal_rate(t, 1, 0, 1000) == 0.2);
}

// ---- time of use ----

TEST_CASE("tariff: a weekday 16-21 peak from a constant profile", "[tariff][tou]") {
    const Tariff t = weekday_peak_tariff({{std::nullopt, 0.10}}, {{std::nullopt, 0.40}});
    // 1 kWh every hour of the week. Peak: 5 weekdays x 5 hours = 25 week-hours, each occurring 730/168
    // times a month: 25 x 730 / 168 = 108.6309524 kWh. Off-peak: 143 x 730 / 168 = 621.3690476 kWh.
    const std::vector<double> kwh = kwh_by_period(t, 6, constant_profile(1.0));
    REQUIRE(kwh.size() == 2);
    CHECK(kwh[1] == Approx(25.0 * 730.0 / 168.0));
    CHECK(kwh[1] == Approx(108.6309524));
    CHECK(kwh[0] == Approx(621.3690476));
    CHECK(sum(kwh) == Approx(730.0));  // 1 kWh x 730 h
    // 108.6309524 x 0.40 + 621.3690476 x 0.10 = 43.4523810 + 62.1369048 = 105.5892857.
    CHECK(bill(t, kwh) == Approx(105.5892857));
    const std::vector<double> shares = period_hour_shares(t, 6);
    CHECK(shares[1] == Approx(25.0 / 168.0));
    CHECK(shares[0] == Approx(143.0 / 168.0));
}

TEST_CASE("tariff: weekends use the weekend matrix and months their own row", "[tariff][tou]") {
    Tariff t = weekday_peak_tariff({{std::nullopt, 0.10}}, {{std::nullopt, 0.40}});
    t.periods.push_back(TouPeriod{"summer weekend", {{std::nullopt, 0.25}}});
    t.weekend[6][17] = 2;  // July (row 6), 17:00 on Saturday and Sunday
    WeekProfile saturday_17{};
    saturday_17[5 * 24 + 17] = 1.0;  // day 5 = Saturday
    // July: the one Saturday hour is period 2: 1 kWh x 730/168 = 4.3452381 kWh.
    const std::vector<double> july = kwh_by_period(t, 7, saturday_17);
    CHECK(july[2] == Approx(730.0 / 168.0));
    CHECK(july[0] == 0.0);
    CHECK(july[1] == 0.0);
    // June (row 5) has no such period: the hour is off-peak.
    const std::vector<double> june = kwh_by_period(t, 6, saturday_17);
    CHECK(june[0] == Approx(730.0 / 168.0));
    CHECK(june[2] == 0.0);
    // Monday 17:00 is the weekday peak in any month; Sunday 17:00 in July is period 2.
    CHECK(marginal_rate(t, 1, 17, 0) == 0.40);
    CHECK(marginal_rate(t, 7, 6 * 24 + 17, 0) == 0.25);
    CHECK(marginal_rate(t, 7, 6 * 24 + 16, 0) == 0.10);
    // July shares: peak 25/168, period 2 two hours (Sat, Sun 17:00) 2/168, off-peak the other 141/168.
    const std::vector<double> shares = period_hour_shares(t, 7);
    CHECK(shares[1] == Approx(25.0 / 168.0));
    CHECK(shares[2] == Approx(2.0 / 168.0));
    CHECK(shares[0] == Approx(141.0 / 168.0));
}

TEST_CASE("tariff: tiers count the total and split each period's kWh in its proportions", "[tariff][tou]") {
    const Tariff t =
        weekday_peak_tariff({{100.0, 0.10}, {std::nullopt, 0.20}}, {{100.0, 0.30}, {std::nullopt, 0.50}});
    // Peak 50, off-peak 150: total 200, so 100 kWh in each tier, split 25 % peak / 75 % off-peak.
    // Tier 1: 25 x 0.30 + 75 x 0.10 = 15. Tier 2: 25 x 0.50 + 75 x 0.20 = 27.5. Bill 42.5.
    CHECK(bill(t, {150, 50}) == Approx(42.5));
    // Off-peak alone under the first limit: 80 x 0.10 = 8.
    CHECK(bill(t, {80, 0}) == Approx(8.0));
    // At a total of 100 the next kWh is in tier 2 of its period.
    CHECK(marginal_rate(t, 1, 17, 99) == 0.30);
    CHECK(marginal_rate(t, 1, 17, 100) == 0.50);
    CHECK(marginal_rate(t, 1, 3, 150) == 0.20);
}

TEST_CASE("tariff: marginal_rate is bill's derivative when tier steps agree", "[tariff][tou]") {
    // A baseline-credit tariff: tier 2 is 0.10 dearer than tier 1 in both periods (like E-TOU-C).
    const Tariff t =
        weekday_peak_tariff({{100.0, 0.10}, {std::nullopt, 0.20}}, {{100.0, 0.30}, {std::nullopt, 0.40}});
    const double step = 1e-3;
    for (const double total : {40.0, 160.0}) {
        const std::vector<double> kwh{0.75 * total, 0.25 * total};
        const double peak_slope = (bill(t, {kwh[0], kwh[1] + step}) - bill(t, kwh)) / step;
        const double off_slope = (bill(t, {kwh[0] + step, kwh[1]}) - bill(t, kwh)) / step;
        INFO("total " << total);
        CHECK(peak_slope == Approx(marginal_rate(t, 1, 17, total)).epsilon(1e-6));
        CHECK(off_slope == Approx(marginal_rate(t, 1, 3, total)).epsilon(1e-6));
    }
    // 40 kWh is in tier 1 (0.30 peak), 160 kWh in tier 2 (0.40 peak, 0.20 off-peak).
    CHECK(marginal_rate(t, 1, 17, 40) == 0.30);
    CHECK(marginal_rate(t, 1, 17, 160) == 0.40);
    CHECK(marginal_rate(t, 1, 3, 160) == 0.20);
}

TEST_CASE("tariff: the base load is spread over the periods by their share of hours", "[tariff][tou]") {
    Tariff t =
        weekday_peak_tariff({{300.0, 0.10}, {std::nullopt, 0.20}}, {{300.0, 0.30}, {std::nullopt, 0.40}});
    t.base_load_kwh_per_month = 336;  // 336 x 25/168 = 50 kWh peak, 336 x 143/168 = 286 off-peak
    // The rig draws 14 kWh off-peak: total 336 -> 350, past the 300 limit either way.
    // bill(base) = 300 x (50/336 x 0.30 + 286/336 x 0.10) + 36 x (50/336 x 0.40 + 286/336 x 0.20)
    //            = 300 x 0.1297619 + 36 x 0.2297619 = 38.9285714 + 8.2714286 = 47.2
    // bill(base + rig) with 50 peak, 300 off-peak, total 350:
    //            = 300 x (50/350 x 0.30 + 300/350 x 0.10) + 50 x (50/350 x 0.40 + 300/350 x 0.20)
    //            = 300 x 0.1285714 + 50 x 0.2285714 = 38.5714286 + 11.4285714 = 50.0
    // The difference, 2.8, is 14 kWh x 0.20 (the off-peak tier-2 rate): the steps agree (0.10).
    CHECK(bill(t, {286, 50}) == Approx(47.2));
    CHECK(bill(t, {300, 50}) == Approx(50.0));
    CHECK(incremental_bill(t, 2, {14, 0}) == Approx(2.8));
}

TEST_CASE("tariff: month totals are the week's sum x 730/168, for random profiles", "[tariff][tou]") {
    Tariff t =
        weekday_peak_tariff({{200.0, 0.10}, {std::nullopt, 0.15}}, {{200.0, 0.35}, {std::nullopt, 0.45}});
    t.periods.push_back(TouPeriod{"summer", {{200.0, 0.50}, {std::nullopt, 0.70}}});
    for (std::size_t m = 5; m < 9; ++m)
        for (std::size_t h = 12; h < 20; ++h) t.weekday[m][h] = t.weekend[m][h] = 2;
    validate(t, "test.toml");

    std::mt19937 rng(20260921);
    std::uniform_real_distribution<double> draw(0.0, 2.0);
    std::uniform_int_distribution<int> month(1, 12);
    std::uniform_real_distribution<double> base(0.0, 900.0);
    for (int trial = 0; trial < 200; ++trial) {
        WeekProfile profile;
        for (double& kwh : profile) kwh = draw(rng);
        const int m = month(rng);
        const double week = std::accumulate(profile.begin(), profile.end(), 0.0);
        const std::vector<double> kwh = kwh_by_period(t, m, profile);
        INFO("trial " << trial << ", month " << m);
        CHECK(sum(kwh) == Approx(week * 730.0 / 168.0).epsilon(1e-12));
        CHECK(sum(period_hour_shares(t, m)) == Approx(1.0).epsilon(1e-12));
        // Inclining blocks in every period: the rig never lowers the bill, and it costs no more than
        // its kWh at the dearest rate nor less than at the cheapest.
        t.base_load_kwh_per_month = base(rng);
        const double extra = incremental_bill(t, m, kwh);
        CHECK(extra >= 0.0);
        CHECK(extra <= sum(kwh) * 0.70 + 1e-9);
        CHECK(extra >= sum(kwh) * 0.10 - 1e-9);
    }
}

TEST_CASE("tariff: declining blocks that differ by period can make the rig lower the bill", "[tariff][tou]") {
    // The documented limit of the proportional split. Period 0: 1.00 up to 100 kWh then free;
    // period 1: a flat 0.50. 100 kWh in period 0 alone: 100. Add 1 kWh in period 1: total 101,
    // 100/101 x 100 (period 0's first 100 kWh, nothing after) + 1/101 x 50.5 = 99.0099 + 0.5 = 99.5099.
    const Tariff t = weekday_peak_tariff({{100.0, 1.00}, {std::nullopt, 0.0}}, {{std::nullopt, 0.50}});
    CHECK(bill(t, {100, 0}) == Approx(100.0));
    CHECK(bill(t, {100, 1}) == Approx(99.5099010));
}

// ---- argument errors ----

TEST_CASE("tariff: calls outside the domain throw std::invalid_argument", "[tariff]") {
    const Tariff t = weekday_peak_tariff({{std::nullopt, 0.10}}, {{std::nullopt, 0.40}});
    CHECK_THROWS_AS(kwh_by_period(t, 0, constant_profile(1)), std::invalid_argument);
    CHECK_THROWS_AS(kwh_by_period(t, 13, constant_profile(1)), std::invalid_argument);
    CHECK_THROWS_AS(period_hour_shares(t, 0), std::invalid_argument);
    CHECK_THROWS_AS(bill(t, {1}), std::invalid_argument);      // one entry for two periods
    CHECK_THROWS_AS(bill(t, {1, -1}), std::invalid_argument);  // negative kWh
    CHECK_THROWS_AS(incremental_bill(t, 1, {1, 2, 3}), std::invalid_argument);
    CHECK_THROWS_AS(marginal_rate(t, 1, 168, 0), std::invalid_argument);
    CHECK_THROWS_AS(marginal_rate(t, 1, -1, 0), std::invalid_argument);
    CHECK_THROWS_AS(marginal_rate(t, 1, 0, -5), std::invalid_argument);
    Tariff broken = t;
    broken.weekday[0][0] = 7;  // not validated: names a missing period
    CHECK_THROWS_AS(kwh_by_period(broken, 1, constant_profile(1)), std::invalid_argument);
}

// ---- validation ----

TEST_CASE("tariff: valid tariffs pass validate", "[tariff][validate]") {
    CHECK_NOTHROW(validate(flat_tariff(0.3), "test.toml"));
    CHECK_NOTHROW(validate(tiered_tariff({{500.0, 0.12}, {std::nullopt, 0.30}}), "test.toml"));
    CHECK_NOTHROW(validate(weekday_peak_tariff({{std::nullopt, 0.0}}, {{std::nullopt, 0.4}}), "test.toml"));
}

TEST_CASE("tariff: validate names what is wrong and where", "[tariff][validate]") {
    Tariff none;
    check_error(validation_error(none), "periods", "at least one period");

    Tariff no_tiers = flat_tariff(0.2);
    no_tiers.periods.push_back(TouPeriod{"empty", {}});
    check_error(validation_error(no_tiers), "periods[1].tiers", "at least one tier");

    check_error(validation_error(flat_tariff(-0.01)), "periods[0].tiers[0].rate", "got -0.01");
    check_error(validation_error(flat_tariff(std::numeric_limits<double>::quiet_NaN())),
                "periods[0].tiers[0].rate", "finite rate");
    check_error(validation_error(flat_tariff(std::numeric_limits<double>::infinity())),
                "periods[0].tiers[0].rate", "finite rate");

    check_error(validation_error(tiered_tariff({{500.0, 0.1}, {400.0, 0.2}, {std::nullopt, 0.3}})),
                "periods[0].tiers[1].max_kwh", "above the previous tier's 500 kWh, got 400");
    check_error(validation_error(tiered_tariff({{500.0, 0.1}, {500.0, 0.2}, {std::nullopt, 0.3}})),
                "periods[0].tiers[1].max_kwh", "got 500");
    check_error(validation_error(tiered_tariff({{0.0, 0.1}, {std::nullopt, 0.3}})),
                "periods[0].tiers[0].max_kwh", "max > 0");
    check_error(validation_error(tiered_tariff({{std::nullopt, 0.1}, {std::nullopt, 0.3}})),
                "periods[0].tiers[0].max_kwh", "only the last tier");

    Tariff weekend = weekday_peak_tariff({{std::nullopt, 0.1}}, {{std::nullopt, 0.4}});
    weekend.weekend[6][16] = 2;
    check_error(validation_error(weekend), "weekend[6][16]", "names period 2, but the periods are 0..1");
    Tariff weekday = flat_tariff(0.1);
    weekday.weekday[11][23] = -1;
    check_error(validation_error(weekday), "weekday[11][23]", "names period -1");

    Tariff base = flat_tariff(0.1);
    base.base_load_kwh_per_month = -10;
    check_error(validation_error(base), "base_load_kwh_per_month", "got -10");
}
