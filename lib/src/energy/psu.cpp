// 80 PLUS efficiency curves (see psu.hpp): the certification table and a piecewise-linear reading of it.
#include "payback/energy/psu.hpp"

#include <array>
#include <cmath>
#include <cstddef>
#include <stdexcept>

#include "energy/mains.hpp"

namespace payback {

namespace {

/// Minimum efficiency in percent at 10, 20, 50 and 100 % load; 0 where the level defines no point.
using Row = std::array<double, 4>;
constexpr std::array<double, 4> kLoadPoints{0.10, 0.20, 0.50, 1.00};

// 80 PLUS, internal non-redundant, 115 V. Source: pricing-facts.md §4.3, from Tom's Hardware
// (https://www.tomshardware.com/uk/reviews/80-plus-psu-efficiency,4848-2.html), checked against
// https://en.wikipedia.org/wiki/80_Plus. Rows in PsuRating order.
constexpr std::array<Row, 6> kTable115{{
    {0, 80, 80, 80},   // white
    {0, 82, 85, 82},   // bronze
    {0, 85, 88, 85},   // silver
    {0, 87, 90, 87},   // gold
    {0, 90, 92, 89},   // platinum
    {90, 92, 94, 90},  // titanium
}};

// 80 PLUS, 230 V EU internal non-redundant; same sources.
constexpr std::array<Row, 6> kTable230{{
    {0, 82, 85, 82},   // white
    {0, 85, 88, 85},   // bronze
    {0, 87, 90, 87},   // silver
    {0, 90, 92, 89},   // gold
    {0, 92, 94, 90},   // platinum
    {90, 94, 96, 94},  // titanium
}};

void check(const PsuSpec& psu, double dc_watts) {
    if (!(psu.capacity_watts > 0) || !std::isfinite(psu.capacity_watts))
        throw std::invalid_argument("PSU capacity must be a positive number of watts");
    if (!(dc_watts >= 0) || !std::isfinite(dc_watts))
        throw std::invalid_argument("PSU load must be a non-negative number of watts");
}

}  // namespace

const char* to_string(PsuRating rating) {
    switch (rating) {
        case PsuRating::white: return "white";
        case PsuRating::bronze: return "bronze";
        case PsuRating::silver: return "silver";
        case PsuRating::gold: return "gold";
        case PsuRating::platinum: return "platinum";
        case PsuRating::titanium: return "titanium";
    }
    return "white";
}

std::optional<PsuRating> psu_rating_from(std::string_view name) {
    for (PsuRating r : {PsuRating::white, PsuRating::bronze, PsuRating::silver, PsuRating::gold,
                        PsuRating::platinum, PsuRating::titanium}) {
        if (name == to_string(r)) return r;
    }
    return std::nullopt;
}

double psu_efficiency(const PsuSpec& psu, double dc_watts) {
    check(psu, dc_watts);
    const auto& table = psu.mains_volts < detail::high_line_volts ? kTable115 : kTable230;  // 80 PLUS's two tables
    const Row& row = table[static_cast<std::size_t>(psu.rating)];
    // Only Titanium has a 10 % point; the others start at 20 %.
    const std::size_t first = row[0] > 0 ? 0 : 1;
    const double load = dc_watts / psu.capacity_watts;

    if (load <= kLoadPoints[first]) return row[first] / 100.0;
    if (load >= kLoadPoints.back()) return row.back() / 100.0;
    std::size_t i = first;
    while (load > kLoadPoints[i + 1]) ++i;
    const double t = (load - kLoadPoints[i]) / (kLoadPoints[i + 1] - kLoadPoints[i]);
    return (row[i] + t * (row[i + 1] - row[i])) / 100.0;
}

double wall_watts(const PsuSpec& psu, double dc_watts) {
    const double efficiency = psu_efficiency(psu, dc_watts);  // validates first
    return dc_watts == 0 ? 0.0 : dc_watts / efficiency;
}

}  // namespace payback
