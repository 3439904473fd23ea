#include <catch2/catch.hpp>

#include "payback/energy/usage.hpp"

using namespace payback;

namespace {
double hours_in_week(const UsageProfile& p, PowerState state) {
    double hours = 0;
    for (int h = 0; h < hours_per_week; ++h) hours += p.share_of(h, state);
    return hours;
}
}  // namespace

TEST_CASE("a schedule's hours: weekdays 09-18 is 45 hours a week, 195.5 a month", "[usage]") {
    const UsageProfile p = parse_schedule({"weekdays 09-18 training"}, PowerState::idle);
    CHECK(hours_in_week(p, PowerState::training) == 45.0);  // 5 days x 9 h
    CHECK(hours_in_week(p, PowerState::idle) == 123.0);
    CHECK(p.hours_per_month(PowerState::training) == Approx(45.0 * 730.0 / 168.0));  // 195.536
    CHECK(p.share_of(9, PowerState::training) == 1.0);        // Monday 09:00
    CHECK(p.share_of(18, PowerState::training) == 0.0);       // Monday 18:00: the end is excluded
    CHECK(p.share_of(5 * 24 + 10, PowerState::idle) == 1.0);  // Saturday 10:00
}

TEST_CASE("later rules override earlier ones; hours wrap past midnight", "[usage]") {
    const UsageProfile p =
        parse_schedule({"daily 00-24 rented", "weekdays 09-18 training", "sun 22-06 off"}, PowerState::idle);
    CHECK(hours_in_week(p, PowerState::training) == 45.0);
    // Sunday 22-24 and Monday 00-06 (the week wraps to Monday): 8 hours off.
    CHECK(hours_in_week(p, PowerState::off) == 8.0);
    CHECK(p.share_of(0, PowerState::off) == 1.0);
    CHECK(p.share_of(6 * 24 + 23, PowerState::off) == 1.0);
    CHECK(hours_in_week(p, PowerState::rented) == 168.0 - 45.0 - 8.0);
}

TEST_CASE("day lists and ranges", "[usage]") {
    CHECK(hours_in_week(parse_schedule({"sat,sun 10-12 training"}, PowerState::off), PowerState::training) == 4.0);
    CHECK(hours_in_week(parse_schedule({"fri-mon 00-01 training"}, PowerState::off), PowerState::training) == 4.0);
    CHECK(hours_in_week(parse_schedule({"weekends 00-00 training"}, PowerState::off), PowerState::training) == 48.0);
}

TEST_CASE("training spread evenly is the naive schedule of a monthly workload", "[usage]") {
    const UsageProfile p = spread_evenly(100.0, PowerState::off);
    CHECK(p.hours_per_month(PowerState::training) == Approx(100.0).epsilon(1e-12));
    CHECK(p.hours_per_month(PowerState::off) == Approx(630.0).epsilon(1e-12));
    CHECK(p.share_of(77, PowerState::training) == Approx(100.0 / 730.0));
}

TEST_CASE("bad rules say what is wrong", "[usage][errors]") {
    auto error_of = [](const std::string& rule) -> std::string {
        try {
            parse_schedule_rule(rule);
        } catch (const std::invalid_argument& e) {
            return e.what();
        }
        return "no error";
    };
    CHECK_THAT(error_of("weekdays 09-18"), Catch::Contains("expected \"DAYS HH-HH STATE\""));
    CHECK_THAT(error_of("weekdays 09-18 sleeping"), Catch::Contains("unknown state \"sleeping\""));
    CHECK_THAT(error_of("workdays 09-18 training"), Catch::Contains("unknown day \"workdays\""));
    CHECK_THAT(error_of("daily 09-25 training"), Catch::Contains("expected an hour 00..24, got \"25\""));
    CHECK_THAT(error_of("daily 0918 training"), Catch::Contains("HH-HH"));
    CHECK_THAT(error_of("daily 09-09 training"), Catch::Contains("empty"));
}
