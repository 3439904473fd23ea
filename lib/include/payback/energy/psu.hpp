// Power-supply efficiency: how many watts a rig draws from the wall for the DC watts its parts use.
// A PSU wastes more at light and at full load than in the middle, so the loss is read off the 80 PLUS
// minimum-efficiency curve of the supply's rating at the actual load fraction, not taken as one number.
// The curves are the certification minimums (pricing-facts.md §4.3): a real unit of that rating does at
// least this well, so electricity costs computed from them err on the high side.
#pragma once

#include <optional>
#include <string_view>

namespace payback {

/// The 80 PLUS levels; `white` is plain "80 PLUS".
enum class PsuRating { white, bronze, silver, gold, platinum, titanium };

/// "white", "bronze", "silver", "gold", "platinum" or "titanium".
const char* to_string(PsuRating rating);

/// The rating named exactly as to_string spells it; none for any other text.
std::optional<PsuRating> psu_rating_from(std::string_view name);

struct PsuSpec {
    PsuRating rating = PsuRating::gold;
    double capacity_watts = 0;  ///< rated DC output
    double mains_volts = 115;   ///< below 180 V the 115 V curves apply, otherwise the 230 V EU ones
};

/// Efficiency (0..1] at a DC load: the 80 PLUS "internal non-redundant" table for 115 V when mains_volts
/// < 180, the 230 V EU internal table otherwise (pricing-facts.md §4.3), linear in the load fraction
/// dc/capacity between the 10/20/50/100 % points and held flat beyond the end points (below the lowest
/// defined point, above 100 %). Only Titanium defines a 10 % point; for the others the curve starts at 20 %.
/// Loads above capacity are not an error here: whether the supply is big enough is the caller's check.
/// Throws std::invalid_argument when capacity_watts is not positive and finite, or dc_watts is negative
/// or not finite.
double psu_efficiency(const PsuSpec& psu, double dc_watts);

/// Wall watts for a DC load: dc / efficiency (0 for 0). Throws as psu_efficiency does.
double wall_watts(const PsuSpec& psu, double dc_watts);

}  // namespace payback
