#include "payback/model/model_inputs.hpp"
#include "payback/whatif/tornado.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "base/number_text.hpp"
#include "payback/base/arguments.hpp"
#include "payback/base/error.hpp"
#include "payback/model/engine.hpp"
#include "payback/model/metrics.hpp"
#include "payback/whatif/montecarlo.hpp"
#include "payback/whatif/sampling.hpp"
#include "payback/whatif/sweep.hpp"
#include "scenario/key_paths.hpp"

namespace payback {

namespace {

using detail::trimmed;

// The NPV savings against one cloud option with keys set as --set sets them, through the exact
// model: the scenario parsed again with the overrides, then the scalar engine (the path of
// SampleModel::evaluate_exactly). A tornado has few rows, two per input, so each is exact.
class ExactSavings {
public:
    ExactSavings(const Scenario& s, std::size_t cloud) : text_(to_toml(s)), source_(s.source), prices_(s.prices), cloud_(cloud) {}

    double base() const { return run({}); }

    // The savings with the key at the value, or none and the InputError's message in `problem`
    // when the key does not admit it.
    std::optional<double> at(const std::string& key, double value, std::string* problem = nullptr) const {
        try {
            return run({{key, fmt::format("{:.17g}", value)}});
        } catch (const InputError& e) {
            if (problem) *problem = e.message();
            return std::nullopt;
        }
    }

    // The admitted value nearest `wanted` on the way from `admitted` (which the key admits).
    double clip(const std::string& key, double admitted, double wanted) const {
        double good = admitted, bad = wanted;
        for (int i = 0; i < 50; ++i) {
            const double middle = 0.5 * (good + bad);
            (at(key, middle) ? good : bad) = middle;
        }
        return good;
    }

private:
    double run(const std::vector<Override>& overrides) const {
        return evaluate(model_inputs(parse_scenario(text_, source_, overrides, prices_))).versus.at(cloud_).npv_savings;
    }

    std::string text_;
    std::string source_;
    PriceChoice prices_;  // a re-read takes the same prices
    std::size_t cloud_;
};

// Whether the key is one of the scenario's numeric keys, and not zero.
bool present(const Scenario& s, const std::string& key) {
    try {
        return detail::numeric_key_value(s, key, s.source) != 0.0;
    } catch (const InputError&) {
        return false;
    }
}

}  // namespace

TornadoInput parse_tornado_input(const std::string& text) {
    const auto equals = text.find('=');
    TornadoInput input;
    input.key = trimmed(text.substr(0, equals));
    if (input.key.empty())
        throw InputError(argument::tornado_key, 0, "", fmt::format("expected KEY or KEY=LO:HI, got \"{}\"", text));
    if (equals == std::string::npos) return input;
    const std::string range = text.substr(equals + 1);
    const auto colon = range.find(':');
    const auto low = colon == std::string::npos ? std::nullopt : detail::number_from_text(range.substr(0, colon));
    const auto high = colon == std::string::npos ? std::nullopt : detail::number_from_text(range.substr(colon + 1));
    if (!low || !high)
        throw InputError(argument::tornado_key, 0, input.key, fmt::format("expected LO:HI with two numbers, got \"{}\"", range));
    if (!(*low < *high))
        throw InputError(argument::tornado_key, 0, input.key, fmt::format("expected LO < HI, got {}:{}", *low, *high));
    input.range = std::pair(*low, *high);
    return input;
}

std::vector<std::string> default_tornado_keys(const Scenario& s) {
    std::vector<std::string> candidates;
    if (!s.job && s.rig.schedule.empty()) candidates.push_back("workload.gpu_hours_per_month");
    if (s.tariff_kind == "flat") candidates.push_back("electricity.price_per_kwh");
    for (std::size_t c = 0; c < s.clouds.size(); ++c) candidates.push_back(fmt::format("cloud[{}].price_per_hour", c));
    for (std::size_t p = 0; p < s.rig.parts.size(); ++p) {
        const std::string part = fmt::format("rig.parts[{}]", p);
        candidates.push_back(part + ".price");
        switch (s.rig.parts[p].resale.method) {
            case ResaleMethod::declining_balance:
                candidates.push_back(part + ".resale.annual_rate");
                break;
            case ResaleMethod::straight_line:
                candidates.push_back(part + ".resale.life_years");
                candidates.push_back(part + ".resale.salvage_fraction");
                break;
            case ResaleMethod::price_performance:
                candidates.push_back(part + ".resale.half_life_years");
                break;
            case ResaleMethod::none:
            case ResaleMethod::observed:
                break;
        }
    }
    candidates.push_back(s.real_discount_rate ? "scenario.real_discount_rate" : "scenario.discount_rate");
    std::vector<std::string> keys;
    for (const auto& key : candidates)
        if (present(s, key)) keys.push_back(key);
    return keys;
}

TornadoResult tornado(const Scenario& s, const TornadoOptions& options) {
    TornadoResult r;
    const std::size_t cloud = against_index(s, options.against);
    r.against = s.clouds[cloud].name;
    if (!(options.relative_swing > 0.0 && options.relative_swing < 1.0))
        throw InputError(argument::tornado_swing, 0, "", fmt::format("must be in (0, 1), got {}", options.relative_swing));

    std::vector<TornadoInput> inputs = options.inputs;
    if (inputs.empty()) {
        if (!s.uncertainty.empty())
            for (const UncertainInput& u : s.uncertainty.inputs) inputs.push_back({u.key, std::nullopt});
        else
            for (const std::string& key : default_tornado_keys(s)) inputs.push_back({key, std::nullopt});
    }
    for (std::size_t i = 0; i < inputs.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (inputs[i].key == inputs[j].key) throw InputError(argument::tornado_key, 0, inputs[i].key, "is given twice");

    // Each input's low and high, and the savings there.
    const ExactSavings savings(s, cloud);
    r.base = savings.base();
    r.path_note = "exact: the scenario run alone with each input at its low and at its high";
    const std::string relative = fmt::format("+-{:g}%", options.relative_swing * 100.0);
    for (const TornadoInput& input : inputs) {
        TornadoBar bar;
        bar.key = input.key;
        bar.current = detail::numeric_key_value(s, input.key, argument::tornado_key);
        const auto uncertain = std::find_if(s.uncertainty.inputs.begin(), s.uncertainty.inputs.end(),
                                            [&](const UncertainInput& u) { return u.key == input.key; });
        // The savings at a value of the key: the base at its current value.
        const auto savings_at = [&](double value, std::string* problem) -> std::optional<double> {
            if (value == bar.current) return r.base;
            return savings.at(input.key, value, problem);
        };
        std::string problem;
        if (input.range) {
            std::tie(bar.low_value, bar.high_value) = *input.range;
            bar.source = "given";
            for (auto [end, metric] :
                 {std::pair(bar.low_value, &bar.metric_at_low), std::pair(bar.high_value, &bar.metric_at_high)}) {
                const auto value = savings_at(end, &problem);
                if (!value)
                    throw InputError(argument::tornado_key, 0, input.key, fmt::format("{} is not allowed: {}", end, problem));
                *metric = *value;
            }
        } else if (uncertain != s.uncertainty.inputs.end()) {
            bar.low_value = quantile(uncertain->distribution, 0.1);
            bar.high_value = quantile(uncertain->distribution, 0.9);
            bar.source = "P10/P90";
            for (auto [end, metric, name] : {std::tuple(bar.low_value, &bar.metric_at_low, "P10"),
                                             std::tuple(bar.high_value, &bar.metric_at_high, "P90")}) {
                const auto value = savings_at(end, &problem);
                if (!value)
                    throw InputError(s.source, uncertain->line, input.key,
                                     fmt::format("its {}, {}, is not allowed: {}", name, end, problem));
                *metric = *value;
            }
        } else {
            if (bar.current == 0.0)
                throw InputError(
                    argument::tornado_key, 0, input.key,
                    fmt::format("is 0, so {} moves it nowhere; give its range, {}=LO:HI", relative, input.key));
            bar.low_value = bar.current * (1.0 - options.relative_swing);
            bar.high_value = bar.current * (1.0 + options.relative_swing);
            if (bar.low_value > bar.high_value) std::swap(bar.low_value, bar.high_value);
            bar.source = relative;
            for (auto [end, metric] :
                 {std::pair(&bar.low_value, &bar.metric_at_low), std::pair(&bar.high_value, &bar.metric_at_high)}) {
                auto value = savings_at(*end, nullptr);
                if (!value) {
                    *end = savings.clip(input.key, bar.current, *end);
                    bar.source = relative + ", cut to the allowed values";
                    value = savings_at(*end, nullptr);
                    if (!value) throw std::logic_error("tornado: a clipped value is not admitted");
                }
                *metric = *value;
            }
        }
        bar.swing = std::abs(bar.metric_at_high - bar.metric_at_low);
        r.bars.push_back(std::move(bar));
    }
    std::stable_sort(r.bars.begin(), r.bars.end(),
                     [](const TornadoBar& a, const TornadoBar& b) { return a.swing > b.swing; });

    if (!s.uncertainty.empty() && options.samples > 0) {
        MonteCarloOptions mc_options;
        mc_options.samples = options.samples;
        mc_options.seed = options.seed;
        mc_options.histogram_bins = 1;
        const MonteCarloResult mc = montecarlo(s, mc_options);
        const auto found = std::find(mc.clouds.begin(), mc.clouds.end(), r.against);
        const std::vector<double>& metric =
            mc.metrics.npv_savings.at(static_cast<std::size_t>(found - mc.clouds.begin()));
        for (std::size_t k = 0; k < mc.keys.size(); ++k)
            r.global.push_back({mc.keys[k], spearman(mc.inputs.column(static_cast<int>(k)), metric)});
        std::stable_sort(r.global.begin(), r.global.end(), [](const GlobalRank& a, const GlobalRank& b) {
            if (std::isnan(a.rho) || std::isnan(b.rho)) return !std::isnan(a.rho) && std::isnan(b.rho);
            return std::abs(a.rho) > std::abs(b.rho);
        });
        r.samples = options.samples;
        r.seed = options.seed;
        r.global_path_note = mc.path_note;
    }
    return r;
}

}  // namespace payback
