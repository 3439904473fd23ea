// Reading a tariff from OpenEI's Utility Rate Database (URDB, https://openei.org/wiki/Utility_Rate_Database)
// as its API returns one record in JSON, or a hand-written file of the same shape (pricing/tariffs/).
// Only the energy charge is read; demand, fixed and minimum charges are left out (see tariff.hpp).
#pragma once

#include <string>
#include <string_view>

#include "payback/energy/tariff.hpp"

namespace payback {

/// Reads one OpenEI Utility Rate Database record (the JSON of one item, or {"items":[...]} taking the
/// first) into a Tariff:
///   energyweekdayschedule / energyweekendschedule: 12 × 24 period indices, counted from 0 (URDB API
///     version 3 onwards), month 0 = January, hour 0 = midnight to 1 a.m.;
///   energyratestructure: per period, a non-empty array of tiers {"max", "rate", "adj", "unit"}; the
///     tier's price is rate + adj (adj is optional, often a credit); "max" is the tier's upper limit
///     (absent on the last tier); "unit" is "kWh" (or absent) for a monthly limit, or "kWh daily",
///     converted at 730 / 24 days per payback month. Other units (kWh/kW) are rejected.
/// Name from "name" (and "utility" if present: "name (utility)"). Periods are named "period 0", ...
/// Every other field (fixed charges, demand charges, "source", "as_of", "notes") is ignored; the base
/// load stays 0 (the scenario sets it).
/// InputError naming the file and the JSON path of what is missing or malformed
/// ("energyratestructure[1][0].rate", "items[0].energyweekdayschedule[11]"); a JSON syntax error
/// names its line. The result passes validate().
Tariff load_urdb_tariff(const std::string& path);

/// Parses URDB JSON `text` as if read from `source` (used by load_urdb_tariff; handy for tests).
Tariff parse_urdb_tariff(std::string_view text, const std::string& source);

}  // namespace payback
