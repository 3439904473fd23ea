// Properties the model must keep over thousands of random valid scenarios (a seeded generator, so
// a failure names its case and replays): prices and workload move costs the right way, the table
// adds up to the metrics, the batch path equals the scalar one, money scales, threads do not matter.
// PAYBACK_PROPERTY_CASES overrides the number of cases per property (default 2000).
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "payback/model/comparison.hpp"
#include "payback/model/engine.hpp"
#include "payback/model/metrics.hpp"
#include "payback/model/model_inputs.hpp"
#include "payback/scenario/scenario.hpp"
#include "payback/whatif/sample_model.hpp"

using namespace payback;

namespace {

int cases(int fallback = 2000) {
    const char* text = std::getenv("PAYBACK_PROPERTY_CASES");
    return text && *text ? std::max(1, std::atoi(text)) : fallback;
}

// splitmix64: the same numbers on every platform and standard library.
class Random {
public:
    explicit Random(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) * 0x1.0p-53; }
    int integer(int lo, int hi) { return lo + static_cast<int>(next() % static_cast<std::uint64_t>(hi - lo + 1)); }
    bool coin(double p = 0.5) { return uniform(0, 1) < p; }

private:
    std::uint64_t state_;
};

// Every money figure of a generated scenario is written as base × scale, so the scaling property
// can regenerate the same scenario with all prices scaled.
struct Generated {
    std::string text;
    int clouds = 1;
};

Generated random_scenario(std::uint64_t seed, double money_scale = 1.0) {
    Random r(seed);
    const auto money = [&](double lo, double hi) { return r.uniform(lo, hi) * money_scale; };
    std::string t;
    const bool business = r.coin(0.25);
    t += fmt::format("[scenario]\nhorizon_months = {}\ndiscount_rate = {}\ninflation = {}\nperspective = \"{}\"\n",
                     r.integer(6, 60), r.coin(0.3) ? 0.0 : r.uniform(0, 0.12), r.uniform(0, 0.05),
                     business ? "business" : "hobbyist");
    if (business)
        t += fmt::format("[tax]\nincome_tax_rate = {}\ndepreciation = \"{}\"\n", r.uniform(0, 0.45),
                         r.coin() ? "macrs_5" : "straight_line");
    t += fmt::format("[workload]\ngpu_hours_per_month = {}\n", r.uniform(1, 700));
    t += fmt::format("[rig]\nwhen_not_training = \"{}\"\npsu_efficiency = {}\n", r.coin() ? "idle" : "off",
                     r.uniform(0.7, 0.96));
    const int parts = r.integer(1, 4);
    for (int p = 0; p < parts; ++p) {
        t += fmt::format("[[rig.parts]]\nkind = \"{}\"\nname = \"part {}\"\nprice = {}\ncount = {}\nidle_watts = {}\n"
                         "load_watts = {}\n",
                         p == 0 ? "gpu" : r.coin() ? "gpu" : "cpu", p, money(50, 3000), r.integer(1, 3),
                         r.uniform(0, 40), r.uniform(40, 450));
        if (p > 0 && r.coin(0.2)) t += fmt::format("purchase_month = {}\n", r.integer(1, 6));
        switch (r.integer(0, 3)) {
            case 0: break;
            case 1: t += fmt::format("resale = {{ method = \"declining_balance\", annual_rate = {} }}\n", r.uniform(0.05, 0.6)); break;
            case 2: t += fmt::format("resale = {{ method = \"straight_line\", life_years = {} }}\n", r.uniform(1, 8)); break;
            default: t += fmt::format("resale = {{ method = \"price_performance\", half_life_years = {} }}\n", r.uniform(1, 5)); break;
        }
    }
    t += fmt::format("[electricity]\nprice_per_kwh = {}\nescalation = {}\n", money(0.02, 0.45), r.uniform(-0.03, 0.08));
    if (r.coin(0.4))
        t += fmt::format("[running_costs]\nmaintenance_per_year = {}\nrepair_reserve = {}\n", money(0, 300),
                         r.uniform(0, 0.05));
    if (r.coin(0.25))
        t += fmt::format("[financing]\ndown_payment = {}\napr = {}\nterm_months = {}\n", money(0, 500), r.uniform(0, 0.2),
                         r.integer(6, 48));
    Generated g;
    g.clouds = r.integer(1, 3);
    for (int c = 0; c < g.clouds; ++c) {
        t += fmt::format("[[cloud]]\nname = \"cloud {}\"\nprice_per_hour = {}\nspeedup = {}\nescalation = {}\n"
                         "storage_per_month = {}\n",
                         c, money(0.1, 6), r.uniform(0.3, 4), r.uniform(-0.4, 0.05), money(0, 30));
        if (r.coin(0.3)) t += fmt::format("billing = {{ increment_seconds = 3600, minimum_seconds = {} }}\n", r.integer(0, 1) * 60);
    }
    g.text = std::move(t);
    return g;
}

Scenario parse(const Generated& g, const std::vector<Override>& overrides = {}) {
    return parse_scenario(g.text, "generated.toml", overrides);
}

Metrics<double> metrics_of(const Scenario& s) { return evaluate(model_inputs(s)); }

double never_as_infinity(double months) { return std::isnan(months) ? HUGE_VAL : months; }

std::string override_value(double x) { return fmt::format("{}", x); }

}  // namespace

TEST_CASE("property: a higher electricity price never makes the rig cheaper", "[properties]") {
    for (int i = 0; i < cases(); ++i) {
        const Generated g = random_scenario(1000 + i);
        INFO("case " << i << "\n" << g.text);
        const Scenario s = parse(g);
        const double price = units::in_money_per_kwh(s.electricity_price);
        const double higher = price * Random(i).uniform(1.0, 4.0);
        const auto base = metrics_of(s);
        const auto dearer = metrics_of(parse(g, {{"electricity.price_per_kwh", override_value(higher)}}));
        CHECK(dearer.rig.total_cost >= base.rig.total_cost - 1e-9 * std::abs(base.rig.total_cost));
        CHECK(dearer.rig.npv_cost >= base.rig.npv_cost - 1e-9 * std::abs(base.rig.npv_cost));
    }
}

TEST_CASE("property: a higher cloud price never delays payback", "[properties]") {
    for (int i = 0; i < cases(); ++i) {
        const Generated g = random_scenario(2000 + i);
        INFO("case " << i << "\n" << g.text);
        const Scenario s = parse(g);
        Random r(i);
        const int c = r.integer(0, g.clouds - 1);
        const double price = units::in_money_per_hour(s.clouds[static_cast<std::size_t>(c)].price);
        const auto base = metrics_of(s);
        const auto dearer =
            metrics_of(parse(g, {{fmt::format("cloud[{}].price_per_hour", c), override_value(price * r.uniform(1.0, 3.0))}}));
        const auto& a = base.versus[static_cast<std::size_t>(c)];
        const auto& b = dearer.versus[static_cast<std::size_t>(c)];
        CHECK(never_as_infinity(b.payback_months) <= never_as_infinity(a.payback_months) + 1e-9);
        CHECK(never_as_infinity(b.payback_months_if_sold) <= never_as_infinity(a.payback_months_if_sold) + 1e-9);
        CHECK(never_as_infinity(b.discounted_payback_months) <= never_as_infinity(a.discounted_payback_months) + 1e-9);
        CHECK(b.npv_savings >= a.npv_savings - 1e-9 * std::abs(a.npv_savings));
    }
}

TEST_CASE("property: more workload never lowers cloud spend", "[properties]") {
    for (int i = 0; i < cases(); ++i) {
        const Generated g = random_scenario(3000 + i);
        INFO("case " << i << "\n" << g.text);
        const Scenario s = parse(g);
        const double hours = units::in_hours(s.training_per_month);
        const double more = std::min(730.0, hours * Random(i).uniform(1.0, 3.0));
        const auto base = metrics_of(s);
        const auto busier = metrics_of(parse(g, {{"workload.gpu_hours_per_month", override_value(more)}}));
        for (std::size_t c = 0; c < base.clouds.size(); ++c) {
            INFO("cloud " << c);
            CHECK(busier.clouds[c].total_cost >= base.clouds[c].total_cost - 1e-9 * std::abs(base.clouds[c].total_cost));
            CHECK(busier.clouds[c].npv_cost >= base.clouds[c].npv_cost - 1e-9 * std::abs(base.clouds[c].npv_cost));
        }
    }
}

TEST_CASE("property: line items sum to the net and the table's totals equal the metrics", "[properties]") {
    for (int i = 0; i < cases(); ++i) {
        const Generated g = random_scenario(4000 + i);
        INFO("case " << i << "\n" << g.text);
        const Scenario s = parse(g);
        const auto tables = cash_flows(s);
        const auto m = metrics_of(s);
        REQUIRE(tables.size() == 1 + m.clouds.size());
        for (std::size_t t = 0; t < tables.size(); ++t) {
            const CashFlows& table = tables[t];
            INFO("option " << table.option);
            double net = 0, discounted = 0, scale = 1;
            for (std::size_t row = 0; row < table.months(); ++row) {
                double items = 0;
                for (const std::string& item : CashFlows::line_item_names()) {
                    items += table.value(item, row);
                    scale = std::max(scale, std::abs(table.value(item, row)));
                }
                CHECK(items == Approx(table.net[row]).margin(1e-9 * scale));
                net += table.net[row];
                discounted += table.discounted[row];
                CHECK(table.cumulative[row] == Approx(net).margin(1e-9 * scale * static_cast<double>(row + 1)));
                CHECK(table.cumulative_discounted[row] ==
                      Approx(discounted).margin(1e-9 * scale * static_cast<double>(row + 1)));
            }
            const OptionTotals<double>& totals = t == 0 ? m.rig : m.clouds[t - 1];
            const double margin = 1e-9 * scale * static_cast<double>(table.months());
            CHECK(-net == Approx(totals.total_cost).margin(margin));
            CHECK(-discounted == Approx(totals.npv_cost).margin(margin));
        }
    }
}

TEST_CASE("property: scaling every price by one factor scales every cost and keeps payback", "[properties]") {
    for (int i = 0; i < cases(); ++i) {
        const double k = Random(i).uniform(0.25, 4.0);
        const Generated g = random_scenario(5000 + i), scaled = random_scenario(5000 + i, k);
        INFO("case " << i << ", factor " << k << "\n" << g.text);
        const auto a = metrics_of(parse(g));
        const auto b = metrics_of(parse(scaled));
        const auto same_scaled = [&](double x, double y) { CHECK(y == Approx(k * x).epsilon(1e-9).margin(1e-9)); };
        same_scaled(a.rig.total_cost, b.rig.total_cost);
        same_scaled(a.rig.npv_cost, b.rig.npv_cost);
        for (std::size_t c = 0; c < a.clouds.size(); ++c) {
            INFO("cloud " << c);
            same_scaled(a.clouds[c].total_cost, b.clouds[c].total_cost);
            same_scaled(a.clouds[c].npv_cost, b.clouds[c].npv_cost);
            same_scaled(a.versus[c].npv_savings, b.versus[c].npv_savings);
            CHECK(std::isnan(a.versus[c].payback_months) == std::isnan(b.versus[c].payback_months));
            if (!std::isnan(a.versus[c].payback_months))
                CHECK(b.versus[c].payback_months == Approx(a.versus[c].payback_months).margin(1e-6));
            if (!std::isnan(a.versus[c].discounted_payback_months) && !std::isnan(b.versus[c].discounted_payback_months))
                CHECK(b.versus[c].discounted_payback_months == Approx(a.versus[c].discounted_payback_months).margin(1e-6));
        }
    }
}

namespace {

// Rows of the sample model's three keys around the scenario's values: electricity price, the first
// cloud's price, the workload.
std::vector<double> random_rows(Random& r, const std::vector<double>& current, int count) {
    std::vector<double> rows;
    for (int i = 0; i < count; ++i)
        for (std::size_t k = 0; k < current.size(); ++k) {
            const double x = current[k] * r.uniform(0.5, 1.5);
            rows.push_back(k == 2 ? std::min(x, 730.0) : x);
        }
    return rows;
}

const std::vector<std::string> sample_keys = {"electricity.price_per_kwh", "cloud[0].price_per_hour",
                                              "workload.gpu_hours_per_month"};

SampleModel sample_model(const Scenario& s) {
    std::vector<double> probes;
    probes.push_back(units::in_money_per_kwh(s.electricity_price) * 1.25);
    probes.push_back(units::in_money_per_hour(s.clouds[0].price) * 1.25);
    probes.push_back(std::min(730.0, units::in_hours(s.training_per_month) * 1.25));
    if (probes[2] == units::in_hours(s.training_per_month)) probes[2] *= 0.8;
    return SampleModel(s, sample_keys, probes);
}

EvaluationOptions evaluation(int threads, int chunk, bool superpose = true) {
    EvaluationOptions options;
    options.threads = threads;
    options.chunk = chunk;
    options.superpose = superpose;
    return options;
}

void check_same(const std::vector<double>& a, const std::vector<double>& b, const char* what) {
    INFO(what);
    REQUIRE(a.size() == b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
        INFO("sample " << i);
        if (std::isnan(a[i]) || std::isnan(b[i]))
            CHECK(std::isnan(a[i]) == std::isnan(b[i]));
        else
            CHECK(b[i] == Approx(a[i]).epsilon(1e-9).margin(1e-7));
    }
}

}  // namespace

TEST_CASE("property: the batch path equals the scalar path", "[properties]") {
    const int n = cases(2000);
    int fast = 0, superposed = 0;
    for (int i = 0; i < n; ++i) {
        const Generated g = random_scenario(6000 + i);
        INFO("case " << i << "\n" << g.text);
        const Scenario s = parse(g);
        SampleModel model = sample_model(s);
        Random r(i);
        // Checked at the first two rows; the other two are rows the check never saw.
        const auto rows = random_rows(r, model.current(), 4);
        if (model.verify(std::vector<double>(rows.begin(), rows.begin() + 6))) ++fast;
        if (model.path_note().find("superposed from") != std::string::npos) ++superposed;
        for (const bool superpose : {true, false}) {
            const SampleMetrics batch = model.evaluate(rows, evaluation(1, 512, superpose));
            for (std::size_t row = 0; row < 4; ++row) {
                INFO("row " << row << " (" << model.path_note() << (superpose ? "" : ", superposition off") << ")");
                const std::vector<double> values(rows.begin() + static_cast<std::ptrdiff_t>(3 * row),
                                                 rows.begin() + static_cast<std::ptrdiff_t>(3 * row + 3));
                const SampleMetrics one = model.evaluate_exactly(values);
                check_same(one.rig_total_cost, {batch.rig_total_cost[row]}, "rig_total_cost");
                check_same(one.rig_npv_cost, {batch.rig_npv_cost[row]}, "rig_npv_cost");
                for (std::size_t c = 0; c < one.cloud_total_cost.size(); ++c) {
                    INFO("cloud " << c);
                    check_same(one.cloud_total_cost[c], {batch.cloud_total_cost[c][row]}, "cloud_total_cost");
                    check_same(one.npv_savings[c], {batch.npv_savings[c][row]}, "npv_savings");
                    check_same(one.payback_months[c], {batch.payback_months[c][row]}, "payback_months");
                    check_same(one.discounted_payback_months[c], {batch.discounted_payback_months[c][row]},
                               "discounted_payback_months");
                }
            }
        }
    }
    // Hourly billing rounds, so some cases fall back to the exact path; most must test the batch,
    // and most of those superposition (the rest: the lanes of the whole model, tested here too).
    INFO(fast << " of " << n << " cases on the fast path, " << superposed << " superposed");
    CHECK(fast * 2 > n);
    CHECK(superposed * 2 > fast);
}

TEST_CASE("property: results do not depend on the thread count", "[properties]") {
    const int n = cases(2000);
    for (int i = 0; i < n; ++i) {
        const Generated g = random_scenario(7000 + i);
        INFO("case " << i << "\n" << g.text);
        SampleModel model = sample_model(parse(g));
        Random r(i);
        const auto rows = random_rows(r, model.current(), 40);
        // Small chunks, so that several threads share the rows.
        const SampleMetrics one = model.evaluate(rows, evaluation(1, 4));
        const SampleMetrics three = model.evaluate(rows, evaluation(3, 4));
        CHECK(one.rig_total_cost == three.rig_total_cost);
        CHECK(one.rig_npv_cost == three.rig_npv_cost);
        CHECK(one.cloud_total_cost == three.cloud_total_cost);
        CHECK(one.npv_savings == three.npv_savings);
        // NaN (payback never reached) is not equal to itself: compare the bits.
        const auto bits = [](const std::vector<std::vector<double>>& v) {
            std::vector<std::uint64_t> out;
            for (const auto& row : v)
                for (double x : row) out.push_back(std::bit_cast<std::uint64_t>(x));
            return out;
        };
        CHECK(bits(one.payback_months) == bits(three.payback_months));
        CHECK(bits(one.discounted_payback_months) == bits(three.discounted_payback_months));
    }
}
