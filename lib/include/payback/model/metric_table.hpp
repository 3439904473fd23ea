// The metric table: every figure `payback compare` reports, declared once. A row holds the metric's
// name (its JSON key and CSV column), unit, scope, one line of meaning, how compare's text tables
// show it and how to read it from a result. compare --json (payback/report/report_json.hpp),
// compare --csv and compare's text tables (apps/compare_command.cpp), the Python result classes
// (bindings/python/payback/results.py, through payback._core.model.metric_table()) and the list in
// docs/model.md (`payback docs --metrics`) take their fields from it, in its order.
//
// Adding a metric: a member of OptionResult, JobCosts or VersusResult and its computation
// (comparison.cpp), then one row in lib/src/model/metric_table.cpp.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace payback {

struct OptionResult;
struct JobCosts;
struct VersusResult;
struct TokenCosts;

enum class MetricScope {
    option,  ///< each option: the rig, the rig renting out, each cloud option (OptionResult)
    pair,    ///< the rig against each cloud option (VersusResult; compare --json's "versus")
    job,     ///< each option's run of the scenario's [workload] job (OptionResult::job; "job" in JSON)
    tokens,  ///< each option serving the scenario's workload.tokens (OptionResult::tokens; "tokens" in JSON)
};

/// What a metric's value is.
enum class MetricType {
    number,           ///< always there
    optional_number,  ///< absent where it does not exist: null in JSON, an empty CSV cell, "-" in tables
    integer,
    text,
    numbers,          ///< a list: a JSON array, one CSV cell separated by semicolons
    by_name,          ///< numbers by name: a JSON object; in no CSV column or table
};

/// One metric's value for one option or pair; std::monostate where it is absent.
using MetricValue = std::variant<std::monostate, double, int, std::string, std::vector<double>,
                                 std::vector<std::pair<std::string, double>>>;

struct Metric {
    std::string_view name{};       ///< the JSON key and CSV column, exactly
    std::string_view unit{};       ///< "currency", "months", "fraction", "kWh", ...; empty for text
    MetricScope scope = MetricScope::option;
    MetricType type = MetricType::number;
    std::string_view description{};  ///< one line
    bool csv = true;               ///< a column of compare --csv
    std::string_view header{};     ///< its column's header in compare's text tables; empty: not there
    int decimals = 0;              ///< in those tables (of the percentage, for "fraction" and "/yr")
    MetricValue (*of_option)(const OptionResult&) = nullptr;  ///< scope option
    MetricValue (*of_pair)(const VersusResult&) = nullptr;    ///< scope pair
    MetricValue (*of_job)(const JobCosts&) = nullptr;         ///< scope job
    MetricValue (*of_tokens)(const TokenCosts&) = nullptr;    ///< scope tokens
};

/// Every metric in output order: the options' first, then the pairs', the jobs' and the tokens'.
std::span<const Metric> metric_table();

/// The rows of one scope, in the table's order.
std::vector<const Metric*> metrics_of(MetricScope scope);

/// The row named `name`; nullptr when there is none.
const Metric* find_metric(std::string_view name);

/// A metric of scope option, job or tokens read from an option (absent for a job or tokens metric
/// when the option has none); a metric of scope pair read from a pair. std::invalid_argument for the wrong scope.
MetricValue metric_value(const Metric& metric, const OptionResult& option);
MetricValue metric_value(const Metric& metric, const VersusResult& pair);

std::string_view to_string(MetricScope scope);  ///< "option", "pair", "job", "tokens"
std::string_view to_string(MetricType type);    ///< "number", "optional_number", ...

}  // namespace payback
