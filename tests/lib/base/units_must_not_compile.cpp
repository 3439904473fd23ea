// Compiled by CTest with one CASE_* defined; each case must be rejected by the compiler.
// With no case (CASE_CONTROL) the file must compile: that proves the failures come from units.
#include "payback/base/units.hpp"

using namespace payback::units;

int main() {
    const MoneyPerTime cloud_rate = money_per_hour(2.14);
    const MoneyPerEnergy tariff = money_per_kwh(0.12);
    const Power draw = watts(450);
    const Energy used = kwh(1.5);
    // The valid forms: rate × time and tariff × energy are both money.
    const Money bill = cloud_rate * hours(10) + tariff * (draw * hours(10)) + tariff * used;
    (void)bill;
#if defined(CASE_RATE_PLUS_TARIFF)
    auto wrong = cloud_rate + tariff;  // $/h + $/kWh
    (void)wrong;
#elif defined(CASE_WATTS_PLUS_KWH)
    auto wrong = draw + used;  // W + kWh
    (void)wrong;
#elif defined(CASE_MONEY_PLUS_ENERGY)
    Money wrong = bill + used;  // $ + kWh
    (void)wrong;
#endif
    return 0;
}
