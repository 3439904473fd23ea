#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "payback/finance/finance.hpp"

using namespace payback::finance;

// ---- npv ----

TEST_CASE("npv discounts every flow but the first", "[finance][npv]") {
    // -100 + 60/1.1 + 60/1.21 = -100 + 126/1.21 = 4.1322314049586777
    CHECK(npv(0.1, {-100, 60, 60}) == Approx(4.1322314049586777).epsilon(1e-14));
    // numpy-financial's docstring: npf.npv(0.08, [-40000, 5000, 8000, 12000, 30000]) = 3065.22267
    CHECK(npv(0.08, {-40000, 5000, 8000, 12000, 30000}) == Approx(3065.22267).epsilon(1e-9));
}

TEST_CASE("npv at rate 0 is the plain sum; a negative rate grows later flows", "[finance][npv]") {
    CHECK(npv(0.0, {-100, 20, 30, 60}) == Approx(10.0).epsilon(1e-15));
    // r = -0.5: -100 + 30 x 2 + 20 x 4 = 40
    CHECK(npv(-0.5, {-100, 30, 20}) == Approx(40.0).epsilon(1e-15));
    CHECK(npv(0.1, {}) == 0.0);
    CHECK(npv(0.1, {-7.5}) == -7.5);
}

// ---- irr ----

TEST_CASE("irr of one period: -100 then +110 is 10 %", "[finance][irr]") {
    const IrrResult result = irr({-100, 110});
    CHECK(result.status == IrrStatus::ok);
    REQUIRE(result.rates.size() == 1);
    CHECK(result.rates[0] == Approx(0.1).epsilon(1e-14));
}

TEST_CASE("irr of textbook flows", "[finance][irr]") {
    // numpy-financial's docstring (after Gitman, Principles of Managerial Finance): 0.28095
    const IrrResult gitman = irr({-100, 39, 59, 55, 20});
    CHECK(gitman.status == IrrStatus::ok);
    REQUIRE(gitman.rates.size() == 1);
    CHECK(gitman.rates[0] == Approx(0.28095).margin(5e-6));
    CHECK(npv(gitman.rates[0], {-100, 39, 59, 55, 20}) == Approx(0.0).margin(1e-12));

    // -1000, 300, 400, 500: npf.irr gives 0.08896339469335035; npv there is 0.
    const IrrResult three = irr({-1000, 300, 400, 500});
    REQUIRE(three.status == IrrStatus::ok);
    CHECK(three.rates[0] == Approx(0.08896339469335035).epsilon(1e-12));
    CHECK(npv(three.rates[0], {-1000, 300, 400, 500}) == Approx(0.0).margin(1e-10));

    // A loss: -100 then 74 after three periods: (0.74)^(1/3) - 1 = -0.0954958...
    const IrrResult loss = irr({-100, 0, 0, 74});
    REQUIRE(loss.status == IrrStatus::ok);
    CHECK(loss.rates[0] == Approx(std::cbrt(0.74) - 1.0).epsilon(1e-12));
}

TEST_CASE("irr finds both roots of -100, +230, -132", "[finance][irr]") {
    // In x = 1/(1+r): 132x^2 - 230x + 100 = 0, x = (230 ± 10)/264 = 1/1.2 or 1/1.1, so r = 10 % and 20 %.
    const IrrResult result = irr({-100, 230, -132});
    CHECK(result.status == IrrStatus::multiple_roots);
    REQUIRE(result.rates.size() == 2);
    CHECK(result.rates[0] == Approx(0.1).epsilon(1e-12));
    CHECK(result.rates[1] == Approx(0.2).epsilon(1e-12));
}

TEST_CASE("irr finds three roots, listed ascending", "[finance][irr]") {
    // (1 - 1.05x)(1 - 1.1x)(1 - 1.3x) = 1 - 3.45x + 3.95x^2 - 1.5015x^3, times -1000: roots 5 %, 10 %, 30 %.
    const IrrResult result = irr({-1000, 3450, -3950, 1501.5});
    CHECK(result.status == IrrStatus::multiple_roots);
    REQUIRE(result.rates.size() == 3);
    CHECK(result.rates[0] == Approx(0.05).epsilon(1e-11));
    CHECK(result.rates[1] == Approx(0.10).epsilon(1e-11));
    CHECK(result.rates[2] == Approx(0.30).epsilon(1e-11));
    // Roots one point apart, 10 % and 11 %: (1 - 1.1x)(1 - 1.11x) = 1 - 2.21x + 1.221x^2.
    const IrrResult close = irr({100, -221, 122.1});
    REQUIRE(close.rates.size() == 2);
    CHECK(close.rates[0] == Approx(0.10).epsilon(1e-11));
    CHECK(close.rates[1] == Approx(0.11).epsilon(1e-11));
}

TEST_CASE("irr without a sign change has no root", "[finance][irr]") {
    for (const std::vector<double>& flows : std::vector<std::vector<double>>{
             {-1, -2, -3}, {0, 0, 0}, {}, {0, 5, 0, 3}, {-100}}) {
        const IrrResult result = irr(flows);
        CHECK(result.status == IrrStatus::no_sign_change);
        CHECK(result.rates.empty());
    }
}

TEST_CASE("irr of flows that change sign but have no real root is not_converged", "[finance][irr]") {
    // 1 - 2x + 2x^2: discriminant 4 - 8 < 0, so npv > 0 at every rate.
    const IrrResult result = irr({1, -2, 2});
    CHECK(result.status == IrrStatus::not_converged);
    CHECK(result.rates.empty());
}

TEST_CASE("irr of a long monthly series", "[finance][irr]") {
    // -1000 then +30 for 600 months: the rate at which a 600-payment annuity of 30 is worth 1000, i.e.
    // annuity_payment(1000, r, 600) = 30; about 3 % a month less 1.03^-600 x 3 % = 6e-10.
    std::vector<double> flows(601, 30.0);
    flows[0] = -1000;
    const IrrResult result = irr(flows);
    REQUIRE(result.status == IrrStatus::ok);
    CHECK(result.rates[0] == Approx(0.02999999940462983).epsilon(1e-12));  // npf.irr
    CHECK(annuity_payment(1000, result.rates[0], 600) == Approx(30.0).epsilon(1e-12));

    // +2 a month only just pays back: npf.irr gives 0.0006264793243326849.
    std::fill(flows.begin() + 1, flows.end(), 2.0);
    const IrrResult thin = irr(flows);
    REQUIRE(thin.status == IrrStatus::ok);
    CHECK(thin.rates[0] == Approx(0.0006264793243326849).epsilon(1e-10));
    CHECK(annuity_payment(1000, thin.rates[0], 600) == Approx(2.0).epsilon(1e-12));

    // A loss over 600 months (+1 a month): r < 0, where (1+r)^-600 would overflow a naive evaluation.
    std::fill(flows.begin() + 1, flows.end(), 1.0);
    const IrrResult loss = irr(flows);
    REQUIRE(loss.status == IrrStatus::ok);
    CHECK(loss.rates[0] < 0.0);
    CHECK(annuity_payment(1000, loss.rates[0], 600) == Approx(1.0).epsilon(1e-12));
}

TEST_CASE("irr of a long series with several sign changes", "[finance][irr]") {
    // 600 months of +30 after -1000, less 50 every 12th month (a yearly repair): Descartes allows many
    // roots, so the grid is scanned. The last flow is +30, so npv has opposite signs at r -> -1 and r -> oo:
    // an odd number of roots, and here one. npv must vanish there and change sign across it.
    std::vector<double> flows(601, 30.0);
    flows[0] = -1000;
    for (std::size_t m = 12; m < 600; m += 12) flows[m] = -50;
    const IrrResult result = irr(flows);
    REQUIRE(result.status == IrrStatus::ok);
    const double r = result.rates[0];
    CHECK(npv(r, flows) == Approx(0.0).margin(1e-9));
    CHECK(npv(r - 1e-6, flows) > 0.0);
    CHECK(npv(r + 1e-6, flows) < 0.0);

    // The repair in month 600 as well makes the last flow negative, like the first: now an even number of
    // roots. Besides the one near r above, a second near -37 % a month, where 0.626^-600 x 50 outweighs
    // everything else. Both are real: npv changes sign across each.
    flows[600] = -50;
    const IrrResult both = irr(flows);
    REQUIRE(both.status == IrrStatus::multiple_roots);
    REQUIRE(both.rates.size() == 2);
    CHECK(both.rates[0] == Approx(-0.3736323236972).epsilon(1e-9));
    CHECK(both.rates[1] == Approx(r).epsilon(1e-4));
    for (const double root : both.rates) {
        const bool below = npv(root * (1 - 1e-6), flows) > 0.0;
        const bool above = npv(root * (1 + 1e-6), flows) > 0.0;
        CHECK(below != above);
    }
}

namespace {
// The flows whose npv is ∏ (1 - (1 + r_i) x) × Σ_{t<extra} x^t, x = 1/(1+r): their positive roots in x
// are exactly 1/(1 + r_i), since 1 + x + ... + x^(extra-1) > 0 for x > 0.
std::vector<double> flows_with_roots(const std::vector<double>& rates, int extra) {
    std::vector<double> poly{1.0};
    for (double r : rates) {
        std::vector<double> next(poly.size() + 1, 0.0);
        for (std::size_t t = 0; t < poly.size(); ++t) {
            next[t] += poly[t];
            next[t + 1] -= (1.0 + r) * poly[t];
        }
        poly = next;
    }
    std::vector<double> flows(poly.size() + static_cast<std::size_t>(extra) - 1, 0.0);
    for (std::size_t t = 0; t < poly.size(); ++t)
        for (int u = 0; u < extra; ++u) flows[t + static_cast<std::size_t>(u)] += 1000.0 * poly[t];
    return flows;
}
}  // namespace

TEST_CASE("irr finds every root of flows built from known roots", "[finance][irr][property]") {
    // Monthly: 0.5 % and 2 % a month, spread over 120 periods.
    const IrrResult monthly = irr(flows_with_roots({0.005, 0.02}, 119));
    REQUIRE(monthly.rates.size() == 2);
    CHECK(monthly.status == IrrStatus::multiple_roots);
    CHECK(monthly.rates[0] == Approx(0.005).epsilon(1e-9));
    CHECK(monthly.rates[1] == Approx(0.02).epsilon(1e-9));

    // Pseudo-random root sets from a fixed mt19937 stream (raw draws, the same on every platform): 1 to 4
    // roots in [-0.6, 3), at least 10 % apart in log(1 + r), over 2 to 60 periods.
    std::mt19937 draws(20240601);
    const auto uniform = [&draws](double lo, double hi) { return lo + (hi - lo) * (draws() / 4294967296.0); };
    for (int trial = 0; trial < 200; ++trial) {
        std::vector<double> roots;
        const int count = 1 + static_cast<int>(draws() % 4);
        while (static_cast<int>(roots.size()) < count) {
            const double r = uniform(-0.6, 3.0);
            const bool apart = std::all_of(roots.begin(), roots.end(), [r](double other) {
                return std::fabs(std::log1p(r) - std::log1p(other)) > 0.1;
            });
            if (apart) roots.push_back(r);
        }
        std::sort(roots.begin(), roots.end());
        const int extra = 1 + static_cast<int>(draws() % 60);
        const IrrResult result = irr(flows_with_roots(roots, extra));
        INFO("trial " << trial << ", " << count << " roots, " << extra << " extra periods");
        CHECK(result.status == (count == 1 ? IrrStatus::ok : IrrStatus::multiple_roots));
        REQUIRE(result.rates.size() == roots.size());
        for (std::size_t i = 0; i < roots.size(); ++i)
            CHECK(result.rates[i] == Approx(roots[i]).epsilon(1e-8));
    }
}

TEST_CASE("irr is scale-free: 1e12-sized flows", "[finance][irr]") {
    const IrrResult one = irr({-100e12, 110e12});
    REQUIRE(one.status == IrrStatus::ok);
    CHECK(one.rates[0] == Approx(0.1).epsilon(1e-14));
    const IrrResult two = irr({-100e12, 230e12, -132e12});
    REQUIRE(two.status == IrrStatus::multiple_roots);
    CHECK(two.rates[0] == Approx(0.1).epsilon(1e-12));
    CHECK(two.rates[1] == Approx(0.2).epsilon(1e-12));
}

TEST_CASE("irr edge cases: zeros, r = 0, the ends of the search range, non-finite flows", "[finance][irr]") {
    // Leading and trailing zeros change nothing: -100 in period 2, +110 in period 3.
    const IrrResult shifted = irr({0, 0, -100, 110, 0});
    REQUIRE(shifted.status == IrrStatus::ok);
    CHECK(shifted.rates[0] == Approx(0.1).epsilon(1e-14));

    // Flows that just pay back: the root is exactly 0.
    const IrrResult even = irr({-100, 50, 50});
    REQUIRE(even.status == IrrStatus::ok);
    CHECK(even.rates[0] == 0.0);

    // 1 - 2x + x^2 = (1 - x)^2 only touches zero, at x = 1 (r = 0): found because r = 0 is on the grid.
    const IrrResult touch = irr({1, -2, 1});
    CHECK(touch.status == IrrStatus::ok);
    CHECK(touch.rates == std::vector<double>{0.0});

    // -1 then +1000: r = 999, and -1 then +1e-5: r = -0.99999; both inside 1 + r in [1e-6, 1e6].
    const IrrResult high = irr({-1, 1000});
    REQUIRE(high.status == IrrStatus::ok);
    CHECK(high.rates[0] == Approx(999.0).epsilon(1e-12));
    const IrrResult low = irr({-1, 1e-5});
    REQUIRE(low.status == IrrStatus::ok);
    CHECK(low.rates[0] == Approx(-0.99999).epsilon(1e-12));
    // -1 then +1e-7 (r = -0.9999999) and -1 then +1e7 (r = 9999999) lie outside it.
    CHECK(irr({-1, 1e-7}).status == IrrStatus::not_converged);
    CHECK(irr({-1, 1e7}).status == IrrStatus::not_converged);

    CHECK(irr({-1, NAN}).status == IrrStatus::not_converged);
    CHECK(irr({-1, INFINITY}).rates.empty());
}

TEST_CASE("irr status names", "[finance][irr]") {
    CHECK(std::string(to_string(IrrStatus::ok)) == "ok");
    CHECK(std::string(to_string(IrrStatus::no_sign_change)) == "no_sign_change");
    CHECK(std::string(to_string(IrrStatus::multiple_roots)) == "multiple_roots");
    CHECK(std::string(to_string(IrrStatus::not_converged)) == "not_converged");
}

// ---- loans ----

TEST_CASE("annuity payment: 1000 at 1 % a month over 12 months", "[finance][loan]") {
    // 1000 x 0.01 / (1 - 1.01^-12) = 88.848788678341...
    CHECK(annuity_payment(1000, 0.01, 12) == Approx(88.8487886783417).epsilon(1e-13));
    // numpy-financial's docstring: npf.pmt(0.075/12, 12*15, 200000) = -1854.0247200054619
    CHECK(annuity_payment(200000, 0.075 / 12, 180) == Approx(1854.0247200054619).epsilon(1e-12));
    // Rate 0: 1200 / 12.
    CHECK(annuity_payment(1200, 0.0, 12) == 100.0);
    CHECK_THROWS_AS(annuity_payment(1000, 0.01, 0), std::invalid_argument);
}

TEST_CASE("loan balance runs from the principal down to exactly 0", "[finance][loan]") {
    CHECK(loan_balance(1000, 0.01, 12, 0) == 1000.0);
    // After one payment: 1000 x 1.01 - 88.8487887 = 921.1512113
    CHECK(loan_balance(1000, 0.01, 12, 1) == Approx(921.1512113216584).epsilon(1e-13));
    CHECK(loan_balance(1000, 0.01, 12, 12) == 0.0);
    CHECK(loan_balance(1200, 0.0, 12, 3) == 900.0);
    CHECK(loan_balance(1200, 0.0, 12, 12) == 0.0);
    CHECK_THROWS_AS(loan_balance(1000, 0.01, 12, 13), std::invalid_argument);
    CHECK_THROWS_AS(loan_balance(1000, 0.01, 12, -1), std::invalid_argument);
}

TEST_CASE("each payment splits into interest and principal", "[finance][loan]") {
    // Payment 1 of 1000 at 1 %: interest 1000 x 0.01 = 10.
    CHECK(loan_interest(1000, 0.01, 12, 1) == Approx(10.0).epsilon(1e-15));
    CHECK(loan_interest(1200, 0.0, 12, 5) == 0.0);
    CHECK_THROWS_AS(loan_interest(1000, 0.01, 12, 0), std::invalid_argument);
    CHECK_THROWS_AS(loan_interest(1000, 0.01, 12, 13), std::invalid_argument);

    for (const double rate : {0.0, 0.004, 0.01, 0.05}) {
        const double principal = 25000;
        const int periods = 60;
        const double payment = annuity_payment(principal, rate, periods);
        double interest_total = 0;
        double principal_total = 0;
        for (int k = 1; k <= periods; ++k) {
            const double interest = loan_interest(principal, rate, periods, k);
            const double repaid = loan_balance(principal, rate, periods, k - 1) -
                                  loan_balance(principal, rate, periods, k);
            CHECK(interest + repaid == Approx(payment).epsilon(1e-12));
            interest_total += interest;
            principal_total += repaid;
        }
        // The principal parts repay the loan; the interest is everything else paid.
        CHECK(principal_total == Approx(principal).epsilon(1e-12));
        CHECK(interest_total == Approx(periods * payment - principal).epsilon(1e-9).margin(1e-9));
    }
}

// ---- rates ----

TEST_CASE("Fisher relation, exactly", "[finance][rates]") {
    // 1.03 x 1.02 = 1.0506, not 1.05.
    CHECK(nominal_rate(0.03, 0.02) == Approx(0.0506).epsilon(1e-14));
    CHECK(real_rate(0.0506, 0.02) == Approx(0.03).epsilon(1e-14));
    // Deflation: 1.05 / 0.98 - 1 = 0.0714285714...
    CHECK(real_rate(0.05, -0.02) == Approx(0.07142857142857142).epsilon(1e-14));
    for (const double real : {-0.02, 0.0, 0.035, 0.4})
        for (const double inflation : {-0.01, 0.0, 0.025, 0.3})
            CHECK(real_rate(nominal_rate(real, inflation), inflation) == Approx(real).margin(1e-15));
}

TEST_CASE("monthly and annual effective rates", "[finance][rates]") {
    // 1.01^12 - 1 = 0.12682503013196977
    CHECK(annual_rate(0.01) == Approx(0.12682503013196977).epsilon(1e-14));
    CHECK(monthly_rate(0.12682503013196977) == Approx(0.01).epsilon(1e-13));
    // 1.1^(1/12) - 1 = 0.0079741404289037...
    CHECK(monthly_rate(0.10) == Approx(0.0079741404289037).epsilon(1e-12));
    CHECK(monthly_rate(0.0) == 0.0);
    for (const double annual : {-0.5, -0.05, 0.0, 1e-9, 0.07, 2.0})
        CHECK(annual_rate(monthly_rate(annual)) == Approx(annual).margin(1e-15).epsilon(1e-13));
}

// ---- tax depreciation ----

namespace {
double total(const std::vector<double>& fractions) {
    double sum = 0;
    for (double f : fractions) sum += f;
    return sum;
}
}  // namespace

TEST_CASE("MACRS 5-year is IRS Publication 946 Table A-1", "[finance][tax]") {
    // Table A-1, half-year convention, 5-year column: 20.00, 32.00, 19.20, 11.52, 11.52, 5.76 %.
    const std::vector<double> expected{0.20, 0.32, 0.192, 0.1152, 0.1152, 0.0576};
    CHECK(depreciation_schedule(TaxDepreciation::macrs_5, 0) == expected);
    CHECK(depreciation_schedule(TaxDepreciation::macrs_5, 9) == expected);  // life_years ignored
    CHECK(total(expected) == Approx(1.0).epsilon(1e-15));
}

TEST_CASE("straight line, sum of years' digits, double declining balance over 5 years", "[finance][tax]") {
    const auto sl = depreciation_schedule(TaxDepreciation::straight_line, 5);
    REQUIRE(sl.size() == 5);
    for (double f : sl) CHECK(f == Approx(0.2).epsilon(1e-15));

    // Digits 5+4+3+2+1 = 15.
    const auto syd = depreciation_schedule(TaxDepreciation::sum_of_years_digits, 5);
    REQUIRE(syd.size() == 5);
    for (int y = 1; y <= 5; ++y) CHECK(syd[y - 1] == Approx((6.0 - y) / 15.0).epsilon(1e-15));

    // Rate 2/5 = 0.4 on what remains: 0.4, 0.6 x 0.4 = 0.24, 0.36 x 0.4 = 0.144; in year 4 DDB would take
    // 0.216 x 0.4 = 0.0864 but straight line over the 2 years left takes 0.108, so it switches: 0.108, 0.108.
    const auto ddb = depreciation_schedule(TaxDepreciation::double_declining_balance, 5);
    REQUIRE(ddb.size() == 5);
    const double expected[] = {0.4, 0.24, 0.144, 0.108, 0.108};
    for (int y = 0; y < 5; ++y) CHECK(ddb[y] == Approx(expected[y]).epsilon(1e-14));

    for (const auto& schedule : {sl, syd, ddb}) CHECK(total(schedule) == Approx(1.0).epsilon(1e-14));
}

TEST_CASE("every schedule with a life sums to 1 within that life", "[finance][tax]") {
    for (const auto method : {TaxDepreciation::straight_line, TaxDepreciation::double_declining_balance,
                              TaxDepreciation::sum_of_years_digits}) {
        for (int life = 1; life <= 40; ++life) {
            const auto schedule = depreciation_schedule(method, life);
            INFO(to_string(method) << " over " << life << " years");
            CHECK(schedule.size() == static_cast<std::size_t>(life));
            CHECK(total(schedule) == Approx(1.0).epsilon(1e-13));
            for (double f : schedule) CHECK(f >= 0.0);
        }
        CHECK_THROWS_AS(depreciation_schedule(method, 0), std::invalid_argument);
    }
    // DDB over 3 years: 2/3, then max(2/3 x 1/3, 1/3 / 2) = 2/9, then the last 1/9.
    const auto ddb3 = depreciation_schedule(TaxDepreciation::double_declining_balance, 3);
    REQUIRE(ddb3.size() == 3);
    CHECK(ddb3[0] == Approx(2.0 / 3).epsilon(1e-15));
    CHECK(ddb3[1] == Approx(2.0 / 9).epsilon(1e-15));
    CHECK(ddb3[2] == Approx(1.0 / 9).epsilon(1e-14));
}

TEST_CASE("no depreciation is empty; custom is passed through", "[finance][tax]") {
    CHECK(depreciation_schedule(TaxDepreciation::none, 5).empty());
    const std::vector<double> custom{0.5, 0.3, 0.2};
    CHECK(depreciation_schedule(TaxDepreciation::custom, 0, custom) == custom);
    CHECK(std::string(to_string(TaxDepreciation::none)) == "none");
    CHECK(std::string(to_string(TaxDepreciation::straight_line)) == "straight_line");
    CHECK(std::string(to_string(TaxDepreciation::double_declining_balance)) == "double_declining_balance");
    CHECK(std::string(to_string(TaxDepreciation::sum_of_years_digits)) == "sum_of_years_digits");
    CHECK(std::string(to_string(TaxDepreciation::macrs_5)) == "macrs_5");
    CHECK(std::string(to_string(TaxDepreciation::custom)) == "custom");
}

// ---- cross-check against numpy-financial ----

TEST_CASE("agrees with numpy-financial on every fixture case", "[finance][fixture]") {
    // Made by tools/finance_fixture.py (./dev fixtures); its header says how the cases were chosen.
    std::ifstream file(PAYBACK_SOURCE_DIR "/tests/fixtures/finance/numpy_financial.json");
    REQUIRE(file);
    const auto fixture = nlohmann::json::parse(file);
    constexpr double relative = 1e-9;

    REQUIRE(fixture.at("npv").size() >= 10);
    for (const auto& c : fixture.at("npv")) {
        INFO("npv " << c.dump().substr(0, 200));
        CHECK(npv(c.at("rate"), c.at("flows").get<std::vector<double>>()) ==
              Approx(c.at("value").get<double>()).epsilon(relative));
    }
    REQUIRE(fixture.at("irr").size() >= 10);
    for (const auto& c : fixture.at("irr")) {
        INFO("irr " << c.dump().substr(0, 200));
        const IrrResult result = irr(c.at("flows").get<std::vector<double>>());
        CHECK(result.status == IrrStatus::ok);
        REQUIRE(result.rates.size() == 1);
        CHECK(result.rates[0] == Approx(c.at("value").get<double>()).epsilon(relative));
    }
    REQUIRE(fixture.at("pmt").size() >= 10);
    for (const auto& c : fixture.at("pmt")) {
        INFO("pmt " << c.dump());
        CHECK(annuity_payment(c.at("principal").get<double>(), c.at("rate").get<double>(), c.at("periods").get<int>()) ==
              Approx(c.at("value").get<double>()).epsilon(relative));
    }
    REQUIRE(fixture.at("ipmt").size() >= 10);
    for (const auto& c : fixture.at("ipmt")) {
        INFO("ipmt " << c.dump());
        CHECK(loan_interest(c.at("principal"), c.at("rate"), c.at("periods"), c.at("period")) ==
              Approx(c.at("value").get<double>()).epsilon(relative));
    }
    // npf.ppmt, the principal part of payment k: what the balance falls by.
    REQUIRE(fixture.at("ppmt").size() >= 10);
    for (const auto& c : fixture.at("ppmt")) {
        INFO("ppmt " << c.dump());
        const double principal = c.at("principal");
        const double rate = c.at("rate");
        const int periods = c.at("periods");
        const int k = c.at("period");
        const double repaid =
            loan_balance(principal, rate, periods, k - 1) - loan_balance(principal, rate, periods, k);
        CHECK(repaid == Approx(c.at("value").get<double>()).epsilon(relative));
    }
}
