// Everything `payback report` shows, computed once: the comparison, the answer and its biggest
// reason, NPV savings over the workload's hours, the Monte Carlo run and the tornado when the
// scenario has [uncertainty], and the assumptions with their sources. html_report.hpp renders it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "payback/market/price_dates.hpp"
#include "payback/model/comparison.hpp"
#include "payback/model/cost_breakdown.hpp"
#include "payback/scenario/assumptions.hpp"
#include "payback/whatif/montecarlo.hpp"
#include "payback/whatif/tornado.hpp"

namespace payback {

struct ReportOptions {
    std::vector<Override> overrides;  ///< the --set assignments the scenario was loaded with
    int samples = 10000;              ///< Monte Carlo samples, for the histogram and the tornado's ranking
    std::uint64_t seed = 1;
};

/// NPV savings of building against each cloud option as the owner's monthly hours go from 0 to
/// 730 (the whole month), the rest of the scenario as it is.
struct HoursSweep {
    std::vector<double> hours;
    std::vector<std::string> clouds;
    std::vector<std::vector<double>> npv_savings;  ///< [cloud][point]
};

/// With [workload] tokens: each option's present-value cost a month (npv_cost ÷ the horizon's months)
/// as the output tokens a month go from 0 up, the rest of the scenario as it is, and where the rig's
/// line crosses each cloud option's: breakeven() on workload.tokens.output_tokens_per_month, whose
/// npv_savings = 0 is where the two present values are equal.
struct TokenVolumeSweep {
    std::vector<double> output_tokens;
    std::vector<std::string> options;                 ///< the rig, then each cloud option
    std::vector<std::vector<double>> cost_per_month;  ///< [option][point]
    std::vector<std::optional<double>> breakeven;     ///< [cloud]: output tokens a month; none: no crossing
};

struct ReportData {
    Scenario scenario;
    Comparison comparison;
    std::vector<CostGroup> costs;
    std::optional<std::size_t> headline;  ///< comparison.versus index the answer is about
    std::string verdict;                  ///< the answer in a sentence (verdict.hpp)
    std::string reason;                   ///< one sentence; empty without cloud options
    /// None when the hours are not an input: a [workload] job or a usage schedule sets them.
    std::optional<HoursSweep> hours;
    std::string hours_note;               ///< why there is no sweep, when there is none
    std::optional<TokenVolumeSweep> token_volume;  ///< with [workload] tokens and cloud options
    std::optional<MonteCarloResult> montecarlo;  ///< with [uncertainty]
    std::optional<TornadoResult> tornado;        ///< with [uncertainty]
    int samples = 0;
    std::uint64_t seed = 1;
    std::vector<Assumption> assumptions;
    PriceAge prices;  ///< how old the catalog prices are; the page warns when they are stale
};

/// Throws InputError as the commands it draws on do (an [uncertainty] value a key does not admit).
ReportData report_data(const Scenario& scenario, const ReportOptions& options);

}  // namespace payback
