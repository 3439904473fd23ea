#include <catch2/catch.hpp>

#include "payback/energy/carbon.hpp"

using namespace payback;

TEST_CASE("co2_kg multiplies energy by intensity", "[carbon]") {
    CHECK(co2_kg(0.0, 0.5) == 0.0);
    CHECK(co2_kg(100.0, 0.0) == 0.0);
    // 100 kWh on a 0.41272 kg/kWh grid: 41.272 kg.
    CHECK(co2_kg(100.0, 0.41272) == Approx(41.272).epsilon(1e-15));
    // A cloud GPU drawing 100 kWh of IT energy in a PUE 1.09 facility takes 109 kWh from the grid:
    // 109 x 0.41272 = 44.98648 kg.
    CHECK(co2_kg(100.0 * 1.09, 0.41272) == Approx(44.98648).epsilon(1e-14));
    // A 350 W card running a year (8760 h) at home in California: 3066 kWh x 0.178482 = 547.225812 kg.
    CHECK(co2_kg(0.350 * 8760.0, 0.178482) == Approx(547.225812).epsilon(1e-14));
}
