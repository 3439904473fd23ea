#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "payback/market/rental.hpp"

using namespace payback;

namespace {

// Two GPUs with 600 idle hours each, 70 % rented at $0.30 per GPU-hour, RunPod's 24 % fee, no decay.
RentalTerms<double> two_card_terms() {
    return {.price_per_gpu_hour = 0.30,
            .occupancy = 0.7,
            .platform_fee = 0.24,
            .halving_years = 0.0,
            .reserved_discount = 0.0,
            .extra_income_per_month = 0.0,
            .wear_per_1000_hours = 0.0};
}

}  // namespace

TEST_CASE("a month of renting: rented hours, gross, fee and net", "[rental]") {
    const auto m = rental_month(two_card_terms(), 1, 2.0 * 600.0);
    // 2 × 600 = 1,200 rentable GPU-hours × 0.7 = 840 rented; × $0.30 = $252 gross;
    // fee 0.24 × 252 = $60.48; net 252 × 0.76 = $191.52.
    CHECK(m.rented_gpu_hours == Approx(840.0).epsilon(1e-15));
    CHECK(m.price_per_gpu_hour == Approx(0.30).epsilon(1e-15));
    CHECK(m.gross == Approx(252.0).epsilon(1e-15));
    CHECK(m.fees == Approx(60.48).epsilon(1e-14));
    CHECK(m.net == Approx(191.52).epsilon(1e-14));
    CHECK(m.net + m.fees == Approx(m.gross).epsilon(1e-15));
}

TEST_CASE("the host price halves every halving period, continuously month by month", "[rental]") {
    // Month 1 is the start price; month 13 is one year on: 0.5^(1/2.5) = 0.757858283.
    CHECK(rental_price_factor(2.5, 1) == 1.0);
    CHECK(rental_price_factor(2.5, 13) == Approx(0.7578582832551990).epsilon(1e-14));
    CHECK(rental_price_factor(2.5, 31) == Approx(0.5).epsilon(1e-15));   // 30 months = 2.5 years
    CHECK(rental_price_factor(2.5, 61) == Approx(0.25).epsilon(1e-15));  // 5 years
    // Epoch's range one year on: 0.5^(1/2.07) = 0.715443 (ML GPUs), 0.5^(1/2.95) = 0.790598 (top GPUs).
    CHECK(rental_price_factor(epoch_halving_years_ml_gpus, 13) == Approx(0.7154427405187583).epsilon(1e-14));
    CHECK(rental_price_factor(epoch_halving_years_top_gpus, 13) == Approx(0.7905984047028619).epsilon(1e-14));
    // 0 means no decay, in every month.
    CHECK(rental_price_factor(0.0, 1) == 1.0);
    CHECK(rental_price_factor(0.0, 240) == 1.0);
    CHECK_THROWS_AS(rental_price_factor(2.5, 0), std::invalid_argument);

    auto terms = two_card_terms();
    terms.halving_years = 2.5;
    const auto m13 = rental_month(terms, 13, 1200.0);
    // $0.30 × 0.757858 = $0.2273575; 840 h × that = $190.980 gross; net 191.52 × 0.757858 = $145.145.
    CHECK(m13.price_per_gpu_hour == Approx(0.2273574849765597).epsilon(1e-14));
    CHECK(m13.gross == Approx(190.98028738031016).epsilon(1e-14));
    CHECK(m13.net == Approx(145.1450184090357).epsilon(1e-14));
}

TEST_CASE("the host price never rises month over month", "[rental][property]") {
    for (const double halving : {0.0, 1.0, 2.07, 2.5, 2.95, 10.0})
        for (int month = 2; month <= 240; ++month)
            CHECK(rental_price_factor(halving, month) <= rental_price_factor(halving, month - 1));
}

TEST_CASE("reserved bookings blend into one discount on the rented hours", "[rental]") {
    // Half the rented hours booked for 3 months at 30 % off: 0.5 × 0.30 = 0.15.
    CHECK(blended_reserved_discount({{0.5, vast_reserved_discount_3_months}}) == Approx(0.15).epsilon(1e-15));
    // vast.ai's defaults, 20 % booked 1 month, 30 % 3 months, 10 % 6 months, 40 % on demand:
    // 0.2 × 0.20 + 0.3 × 0.30 + 0.1 × 0.40 = 0.04 + 0.09 + 0.04 = 0.17.
    CHECK(blended_reserved_discount({{0.2, vast_reserved_discount_1_month},
                                     {0.3, vast_reserved_discount_3_months},
                                     {0.1, vast_reserved_discount_6_months}}) == Approx(0.17).epsilon(1e-15));
    CHECK(blended_reserved_discount({}) == 0.0);  // all on demand

    auto terms = two_card_terms();
    terms.reserved_discount = 0.15;
    const auto m = rental_month(terms, 1, 1200.0);
    // $0.30 × 0.85 = $0.255; 840 h × $0.255 = $214.20 gross; fee $51.408; net $162.792.
    CHECK(m.price_per_gpu_hour == Approx(0.255).epsilon(1e-15));
    CHECK(m.gross == Approx(214.2).epsilon(1e-14));
    CHECK(m.fees == Approx(51.408).epsilon(1e-14));
    CHECK(m.net == Approx(162.792).epsilon(1e-14));
}

TEST_CASE("bad reserved bookings are refused", "[rental][validation]") {
    CHECK_THROWS_AS(blended_reserved_discount({{0.6, 0.2}, {0.5, 0.3}}), std::invalid_argument);  // 110 %
    CHECK_THROWS_AS(blended_reserved_discount({{-0.1, 0.2}}), std::invalid_argument);
    CHECK_THROWS_AS(blended_reserved_discount({{0.5, 1.2}}), std::invalid_argument);
    CHECK_THROWS_AS(blended_reserved_discount({{std::nan(""), 0.2}}), std::invalid_argument);
    CHECK_NOTHROW(blended_reserved_discount({{0.5, 0.2}, {0.5, 0.4}}));  // exactly all the hours
}

TEST_CASE("storage and bandwidth income is added to gross and pays the fee too", "[rental]") {
    auto terms = two_card_terms();
    terms.extra_income_per_month = 10.0;
    terms.halving_years = 2.5;
    const auto m1 = rental_month(terms, 1, 1200.0);
    // $252 + $10 = $262 gross; fee 0.24 × 262 = $62.88; net $199.12.
    CHECK(m1.gross == Approx(262.0).epsilon(1e-15));
    CHECK(m1.fees == Approx(62.88).epsilon(1e-14));
    CHECK(m1.net == Approx(199.12).epsilon(1e-14));
    // The $10 does not decay: month 13 gross = $190.980 + $10 = $200.980.
    CHECK(rental_month(terms, 13, 1200.0).gross == Approx(200.98028738031016).epsilon(1e-14));
}

TEST_CASE("nothing rented, nothing earned", "[rental]") {
    auto terms = two_card_terms();
    terms.occupancy = 0.0;
    const auto idle_market = rental_month(terms, 1, 1200.0);
    CHECK(idle_market.rented_gpu_hours == 0.0);
    CHECK(idle_market.gross == 0.0);
    CHECK(idle_market.fees == 0.0);
    CHECK(idle_market.net == 0.0);
    // The owner trains every hour: no rentable hours, nothing rented even at full occupancy.
    terms.occupancy = 1.0;
    CHECK(rental_month(terms, 1, 0.0).net == 0.0);
    // A free platform passes the whole gross on: 840 h × $0.30 = $252.
    terms = two_card_terms();
    terms.platform_fee = 0.0;
    CHECK(rental_month(terms, 1, 1200.0).net == Approx(252.0).epsilon(1e-15));
}

TEST_CASE("renting wears the cards: a haircut on their resale value", "[rental]") {
    CHECK(wear_kept_fraction(0.0, 0.02) == 1.0);
    // Two years at 70 % of every hour: 730 × 0.7 × 24 = 12,264 hours per card;
    // 2 % per 1,000 h: 1 − 0.02 × 12.264 = 0.75472 of the resale value kept.
    CHECK(wear_kept_fraction(730.0 * 0.7 * 24.0, 0.02) == Approx(0.75472).epsilon(1e-14));
    // 60,000 hours × 2 % per 1,000 = 120 %: floored at nothing left.
    CHECK(wear_kept_fraction(60000.0, 0.02) == 0.0);
    CHECK(wear_kept_fraction(50000.0, 0.02) == Approx(0.0).margin(1e-15));  // exactly used up
    CHECK(wear_kept_fraction(12264.0, 0.0) == 1.0);                          // no wear assumed
}

TEST_CASE("bad rental terms are refused", "[rental][validation]") {
    CHECK_NOTHROW(check_rental_terms(two_card_terms()));
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double inf = std::numeric_limits<double>::infinity();
    const auto refused = [](auto change) {
        auto t = two_card_terms();
        change(t);
        CHECK_THROWS_AS(check_rental_terms(t), std::invalid_argument);
    };
    refused([](RentalTerms<double>& t) { t.price_per_gpu_hour = -0.01; });
    refused([&](RentalTerms<double>& t) { t.price_per_gpu_hour = inf; });
    refused([](RentalTerms<double>& t) { t.occupancy = 1.01; });
    refused([&](RentalTerms<double>& t) { t.occupancy = nan; });
    refused([](RentalTerms<double>& t) { t.platform_fee = -0.24; });
    refused([](RentalTerms<double>& t) { t.halving_years = -2.5; });
    refused([](RentalTerms<double>& t) { t.reserved_discount = 1.5; });
    refused([](RentalTerms<double>& t) { t.extra_income_per_month = -5.0; });
    refused([](RentalTerms<double>& t) { t.wear_per_1000_hours = -0.02; });
    CHECK_THROWS_WITH(([] {
                          auto t = two_card_terms();
                          t.occupancy = 1.5;
                          check_rental_terms(t);
                      }()),
                      Catch::Contains("occupancy"));
}

TEST_CASE("worked check: 'renting GPUs out brings $600-800 a month' from a home host", "[rental][claim]") {
    // The owner's essay (source-builds.md §2) reports monthly rental profits "in the $600-800 range"
    // from a home rig of one, later two, RTX 3080s. Typical host earnings when rented (pricing-facts
    // §5, an estimate): RTX 3090 $0.20-0.40 per GPU-hour; RTX 3080 is lower (vast.ai renter-side offer
    // $0.0925/GPU-h). Take RunPod's 24 % fee, a whole month (730 h) rentable, no decay.
    // One card earns 730 × occupancy × price × 0.76 a month, so n = 600 / that cards reach $600 net.
    const auto net_per_card = [](double price, double occupancy) {
        RentalTerms<double> t{};
        t.price_per_gpu_hour = price;
        t.occupancy = occupancy;
        t.platform_fee = runpod_host_fee_until_2025_11;
        return rental_month(t, 1, 730.0).net;
    };
    // Mid price, the 70 % a blog assumes: 730 × 0.7 × 0.30 × 0.76 = $116.508 per card;
    // 600 / 116.508 = 5.15 cards for $600, 800 / 116.508 = 6.87 for $800.
    CHECK(net_per_card(0.30, 0.7) == Approx(116.508).epsilon(1e-14));
    CHECK(600.0 / net_per_card(0.30, 0.7) == Approx(5.149860953754249).epsilon(1e-13));
    CHECK(800.0 / net_per_card(0.30, 0.7) == Approx(6.866481271672333).epsilon(1e-13));
    // Best case, top price and never idle: 730 × 0.40 × 0.76 = $221.92 per card; 600 / 221.92 = 2.70.
    CHECK(600.0 / net_per_card(0.40, 1.0) == Approx(2.7036770007209805).epsilon(1e-13));
    // Low price, half rented: 730 × 0.5 × 0.20 × 0.76 = $55.48; 600 / 55.48 = 10.81 cards.
    CHECK(600.0 / net_per_card(0.20, 0.5) == Approx(10.814708002883922).epsilon(1e-13));
    // Vast's median RTX 3090 renter price, $0.168 (an upper bound on the host's gross), at 70 %:
    // 730 × 0.7 × 0.168 × 0.76 = $65.244 per card; 600 / 65.244 = 9.20 cards.
    CHECK(600.0 / net_per_card(0.168, 0.7) == Approx(9.19618027456116).epsilon(1e-13));
    // So the essay's two cards fall short even in the best case: 2 × $221.92 = $443.84 net, and
    // 2 × 730 × $0.40 = $584 before any fee. Two cards at 70 % would need
    // 600 / (2 × 730 × 0.7 × 0.76) = $0.7725 per GPU-hour, RTX 4090 prices ($0.40-0.80), not a 3080's.
    CHECK(2.0 * net_per_card(0.40, 1.0) == Approx(443.84).epsilon(1e-14));
    CHECK(2.0 * net_per_card(0.40, 1.0) < 600.0);
    CHECK(600.0 / (2.0 * net_per_card(1.0, 0.7)) == Approx(0.7724791430631374).epsilon(1e-13));
    // And that is before electricity: the claim is gross takings, or many more cards, not two 3080s.
}

#if __has_include(<Eigen/Core>)
#include "payback/whatif/lanes.hpp"

TEST_CASE("rental terms run on lanes, one sample per lane, as on doubles", "[rental][lanes]") {
    // Lane 0 is the two-card month; lane 1 decays (2.5 years) with a 15 % reserved discount and $10 extra;
    // lane 2 has no occupancy.
    RentalTerms<Lanes> t;
    t.price_per_gpu_hour = Lanes::Constant(3, 0.30);
    t.occupancy = (Lanes(3) << 0.7, 0.7, 0.0).finished();
    t.platform_fee = Lanes::Constant(3, 0.24);
    t.halving_years = (Lanes(3) << 0.0, 2.5, 2.5).finished();
    t.reserved_discount = (Lanes(3) << 0.0, 0.15, 0.0).finished();
    t.extra_income_per_month = (Lanes(3) << 0.0, 10.0, 0.0).finished();
    t.wear_per_1000_hours = Lanes::Constant(3, 0.02);
    const auto m = rental_month(t, 13, Lanes::Constant(3, 1200.0));
    CHECK(m.net(0) == Approx(191.52).epsilon(1e-14));  // no decay in lane 0
    // Lane 1: 840 h × $0.30 × 0.757858 × 0.85 = $162.333 + $10 = $172.333 gross; × 0.76 = $130.973 net.
    CHECK(m.gross(1) == Approx(172.33324427326363).epsilon(1e-14));
    CHECK(m.net(1) == Approx(130.97326564768036).epsilon(1e-14));
    CHECK(m.net(2) == 0.0);
    const Lanes kept = wear_kept_fraction(Lanes::Constant(3, 12264.0), t.wear_per_1000_hours);
    CHECK(kept(1) == Approx(0.75472).epsilon(1e-14));
}
#endif
