#include <catch2/catch.hpp>

#include "payback/finance/sale_value.hpp"

using namespace payback;

TEST_CASE("a part's sale: cost times its booked resale fraction times what wear left", "[sale_value]") {
    const ResaleCurve<double> curve{ResaleMethod::declining_balance, 0.25, 0.0, 0.0, 0.0, {}};
    // 18 months at 25 % a year, 90 % left after wear: 1000 x 0.75^1.5 x 0.9 = 584.5671475544962.
    CHECK(sale_value(1000.0, curve, 18, 18, 0.9) == Approx(584.5671475544962).epsilon(1e-14));
    // Straight line over 4 years to 10 %: at 24 months 1 - 0.9 x 0.5 = 0.55 of 2000.
    const ResaleCurve<double> line{ResaleMethod::straight_line, 0.0, 4.0, 0.1, 0.0, {}};
    CHECK(sale_value(2000.0, line, 24, 24, 1.0) == Approx(1100.0).epsilon(1e-15));
}

TEST_CASE("the booked fraction is the curve's at whole years, and one month's factor a month between",
          "[sale_value]") {
    for (const ResaleMethod method : {ResaleMethod::declining_balance, ResaleMethod::price_performance}) {
        const ResaleCurve<double> curve{method, 0.25, 0.0, 0.0, 2.0, {}};
        const double month_factor = resale_fraction(curve, 1.0);
        for (int age = 0; age <= 60; ++age) {
            const double booked = booked_resale_fraction(curve, age, age);
            if (age % 12 == 0) {
                CHECK(booked == resale_fraction(curve, static_cast<double>(age)));
            } else {
                CHECK(booked == booked_resale_fraction(curve, age - 1, age - 1) * month_factor);
                // Within a few rounding steps of the power itself.
                CHECK(booked == Approx(resale_fraction(curve, static_cast<double>(age))).epsilon(4e-15));
            }
        }
    }
    // Price-performance, half-life 2 years, 30 months: 0.5^1.25 = 0.42044820762685725.
    const ResaleCurve<double> halving{ResaleMethod::price_performance, 0.0, 0.0, 0.0, 2.0, {}};
    CHECK(booked_resale_fraction(halving, 30, 30) == Approx(0.42044820762685725).epsilon(4e-15));
}

TEST_CASE("ResaleSteps walks the booked fractions to the last bit, however it is called", "[sale_value]") {
    const ResaleCurve<double> curve{ResaleMethod::declining_balance, 0.3, 0.0, 0.0, 0.0, {}};
    ResaleSteps<double> walk(curve);
    for (int age = 0; age <= 48; ++age) CHECK(walk.at(age, age) == booked_resale_fraction(curve, age, age));
    ResaleSteps<double> jumps(curve);
    for (const int age : {17, 5, 40, 41, 12, 13}) CHECK(jumps.at(age, age) == booked_resale_fraction(curve, age, age));
}
