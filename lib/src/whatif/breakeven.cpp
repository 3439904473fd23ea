#include "payback/whatif/breakeven.hpp"

#include <algorithm>
#include <cmath>

#include <boost/math/tools/toms748_solve.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <toml++/toml.h>

#include "payback/base/arguments.hpp"
#include "payback/base/conventions.hpp"
#include "payback/base/error.hpp"
#include "payback/base/format.hpp"
#include "payback/base/suggest.hpp"
#include "payback/model/metrics.hpp"
#include "payback/model/model_inputs.hpp"
#include "scenario/key_paths.hpp"

namespace payback {

namespace {

// npv_savings against one cloud option with the key set to a value; InputError when the
// value is not admitted.
class Objective {
public:
    Objective(const Scenario& s, std::string key, std::size_t cloud)
        : text_(to_toml(s)), source_(s.source), prices_(s.prices), key_(std::move(key)), cloud_(cloud) {}

    double operator()(double value) const {
        const Scenario s = parse_scenario(text_, source_, {{key_, fmt::format("{}", value)}}, prices_);
        return evaluate(model_inputs(s)).versus.at(cloud_).npv_savings;
    }

    bool admits(double value) const {
        try {
            (*this)(value);
            return true;
        } catch (const InputError&) {
            return false;
        }
    }

    // The admitted value nearest `wanted` on the way from `admitted` (which the key admits).
    double clip(double admitted, double wanted) const {
        if (admits(wanted)) return wanted;
        double good = admitted, bad = wanted;
        for (int i = 0; i < 60; ++i) {
            const double middle = 0.5 * (good + bad);
            (admits(middle) ? good : bad) = middle;
        }
        return good;
    }

private:
    std::string text_;
    std::string source_;
    PriceChoice prices_;  // a re-read takes the same prices
    std::string key_;
    std::size_t cloud_;
};

std::size_t cloud_index(const Scenario& s, const BreakevenQuery& query) {
    if (s.clouds.empty()) throw InputError(s.source, 0, "cloud", "no cloud options to break even against");
    if (query.against) {
        for (std::size_t i = 0; i < s.clouds.size(); ++i)
            if (s.clouds[i].name == *query.against) return i;
        std::vector<std::string> names;
        for (const auto& c : s.clouds) names.push_back(c.name);
        const std::string hint = detail::closest_match(*query.against, names);
        if (!hint.empty())
            throw InputError(argument::cloud_option, 0, "", fmt::format("no cloud option named \"{}\"; did you mean \"{}\"?",
                                                             *query.against, hint));
        throw InputError(argument::cloud_option, 0, "", fmt::format("no cloud option named \"{}\"; the cloud options are \"{}\"",
                                                         *query.against, fmt::join(names, "\", \"")));
    }
    const auto m = evaluate(model_inputs(s));
    std::size_t closest = 0;
    for (std::size_t i = 1; i < m.versus.size(); ++i)
        if (m.versus[i].npv_savings < m.versus[closest].npv_savings) closest = i;
    return closest;
}

std::string describe(const BreakevenResult& r, const std::string& currency) {
    const std::string savings_low = format_amount(r.savings_at_low), savings_high = format_amount(r.savings_at_high);
    if (!r.value)
        return fmt::format("No break-even for {} between {} and {}: building {} {} over the whole range "
                           "(NPV savings {} {} to {} {}).",
                           r.key, r.range.first, r.range.second, r.savings_at_low > 0 ? "beats" : "loses to",
                           r.against, savings_low, currency, savings_high, currency);
    const bool building_wins_below = r.savings_at_low > 0 || (r.savings_at_low == 0 && r.savings_at_high < 0);
    return fmt::format("Building and renting {} cost the same in present value at {} = {:.6g}; building wins {} it{}.",
                       r.against, r.key, *r.value, building_wins_below ? "below" : "above",
                       r.more_roots ? ", up to a further break-even higher in the range" : "");
}

}  // namespace

BreakevenResult breakeven(const Scenario& s, const BreakevenQuery& query) {
    BreakevenResult r;
    r.key = query.key;
    r.current = detail::numeric_key_value(s, query.key, argument::breakeven_key);
    const std::size_t cloud = cloud_index(s, query);
    r.against = s.clouds[cloud].name;
    const Objective savings(s, query.key, cloud);

    if (query.range) {
        r.range = *query.range;
        if (!(r.range.first < r.range.second))
            throw InputError(argument::breakeven_range, 0, query.key, fmt::format("expected LO < HI, got {}:{}", r.range.first,
                                                                 r.range.second));
        for (double end : {r.range.first, r.range.second}) try {
                savings(end);
            } catch (const InputError& e) {
                throw InputError(argument::breakeven_range, 0, query.key, fmt::format("{} is not allowed: {}", end, e.message()));
            }
    } else if (query.key == "workload.gpu_hours_per_month") {
        r.range = {0.0, conventions::hours_per_month};
    } else if (r.current > 0.0) {
        r.range = {savings.clip(r.current, 0.0), savings.clip(r.current, 10.0 * r.current)};
    } else {  // zero or a cut (-0.44 a year): search both signs, as far as the key allows
        const double reach = r.current == 0.0 ? 1.0 : -10.0 * r.current;
        r.range = {savings.clip(r.current, -reach), savings.clip(r.current, reach)};
    }

    // Scan for the first sign change (the objective need not be monotonic), then refine it.
    constexpr int steps = 32;
    const auto [lo, hi] = r.range;
    double a = lo, f_a = savings(lo);
    r.savings_at_low = f_a;
    r.savings_at_high = savings(hi);
    for (int i = 1; i <= steps; ++i) {
        const double b = i == steps ? hi : lo + (hi - lo) * i / steps;
        const double f_b = i == steps ? r.savings_at_high : savings(b);
        if (r.value) {
            if ((f_a < 0.0) != (f_b < 0.0) && f_b != 0.0) r.more_roots = true;
        } else if (f_a == 0.0) {
            r.value = a;
        } else if (f_b == 0.0) {
            r.value = b;
        } else if ((f_a < 0.0) != (f_b < 0.0)) {
            std::uintmax_t iterations = 100;
            const auto [x, y] = boost::math::tools::toms748_solve(
                savings, a, b, f_a, f_b, boost::math::tools::eps_tolerance<double>(48), iterations);
            r.value = 0.5 * (x + y);
        }
        a = b;
        f_a = f_b;
    }
    r.message = describe(r, s.currency);
    if (s.rental) r.message += " (The rig renting out its idle hours, as the scenario's [rental] has it.)";
    return r;
}

}  // namespace payback
