#include "payback/model/comparison.hpp"

#include <algorithm>
#include <cmath>
#include <tuple>

#include <boost/math/tools/toms748_solve.hpp>

#include "payback/base/conventions.hpp"
#include "payback/finance/finance.hpp"
#include "payback/model/metrics.hpp"
#include "payback/model/model_inputs.hpp"
#include "payback/scenario/rig_energy.hpp"
#include "payback/scenario/rig_links.hpp"

namespace payback {

namespace {

std::optional<double> present(double value) {
    return std::isnan(value) ? std::nullopt : std::optional<double>(value);
}

// The month whose end is the best time to sell the rig and rent `cloud` for the rest of the
// horizon (the earliest if several tie), and the NPV savings then: selling at month s is the
// model stopped at s (truncated()), since renting afterwards costs the same either way.
std::pair<int, double> optimal_sale(const ModelInputs<double>& inputs, std::size_t cloud) {
    std::pair<int, double> best{0, 0.0};
    for (int month = 1; month <= inputs.horizon_months; ++month) {
        const double savings = evaluate(truncated(inputs, month)).versus.at(cloud).npv_savings;
        if (best.first == 0 || savings > best.second) best = {month, savings};
    }
    return best;
}

}  // namespace

std::optional<double> breakeven_training_hours(const Scenario& scenario, std::size_t cloud) {
    if (!scenario.rig.schedule.empty()) return std::nullopt;  // the schedule fixes the hours
    Scenario trial = scenario;
    auto savings = [&](double hours) {
        trial.training_per_month = units::hours(hours);
        return evaluate(model_inputs(trial)).versus.at(cloud).npv_savings;
    };
    // Under a power limit the rig needs more hours than the work: the work must fit in 730 of them,
    // less the hours it serves tokens.
    const double lo = 0.0, hi = (conventions::hours_per_month - scenario.serving_hours_per_month) *
                                rig_energy(scenario).throughput_factor;
    const double f_lo = savings(lo), f_hi = savings(hi);
    if (f_lo == 0.0) return lo;
    if (f_hi == 0.0) return hi;
    if ((f_lo < 0.0) == (f_hi < 0.0)) return std::nullopt;
    std::uintmax_t iterations = 100;
    const auto [a, b] = boost::math::tools::toms748_solve(savings, lo, hi, f_lo, f_hi,
                                                          boost::math::tools::eps_tolerance<double>(48),
                                                          iterations);
    return 0.5 * (a + b);
}

namespace {

CashFlowRecorder recorder_for(const Scenario& s, const ModelInputs<double>& in) {
    std::vector<std::string> part_names, cloud_names;
    for (const auto& part : s.rig.parts) part_names.push_back(part.name);
    for (const auto& cloud : s.clouds) cloud_names.push_back(cloud.name);
    return CashFlowRecorder(in, s.rig.name, part_names, cloud_names);
}

void add_irr(VersusResult& v, const CashFlows& rig, const CashFlows& cloud) {
    const finance::IrrResult irr = finance::irr(incremental_flows(rig, cloud));
    v.irr_status = finance::to_string(irr.status);
    for (double monthly : irr.rates) v.irr_roots.push_back(finance::annual_rate(monthly));
    if (irr.status == finance::IrrStatus::ok) v.irr = v.irr_roots.front();
}

}  // namespace


namespace {

// One rig (with or without renting) run against every cloud option.
struct RigRun {
    RigEnergy energy;
    ModelInputs<double> in;
    std::vector<CashFlows> tables;  ///< the rig, then the clouds
    Metrics<double> metrics;
};

// The recorder names every table after the rig's or a [[cloud]]'s kind: [[api]] options are marked here.
void mark_api_tables(const Scenario& s, std::vector<CashFlows>& tables, std::size_t first_cloud) {
    for (std::size_t i = 0; i < s.clouds.size(); ++i)
        if (s.clouds[i].api) tables.at(first_cloud + i).kind = OptionKind::api;
}

RigRun run_rig(const Scenario& s, const std::string& rig_name) {
    RigRun run{rig_energy(s), {}, {}, {}};
    run.in = model_inputs(s, run.energy);
    Scenario named = s;
    named.rig.name = rig_name;
    // One pass feeds the table and the metrics the same numbers.
    CashFlowRecorder recorder = recorder_for(named, run.in);
    MetricsAccumulator<double> metrics(run.in);
    simulate(run.in, [&](const MonthFlows<double>& month) {
        recorder(month);
        metrics(month);
    });
    run.metrics = metrics.finish();
    run.tables = std::move(recorder).tables();
    mark_api_tables(s, run.tables, 1);
    return run;
}

}  // namespace

// The rig as the owner runs it alone: a rental scenario's offered hours stay idle.
Scenario without_rental(const Scenario& s) {
    Scenario alone = s;
    if (s.rental) {
        alone.rental.reset();
        alone.rig.rented_hours_idle = true;
    }
    return alone;
}

std::vector<CashFlows> cash_flows(const Scenario& s) {
    auto tables_of = [](const Scenario& scenario, const std::string& name) {
        Scenario named = scenario;
        named.rig.name = name;
        const ModelInputs<double> in = model_inputs(named);
        CashFlowRecorder recorder = recorder_for(named, in);
        simulate(in, recorder);
        std::vector<CashFlows> tables = std::move(recorder).tables();
        mark_api_tables(scenario, tables, 1);
        return tables;
    };
    std::vector<CashFlows> tables = tables_of(without_rental(s), s.rig.name);
    if (s.rental) tables.insert(tables.begin() + 1, tables_of(s, s.rig.name + " + rental").front());
    return tables;
}

namespace {

JobCosts job_costs(const TrainingJob& job, const OptionResult& option, double runs, double samples_per_second,
                   std::string origin, double hours_per_run, std::optional<double> kwh_per_run) {
    JobCosts j;
    j.samples_per_second = samples_per_second;
    j.throughput_origin = std::move(origin);
    j.hours_per_run = hours_per_run;
    j.cost_per_run = option.total_cost / runs;
    j.cost_per_epoch = j.cost_per_run / job.epochs;
    j.cost_per_million_samples = j.cost_per_run / job.samples_per_run() * 1e6;
    j.kwh_per_run = kwh_per_run;
    return j;
}

// Cost per run, epoch and million samples, and energy per run, on every option.
void add_job_costs(Comparison& c, const Scenario& s) {
    const TrainingJob& job = *s.job;
    const double runs = job.runs_per_month * s.horizon_months;
    c.scaling.efficiency = job.scaling_efficiency;
    // The rig trains at its measured speed, slowed by any power limit, drawing its training watts.
    const double rig_hours = job.rig_hours_per_run() / c.rig.throughput_factor;
    const double training_wall_kw = c.rig.heat_watts[static_cast<std::size_t>(PowerState::training)] / 1000.0;
    std::size_t cloud = 0;
    for (OptionResult& option : c.options) {
        if (option.kind == OptionKind::diy) {
            option.job = job_costs(job, option, runs, job.rig_samples_per_second() * c.rig.throughput_factor,
                                   job.gpu_origin, rig_hours, rig_hours * training_wall_kw);
            continue;
        }
        const CloudOption& o = s.clouds[cloud++];
        // Instance hours include spot's repeated work; the draw is the instance's IT load times its PUE.
        const double hours = option.billing ? option.billing->instance_hours / job.runs_per_month
                                            : job.rig_hours_per_run() / o.speedup;
        const double watts = units::in_watts(o.power);
        option.job = job_costs(job, option, runs, job.rig_samples_per_second() * o.speedup,
                               o.throughput_origin.empty() ? "speedup against the rig" : o.throughput_origin, hours,
                               watts > 0 ? std::optional(hours * watts * o.pue / 1000.0) : std::nullopt);
    }
}

// The tokens over the horizon, the J per token and the g CO2 per million tokens of serving them
// drawing `wall_watts` (0: unknown) for `hours` a month on a grid of `kg_per_kwh` (0: unknown).
struct ServingEnergy {
    std::optional<double> joules_per_token, co2_g_per_million_tokens;
};

ServingEnergy serving_energy(const TokenVolume& volume, double hours, double wall_watts, double kg_per_kwh) {
    ServingEnergy e;
    if (wall_watts <= 0 || volume.total_per_month() <= 0) return e;
    e.joules_per_token = wall_watts * hours * 3600.0 / volume.total_per_month();
    if (kg_per_kwh > 0) e.co2_g_per_million_tokens = *e.joules_per_token * 1e6 / 3.6e6 * kg_per_kwh * 1000.0;
    return e;
}

// total_cost per million tokens, split between input and output by `input_share` of it.
TokenCosts token_costs(const OptionResult& option, const TokenVolume& volume, int months, double input_share) {
    TokenCosts t;
    const double cost = option.total_cost;
    if (volume.total_per_month() > 0) t.cost_per_million_tokens = cost / (volume.total_per_month() * months) * 1e6;
    if (volume.input_per_month > 0)
        t.cost_per_million_input_tokens = cost * input_share / (volume.input_per_month * months) * 1e6;
    if (volume.output_per_month > 0)
        t.cost_per_million_output_tokens = cost * (1.0 - input_share) / (volume.output_per_month * months) * 1e6;
    return t;
}

// What serving workload.tokens costs on every option, and what it draws.
void add_token_costs(Comparison& c, const Scenario& s) {
    const TokenVolume& volume = s.tokens->volume;
    const double rig_wall_watts = c.rig.heat_watts[static_cast<std::size_t>(PowerState::training)];
    std::size_t cloud = 0;
    for (OptionResult& option : c.options) {
        if (option.kind == OptionKind::diy) {
            const TokenRates& rates = *s.rig.tokens_per_second;
            option.tokens = token_costs(option, volume, s.horizon_months, input_share_of_serving(volume, rates));
            option.tokens->tokens_per_second = rates.decode;
            option.tokens->prefill_tokens_per_second = rates.prefill;
            option.tokens->tokens_per_second_origin = rates.origin;
            option.tokens->serving_hours_per_month = s.serving_hours_per_month;
            const ServingEnergy e =
                serving_energy(volume, s.serving_hours_per_month, rig_wall_watts, s.grid_co2_kg_per_kwh);
            option.tokens->joules_per_token = e.joules_per_token;
            option.tokens->co2_g_per_million_tokens = e.co2_g_per_million_tokens;
            continue;
        }
        const CloudOption& o = s.clouds[cloud++];
        if (o.api) {
            const double bill = api_month_cost(*o.api, volume);
            const double input_share = bill > 0 ? api_month_input_cost(*o.api, volume) / bill : 0.0;
            option.tokens = token_costs(option, volume, s.horizon_months, input_share);
            continue;
        }
        const TokenRates& rates = *o.tokens_per_second;
        option.tokens = token_costs(option, volume, s.horizon_months, input_share_of_serving(volume, rates));
        option.tokens->tokens_per_second = rates.decode;
        option.tokens->prefill_tokens_per_second = rates.prefill;
        option.tokens->tokens_per_second_origin = rates.origin;
        const double hours = serving_hours_per_month(volume, rates);
        option.tokens->serving_hours_per_month = hours;
        const ServingEnergy e = serving_energy(volume, hours, units::in_watts(o.power) * o.pue, o.co2_kg_per_kwh);
        option.tokens->joules_per_token = e.joules_per_token;
        option.tokens->co2_g_per_million_tokens = e.co2_g_per_million_tokens;
    }
}

}  // namespace

Comparison compare(const Scenario& s) {
    // With a rental market, the rig appears twice: as the owner runs it alone, and renting out.
    const Scenario alone = without_rental(s);
    const RigRun run = run_rig(alone, s.rig.name);
    const ModelInputs<double>& in = run.in;
    const Metrics<double>& m = run.metrics;

    Comparison c;
    c.cashflows = run.tables;
    const double work_hours = in.training_hours * s.horizon_months;
    auto per_hour = [&](double total) {
        return work_hours > 0 ? std::optional<double>(total / work_hours) : std::nullopt;
    };
    c.rig = rig_report(alone, run.energy);
    c.scaling = rig_scaling(s);
    auto option = [&](const std::string& name, OptionKind kind, const OptionTotals<double>& totals,
                      double energy_kwh, double co2_kg) {
        return OptionResult{name,
                            kind,
                            totals.total_cost,
                            totals.npv_cost,
                            0.0 - totals.npv_cost,
                            per_hour(totals.total_cost),
                            present(totals.levelized_cost_per_gpu_hour),
                            energy_kwh,
                            co2_kg,
                            {},
                            std::nullopt,
                            std::nullopt,
                            std::nullopt};
    };
    auto versus = [&](const std::string& rig, const Metrics<double>& metrics, const ModelInputs<double>& inputs,
                      const std::vector<CashFlows>& tables, const Scenario& scenario, std::size_t i) {
        const Versus<double>& v = metrics.versus[i];
        VersusResult result;
        result.rig = rig;
        result.cloud = s.clouds[i].name;
        result.payback_months = present(v.payback_months);
        result.payback_months_if_sold = present(v.payback_months_if_sold);
        result.discounted_payback_months = present(v.discounted_payback_months);
        result.npv_savings = v.npv_savings;
        result.roi = present(v.roi);
        add_irr(result, tables.front(), tables[i + 1]);
        std::tie(result.optimal_sale_month, result.optimal_sale_npv_savings) = optimal_sale(inputs, i);
        if (!s.clouds[i].api)  // an API serves tokens only: no training hours to break even on
            result.breakeven_gpu_hours_per_month = breakeven_training_hours(scenario, i);
        return result;
    };
    c.options.push_back(option(s.rig.name, OptionKind::diy, m.rig, m.rig_energy_kwh, c.rig.co2_kg_total));
    c.options.back().energy_kwh_by_period = c.rig.energy_kwh_by_period;
    for (std::size_t i = 0; i < s.clouds.size(); ++i) {
        c.options.push_back(option(s.clouds[i].name, s.clouds[i].api ? OptionKind::api : OptionKind::cloud, m.clouds[i], 0.0,
                                   cloud_co2_kg(s, s.clouds[i], in.training_hours)));
        c.options.back().billing = cloud_month(s.clouds[i], in.training_hours, s.job_hours);
        c.versus.push_back(versus(s.rig.name, m, in, run.tables, alone, i));
    }
    if (s.rental) {
        const std::string name = s.rig.name + " + rental";
        const RigRun rented = run_rig(s, name);
        const RigReport report = rig_report(s, rented.energy);
        c.cashflows.insert(c.cashflows.begin() + 1, rented.tables.front());
        c.options.insert(c.options.begin() + 1, option(name, OptionKind::diy, rented.metrics.rig,
                                                       rented.metrics.rig_energy_kwh, report.co2_kg_total));
        c.options[1].energy_kwh_by_period = report.energy_kwh_by_period;
        for (std::size_t i = 0; i < s.clouds.size(); ++i)
            c.versus.push_back(versus(name, rented.metrics, rented.in, rented.tables, s, i));
    }
    if (s.job && s.job->runs_per_month > 0) add_job_costs(c, s);
    if (s.tokens) add_token_costs(c, s);
    return c;
}

}  // namespace payback
