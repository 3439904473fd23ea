// The metric table (payback/model/metric_table.hpp): its rows are well formed, and reading a metric
// through the table gives the result's own figure, of the type the row declares.
#include <catch2/catch.hpp>

#include <cctype>
#include <set>
#include <string>
#include <variant>

#include "payback/model/comparison.hpp"
#include "payback/model/metric_table.hpp"
#include "support/input_errors.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {

Scenario hand() { return parse_scenario(test::hand_scenario(), "hand.toml"); }

// The hand scenario's owner trains the tutorial network, 36 runs a month at 100 samples/s: 10 h a
// month (tests/lib/scenario/parse_workload_test.cpp works its costs out by hand).
Scenario with_job() {
    return parse_scenario(test::replaced(test::hand_scenario(), "gpu_hours_per_month = 100",
                                         "job = { model = \"cifar10-tutorial\", samples_per_epoch = 50000, "
                                         "epochs = 2, runs_per_month = 36, samples_per_second = 100 }"),
                          "job.toml");
}

double number(const MetricValue& value) {
    REQUIRE(std::holds_alternative<double>(value));
    return std::get<double>(value);
}

double number(std::string_view name, const OptionResult& option) { return number(metric_value(*find_metric(name), option)); }
double number(std::string_view name, const VersusResult& pair) { return number(metric_value(*find_metric(name), pair)); }

// Whether a value is of the type its row declares (an optional number may be absent).
bool has_declared_type(const Metric& m, const MetricValue& v) {
    switch (m.type) {
        case MetricType::number: return std::holds_alternative<double>(v);
        case MetricType::optional_number: return std::holds_alternative<double>(v) || std::holds_alternative<std::monostate>(v);
        case MetricType::integer: return std::holds_alternative<int>(v);
        case MetricType::text: return std::holds_alternative<std::string>(v);
        case MetricType::numbers: return std::holds_alternative<std::vector<double>>(v);
        case MetricType::by_name: return std::holds_alternative<std::vector<std::pair<std::string, double>>>(v);
    }
    return false;
}

}  // namespace

TEST_CASE("metric names are unique snake_case, each row reads its own scope", "[metric_table]") {
    std::set<std::string> names;
    for (const Metric& m : metric_table()) {
        INFO(m.name);
        CHECK(names.insert(std::string(m.name)).second);
        CHECK(!m.name.empty());
        for (char ch : m.name) CHECK((std::islower(static_cast<unsigned char>(ch)) || std::isdigit(static_cast<unsigned char>(ch)) || ch == '_'));
        CHECK(!m.description.empty());
        CHECK(m.description.find('|') == std::string_view::npos);  // a Markdown table's cell in docs/model.md
        CHECK((m.unit.empty() == (m.type == MetricType::text)));
        CHECK((m.of_option != nullptr) == (m.scope == MetricScope::option));
        CHECK((m.of_pair != nullptr) == (m.scope == MetricScope::pair));
        CHECK((m.of_job != nullptr) == (m.scope == MetricScope::job));
        CHECK((m.of_tokens != nullptr) == (m.scope == MetricScope::tokens));
        // Numbers by name fit no CSV cell and no column of a text table.
        if (m.type == MetricType::by_name) CHECK((!m.csv && m.header.empty()));
        CHECK(find_metric(m.name) == &m);
    }
    CHECK(names.size() == metric_table().size());
    CHECK(find_metric("no_such_metric") == nullptr);
}

TEST_CASE("the table's order: the options' metrics, then the pairs', the jobs' and the tokens'", "[metric_table]") {
    int last = 0;
    for (const Metric& m : metric_table()) {
        const int rank = static_cast<int>(m.scope);  // option, pair, job, tokens
        CHECK(rank >= last);
        last = rank;
    }
    CHECK(metrics_of(MetricScope::option).front()->name == "total_cost");
    CHECK(metrics_of(MetricScope::pair).front()->name == "payback_months");
    CHECK(metrics_of(MetricScope::job).back()->name == "kwh_per_run");
    CHECK(metrics_of(MetricScope::tokens).front()->name == "tokens_per_second");
    CHECK(metrics_of(MetricScope::option).size() + metrics_of(MetricScope::pair).size() +
              metrics_of(MetricScope::job).size() + metrics_of(MetricScope::tokens).size() ==
          metric_table().size());
}

TEST_CASE("read through the table, the hand scenario's metrics are its figures worked by hand", "[metric_table]") {
    // Rig: 1,500 capex + 24 months × 17.875 of energy = 1,929; cloud: 24 × 50 instance-hours × $2 =
    // 2,400 (tests/lib/model/engine_test.cpp).
    const Comparison c = compare(hand());
    REQUIRE(c.options.size() == 2);
    REQUIRE(c.versus.size() == 1);
    CHECK(number("total_cost", c.options[0]) == Approx(1929.0).epsilon(1e-12));
    CHECK(number("total_cost", c.options[1]) == Approx(2400.0).epsilon(1e-12));
    CHECK(number("npv", c.options[0]) == Approx(-1929.0).epsilon(1e-12));  // at 0 %
    CHECK(number("cost_per_gpu_hour", c.options[0]) == Approx(1929.0 / 2400.0).epsilon(1e-12));
    CHECK(number("energy_kwh", c.options[0]) == Approx(24 * 89.375).epsilon(1e-12));
    CHECK(number("energy_kwh", c.options[1]) == 0.0);
    CHECK(number("npv_savings", c.versus[0]) == Approx(471.0).epsilon(1e-12));
    CHECK(number("payback_months", c.versus[0]) == Approx(1500.0 / 82.125).epsilon(1e-12));
    CHECK(number("roi", c.versus[0]) == Approx(471.0 / 1500.0).epsilon(1e-12));
    CHECK(std::get<std::string>(metric_value(*find_metric("irr_status"), c.versus[0])) == c.versus[0].irr_status);
    CHECK(std::get<int>(metric_value(*find_metric("optimal_sale_month"), c.versus[0])) == c.versus[0].optimal_sale_month);
    CHECK(std::get<std::vector<double>>(metric_value(*find_metric("irr_roots"), c.versus[0])) == c.versus[0].irr_roots);
    // No job and no tokens: every job and tokens metric is absent.
    for (const MetricScope scope : {MetricScope::job, MetricScope::tokens})
        for (const Metric* m : metrics_of(scope))
            CHECK(std::holds_alternative<std::monostate>(metric_value(*m, c.options[0])));
}

TEST_CASE("a cloud that never costs more: payback is absent, not a number", "[metric_table]") {
    const Comparison c = compare(parse_scenario(test::hand_scenario(), "hand.toml", {{"cloud[0].price_per_hour", "0.01"}}));
    CHECK(std::holds_alternative<std::monostate>(metric_value(*find_metric("payback_months"), c.versus[0])));
    CHECK(std::holds_alternative<std::monostate>(metric_value(*find_metric("breakeven_gpu_hours_per_month"), c.versus[0])));
    CHECK(number("npv_savings", c.versus[0]) < 0.0);
}

TEST_CASE("job metrics read through the table, and every value of the type its row declares", "[metric_table]") {
    const Comparison c = compare(with_job());
    REQUIRE(c.options.size() == 2);
    // The cloud at speedup 2: 200 samples/s, a 500 s run at $10 / 36 (parse_workload_test.cpp).
    CHECK(number("samples_per_second", c.options[1]) == Approx(200.0));
    CHECK(number("hours_per_run", c.options[1]) == Approx(500.0 / 3600.0));
    CHECK(number("cost_per_run", c.options[1]) == Approx(10.0 / 36.0));
    CHECK(std::holds_alternative<std::monostate>(metric_value(*find_metric("kwh_per_run"), c.options[1])));
    CHECK(number("kwh_per_run", c.options[0]) == Approx(0.5 * 1000.0 / 3600.0));  // 500 W for 1,000 s
    for (const Metric& m : metric_table()) {
        INFO(m.name);
        if (m.scope == MetricScope::pair) {
            CHECK(has_declared_type(m, metric_value(m, c.versus[0])));
            CHECK_THROWS_AS(metric_value(m, c.options[0]), std::invalid_argument);
        } else if (m.scope != MetricScope::tokens) {
            for (const OptionResult& o : c.options) CHECK(has_declared_type(m, metric_value(m, o)));
            CHECK_THROWS_AS(metric_value(m, c.versus[0]), std::invalid_argument);
        }
    }
}

TEST_CASE("tokens metrics read through the table, each of the type its row declares", "[metric_table][tokens]") {
    const Comparison c = compare(parse_scenario(test::token_scenario(), "tokens.toml"));
    REQUIRE(c.options.size() == 3);
    // The API: $40.50 a month for 24 months over 1,036.8 M tokens (token_costs_test.cpp).
    CHECK(number("cost_per_million_tokens", c.options[2]) == Approx(0.9375));
    CHECK(number("tokens_per_second", c.options[0]) == 100.0);
    for (const Metric* m : metrics_of(MetricScope::tokens)) {
        INFO(m->name);
        for (const OptionResult& o : c.options) CHECK(has_declared_type(*m, metric_value(*m, o)));
        CHECK_THROWS_AS(metric_value(*m, c.versus[0]), std::invalid_argument);
    }
}

TEST_CASE("the scopes and types have names (Python's metric_table() and docs use them)", "[metric_table]") {
    CHECK(to_string(MetricScope::option) == "option");
    CHECK(to_string(MetricScope::pair) == "pair");
    CHECK(to_string(MetricScope::job) == "job");
    CHECK(to_string(MetricScope::tokens) == "tokens");
    CHECK(to_string(MetricType::optional_number) == "optional_number");
    CHECK(to_string(MetricType::by_name) == "by_name");
}
