#include "payback/whatif/sample_model.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>

#include <fmt/format.h>

#include "base/parallel.hpp"
#include "payback/base/error.hpp"
#include "payback/base/isa_dispatch.hpp"
#include "scenario/key_paths.hpp"
#include "whatif/evaluator.hpp"
#include "whatif/exact_evaluator.hpp"
#include "whatif/sample_state.hpp"
#include "whatif/superposed_evaluator.hpp"

namespace payback {

PAYBACK_ISA_DISPATCH(BatchKernels, batch_kernels)

MetricSelection MetricSelection::only(const std::vector<std::string>& names) {
    MetricSelection m{false, false, false, false, false, false};
    for (const std::string& name : names) {
        if (name == "total_cost") m.rig_total_cost = m.cloud_total_cost = true;
        else if (name == "rig_npv_cost") m.rig_npv_cost = true;
        else if (name == "npv_savings") m.npv_savings = true;
        else if (name == "payback_months") m.payback_months = true;
        else if (name == "discounted_payback_months") m.discounted_payback_months = true;
        else
            throw std::invalid_argument("unknown metric \"" + name + "\": expected total_cost, rig_npv_cost, "
                                        "npv_savings, payback_months or discounted_payback_months");
    }
    return m;
}

void SampleMetrics::resize(std::size_t clouds, std::size_t samples, const MetricSelection& selection, int threads) {
    std::vector<std::vector<double>*> columns;
    const auto column = [&](std::vector<double>& c, bool wanted) {
        c.clear();
        if (wanted) columns.push_back(&c);
    };
    const auto table = [&](std::vector<std::vector<double>>& t, bool wanted) {
        t.assign(wanted ? clouds : 0, {});
        for (auto& c : t) columns.push_back(&c);
    };
    column(rig_total_cost, selection.rig_total_cost);
    column(rig_npv_cost, selection.rig_npv_cost);
    table(cloud_total_cost, selection.cloud_total_cost);
    table(npv_savings, selection.npv_savings);
    table(payback_months, selection.payback_months);
    table(discounted_payback_months, selection.discounted_payback_months);
    const bool large = samples >= (std::size_t{1} << 16);  // else not worth starting a thread
    detail::parallel_for(columns.size(), [&](std::size_t i) { columns[i]->assign(samples, 0.0); },
                         large ? static_cast<std::size_t>(std::max(threads, 0)) : 1);
}

namespace {

std::vector<double> flatten(ModelInputs<double> in) {
    std::vector<double> out;
    for_each_field(in, [&](double& v) { out.push_back(v); });
    return out;
}

// Where `field` sits in for_each_field's order over `in`.
std::size_t field_index(ModelInputs<double>& in, const double* field) {
    std::size_t f = 0, found = 0;
    for_each_field(in, [&](double& x) {
        if (&x == field) found = f;
        ++f;
    });
    return found;
}

}  // namespace

// What a SampleModel measures about its keys (SampleState's findings), from which
// choose_evaluator() picks the evaluator (evaluator.hpp).
struct SampleModel::Impl : SampleState {
    ModelInputs<double> exact_inputs(const double* row) const { return payback::exact_inputs(*this, row); }

    // The lanes of the whole model do not hold: every sample is evaluated exactly.
    void go_exact(const std::string& why) {
        if (not_lanes.empty()) not_lanes = why;
        superposition.reset();
    }

    // Superposition does not hold: lanes of the whole model.
    void go_lanes(const std::string& why) {
        if (not_superposed.empty()) not_superposed = why;
        superposition.reset();
    }

    // A cloud's bill rounds (billing increments of a job, or a reserved commitment): it is not
    // multilinear in the hours and the price, so it is recomputed per sample.
    bool bill_rounds(std::size_t c) const {
        const CloudMode mode = scenario.clouds[c].mode;
        return scenario.job_hours || mode == CloudMode::reserved_1y || mode == CloudMode::reserved_3y;
    }

    bool moved(std::size_t f) const {
        for (const auto& s : slope)
            if (s[f] != 0.0) return true;
        for (const Cross& c : cross)
            if (c.per_field[f] != 0.0) return true;
        return false;
    }

    // Slopes of every input number in each key, and the cross term of each pair.
    void measure() {
        std::vector<double> row = current;
        std::vector<std::vector<double>> single(keys.size());
        std::vector<ModelInputs<double>> single_inputs, pair_inputs;
        std::vector<double> steps;
        for (std::size_t k = 0; k < keys.size(); ++k) {
            row = current;
            row[k] = probes[k];
            const ModelInputs<double> probe = exact_inputs(row.data());
            if (!same_structure(probe, base)) return go_exact(keys[k] + " changes the model's structure");
            single[k] = flatten(probe);
            single_inputs.push_back(probe);
            steps.push_back(probes[k] - current[k]);
            std::vector<double> s(v0.size());
            for (std::size_t f = 0; f < v0.size(); ++f) s[f] = (single[k][f] - v0[f]) / (probes[k] - current[k]);
            slope.push_back(std::move(s));
        }
        for (std::size_t i = 0; i < keys.size(); ++i)
            for (std::size_t j = i + 1; j < keys.size(); ++j) {
                row = current;
                row[i] = probes[i];
                row[j] = probes[j];
                pair_inputs.push_back(exact_inputs(row.data()));
                if (!same_structure(pair_inputs.back(), base))
                    return go_exact(keys[i] + " and " + keys[j] + " change the model's structure");
                const std::vector<double> both = flatten(pair_inputs.back());
                Cross c{i, j, std::vector<double>(v0.size(), 0.0)};
                bool any = false;
                const double di = probes[i] - current[i], dj = probes[j] - current[j];
                for (std::size_t f = 0; f < v0.size(); ++f) {
                    const double additive = single[i][f] + single[j][f] - v0[f];
                    if (close_enough(both[f], additive)) continue;
                    c.per_field[f] = (both[f] - additive) / (di * dj);
                    any = true;
                }
                if (any) cross.push_back(std::move(c));
            }
        // Cloud bills round to billing increments: recomputed per sample from the hours and price.
        for (std::size_t k = 0; k < keys.size(); ++k) {
            if (keys[k] == "workload.gpu_hours_per_month") hours_key = static_cast<int>(k);
            for (std::size_t c = 0; c < scenario.clouds.size(); ++c)
                if (keys[k] == fmt::format("cloud[{}].price_per_hour", c)) price_key[c] = static_cast<int>(k);
        }
        bill_per_sample.assign(spend_fields.size(), false);
        for (std::size_t c = 0; c < spend_fields.size(); ++c) {
            const std::size_t f = spend_fields[c];
            if (!bill_rounds(c)) continue;  // hours × price: the surrogate's slopes and cross term
            for (std::size_t k = 0; k < keys.size(); ++k) {
                if (slope[k][f] == 0.0) continue;
                if (static_cast<int>(k) != hours_key && static_cast<int>(k) != price_key[c])
                    return go_exact(keys[k] + " changes " + clouds[c] + "'s bill");
                bill_per_sample[c] = true;
            }
        }
        superpose(single_inputs, steps, pair_inputs);
    }

    // Superposition holds unless a key moves a number whose effect compounds (a rate, an
    // escalation, a loan or tax term: their effects are powers, kinks and products of flows, each
    // marked so in for_each_marked_field); a part's sale and a rounding bill are computed per
    // sample.
    void superpose(const std::vector<ModelInputs<double>>& single, const std::vector<double>& steps,
                   const std::vector<ModelInputs<double>>& pairs) {
        ModelInputs<double> in = base;  // the fields' addresses give their places in the flat list
        hours_field = field_index(in, &in.training_hours);
        for (auto& part : in.parts)
            part_fields.push_back({field_index(in, &part.cost), field_index(in, &part.resale.annual_rate),
                                   field_index(in, &part.resale.life_years),
                                   field_index(in, &part.resale.salvage_fraction),
                                   field_index(in, &part.resale.half_life_years)});
        std::string compounding;  // what the first compounding number a key moves is
        std::size_t f = 0;
        for_each_marked_field(in, [&](double& /*value*/, Response response, const char* what) {
            if (compounding.empty() && response == Response::compounding && moved(f)) compounding = what;
            ++f;
        });
        if (!compounding.empty()) return go_lanes("a key moves " + compounding);
        if (base.loan.term_months > 0)  // the loan is max(parts - down payment, 0): a kink
            for (const auto& at : part_fields)
                if (moved(at[0])) return go_lanes("a key moves the price of a part, and a loan pays for the parts");
        std::vector<NonlinearFlow> flows;
        for (std::size_t p = 0; p < part_fields.size(); ++p)
            for (std::size_t j = 1; j < part_fields[p].size(); ++j)
                if (moved(part_fields[p][j])) {
                    flows.push_back({NonlinearFlow::Kind::part_sale, p});
                    break;
                }
        for (std::size_t c = 0; c < bill_per_sample.size(); ++c)
            if (bill_per_sample[c]) flows.push_back({NonlinearFlow::Kind::cloud_bill, c});
        superposition = std::make_unique<Superposition>(base, std::move(flows), single, steps, pairs);
        if (!superposition->usable()) return go_lanes(superposition->why_not());
    }

    std::string describe(const double* row) const {
        std::string values;
        for (std::size_t k = 0; k < keys.size(); ++k) values += fmt::format("{}{} = {}", k ? ", " : "", keys[k], row[k]);
        return values;
    }
};

SampleModel::SampleModel(const Scenario& scenario, std::vector<std::string> keys, std::vector<double> probes)
    : impl_(std::make_unique<Impl>()) {
    Impl& m = *impl_;
    m.scenario = scenario;
    m.text = to_toml(scenario);
    m.keys = std::move(keys);
    m.probes = std::move(probes);
    if (m.probes.size() != m.keys.size()) throw std::invalid_argument("SampleModel: one probe per key");
    for (const auto& key : m.keys) m.current.push_back(detail::numeric_key_value(scenario, key, scenario.source));
    for (std::size_t k = 0; k < m.keys.size(); ++k)
        if (m.probes[k] == m.current[k])
            throw std::invalid_argument("SampleModel: the probe of " + m.keys[k] + " is its current value");
    for (const auto& cloud : scenario.clouds) m.clouds.push_back(cloud.name);
    m.price_key.assign(scenario.clouds.size(), -1);
    m.base = m.exact_inputs(m.current.data());
    m.v0 = flatten(m.base);
    // Where the cloud bills sit in the flat list: the last 3 numbers per cloud, spend first.
    for (std::size_t c = 0; c < scenario.clouds.size(); ++c)
        m.spend_fields.push_back(m.v0.size() - 3 * (scenario.clouds.size() - c));
    m.measure();
}

SampleModel::~SampleModel() = default;
SampleModel::SampleModel(SampleModel&&) noexcept = default;

const std::vector<std::string>& SampleModel::keys() const { return impl_->keys; }
const std::vector<double>& SampleModel::current() const { return impl_->current; }
const std::vector<std::string>& SampleModel::cloud_names() const { return impl_->clouds; }
bool SampleModel::fast() const { return impl_->not_lanes.empty(); }
std::string SampleModel::path_note() const { return choose_evaluator(*impl_).reason; }

bool SampleModel::verify(const std::vector<double>& rows) {
    Impl& m = *impl_;
    if (!m.not_lanes.empty()) return false;
    const std::size_t width = m.keys.size();
    const auto n = static_cast<Eigen::Index>(rows.size() / std::max<std::size_t>(width, 1));
    if (n == 0) return true;
    const ModelInputs<Lanes> surrogate = m.template lanes<Lanes>(rows.data(), n);
    for (Eigen::Index s = 0; s < n; ++s) {
        const double* row = rows.data() + static_cast<std::size_t>(s) * width;
        const ModelInputs<double> exact = m.exact_inputs(row);
        if (!same_structure(exact, m.base)) {
            m.go_exact("a sample changes the model's structure");
            return false;
        }
        const std::vector<double> want = flatten(exact);
        ModelInputs<Lanes> copy = surrogate;
        std::size_t f = 0;
        bool ok = true;
        for_each_field(copy, [&](Lanes& x) {
            ok = ok && close_enough(x[s], want[f]);
            ++f;
        });
        if (!ok) {
            m.go_exact("the model is not multilinear in these keys: it differs at " + m.describe(row));
            return false;
        }
        if (m.superposition && !SuperposedEvaluator(m).agrees(row, exact)) m.go_lanes("it differs at " + m.describe(row));
    }
    return true;
}

void SampleModel::check_admitted(const std::vector<double>& rows) const {
    const Impl& m = *impl_;
    const std::size_t width = m.keys.size();
    for (std::size_t k = 0; k < width; ++k) {
        double lo = INFINITY, hi = -INFINITY;
        for (std::size_t r = k; r < rows.size(); r += width) {
            lo = std::min(lo, rows[r]);
            hi = std::max(hi, rows[r]);
        }
        for (const double value : {lo, hi}) {
            if (!std::isfinite(value)) continue;
            std::vector<double> row = m.current;
            row[k] = value;
            try {
                (void)m.exact_inputs(row.data());
            } catch (const InputError& e) {
                throw InputError(m.scenario.source, 0, m.keys[k],
                                 fmt::format("a sample takes it to {}, which is not allowed: {}", value, e.message()));
            }
        }
    }
}

SampleMetrics SampleModel::evaluate(const std::vector<double>& rows, const EvaluationOptions& options) const {
    const Impl& m = *impl_;
    const std::size_t width = m.keys.size();
    const std::size_t samples = width ? rows.size() / width : 0;
    SampleMetrics out;
    out.resize(m.clouds.size(), samples, options.metrics, options.threads);
    const EvaluatorChoice chosen = choose_evaluator(m, options.superpose);
    const Evaluator& evaluator = *chosen.evaluator;
    const std::size_t chunk = static_cast<std::size_t>(std::max(1, options.chunk));
    const std::size_t chunks = (samples + chunk - 1) / chunk;
    // Each chunk writes its own samples only: the result is the same for any thread count.
    detail::parallel_for(
        chunks,
        [&](std::size_t c) {
            const std::size_t begin = c * chunk;
            evaluator.evaluate(rows.data(), begin, std::min(samples, begin + chunk), out);
        },
        static_cast<std::size_t>(std::max(options.threads, 0)), {options.progress, options.cancel});
    if (options.cancel && options.cancel->load()) throw Cancelled();
    return out;
}

SampleMetrics SampleModel::evaluate_exactly(const std::vector<double>& row) const {
    SampleMetrics out;
    out.resize(impl_->clouds.size(), 1);
    ExactEvaluator(*impl_).evaluate(row.data(), 0, 1, out);
    return out;
}

}  // namespace payback
