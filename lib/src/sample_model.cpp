#include "payback/sample_model.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "payback/cloud_cost.hpp"
#include "payback/error.hpp"
#include "payback/input_fields.hpp"
#include "payback/lanes.hpp"
#include "payback/metrics.hpp"
#include "key_paths.hpp"

namespace payback {

bool same_structure(const ModelInputs<double>& a, const ModelInputs<double>& b) {
    if (a.horizon_months != b.horizon_months || a.energy_kwh.size() != b.energy_kwh.size() ||
        a.rental_income.size() != b.rental_income.size() || a.parts.size() != b.parts.size() ||
        a.clouds.size() != b.clouds.size() || a.loan.term_months != b.loan.term_months)
        return false;
    for (std::size_t p = 0; p < a.parts.size(); ++p) {
        const auto &x = a.parts[p], &y = b.parts[p];
        if (x.purchase_month != y.purchase_month || x.sell_month != y.sell_month ||
            x.resale.method != y.resale.method || x.tax_depreciation != y.tax_depreciation ||
            x.wear_kept != y.wear_kept || x.resale.observed_fraction != y.resale.observed_fraction)
            return false;
    }
    return true;
}

void SampleMetrics::resize(std::size_t clouds, std::size_t samples) {
    rig_total_cost.assign(samples, 0.0);
    rig_npv_cost.assign(samples, 0.0);
    for (auto* table : {&cloud_total_cost, &npv_savings, &payback_months, &discounted_payback_months})
        table->assign(clouds, std::vector<double>(samples, 0.0));
}

namespace {

std::vector<double> flatten(ModelInputs<double> in) {
    std::vector<double> out;
    for_each_field(in, [&](double& v) { out.push_back(v); });
    return out;
}

// Two evaluations of one input number agree: within 1e-9 of the larger, or 1e-9 absolute near 0.
bool close(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)}); }

template <class T>
double at(const T& v, Eigen::Index i) {
    if constexpr (std::is_same_v<T, double>) return v;
    else return v[i];
}

// Copies lane `i` of `m` (or the scalar) to sample `offset + i` of `out`.
template <class T>
void store(const Metrics<T>& m, SampleMetrics& out, std::size_t offset, Eigen::Index lanes) {
    for (Eigen::Index i = 0; i < lanes; ++i) {
        const std::size_t s = offset + static_cast<std::size_t>(i);
        out.rig_total_cost[s] = at(m.rig.total_cost, i);
        out.rig_npv_cost[s] = at(m.rig.npv_cost, i);
        for (std::size_t c = 0; c < m.clouds.size(); ++c) {
            out.cloud_total_cost[c][s] = at(m.clouds[c].total_cost, i);
            out.npv_savings[c][s] = at(m.versus[c].npv_savings, i);
            out.payback_months[c][s] = at(m.versus[c].payback_months, i);
            out.discounted_payback_months[c][s] = at(m.versus[c].discounted_payback_months, i);
        }
    }
}

}  // namespace

struct SampleModel::Impl {
    Scenario scenario;
    std::string text;  ///< the resolved scenario, parsed again with a sample's keys set
    std::vector<std::string> keys;
    std::vector<double> current;
    std::vector<double> probes;
    std::vector<std::string> clouds;
    ModelInputs<double> base;
    std::vector<double> v0;
    std::vector<std::vector<double>> slope;  ///< [key][field]
    struct Cross {
        std::size_t i, j;
        std::vector<double> per_field;
    };
    std::vector<Cross> cross;
    std::vector<std::size_t> spend_fields;  ///< where each cloud's spend_per_month sits in the flat list
    int hours_key = -1;
    std::vector<int> price_key;  ///< per cloud: the key of its price_per_hour, or -1
    bool spend_per_sample = false;
    bool fast = true;
    std::string note;

    std::vector<Override> overrides(const double* row) const {
        std::vector<Override> out;
        for (std::size_t k = 0; k < keys.size(); ++k) out.push_back({keys[k], fmt::format("{:.17g}", row[k])});
        return out;
    }

    ModelInputs<double> exact_inputs(const double* row) const {
        return model_inputs(parse_scenario(text, scenario.source, overrides(row)));
    }

    void go_exact(std::string why) {
        fast = false;
        note = "exact: every sample parsed and run alone (" + why + ")";
    }

    // Slopes of every input number in each key, and the cross term of each pair.
    void measure() {
        std::vector<double> row = current;
        std::vector<std::vector<double>> single(keys.size());
        for (std::size_t k = 0; k < keys.size(); ++k) {
            row = current;
            row[k] = probes[k];
            const ModelInputs<double> probe = exact_inputs(row.data());
            if (!same_structure(probe, base)) return go_exact(keys[k] + " changes the model's structure");
            single[k] = flatten(probe);
            std::vector<double> s(v0.size());
            for (std::size_t f = 0; f < v0.size(); ++f) s[f] = (single[k][f] - v0[f]) / (probes[k] - current[k]);
            slope.push_back(std::move(s));
        }
        for (std::size_t i = 0; i < keys.size(); ++i)
            for (std::size_t j = i + 1; j < keys.size(); ++j) {
                row = current;
                row[i] = probes[i];
                row[j] = probes[j];
                const std::vector<double> both = flatten(exact_inputs(row.data()));
                Cross c{i, j, std::vector<double>(v0.size(), 0.0)};
                bool any = false;
                const double di = probes[i] - current[i], dj = probes[j] - current[j];
                for (std::size_t f = 0; f < v0.size(); ++f) {
                    const double additive = single[i][f] + single[j][f] - v0[f];
                    if (close(both[f], additive)) continue;
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
        for (std::size_t c = 0; c < spend_fields.size(); ++c) {
            const std::size_t f = spend_fields[c];
            for (std::size_t k = 0; k < keys.size(); ++k) {
                if (slope[k][f] == 0.0) continue;
                if (static_cast<int>(k) != hours_key && static_cast<int>(k) != price_key[c])
                    return go_exact(keys[k] + " changes " + clouds[c] + "'s bill");
                spend_per_sample = true;
            }
        }
    }

    // The inputs of `n` samples as lanes L (dynamic, or a fixed block padded with the last row):
    // base + Σ slope·δ + Σ cross·δδ, cloud bills exactly.
    template <class L>
    ModelInputs<L> lanes(const double* rows, Eigen::Index n) const {
        const std::size_t width = keys.size();
        const Eigen::Index size = L::SizeAtCompileTime == Eigen::Dynamic ? n : Eigen::Index{L::SizeAtCompileTime};
        const auto row_of = [&](Eigen::Index s) { return rows + static_cast<std::size_t>(std::min(s, n - 1)) * width; };
        std::vector<L> delta(width, L::Zero(size));
        for (Eigen::Index s = 0; s < size; ++s)
            for (std::size_t k = 0; k < width; ++k) delta[k][s] = row_of(s)[k] - current[k];
        ModelInputs<L> in = structure<L>();
        std::size_t f = 0;
        for_each_field(in, [&](L& x) {
            x = L::Constant(size, v0[f]);
            for (std::size_t k = 0; k < width; ++k)
                if (slope[k][f] != 0.0) x += slope[k][f] * delta[k];
            for (const Cross& c : cross)
                if (c.per_field[f] != 0.0) x += c.per_field[f] * delta[c.i] * delta[c.j];
            ++f;
        });
        if (spend_per_sample)
            for (std::size_t c = 0; c < scenario.clouds.size(); ++c) {
                CloudOption cloud = scenario.clouds[c];
                const double price = units::in_money_per_hour(cloud.price);
                for (Eigen::Index s = 0; s < size; ++s) {
                    cloud.price = units::money_per_hour(price_key[c] >= 0 ? row_of(s)[price_key[c]] : price);
                    in.clouds[c].spend_per_month[s] = cloud_month(scenario, cloud, in.training_hours[s]).spend;
                }
            }
        return in;
    }

    // The base's structure (months, parts' timing and methods) with lanes of type L for numbers.
    template <class L>
    ModelInputs<L> structure() const {
        ModelInputs<L> out;
        out.horizon_months = base.horizon_months;
        out.energy_kwh.resize(base.energy_kwh.size());
        out.energy_cost.resize(base.energy_cost.size());
        out.rental_income.resize(base.rental_income.size());
        out.rental_fees.resize(base.rental_fees.size());
        out.loan.term_months = base.loan.term_months;
        for (const PartInputs<double>& p : base.parts) {
            PartInputs<L> part;
            for (L* x : {&part.cost, &part.resale.annual_rate, &part.resale.life_years, &part.resale.salvage_fraction,
                         &part.resale.half_life_years})
                x->setZero();  // lanes() sets every number; fixed blocks start undefined
            part.purchase_month = p.purchase_month;
            part.sell_month = p.sell_month;
            part.tax_depreciation = p.tax_depreciation;
            part.wear_kept = p.wear_kept;
            part.resale.method = p.resale.method;
            part.resale.observed_fraction = p.resale.observed_fraction;
            out.parts.push_back(std::move(part));
        }
        out.clouds.resize(base.clouds.size());
        return out;
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
    m.note = "fast: lanes of samples, from the exact model's response to each key";
    m.measure();
}

SampleModel::~SampleModel() = default;
SampleModel::SampleModel(SampleModel&&) noexcept = default;

const std::vector<std::string>& SampleModel::keys() const { return impl_->keys; }
const std::vector<double>& SampleModel::current() const { return impl_->current; }
const std::vector<std::string>& SampleModel::cloud_names() const { return impl_->clouds; }
bool SampleModel::fast() const { return impl_->fast; }
std::string SampleModel::path_note() const { return impl_->note; }

bool SampleModel::verify(const std::vector<double>& rows) {
    Impl& m = *impl_;
    if (!m.fast) return false;
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
            ok = ok && close(x[s], want[f]);
            ++f;
        });
        if (!ok) {
            std::string values;
            for (std::size_t k = 0; k < width; ++k) values += fmt::format("{}{} = {}", k ? ", " : "", m.keys[k], row[k]);
            m.go_exact("the model is not multilinear in these keys: it differs at " + values);
            return false;
        }
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
    out.resize(m.clouds.size(), samples);
    const std::size_t chunk = static_cast<std::size_t>(std::max(1, options.chunk));
    const std::size_t chunks = (samples + chunk - 1) / chunk;
    std::atomic<std::size_t> next{0}, done{0};
    std::atomic<bool> stop{false};
    std::exception_ptr failure;
    std::mutex failure_lock;
    // Each chunk writes its own samples only: the result is the same for any thread count.
    const auto work = [&](bool report) {
        try {
            for (std::size_t c; (c = next.fetch_add(1)) < chunks && !stop;) {
                if (options.cancel && options.cancel->load()) {
                    stop = true;
                    break;
                }
                const std::size_t begin = c * chunk, end = std::min(samples, begin + chunk);
                if (m.fast) {  // in fixed blocks of lanes, the last one padded
                    for (std::size_t s = begin; s < end; s += LaneBlock::SizeAtCompileTime) {
                        const auto n = static_cast<Eigen::Index>(
                            std::min<std::size_t>(LaneBlock::SizeAtCompileTime, end - s));
                        store(payback::evaluate(m.template lanes<LaneBlock>(rows.data() + s * width, n), false), out, s, n);
                    }
                } else {
                    for (std::size_t s = begin; s < end; ++s)
                        store(payback::evaluate(m.exact_inputs(rows.data() + s * width), false), out, s, 1);
                }
                done += 1;
                if (report && options.progress) options.progress(static_cast<double>(done) / chunks);
            }
        } catch (...) {
            std::lock_guard lock(failure_lock);
            if (!failure) failure = std::current_exception();
            stop = true;
        }
    };
    const unsigned hardware = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t threads =
        std::min<std::size_t>(options.threads > 0 ? static_cast<std::size_t>(options.threads) : hardware,
                              std::max<std::size_t>(chunks, 1));
    std::vector<std::thread> helpers;
    for (std::size_t t = 1; t < threads; ++t) helpers.emplace_back(work, false);
    work(true);
    for (auto& h : helpers) h.join();
    if (failure) std::rethrow_exception(failure);
    if (options.cancel && options.cancel->load()) throw Cancelled();
    return out;
}

SampleMetrics SampleModel::evaluate_exactly(const std::vector<double>& row) const {
    SampleMetrics out;
    out.resize(impl_->clouds.size(), 1);
    store(payback::evaluate(impl_->exact_inputs(row.data()), false), out, 0, 1);
    return out;
}

}  // namespace payback
