#include "payback/engine.hpp"

namespace payback {

ModelInputs<double> model_inputs(const Scenario& s) {
    ModelInputs<double> in;
    in.horizon_months = s.horizon_months;
    in.discount_rate = s.discount_rate;
    in.training_hours = units::in_hours(s.training_per_month);
    in.idle_when_not_training = s.rig.when_not_training == WhenNotTraining::idle ? 1.0 : 0.0;
    in.load_watts = 0.0;
    in.idle_watts = 0.0;
    for (const Part& part : s.rig.parts) {
        in.load_watts += units::in_watts(part.load_power) * part.count;
        in.idle_watts += units::in_watts(part.idle_power) * part.count;
        in.parts.push_back({units::in_money(part.price) * part.count, part.resale});
    }
    in.psu_efficiency = s.rig.psu_efficiency;
    in.price_per_kwh = units::in_money_per_kwh(s.electricity_price);
    for (const CloudOption& cloud : s.clouds)
        in.clouds.push_back({units::in_money_per_hour(cloud.price), cloud.speedup});
    return in;
}

}  // namespace payback
