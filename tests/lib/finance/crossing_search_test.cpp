#include <catch2/catch.hpp>

#include <cmath>

#include "payback/finance/crossing_search.hpp"

using namespace payback;

TEST_CASE("the crossing month: the first month whose gap ends at or below zero, interpolated", "[crossing]") {
    auto search = CrossingSearch<double>::start(0.0);
    search.step(1, 300.0, 200.0);
    search.step(2, 200.0, 100.0);
    CHECK(std::isnan(search.months));
    // Month 3 falls from 100 to -50: zero two thirds of the way in, 2 + 100 / 150.
    search.step(3, 100.0, -50.0);
    CHECK(search.months == Approx(2.0 + 2.0 / 3.0).epsilon(1e-15));
    // Later months never move it, whatever their gaps.
    search.step(4, -50.0, 400.0);
    search.step(5, 400.0, -1.0);
    CHECK(search.months == Approx(2.0 + 2.0 / 3.0).epsilon(1e-15));
}

TEST_CASE("a gap at or below zero at its month's start crosses at that start; zero at the end crosses",
          "[crossing]") {
    CHECK(CrossingSearch<double>::at(4, -10.0, -20.0) == 3.0);
    CHECK(CrossingSearch<double>::at(4, 0.0, -20.0) == 3.0);
    CHECK(CrossingSearch<double>::crosses(0.0));
    CHECK_FALSE(CrossingSearch<double>::crosses(1e-300));
    // 80 down to exactly 0: the whole month, 3 + 80 / 80.
    CHECK(CrossingSearch<double>::at(4, 80.0, 0.0) == 4.0);
}
