#include "payback/model/metric_table.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "payback/model/comparison.hpp"

namespace payback {

namespace {

MetricValue value(double v) { return v; }
MetricValue value(int v) { return v; }
MetricValue value(const std::optional<double>& v) { return v ? MetricValue(*v) : MetricValue(); }
MetricValue value(const std::string& v) { return v; }
MetricValue value(const std::vector<double>& v) { return v; }
MetricValue value(const std::vector<std::pair<std::string, double>>& v) { return v; }

// A row's reader: the member, as a MetricValue (`.of_option = read<&OptionResult::npv>`).
template <auto member, class Result>
MetricValue read(const Result& result) {
    return value(result.*member);
}

using O = OptionResult;
using P = VersusResult;
using J = JobCosts;
using T = TokenCosts;
using enum MetricScope;
using enum MetricType;

// The order is the outputs' order: compare --csv's columns and compare's text tables follow it.
constexpr Metric table[] = {
    // Each option.
    {.name = "total_cost", .unit = "currency", .scope = option, .type = number,
     .description = "Undiscounted cost over the horizon, net of resale, loan flows and taxes",
     .header = "total cost", .of_option = read<&O::total_cost>},
    {.name = "npv_cost", .unit = "currency", .scope = option, .type = number,
     .description = "Present value of the costs, net of resale", .header = "PV of cost",
     .of_option = read<&O::npv_cost>},
    {.name = "npv", .unit = "currency", .scope = option, .type = number,
     .description = "NPV of the option's signed cash flows: -npv_cost", .of_option = read<&O::npv>},
    {.name = "cost_per_gpu_hour", .unit = "currency/GPU-h", .scope = option, .type = optional_number,
     .description = "total_cost per hour of the owner's work; null at 0 hours", .header = "per GPU-h",
     .decimals = 2, .of_option = read<&O::cost_per_gpu_hour>},
    {.name = "levelized_cost_per_gpu_hour", .unit = "currency/GPU-h", .scope = option, .type = optional_number,
     .description = "npv_cost per discounted hour of the owner's work (the LCOE analogue); null at 0 hours",
     .header = "levelized/h", .decimals = 2, .of_option = read<&O::levelized_cost_per_gpu_hour>},
    {.name = "energy_kwh", .unit = "kWh", .scope = option, .type = number,
     .description = "The rig's wall energy over the horizon, cooling included (0 for cloud options)",
     .header = "kWh", .of_option = read<&O::energy_kwh>},
    {.name = "energy_kwh_by_period", .unit = "kWh", .scope = option, .type = by_name,
     .description = "The rig's wall energy over the horizon in each tariff period (empty for cloud options)",
     .csv = false, .of_option = read<&O::energy_kwh_by_period>},
    // Not in compare --csv, whose columns predate it.
    {.name = "co2_kg_total", .unit = "kg", .scope = option, .type = number,
     .description = "CO2 over the horizon; 0 without the grid's intensity (or the instance's draw)",
     .csv = false, .of_option = read<&O::co2_kg_total>},

    // The rig against each cloud option.
    {.name = "payback_months", .unit = "months", .scope = pair, .type = optional_number,
     .description = "When the rig's cumulative operating outlay first falls to the cloud's; null if not within the horizon",
     .header = "payback mo", .decimals = 1, .of_pair = read<&P::payback_months>},
    {.name = "payback_months_if_sold", .unit = "months", .scope = pair, .type = optional_number,
     .description = "The same, counting the rig's parts at what they would sell for",
     .header = "if sold mo", .decimals = 1, .of_pair = read<&P::payback_months_if_sold>},
    {.name = "discounted_payback_months", .unit = "months", .scope = pair, .type = optional_number,
     .description = "The same crossing as payback_months on present values",
     .header = "discounted", .decimals = 1, .of_pair = read<&P::discounted_payback_months>},
    {.name = "npv_savings", .unit = "currency", .scope = pair, .type = number,
     .description = "NPV(building) - NPV(renting) = npv_cost(cloud) - npv_cost(rig); positive: building is cheaper",
     .header = "NPV savings", .of_pair = read<&P::npv_savings>},
    {.name = "roi", .unit = "fraction", .scope = pair, .type = optional_number,
     .description = "Undiscounted savings over the horizon / the rig's capex; null without capex",
     .header = "ROI", .of_pair = read<&P::roi>},
    {.name = "irr", .unit = "/yr", .scope = pair, .type = optional_number,
     .description = "IRR of building instead of renting, annual effective; null unless irr_status is ok",
     .header = "IRR/yr", .decimals = 1, .of_pair = read<&P::irr>},
    {.name = "irr_status", .unit = "", .scope = pair, .type = text,
     .description = "ok, no_sign_change, multiple_roots or not_converged", .of_pair = read<&P::irr_status>},
    {.name = "irr_roots", .unit = "/yr", .scope = pair, .type = numbers,
     .description = "Every IRR root found, annual effective, ascending", .of_pair = read<&P::irr_roots>},
    {.name = "optimal_sale_month", .unit = "month", .scope = pair, .type = integer,
     .description = "Selling the rig at this month's end, then renting, maximizes the NPV savings",
     .header = "sell at", .of_pair = read<&P::optimal_sale_month>},
    {.name = "optimal_sale_npv_savings", .unit = "currency", .scope = pair, .type = number,
     .description = "The NPV savings when selling at optimal_sale_month", .of_pair = read<&P::optimal_sale_npv_savings>},
    {.name = "breakeven_gpu_hours_per_month", .unit = "GPU-h/month", .scope = pair, .type = optional_number,
     .description = "The workload in [0, 730] h a month at which npv_savings = 0; null if none or with a schedule",
     .header = "break-even h", .decimals = 1, .of_pair = read<&P::breakeven_gpu_hours_per_month>},

    // Each option's run of the [workload] job.
    {.name = "samples_per_second", .unit = "samples/s", .scope = job, .type = number,
     .description = "The whole option: the rig's GPUs together, or the instance's", .csv = false,
     .header = "samples/s", .of_job = read<&J::samples_per_second>},
    {.name = "throughput_origin", .unit = "", .scope = job, .type = text,
     .description = "Where samples_per_second comes from: measured, mapped (with its expected error) or given",
     .csv = false, .of_job = read<&J::throughput_origin>},
    {.name = "hours_per_run", .unit = "h", .scope = job, .type = number,
     .description = "On the rig (power limits included) or on the instance", .csv = false, .header = "h/run",
     .decimals = 2, .of_job = read<&J::hours_per_run>},
    {.name = "cost_per_run", .unit = "currency", .scope = job, .type = number,
     .description = "The option's total_cost spread over every run in the horizon", .header = "per run",
     .decimals = 2, .of_job = read<&J::cost_per_run>},
    {.name = "cost_per_epoch", .unit = "currency", .scope = job, .type = number,
     .description = "cost_per_run / epochs", .header = "per epoch", .decimals = 2,
     .of_job = read<&J::cost_per_epoch>},
    {.name = "cost_per_million_samples", .unit = "currency", .scope = job, .type = number,
     .description = "cost_per_run per million samples", .header = "per M smp", .decimals = 2,
     .of_job = read<&J::cost_per_million_samples>},
    {.name = "kwh_per_run", .unit = "kWh", .scope = job, .type = optional_number,
     .description = "Energy of one run at the wall (a cloud's with its PUE); null when the draw is unknown",
     .header = "kWh/run", .decimals = 3, .of_job = read<&J::kwh_per_run>},

    // Each option serving workload.tokens; in compare --csv only for a scenario with tokens.
    {.name = "tokens_per_second", .unit = "tokens/s", .scope = tokens, .type = optional_number,
     .description = "Output tokens written a second (decode) at the workload's concurrency; null for an API",
     .header = "decode tok/s", .decimals = 0, .of_tokens = read<&T::tokens_per_second>},
    {.name = "prefill_tokens_per_second", .unit = "tokens/s", .scope = tokens, .type = optional_number,
     .description = "Input tokens read a second (prefill); null for an API", .header = "prefill tok/s",
     .of_tokens = read<&T::prefill_tokens_per_second>},
    {.name = "tokens_per_second_origin", .unit = "", .scope = tokens, .type = text,
     .description = "Where the two rates come from: given by hand, or predicted (with its expected error); empty for an API",
     .csv = false, .of_tokens = read<&T::tokens_per_second_origin>},
    {.name = "serving_hours_per_month", .unit = "h", .scope = tokens, .type = optional_number,
     .description = "input / prefill / 3600 + output / decode / 3600; null for an API", .header = "serving h/mo",
     .decimals = 1, .of_tokens = read<&T::serving_hours_per_month>},
    {.name = "cost_per_million_tokens", .unit = "currency/Mtok", .scope = tokens, .type = number,
     .description = "total_cost / the tokens (input and output) served over the horizon × 10^6",
     .header = "per Mtok", .decimals = 3, .of_tokens = read<&T::cost_per_million_tokens>},
    {.name = "cost_per_million_input_tokens", .unit = "currency/Mtok", .scope = tokens, .type = optional_number,
     .description = "The share of total_cost input takes (of the serving time, or of an API's bill) per million input tokens",
     .header = "per M in", .decimals = 3, .of_tokens = read<&T::cost_per_million_input_tokens>},
    {.name = "cost_per_million_output_tokens", .unit = "currency/Mtok", .scope = tokens, .type = optional_number,
     .description = "The share of total_cost output takes per million output tokens", .header = "per M out",
     .decimals = 3, .of_tokens = read<&T::cost_per_million_output_tokens>},
    {.name = "joules_per_token", .unit = "J/token", .scope = tokens, .type = optional_number,
     .description = "Wall energy of serving per token (a cloud's with its PUE); null where the draw is unknown",
     .header = "J/tok", .decimals = 2, .of_tokens = read<&T::joules_per_token>},
    {.name = "co2_g_per_million_tokens", .unit = "g/Mtok", .scope = tokens, .type = optional_number,
     .description = "joules_per_token × 10^6 / 3.6 × 10^6 J/kWh × the grid's kg/kWh × 1000; null without the grid's intensity",
     .header = "gCO2/Mtok", .decimals = 1, .of_tokens = read<&T::co2_g_per_million_tokens>},
};

}  // namespace

std::span<const Metric> metric_table() { return table; }

std::vector<const Metric*> metrics_of(MetricScope scope) {
    std::vector<const Metric*> out;
    for (const Metric& m : table)
        if (m.scope == scope) out.push_back(&m);
    return out;
}

const Metric* find_metric(std::string_view name) {
    const auto* found = std::find_if(std::begin(table), std::end(table), [&](const Metric& m) { return m.name == name; });
    return found == std::end(table) ? nullptr : found;
}

MetricValue metric_value(const Metric& metric, const OptionResult& option) {
    if (metric.scope == MetricScope::option) return metric.of_option(option);
    if (metric.scope == MetricScope::job) return option.job ? metric.of_job(*option.job) : MetricValue();
    if (metric.scope == MetricScope::tokens) return option.tokens ? metric.of_tokens(*option.tokens) : MetricValue();
    throw std::invalid_argument("metric " + std::string(metric.name) + " is one of a pair, not of an option");
}

MetricValue metric_value(const Metric& metric, const VersusResult& pair) {
    if (metric.scope == MetricScope::pair) return metric.of_pair(pair);
    throw std::invalid_argument("metric " + std::string(metric.name) + " is one of an option, not of a pair");
}

std::string_view to_string(MetricScope scope) {
    switch (scope) {
        case MetricScope::option: return "option";
        case MetricScope::pair: return "pair";
        case MetricScope::job: return "job";
        case MetricScope::tokens: return "tokens";
    }
    return "";
}

std::string_view to_string(MetricType type) {
    switch (type) {
        case MetricType::number: return "number";
        case MetricType::optional_number: return "optional_number";
        case MetricType::integer: return "integer";
        case MetricType::text: return "text";
        case MetricType::numbers: return "numbers";
        case MetricType::by_name: return "by_name";
    }
    return "";
}

}  // namespace payback
