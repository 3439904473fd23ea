#include <catch2/catch.hpp>

#include <cmath>

#include <fmt/format.h>

#include "payback/model/metrics.hpp"
#include "payback/model/model_inputs.hpp"
#include "payback/scenario/scenario.hpp"
#include "payback/whatif/lanes.hpp"
#include "support/scenario_text.hpp"
#include "support/stack_lanes.hpp"

using namespace payback;
using payback::test::stack_lanes;

namespace {

// Equal to the last bit, or within 1e-12 relative; NaN (payback not reached) equals NaN.
bool same(double scalar, double lane) {
    if (std::isnan(scalar) || std::isnan(lane)) return std::isnan(scalar) && std::isnan(lane);
    return scalar == lane || std::fabs(scalar - lane) <= 1e-12 * std::fabs(scalar);
}

// Venus with its workload, tariff, rate, PSU, idle mode, GPU price and resale, CPU floor and cloud
// price varied sample by sample, as a Monte Carlo would: through the scenario, then model_inputs.
std::vector<ModelInputs<double>> varied_samples() {
    std::vector<ModelInputs<double>> samples;
    const double workloads[] = {0.0, 20.0, 200.0, 500.0, 730.0, 35.9};
    const double tariffs[] = {0.05, 0.1545, 0.40, 0.9, 0.0, 0.25};
    const double rates[] = {0.0, 0.05, 0.12, -0.02, 0.3, 0.08};
    for (std::size_t i = 0; i < std::size(workloads); ++i) {
        const double k = static_cast<double>(i);
        const std::vector<Override> overrides = {
            {"workload.gpu_hours_per_month", fmt::format("{}", workloads[i])},
            {"electricity.price_per_kwh", fmt::format("{}", tariffs[i])},
            {"scenario.discount_rate", fmt::format("{}", rates[i])},
            {"rig.psu.capacity_watts", fmt::format("{}", 1000.0 + 200.0 * k)},
            {"rig.when_not_training", i % 2 == 0 ? "idle" : "off"},
            {"rig.parts[4].price", fmt::format("{}", 1190.0 * (1.0 + 0.1 * k))},
            {"rig.parts[4].resale.annual_rate", fmt::format("{}", 0.1 + 0.05 * k)},
            {"rig.parts[0].resale.salvage_fraction", fmt::format("{}", 0.05 * k)},
            {"cloud[0].price_per_hour", fmt::format("{}", 3.06 * (0.5 + 0.2 * k))}};
        samples.push_back(model_inputs(load_scenario(PAYBACK_SOURCE_DIR "/scenarios/venus-2019.toml", overrides)));
    }
    return samples;
}

// The hand scenario with every line item on, its numbers varied lane by lane.
std::vector<ModelInputs<double>> varied_finance_samples() {
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml", test::everything_on());
    std::vector<ModelInputs<double>> samples;
    for (int i = 0; i < 6; ++i) {
        const double k = i;
        ModelInputs<double> in = model_inputs(s);
        in.training_hours = 40.0 + 30.0 * k;
        in.inflation = -0.01 + 0.02 * k;
        in.electricity_escalation = 0.1 - 0.05 * k;
        in.maintenance_per_year = 10.0 * k;
        in.repair_reserve_rate = 0.01 * k;
        in.loan.down_payment = 100.0 * k;
        in.loan.annual_rate = i == 2 ? 0.0 : 0.03 * k;  // one lane without interest
        in.tax.rate = 0.05 * k;
        in.tax.deduct_running_costs = i % 2;
        in.parts[1].resale.half_life_years = 1.0 + k;
        in.clouds[0].price_escalation = -0.3 + 0.1 * k;
        in.clouds[0].storage_per_month = 5.0 * k;
        in.clouds[0].spend_per_month = 20.0 + 40.0 * k;
        samples.push_back(in);
    }
    return samples;
}

}  // namespace

TEST_CASE("lanes equal scalar runs with loans, taxes, escalation and parts bought and sold mid-way",
          "[lanes][engine]") {
    const auto samples = varied_finance_samples();
    const Metrics<Lanes> batch = evaluate(stack_lanes(samples));
    for (std::size_t i = 0; i < samples.size(); ++i) {
        const auto lane = static_cast<Eigen::Index>(i);
        const Metrics<double> scalar = evaluate(samples[i]);
        INFO("lane " << i);
        CHECK(same(scalar.rig.total_cost, batch.rig.total_cost[lane]));
        CHECK(same(scalar.rig.npv_cost, batch.rig.npv_cost[lane]));
        CHECK(same(scalar.rig.levelized_cost_per_gpu_hour, batch.rig.levelized_cost_per_gpu_hour[lane]));
        CHECK(same(scalar.clouds[0].npv_cost, batch.clouds[0].npv_cost[lane]));
        CHECK(same(scalar.versus[0].payback_months, batch.versus[0].payback_months[lane]));
        CHECK(same(scalar.versus[0].payback_months_if_sold, batch.versus[0].payback_months_if_sold[lane]));
        CHECK(same(scalar.versus[0].discounted_payback_months, batch.versus[0].discounted_payback_months[lane]));
        CHECK(same(scalar.versus[0].npv_savings, batch.versus[0].npv_savings[lane]));
        CHECK(same(scalar.versus[0].roi, batch.versus[0].roi[lane]));
    }
}

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
    auto late = varied_finance_samples();
    late[3].parts[1].purchase_month = 4;  // months are structure, shared by every lane
    CHECK_THROWS_AS(stack_lanes(late), std::invalid_argument);
    CHECK_THROWS_AS(stack_lanes({}), std::invalid_argument);
}

TEST_CASE("lanes' powers equal std::pow: whole, fractional, shared and odd bases", "[lanes]") {
    using ops = numeric_ops<LaneBlock>;
    LaneBlock base;
    for (Eigen::Index i = 0; i < base.size(); ++i) base[i] = 0.55 + 0.03 * static_cast<double>(i);  // 0.55 ... 1.0
    for (const double exponent : {0.0, 1.0, 2.0, 5.0, 7.0, 20.0, 64.0, -3.0, 2.5, 1.0 / 12.0, -0.75, 65.0}) {
        INFO("exponent " << exponent);
        const LaneBlock got = ops::pow(base, exponent);
        for (Eigen::Index i = 0; i < base.size(); ++i) CHECK(got[i] == Approx(std::pow(base[i], exponent)).epsilon(1e-14));
    }
    // One base in every lane: one scalar pow. Negative and zero bases, whole exponents.
    CHECK(ops::pow(LaneBlock::Constant(1.07), -5.0 / 12.0)[3] == std::pow(1.07, -5.0 / 12.0));
    LaneBlock odd = base;
    odd[0] = -2.0;
    odd[1] = 0.0;
    const LaneBlock cubed = ops::pow(odd, 3.0), inverse = ops::pow(odd, -1.0);
    CHECK(cubed[0] == -8.0);
    CHECK(cubed[1] == 0.0);
    CHECK(inverse[0] == -0.5);
    CHECK(std::isinf(inverse[1]));
}
