#include <catch2/catch.hpp>

#include <cmath>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "payback/model/metrics.hpp"
#include "payback/whatif/sample_model.hpp"
#include "payback/whatif/sampling.hpp"
#include "support/input_errors.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {

EvaluationOptions on(int threads, int chunk) {
    EvaluationOptions options;
    options.threads = threads;
    options.chunk = chunk;
    return options;
}

const std::vector<std::string> keys = {"workload.gpu_hours_per_month", "electricity.price_per_kwh",
                                       "cloud[0].price_per_hour", "running_costs.maintenance_per_year"};

// Rows spread over a box of admitted values (row-major, keys wide).
std::vector<double> rows_in_box(int samples, std::uint64_t seed) {
    const SampleMatrix u = uniform_samples(samples, 4, SamplingMethod::monte_carlo, seed);
    std::vector<double> rows;
    for (int s = 0; s < samples; ++s) {
        rows.push_back(10.0 + 700.0 * u.at(s, 0));   // hours
        rows.push_back(0.05 + 0.5 * u.at(s, 1));     // $/kWh
        rows.push_back(0.5 + 4.0 * u.at(s, 2));      // $/h
        rows.push_back(300.0 * u.at(s, 3));          // $/yr
    }
    return rows;
}

// The rows by superposition, and by lanes of the whole model.
std::pair<SampleMetrics, SampleMetrics> superposed_and_lanes(const SampleModel& model, const std::vector<double>& rows,
                                                             int chunk) {
    EvaluationOptions whole_model = on(2, chunk);
    whole_model.superpose = false;
    return {model.evaluate(rows, on(2, chunk)), model.evaluate(rows, whole_model)};
}

void require_equal(const SampleMetrics& a, std::size_t i, const SampleMetrics& b, std::size_t j) {
    const auto same = [](double x, double y) {
        return (std::isnan(x) && std::isnan(y)) || std::abs(x - y) <= 1e-9 * std::max(1.0, std::abs(y));
    };
    CHECK(same(a.rig_total_cost[i], b.rig_total_cost[j]));
    CHECK(same(a.rig_npv_cost[i], b.rig_npv_cost[j]));
    CHECK(same(a.npv_savings[0][i], b.npv_savings[0][j]));
    CHECK(same(a.cloud_total_cost[0][i], b.cloud_total_cost[0][j]));
    CHECK(same(a.payback_months[0][i], b.payback_months[0][j]));
    CHECK(same(a.discounted_payback_months[0][i], b.discounted_payback_months[0][j]));
}

}  // namespace

TEST_CASE("every sample of the batch equals the scalar run of its inputs", "[sample_model][property]") {
    // Everything on: discounting, inflation, loan, tax, resale: the batch must still be exact.
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml", test::everything_on());
    SampleModel model(s, keys, {200.0, 0.3, 3.0, 100.0});
    const std::vector<double> rows = rows_in_box(64, 11);
    REQUIRE(model.verify(std::vector<double>(rows.begin(), rows.begin() + 4 * 6)));
    CHECK(model.fast());
    const SampleMetrics batch = model.evaluate(rows, on(2, 16));
    for (std::size_t i = 0; i < 64; ++i) {
        const std::vector<double> row(rows.begin() + 4 * i, rows.begin() + 4 * i + 4);
        require_equal(batch, i, model.evaluate_exactly(row), 0);
    }
}

TEST_CASE("superposition, lanes of the whole model and the scalar run agree, sales and rounding bills included",
          "[sample_model][property]") {
    // Everything on, plus two resale curves and a cloud bill that rounds each 7-hour job up to the
    // hour: the parts' sales and the bill are not multilinear in the keys, so they are computed per
    // sample and superposed; the rest comes from the engine's outputs at the probes.
    std::vector<Override> set = test::everything_on();
    set.push_back({"workload.job_hours", "7"});
    set.push_back({"cloud[0].billing", "{ increment_seconds = 3600 }"});
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml", set);
    const std::vector<std::string> keys6 = {keys[0], keys[1], keys[2], keys[3], "rig.parts[0].resale.annual_rate",
                                            "rig.parts[1].resale.half_life_years"};
    SampleModel model(s, keys6, {200.0, 0.3, 3.0, 100.0, 0.4, 1.5});
    const std::vector<double> box = rows_in_box(200, 5);
    const SampleMatrix u = uniform_samples(200, 2, SamplingMethod::monte_carlo, 6);
    std::vector<double> rows;
    for (int i = 0; i < 200; ++i) {
        rows.insert(rows.end(), box.begin() + 4 * i, box.begin() + 4 * i + 4);
        rows.push_back(0.1 + 0.5 * u.at(i, 0));  // annual rate
        rows.push_back(0.5 + 4.0 * u.at(i, 1));  // half-life, years
    }
    REQUIRE(model.verify(std::vector<double>(rows.begin(), rows.begin() + 6 * 6)));
    CHECK(model.path_note() == "fast: superposed from the exact model's outputs at probe points");
    const auto [superposed, lanes] = superposed_and_lanes(model, rows, 64);
    int paid_back = 0;
    for (std::size_t i = 0; i < 200; ++i) {
        const std::vector<double> row(rows.begin() + 6 * i, rows.begin() + 6 * i + 6);
        const SampleMetrics exact = model.evaluate_exactly(row);
        require_equal(superposed, i, exact, 0);
        require_equal(lanes, i, exact, 0);
        paid_back += !std::isnan(exact.payback_months[0][0]);
    }
    // Both outcomes occur, so the crossing search is exercised both ways.
    CHECK(paid_back > 20);
    CHECK(paid_back < 180);
}

TEST_CASE("the superposed payback searches find every crossing, whatever the gap's shape", "[sample_model][property]") {
    // Five years, discounted, electricity dearer and the cloud cheaper every year: the nominal gap
    // is curved, the discounted one more so, and some samples' gaps fall then rise. Over a box of
    // 4000 samples the crossings land in most months, in the first, and never; each must be what
    // the lanes of the whole model find (tested against the scalar run above), sample by sample.
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml",
                                      {{"scenario.horizon_months", "60"},
                                       {"scenario.discount_rate", "0.07"},
                                       {"electricity.escalation", "0.04"},
                                       {"cloud[0].escalation", "-0.1"}});
    SampleModel model(s, keys, {200.0, 0.3, 3.0, 100.0});
    std::vector<double> rows = rows_in_box(4000, 17);
    for (std::size_t i = 2; i < rows.size(); i += 4) rows[i] *= 2.0;  // cloud prices to $9/h: some pay back at once
    REQUIRE(model.verify(std::vector<double>(rows.begin(), rows.begin() + 4 * 6)));
    REQUIRE(model.path_note() == "fast: superposed from the exact model's outputs at probe points");
    const auto [superposed, lanes] = superposed_and_lanes(model, rows, 256);
    std::set<int> months, discounted_months;
    int never = 0, first_month = 0;
    for (std::size_t i = 0; i < rows.size() / 4; ++i) {
        INFO("sample " << i << ": " << rows[4 * i] << " h, $" << rows[4 * i + 1] << "/kWh, $" << rows[4 * i + 2] << "/h");
        require_equal(superposed, i, lanes, i);
        const double payback = lanes.payback_months[0][i], discounted = lanes.discounted_payback_months[0][i];
        if (std::isnan(payback)) ++never;
        else months.insert(static_cast<int>(payback));
        if (!std::isnan(discounted)) discounted_months.insert(static_cast<int>(discounted));
        first_month += payback < 1.0;
        if (i % 200 == 0) {
            const std::vector<double> row(rows.begin() + 4 * static_cast<std::ptrdiff_t>(i),
                                          rows.begin() + 4 * static_cast<std::ptrdiff_t>(i) + 4);
            require_equal(superposed, i, model.evaluate_exactly(row), 0);
        }
    }
    INFO(months.size() << " months, " << discounted_months.size() << " discounted, " << never << " never, "
                       << first_month << " in the first month");
    CHECK(months.size() >= 40);
    CHECK(discounted_months.size() >= 40);
    CHECK(never > 100);
    CHECK(first_month > 0);
}

TEST_CASE("a selection of metrics computes those alone, as the whole evaluation does", "[sample_model]") {
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml", test::everything_on());
    SampleModel model(s, keys, {200.0, 0.3, 3.0, 100.0});
    const std::vector<double> rows = rows_in_box(300, 23);
    REQUIRE(model.verify(std::vector<double>(rows.begin(), rows.begin() + 4 * 6)));
    const SampleMetrics all = model.evaluate(rows, on(2, 64));
    EvaluationOptions two = on(2, 64);
    two.metrics = MetricSelection::only({"payback_months", "npv_savings"});
    const SampleMetrics some = model.evaluate(rows, two);
    CHECK(some.rig_total_cost.empty());
    CHECK(some.rig_npv_cost.empty());
    CHECK(some.cloud_total_cost.empty());
    CHECK(some.discounted_payback_months.empty());
    REQUIRE(some.npv_savings.size() == 1);
    CHECK(some.npv_savings == all.npv_savings);
    REQUIRE(some.payback_months.size() == 1);
    for (std::size_t i = 0; i < rows.size() / 4; ++i) {
        const double a = all.payback_months[0][i], b = some.payback_months[0][i];
        CHECK(((std::isnan(a) && std::isnan(b)) || a == b));
    }
    const MetricSelection totals = MetricSelection::only({"total_cost"});
    CHECK((totals.rig_total_cost && totals.cloud_total_cost && !totals.rig_npv_cost && !totals.npv_savings));
    CHECK_THROWS_WITH(MetricSelection::only({"npv"}),
                      "unknown metric \"npv\": expected total_cost, rig_npv_cost, npv_savings, payback_months or "
                      "discounted_payback_months");
}

TEST_CASE("a key that moves a compounding rate runs lanes of the whole model instead", "[sample_model]") {
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml", test::everything_on());
    SampleModel model(s, {"scenario.discount_rate", "electricity.price_per_kwh"}, {0.1, 0.3});
    const std::vector<double> rows = {0.0, 0.1, 0.05, 0.25, 0.12, 0.4};
    CHECK(model.verify(rows));
    CHECK(model.path_note() ==
          "fast: lanes of samples, from the exact model's response to each key (not superposed: a key moves the "
          "discount rate)");
    const SampleMetrics batch = model.evaluate(rows);
    for (std::size_t i = 0; i < 3; ++i) require_equal(batch, i, model.evaluate_exactly({rows[2 * i], rows[2 * i + 1]}), 0);
}

TEST_CASE("results do not depend on the thread count or the chunk size", "[sample_model][property]") {
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml");
    SampleModel model(s, keys, {200.0, 0.3, 3.0, 100.0});
    const std::vector<double> rows = rows_in_box(5000, 3);
    const SampleMetrics one = model.evaluate(rows, on(1, 4096));
    const SampleMetrics two = model.evaluate(rows, on(2, 37));
    CHECK(one.npv_savings == two.npv_savings);
    CHECK(one.payback_months.size() == two.payback_months.size());
    for (std::size_t i = 0; i < rows.size() / 4; i += 97) require_equal(one, i, two, i);
}

TEST_CASE("a key the model does not respond to multilinearly falls back to exact runs", "[sample_model]") {
    // A power limit stretches training by 1 / (1 - 0.75 (1 - cap/board)^2): not multilinear in the cap.
    const std::string text = test::replaced(test::hand_scenario(), "load_watts = 300",
                                            "load_watts = 300\npower_limit_watts = 250");
    const Scenario s = parse_scenario(text, "hand.toml");
    SampleModel model(s, {"rig.parts[0].power_limit_watts"}, {200.0});
    const std::vector<double> rows = {150.0, 180.0, 290.0};
    CHECK_FALSE(model.verify(rows));
    CHECK_THAT(model.path_note(), Catch::StartsWith("exact"));
    const SampleMetrics batch = model.evaluate(rows);
    for (std::size_t i = 0; i < rows.size(); ++i) require_equal(batch, i, model.evaluate_exactly({rows[i]}), 0);
}

TEST_CASE("sample values a key does not admit are refused with the key", "[sample_model][errors]") {
    const Scenario s = parse_scenario(test::hand_scenario(), "hand.toml");
    const SampleModel model(s, {"workload.gpu_hours_per_month"}, {200.0});
    const InputError e = test::input_error([&] { model.check_admitted({100.0, 800.0, 50.0}); });
    CHECK(e.key_path() == "workload.gpu_hours_per_month");
    CHECK_THAT(e.message(), Catch::StartsWith("a sample takes it to 800"));
    CHECK(test::input_error([&] { SampleModel(s, {"workload.gpu_hours"}, {1.0}); }).key_path() ==
          "workload.gpu_hours");
}
