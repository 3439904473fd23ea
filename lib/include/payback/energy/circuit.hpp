// Home circuits and heat: whether a rig running around the clock stays within what one household circuit
// may carry continuously, how many GPUs fit on it, and how much heat it puts into the room. A training or
// rented-out rig is a continuous load, so the limit is the continuous one (80 % of the breaker), not the
// breaker rating itself (pricing-facts.md §6).
#pragma once

#include <string>

namespace payback {

struct Circuit {
    double volts = 120;
    double breaker_amps = 15;
    double continuous_fraction = 0.8;  ///< share of the breaker a load of 3 h or more may use
};

/// The usual circuit for a mains voltage: 120 V 15 A below 180 V, else 230 V 16 A; the 80 % continuous-load
/// rule (NEC: a load lasting 3 h or more may use at most 80 % of the breaker; pricing-facts.md §6) applied
/// to both. (For 230 V no formal derating rule was found; applying 80 % there too errs on the safe side.)
Circuit default_circuit(double mains_volts);

/// volts × amps × continuous_fraction: 1,440 W for 120 V 15 A.
double continuous_limit_watts(const Circuit& c);

struct CircuitCheck {
    double peak_wall_watts = 0;
    double limit_watts = 0;    ///< continuous limit
    double load_fraction = 0;  ///< peak / limit
    int gpus_that_fit = 0;     ///< how many GPUs of this kind fit: floor((limit - other_wall_watts) /
                               ///< wall_watts_per_gpu), >= 0; 0 when wall_watts_per_gpu is 0
    bool over = false;         ///< load_fraction > 1
    std::string message;       ///< one sentence, always: "1,650 W at the wall is 115 % of a 120 V 15 A
                               ///< circuit's 1,440 W continuous limit, 210 W over; it has room for ..."
};

/// Checks a rig's peak wall draw against the circuit's continuous limit. `other_wall_watts` is what the
/// rest of the rig (and anything else on the circuit) draws besides the GPUs; `wall_watts_per_gpu` what
/// each GPU adds at the wall. A rig without GPUs passes 0 per GPU: then none fit and the message leaves
/// out the GPU clause. A negative `other_wall_watts` counts as 0: callers derive it as the peak minus
/// the GPUs' share, which can round below zero. Throws std::invalid_argument when the circuit's limit is
/// not positive, peak_wall_watts or wall_watts_per_gpu is negative, or any of them is not finite.
CircuitCheck check_circuit(const Circuit& c, double peak_wall_watts, double other_wall_watts,
                           double wall_watts_per_gpu);

/// Heat: every watt drawn from the wall ends up as heat in the room. × 3.412141633 (1 W = 3.412141633
/// BTU/h, International Table BTU).
double btu_per_hour(double watts);

}  // namespace payback
