// Dimensioned quantities for payback's public API (Boost.Units).
//
// The system is SI's metre, kilogram and second plus a currency base dimension of our own,
// so money, money per kWh and money per hour are distinct types: adding $/h to $/kWh, or
// W to kWh, does not compile. Model code converts to plain doubles once, at the boundary
// (see engine.hpp), with the `in_*` helpers below, which name the canonical unit.
#pragma once

#include <boost/units/base_dimension.hpp>
#include <boost/units/base_unit.hpp>
#include <boost/units/make_system.hpp>
#include <boost/units/quantity.hpp>
#include <boost/units/systems/si/base.hpp>
#include <boost/units/physical_dimensions/energy.hpp>
#include <boost/units/physical_dimensions/power.hpp>
#include <boost/units/physical_dimensions/time.hpp>
#include <boost/units/unit.hpp>

namespace payback::units {

namespace bu = boost::units;

/// Money is a dimension of its own; the ordinal only has to be unique among base dimensions.
struct currency_base_dimension : bu::base_dimension<currency_base_dimension, 101> {};
using currency_dimension = currency_base_dimension::dimension_type;

/// One unit of the scenario's currency (a scenario has exactly one currency).
struct currency_base_unit : bu::base_unit<currency_base_unit, currency_dimension, 101> {
    static const char* name() { return "currency unit"; }
    static const char* symbol() { return "$"; }
};

using system = bu::make_system<bu::si::meter_base_unit, bu::si::kilogram_base_unit,
                               bu::si::second_base_unit, currency_base_unit>::type;

using money_unit = bu::unit<currency_dimension, system>;
using power_unit = bu::unit<bu::power_dimension, system>;
using energy_unit = bu::unit<bu::energy_dimension, system>;
using time_unit = bu::unit<bu::time_dimension, system>;
using money_per_energy_unit = bu::divide_typeof_helper<money_unit, energy_unit>::type;
using money_per_time_unit = bu::divide_typeof_helper<money_unit, time_unit>::type;

using Money = bu::quantity<money_unit>;
using Power = bu::quantity<power_unit>;             // stored in W
using Energy = bu::quantity<energy_unit>;           // stored in J
using Duration = bu::quantity<time_unit>;           // stored in s
using MoneyPerEnergy = bu::quantity<money_per_energy_unit>;  // stored in $/J
using MoneyPerTime = bu::quantity<money_per_time_unit>;      // stored in $/s

inline constexpr double seconds_per_hour = 3600.0;
inline constexpr double joules_per_kwh = 3.6e6;

// Constructors from the units people write in scenario files.
inline Money money(double amount) { return Money::from_value(amount); }
inline Power watts(double w) { return Power::from_value(w); }
inline Energy kwh(double e) { return Energy::from_value(e * joules_per_kwh); }
inline Duration hours(double h) { return Duration::from_value(h * seconds_per_hour); }
inline MoneyPerEnergy money_per_kwh(double p) { return MoneyPerEnergy::from_value(p / joules_per_kwh); }
inline MoneyPerTime money_per_hour(double p) { return MoneyPerTime::from_value(p / seconds_per_hour); }

// Canonical plain-double views, named for their unit.
inline double in_money(Money m) { return m.value(); }
inline double in_watts(Power p) { return p.value(); }
inline double in_kwh(Energy e) { return e.value() / joules_per_kwh; }
inline double in_hours(Duration t) { return t.value() / seconds_per_hour; }
inline double in_money_per_kwh(MoneyPerEnergy p) { return p.value() * joules_per_kwh; }
inline double in_money_per_hour(MoneyPerTime p) { return p.value() * seconds_per_hour; }

}  // namespace payback::units
