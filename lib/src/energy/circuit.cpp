// Circuit limits and room heat (see circuit.hpp).
#include "payback/energy/circuit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

#include "energy/mains.hpp"
#include "payback/base/format.hpp"

namespace payback {

namespace {

// pricing-facts.md §6: US 120 V 15 A (1,800 W nameplate); EU Schuko 230 V 16 A (3,680 W nameplate);
// NEC continuous load (3 h or more) at most 80 % of the breaker.
constexpr Circuit kNorthAmerica{120.0, 15.0, 0.8};
constexpr Circuit kEurope{230.0, 16.0, 0.8};

// 1 Btu (International Table) = 1,055.05585262 J (NIST SP 811, 2008, Appendix B), so
// 1 W = 3,600 J/h / 1,055.05585262 J = 3.412141633 BTU/h.
constexpr double kBtuPerHourPerWatt = 3.412141633;

void require_watts(double w, const char* what) {
    if (!(w >= 0) || !std::isfinite(w))
        throw std::invalid_argument(fmt::format("{} must be a non-negative number of watts", what));
}

// How many whole GPUs of `per_gpu` wall watts fit in `room` watts; 0 for none or no GPU kind.
int whole_gpus(double room, double per_gpu) {
    if (per_gpu <= 0 || room <= 0) return 0;
    // A fit that is exact on paper (1,919.7 W = 4 × 479.925 W) can land a hair below the whole number
    // in floating point; the relative slack keeps it from losing a GPU.
    const double whole = std::floor(room / per_gpu * (1 + 1e-12));
    constexpr int most = std::numeric_limits<int>::max();
    return whole >= most ? most : static_cast<int>(whole);
}

}  // namespace

Circuit default_circuit(double mains_volts) {
    return mains_volts < detail::high_line_volts ? kNorthAmerica : kEurope;
}

double continuous_limit_watts(const Circuit& c) {
    return c.volts * c.breaker_amps * c.continuous_fraction;
}

CircuitCheck check_circuit(const Circuit& c, double peak_wall_watts, double other_wall_watts,
                           double wall_watts_per_gpu) {
    require_watts(peak_wall_watts, "peak wall draw");
    require_watts(wall_watts_per_gpu, "wall draw per GPU");
    if (!std::isfinite(other_wall_watts))
        throw std::invalid_argument("wall draw besides the GPUs must be a number of watts");
    other_wall_watts = std::max(other_wall_watts, 0.0);  // rounding in the caller's subtraction
    const double limit = continuous_limit_watts(c);
    if (!(limit > 0) || !std::isfinite(limit))
        throw std::invalid_argument("circuit volts, breaker amps and continuous fraction must be positive");

    CircuitCheck out;
    out.peak_wall_watts = peak_wall_watts;
    out.limit_watts = limit;
    out.load_fraction = peak_wall_watts / limit;
    out.over = out.load_fraction > 1.0;
    out.gpus_that_fit = whole_gpus(limit - other_wall_watts, wall_watts_per_gpu);

    // Rounded up, so a load a fraction of a watt over never reads "0 W over".
    const std::string over_by =
        out.over ? fmt::format(", {} W over", format_amount(std::ceil(peak_wall_watts - limit))) : "";
    const std::string room =
        wall_watts_per_gpu > 0
            ? fmt::format("; it has room for {} GPU{} at {} W each beside the other {} W", out.gpus_that_fit,
                          out.gpus_that_fit == 1 ? "" : "s", format_amount(wall_watts_per_gpu),
                          format_amount(other_wall_watts))
            : "";
    out.message = fmt::format(
        "{} W at the wall is {} % of a {:g} V {:g} A circuit's {} W continuous limit{}{}.",
        format_amount(peak_wall_watts), format_amount(100.0 * out.load_fraction), c.volts, c.breaker_amps,
        format_amount(limit), over_by, room);
    return out;
}

double btu_per_hour(double watts) {
    return watts * kBtuPerHourPerWatt;
}

}  // namespace payback
