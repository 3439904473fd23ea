#include <catch2/catch.hpp>

#include "payback/base/error.hpp"
#include "payback/model/comparison.hpp"
#include "payback/whatif/breakeven.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {
Scenario hand(const std::vector<Override>& overrides = {}) {
    return parse_scenario(test::hand_scenario(), "hand.toml", overrides);
}
BreakevenResult solve(const std::string& key, std::optional<std::pair<double, double>> range = std::nullopt,
                      const Scenario& s = hand()) {
    return breakeven(s, {key, range, std::nullopt});
}
}  // namespace

TEST_CASE("break-even electricity price, by hand", "[breakeven]") {
    // At 0 %: savings(p) = 2400 - 1500 - 24 x 89.375 p = 900 - 2145 p, zero at p = 0.41958.
    const auto r = solve("electricity.price_per_kwh");
    REQUIRE(r.value);
    CHECK(*r.value == Approx(900.0 / 2145.0).epsilon(1e-9));
    CHECK(r.current == Approx(0.2));
    CHECK(r.metric == "npv_savings");
    CHECK(r.against == "cloud");
    // The default range, 0 to 10 x 0.2, is cut where the key stops being valid: a USD price of
    // 2 or more per kWh is taken for cents and rejected.
    CHECK(r.range.first == 0.0);
    CHECK(r.range.second < 2.0);
    CHECK(r.range.second == Approx(2.0).epsilon(1e-12));
    CHECK_THAT(r.message, Catch::Contains("building wins below it"));
}

TEST_CASE("break-even cloud price and part price, by hand", "[breakeven]") {
    // Cloud: 24 x 50 h x c = 1929, c = 1.6075 (building wins above it).
    const auto cloud = solve("cloud[0].price_per_hour");
    REQUIRE(cloud.value);
    CHECK(*cloud.value == Approx(1929.0 / 1200.0).epsilon(1e-9));
    CHECK_THAT(cloud.message, Catch::Contains("building wins above it"));
    // GPU price: 2400 - (500 + g + 429) = 0, g = 1471.
    const auto gpu = solve("rig.parts[0].price");
    REQUIRE(gpu.value);
    CHECK(*gpu.value == Approx(1471.0).epsilon(1e-9));
}

TEST_CASE("break-even workload equals the dedicated solver", "[breakeven]") {
    const auto r = solve("workload.gpu_hours_per_month");
    REQUIRE(r.value);
    CHECK(r.range == std::pair(0.0, 730.0));
    CHECK(*r.value == Approx(1719.0 / 21.9).epsilon(1e-9));
}

TEST_CASE("break-even discount rate is the IRR", "[breakeven][irr]") {
    const auto r = solve("scenario.discount_rate", std::pair(0.0, 1.0));
    const auto c = compare(hand());
    REQUIRE(r.value);
    REQUIRE(c.versus[0].irr);
    CHECK(*r.value == Approx(*c.versus[0].irr).epsilon(1e-8));
}

TEST_CASE("no break-even in the range: no value and a sentence saying so", "[breakeven]") {
    const auto r = solve("electricity.price_per_kwh", std::pair(0.0, 0.3));
    CHECK_FALSE(r.value);
    CHECK(r.savings_at_low == Approx(900.0));
    CHECK(r.savings_at_high == Approx(900.0 - 2145.0 * 0.3));
    CHECK_THAT(r.message, Catch::StartsWith("No break-even for electricity.price_per_kwh between 0 and 0.3"));
}

TEST_CASE("break-even rejects unknown keys, whole numbers, bad ranges and unknown clouds", "[breakeven][errors]") {
    auto error_of = [](auto&& call) -> std::string {
        try {
            call();
        } catch (const InputError& e) {
            return e.what();
        }
        return "no error";
    };
    CHECK_THAT(error_of([] { solve("electricity.price_per_kwhh"); }),
               Catch::Contains("no such numeric scenario key; did you mean electricity.price_per_kwh?"));
    CHECK_THAT(error_of([] { solve("scenario.horizon_months"); }), Catch::Contains("whole number"));
    CHECK_THAT(error_of([] { solve("rig.psu_efficiency", std::pair(0.5, 1.5)); }),
               Catch::StartsWith("breakeven range: rig.psu_efficiency: 1.5 is not allowed"));
    CHECK_THAT(error_of([] { solve("electricity.price_per_kwh", std::pair(0.3, 0.1)); }),
               Catch::Contains("expected LO < HI"));
    CHECK_THAT(error_of([] { breakeven(hand(), {"electricity.price_per_kwh", std::nullopt, "clod"}); }),
               Catch::Contains("no cloud option named \"clod\"; did you mean \"cloud\"?"));
}
