#include <catch2/catch.hpp>

#include "payback/finance/depreciation.hpp"

using namespace payback;

TEST_CASE("declining balance compounds within the year", "[depreciation]") {
    const ResaleCurve<double> curve{ResaleMethod::declining_balance, 0.25, 0.0, 0.0, 0.0, {}};
    CHECK(resale_fraction(curve, 0.0) == 1.0);
    // One year: 1 - 0.25 = 0.75; two years: 0.75^2 = 0.5625; six months: 0.75^0.5 = 0.8660254.
    CHECK(resale_fraction(curve, 12.0) == Approx(0.75).epsilon(1e-15));
    CHECK(resale_fraction(curve, 24.0) == Approx(0.5625).epsilon(1e-15));
    CHECK(resale_fraction(curve, 6.0) == Approx(0.8660254037844386).epsilon(1e-15));
}

TEST_CASE("straight line falls to the salvage fraction and stays there", "[depreciation]") {
    const ResaleCurve<double> curve{ResaleMethod::straight_line, 0.0, 4.0, 0.1, 0.0, {}};
    CHECK(resale_fraction(curve, 0.0) == 1.0);
    // Two of four years: 1 - 0.9 x 0.5 = 0.55.
    CHECK(resale_fraction(curve, 24.0) == Approx(0.55).epsilon(1e-15));
    CHECK(resale_fraction(curve, 48.0) == Approx(0.1).epsilon(1e-15));
    CHECK(resale_fraction(curve, 60.0) == Approx(0.1).epsilon(1e-15));
}

TEST_CASE("no resale method: worth nothing", "[depreciation]") {
    const ResaleCurve<double> curve{};
    CHECK(resale_fraction(curve, 0.0) == 0.0);
    CHECK(resale_fraction(curve, 30.0) == 0.0);
}

TEST_CASE("value never rises with age", "[depreciation][property]") {
    const ResaleCurve<double> curves[] = {{ResaleMethod::declining_balance, 0.4, 0.0, 0.0, 0.0, {}},
                                          {ResaleMethod::straight_line, 0.0, 3.0, 0.2, 0.0, {}},
                                          {ResaleMethod::price_performance, 0.0, 0.0, 0.0, 2.5, {}}};
    for (const auto& curve : curves)
        for (int age = 1; age <= 120; ++age)
            CHECK(resale_fraction(curve, age) <= resale_fraction(curve, age - 1));
}

TEST_CASE("price-performance decay halves the value every half-life", "[depreciation]") {
    // Epoch: GPU FLOP/s per dollar doubles every 2.07 to 2.95 years; take 2.5.
    const ResaleCurve<double> curve{ResaleMethod::price_performance, 0.0, 0.0, 0.0, 2.5, {}};
    CHECK(resale_fraction(curve, 0.0) == 1.0);
    CHECK(resale_fraction(curve, 30.0) == Approx(0.5).epsilon(1e-15));   // 2.5 years
    CHECK(resale_fraction(curve, 60.0) == Approx(0.25).epsilon(1e-15));  // 5 years
    // One year: 0.5^(1/2.5) = 0.757858283.
    CHECK(resale_fraction(curve, 12.0) == Approx(0.7578582832551990).epsilon(1e-14));
}

TEST_CASE("an observed schedule is read by calendar month, not by age", "[depreciation]") {
    const ResaleCurve<double> curve{ResaleMethod::observed, 0.0, 0.0, 0.0, 0.0, {0.9, 0.8, 1.1}};
    CHECK(resale_fraction(curve, 0.0, 0) == 0.9);
    CHECK(resale_fraction(curve, 0.0, 2) == 1.1);  // a shortage: worth more than it cost
    CHECK(resale_fraction(curve, 5.0, 1) == 0.8);
}
