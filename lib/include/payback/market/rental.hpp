// Income from renting the rig's spare GPU-hours out on a marketplace (vast.ai, RunPod), one month at
// a time: rented hours × a host price that falls with GPU price-performance, less reserved-booking
// discounts and the platform's fee; and the extra wear renting puts on the cards' resale value.
// Generic over the numeric type so the batch engine (Eigen lanes) and the scalar model share it.
// Electricity for the rented hours is not here: the rig's energy model counts it (PowerState::rented).
#pragma once

#include <cmath>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "payback/base/conventions.hpp"
#include "payback/base/numeric.hpp"

namespace payback {

/// vast.ai's default discounts for reserved bookings of 1, 3 and 6 months (competitors.md, anchor 13).
inline constexpr double vast_reserved_discount_1_month = 0.20;
inline constexpr double vast_reserved_discount_3_months = 0.30;
inline constexpr double vast_reserved_discount_6_months = 0.40;
/// RunPod's host service fee, as its hosting docs stated until 2025-11-25 (pricing-facts.md §5).
inline constexpr double runpod_host_fee_until_2025_11 = 0.24;
/// Epoch: GPU FLOP/s per dollar doubles every 2.07 years (ML GPUs) to 2.95 years (top GPUs), 2.46
/// overall; a rented GPU-hour of a given card is taken to halve in price at the same pace.
inline constexpr double epoch_halving_years_ml_gpus = 2.07;
inline constexpr double epoch_halving_years_top_gpus = 2.95;

/// What the marketplace pays and keeps. All shares are fractions, 0..1.
template <class T>
struct RentalTerms {
    T price_per_gpu_hour{};      ///< host's list price per GPU-hour in month 1, before fee and discounts
    T occupancy{};               ///< share of the rentable GPU-hours actually rented
    T platform_fee{};            ///< share of gross income the marketplace keeps
    T halving_years{};           ///< the price halves every this many years; 0: no decay
    T reserved_discount{};       ///< blended discount of reserved bookings, Σ share × discount
    T extra_income_per_month{};  ///< storage and bandwidth paid by renters, before the fee
    T wear_per_1000_hours{};     ///< share of a card's resale value lost per 1,000 hours it is rented
};

/// One month of renting. Money in the scenario's currency, before tax.
template <class T>
struct RentalMonth {
    T rented_gpu_hours;    ///< rentable GPU-hours × occupancy
    T price_per_gpu_hour;  ///< after the price decay and the reserved discount, before the fee
    T gross;               ///< rented_gpu_hours × price_per_gpu_hour + extra_income_per_month
    T fees;                ///< gross × platform_fee
    T net;                 ///< gross − fees: what the host is paid
};

/// The host price in scenario month `month` (1-based) over its month-1 price, decaying continuously
/// month by month: 0.5^((month − 1) / 12 / halving_years); month 1 is 1, month 13 one year on.
/// halving_years == 0 means no decay (1 in every month). Throws std::invalid_argument for month < 1.
template <class T>
T rental_price_factor(const T& halving_years, int month) {
    using ops = numeric_ops<T>;
    if (month < 1)
        throw std::invalid_argument("rental month must be 1 or later, got " + std::to_string(month));
    const double years = (month - 1) / conventions::months_per_year;
    const auto no_decay = ops::equal(halving_years, 0.0);
    const T one = ops::fill_like(halving_years, 1.0);
    const T safe_halving = ops::select(no_decay, one, halving_years);  // no lane divides by 0
    const T decayed = ops::exp(-std::log(2.0) * years / safe_halving);
    return ops::select(no_decay, one, decayed);
}

/// Month `month` (1-based) of renting out `rentable_gpu_hours` (GPUs × hours the owner leaves to the
/// market that month: the hours not trained, or a schedule's rented hours):
///   rented = rentable × occupancy
///   price  = price_per_gpu_hour × rental_price_factor(halving_years, month) × (1 − reserved_discount)
///   gross  = rented × price + extra_income_per_month;  fees = gross × platform_fee;  net = gross − fees.
/// The fee is taken on the whole gross, storage and bandwidth included; the extra income neither
/// decays nor scales with occupancy. No validation here (see check_rental_terms), so it runs on lanes.
/// T is taken from the terms; the hours convert to it (a double to T = double, an Eigen expression
/// to Lanes).
template <class T>
RentalMonth<T> rental_month(const RentalTerms<T>& t, int month,
                            const std::type_identity_t<T>& rentable_gpu_hours) {
    const T rented = rentable_gpu_hours * t.occupancy;
    const T price =
        t.price_per_gpu_hour * rental_price_factor(t.halving_years, month) * (1.0 - t.reserved_discount);
    const T gross = rented * price + t.extra_income_per_month;
    const T fees = gross * t.platform_fee;
    const T net = gross - fees;
    return {rented, price, gross, fees, net};
}

/// Share of a card's resale value left after renting it out for `rented_hours_per_gpu` hours in all
/// (the card's own hours, not the rig's GPU-hours summed): 1 − wear_per_1000_hours × hours / 1000,
/// floored at 0. Multiply the card's resale value (depreciation.hpp) at the sale by it. T is taken
/// from the wear rate.
template <class T>
T wear_kept_fraction(const std::type_identity_t<T>& rented_hours_per_gpu, const T& wear_per_1000_hours) {
    return numeric_ops<T>::max(1.0 - wear_per_1000_hours * (rented_hours_per_gpu / 1000.0), 0.0);
}

/// One kind of reserved booking: the share of rented hours booked that way, and its discount.
struct ReservedBooking {
    double share;
    double discount;
};

/// Σ share × discount over the bookings: the blended discount for RentalTerms::reserved_discount.
/// The hours not covered by a booking are on-demand, at full price. Throws std::invalid_argument when
/// a share or discount is outside 0..1 or not finite, or the shares add up to more than 1.
inline double blended_reserved_discount(const std::vector<ReservedBooking>& bookings) {
    double shares = 0.0;
    double blended = 0.0;
    for (const auto& b : bookings) {
        if (!(b.share >= 0.0 && b.share <= 1.0))
            throw std::invalid_argument("reserved booking share must be within 0..1, got " +
                                        std::to_string(b.share));
        if (!(b.discount >= 0.0 && b.discount <= 1.0))
            throw std::invalid_argument("reserved booking discount must be within 0..1, got " +
                                        std::to_string(b.discount));
        shares += b.share;
        blended += b.share * b.discount;
    }
    if (shares > 1.0 + 1e-12)
        throw std::invalid_argument("reserved booking shares add up to " + std::to_string(shares) +
                                    ", more than all the rented hours");
    return blended;
}

/// Throws std::invalid_argument naming the first field that is not finite or out of range: price,
/// halving_years, extra income and wear must be ≥ 0; occupancy, fee and reserved discount within 0..1.
inline void check_rental_terms(const RentalTerms<double>& t) {
    const auto require = [](bool ok, const char* field, double value, const char* expected) {
        if (!ok)
            throw std::invalid_argument(std::string("rental ") + field + " must be " + expected + ", got " +
                                        std::to_string(value));
    };
    const auto non_negative = [](double v) { return std::isfinite(v) && v >= 0.0; };
    const auto share = [](double v) { return v >= 0.0 && v <= 1.0; };  // false for NaN
    require(non_negative(t.price_per_gpu_hour), "price_per_gpu_hour", t.price_per_gpu_hour, ">= 0");
    require(share(t.occupancy), "occupancy", t.occupancy, "within 0..1");
    require(share(t.platform_fee), "platform_fee", t.platform_fee, "within 0..1");
    require(non_negative(t.halving_years), "halving_years", t.halving_years, ">= 0 (0: no decay)");
    require(share(t.reserved_discount), "reserved_discount", t.reserved_discount, "within 0..1");
    require(non_negative(t.extra_income_per_month), "extra_income_per_month", t.extra_income_per_month,
            ">= 0");
    require(non_negative(t.wear_per_1000_hours), "wear_per_1000_hours", t.wear_per_1000_hours, ">= 0");
}

}  // namespace payback
