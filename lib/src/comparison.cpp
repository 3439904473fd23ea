#include "payback/comparison.hpp"

#include <algorithm>
#include <cmath>

#include <boost/math/tools/toms748_solve.hpp>
#include <fmt/format.h>

#include "payback/conventions.hpp"
#include "payback/format.hpp"
#include "payback/metrics.hpp"

namespace payback {

namespace {

std::optional<double> present(double value) {
    return std::isnan(value) ? std::nullopt : std::optional<double>(value);
}

std::string money(double amount, const std::string& currency) {
    return fmt::format("{} {}", format_amount(amount), currency);
}

std::string verdict_for(const Comparison& c, const Scenario& s) {
    if (c.versus.empty()) return "No cloud options to compare the rig with.";
    const auto best = std::min_element(c.versus.begin(), c.versus.end(), [](const auto& a, const auto& b) {
        return a.npv_savings < b.npv_savings;  // the cloud option closest to (or beating) the rig
    });
    const std::string horizon = fmt::format("{} months", s.horizon_months);
    if (best->npv_savings > 0) {
        std::string line = fmt::format(
            "Build: over {} the rig costs {} less in present value than the cheapest cloud option ({})",
            horizon, money(best->npv_savings, s.currency), best->cloud);
        if (best->payback_months)
            line += fmt::format(", and pays for itself in {:.1f} months", *best->payback_months);
        return line + ".";
    }
    std::string line = fmt::format("Rent {}: over {} it costs {} less in present value than building",
                                   best->cloud, horizon, money(-best->npv_savings, s.currency));
    if (best->breakeven_gpu_hours_per_month)
        line += fmt::format("; building wins above {:.0f} GPU-hours a month",
                            *best->breakeven_gpu_hours_per_month);
    return line + ".";
}

}  // namespace

std::optional<double> breakeven_training_hours(const ModelInputs<double>& inputs, std::size_t cloud) {
    auto savings = [&](double hours) {
        ModelInputs<double> in = inputs;
        in.training_hours = hours;
        return evaluate(in).versus.at(cloud).npv_savings;
    };
    const double lo = 0.0, hi = conventions::hours_per_month;
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
    std::vector<std::string> cloud_names;
    for (const auto& cloud : s.clouds) cloud_names.push_back(cloud.name);
    return CashFlowRecorder(in, s.rig.name, cloud_names);
}
}  // namespace

std::vector<CashFlows> cash_flows(const Scenario& s) {
    const ModelInputs<double> in = model_inputs(s);
    CashFlowRecorder recorder = recorder_for(s, in);
    simulate(in, recorder);
    return std::move(recorder).tables();
}

Comparison compare(const Scenario& s) {
    const ModelInputs<double> in = model_inputs(s);

    // One pass feeds the table and the metrics the same numbers.
    CashFlowRecorder recorder = recorder_for(s, in);
    MetricsAccumulator<double> metrics(in);
    simulate(in, [&](const MonthFlows<double>& month) {
        recorder(month);
        metrics(month);
    });
    const Metrics<double> m = metrics.finish();

    Comparison c;
    c.cashflows = std::move(recorder).tables();
    const double work_hours = in.training_hours * s.horizon_months;
    auto per_hour = [&](double total) {
        return work_hours > 0 ? std::optional<double>(total / work_hours) : std::nullopt;
    };
    c.options.push_back({s.rig.name, OptionKind::diy, m.rig.total_cost, m.rig.npv_cost,
                         per_hour(m.rig.total_cost), m.rig_energy_kwh});
    for (std::size_t i = 0; i < s.clouds.size(); ++i) {
        c.options.push_back({s.clouds[i].name, OptionKind::cloud, m.clouds[i].total_cost,
                             m.clouds[i].npv_cost, per_hour(m.clouds[i].total_cost), 0.0});
        c.versus.push_back({s.clouds[i].name, present(m.versus[i].payback_months),
                            present(m.versus[i].payback_months_if_sold),
                            present(m.versus[i].discounted_payback_months), m.versus[i].npv_savings,
                            breakeven_training_hours(in, i)});
    }
    c.verdict = verdict_for(c, s);
    return c;
}

}  // namespace payback
