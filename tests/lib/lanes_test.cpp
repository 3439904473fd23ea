#include <catch2/catch.hpp>

#include <cmath>

#include "payback/lanes.hpp"
#include "payback/metrics.hpp"
#include "payback/scenario.hpp"

using namespace payback;

namespace {

// Equal to the last bit, or within 1e-12 relative; NaN (payback not reached) equals NaN.
bool same(double scalar, double lane) {
    if (std::isnan(scalar) || std::isnan(lane)) return std::isnan(scalar) && std::isnan(lane);
    return scalar == lane || std::fabs(scalar - lane) <= 1e-12 * std::fabs(scalar);
}

std::vector<ModelInputs<double>> varied_samples() {
    const Scenario venus = load_scenario(PAYBACK_SOURCE_DIR "/scenarios/venus-2019.toml");
    std::vector<ModelInputs<double>> samples;
    const double workloads[] = {0.0, 20.0, 200.0, 500.0, 730.0, 35.9};
    const double tariffs[] = {0.05, 0.1545, 0.40, 0.9, 0.0, 0.25};
    const double rates[] = {0.0, 0.05, 0.12, -0.02, 0.3, 0.08};
    for (std::size_t i = 0; i < std::size(workloads); ++i) {
        ModelInputs<double> in = model_inputs(venus);
        in.training_hours = workloads[i];
        in.price_per_kwh = tariffs[i];
        in.discount_rate = rates[i];
        in.psu_efficiency = 0.8 + 0.03 * static_cast<double>(i);
        in.idle_when_not_training = i % 2 == 0 ? 1.0 : 0.0;
        in.parts[4].cost *= 1.0 + 0.1 * static_cast<double>(i);                  // the GPU's price
        in.parts[4].resale.annual_rate = 0.1 + 0.05 * static_cast<double>(i);    // its decline
        in.parts[0].resale.salvage_fraction = 0.05 * static_cast<double>(i);     // the CPU's floor
        in.clouds[0].price_per_hour *= 0.5 + 0.2 * static_cast<double>(i);
        samples.push_back(in);
    }
    return samples;
}

}  // namespace

TEST_CASE("the batch engine on Eigen lanes equals the scalar run lane by lane", "[lanes][engine]") {
    const auto samples = varied_samples();
    const Metrics<Lanes> batch = evaluate(stack_lanes(samples));
    int payback_lanes_reached = 0;
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const auto lane = static_cast<Eigen::Index>(i);
        const Metrics<double> scalar = evaluate(samples[i]);
        INFO("lane " << i);
        CHECK(same(scalar.rig.total_cost, batch.rig.total_cost[lane]));
        CHECK(same(scalar.rig.npv_cost, batch.rig.npv_cost[lane]));
        CHECK(same(scalar.rig_energy_kwh, batch.rig_energy_kwh[lane]));
        CHECK(same(scalar.clouds[0].total_cost, batch.clouds[0].total_cost[lane]));
        CHECK(same(scalar.clouds[0].npv_cost, batch.clouds[0].npv_cost[lane]));
        CHECK(same(scalar.versus[0].payback_months, batch.versus[0].payback_months[lane]));
        CHECK(same(scalar.versus[0].payback_months_if_sold, batch.versus[0].payback_months_if_sold[lane]));
        CHECK(same(scalar.versus[0].discounted_payback_months, batch.versus[0].discounted_payback_months[lane]));
        CHECK(same(scalar.versus[0].npv_savings, batch.versus[0].npv_savings[lane]));
        if (!std::isnan(scalar.versus[0].payback_months)) ++payback_lanes_reached;
    }
    // The samples cover both outcomes: payback reached in some lanes, not in others.
    CHECK(payback_lanes_reached > 0);
    CHECK(payback_lanes_reached < static_cast<int>(samples.size()));
}

TEST_CASE("stacking refuses samples of different structure", "[lanes]") {
    auto samples = varied_samples();
    samples[1].horizon_months = 12;
    CHECK_THROWS_AS(stack_lanes(samples), std::invalid_argument);
    CHECK_THROWS_AS(stack_lanes({}), std::invalid_argument);
}
