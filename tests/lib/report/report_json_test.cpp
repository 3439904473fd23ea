// compare --json's options, jobs and pairs (payback/report/report_json.hpp) hold the metric table's
// rows, every one and no other metric, with the results' own figures.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "payback/model/metric_table.hpp"
#include "payback/report/report_json.hpp"
#include "support/input_errors.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {

std::set<std::string> names_of(MetricScope scope) {
    std::set<std::string> out;
    for (const Metric* m : metrics_of(scope)) out.insert(std::string(m->name));
    return out;
}

// The object's keys less those that are not the table's: names, cash flows, billing, hardware.
std::set<std::string> metric_keys(const nlohmann::json& object) {
    static const std::set<std::string> others = {"name", "kind", "rig", "cloud", "monthly_net", "job", "billing",
                                                 "peak_wall_watts", "circuit_load_fraction", "energy_kwh_per_month"};
    std::set<std::string> out;
    for (const auto& [key, value] : object.items())
        if (!others.contains(key)) out.insert(key);
    return out;
}

}  // namespace

TEST_CASE("compare --json has each scope's metrics of the table, and no other", "[metric_table][json]") {
    // The hand scenario with a job (tests/lib/scenario/parse_workload_test.cpp).
    const std::string text = test::replaced(test::hand_scenario(), "gpu_hours_per_month = 100",
                                            "job = { model = \"cifar10-tutorial\", samples_per_epoch = 50000, "
                                            "epochs = 2, runs_per_month = 36, samples_per_second = 100 }");
    const Scenario s = parse_scenario(text, "job.toml");
    const Comparison c = compare(s);
    const nlohmann::json j = comparison_json(s, c);
    REQUIRE(j.at("options").size() == c.options.size());
    for (std::size_t i = 0; i < c.options.size(); ++i) {
        const nlohmann::json& option = j.at("options")[i];
        INFO(c.options[i].name);
        CHECK(metric_keys(option) == names_of(MetricScope::option));
        CHECK(metric_keys(option.at("job")) == names_of(MetricScope::job));
        CHECK(option.at("total_cost").get<double>() == c.options[i].total_cost);
        CHECK(option.at("job").at("cost_per_run").get<double>() == c.options[i].job->cost_per_run);
    }
    // The typed-in cloud has no draw: its kWh per run is null, not a number.
    CHECK(j.at("options")[1].at("job").at("kwh_per_run").is_null());
    CHECK(j.at("options")[0].at("energy_kwh_by_period").is_object());
    REQUIRE(j.at("versus").size() == 1);
    const nlohmann::json& pair = j.at("versus")[0];
    CHECK(metric_keys(pair) == names_of(MetricScope::pair));
    CHECK(pair.at("npv_savings").get<double>() == c.versus[0].npv_savings);
    CHECK(pair.at("optimal_sale_month").is_number_integer());
    CHECK(pair.at("irr_roots").is_array());
    CHECK(pair.at("irr_status").get<std::string>() == c.versus[0].irr_status);
}

TEST_CASE("without a job there is no job object, and an absent metric is null", "[metric_table][json]") {
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml", {{"cloud[0].price_per_hour", "0.01"}});
    const nlohmann::json j = comparison_json(s, compare(s));
    for (const auto& option : j.at("options")) CHECK_FALSE(option.contains("job"));
    CHECK(j.at("versus")[0].at("payback_months").is_null());
    CHECK(j.at("versus")[0].at("roi").is_number());
}
