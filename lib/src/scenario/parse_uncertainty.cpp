// [uncertainty]: a distribution for any numeric key of the scenario, and rank correlations.
// The keys themselves are checked against the resolved scenario once it is read (key_paths.hpp).
#include <fmt/format.h>

#include "scenario/scenario_readers.hpp"

namespace payback::detail {
namespace {

enum class Shape { uniform, normal, lognormal, triangular, pert, discrete };

const std::vector<std::pair<std::string, Shape>> shapes = {
    {"uniform", Shape::uniform},       {"normal", Shape::normal}, {"lognormal", Shape::lognormal},
    {"triangular", Shape::triangular}, {"pert", Shape::pert},     {"discrete", Shape::discrete}};

std::optional<double> maybe(const TomlReader& in, std::string_view key) {
    if (!in.contains(key)) return std::nullopt;
    return in.number(key);
}

Distribution read_distribution(const TomlReader& in) {
    Distribution d;
    switch (in.choice<Shape>("dist", shapes)) {
        case Shape::uniform: d.shape = dist::Uniform{in.number("low"), in.number("high")}; break;
        case Shape::normal:
            d.shape = dist::Normal{in.number("mean"), in.number("sd"), maybe(in, "low"),
                                   maybe(in, "high")};
            break;
        case Shape::lognormal:
            d.shape = dist::Lognormal{maybe(in, "median"), maybe(in, "sigma"), maybe(in, "mean"),
                                      maybe(in, "sd"),     maybe(in, "low"),   maybe(in, "high")};
            break;
        case Shape::triangular:
            d.shape = dist::Triangular{in.number("low"), in.number("mode"),
                                       in.number("high")};
            break;
        case Shape::pert:
            d.shape = dist::Pert{in.number("low"), in.number("mode"),
                                 in.number("high"), in.number_or("lambda")};
            break;
        case Shape::discrete: {
            dist::Discrete discrete{in.numbers("values"), {}};
            if (in.contains("weights")) discrete.weights = in.numbers("weights");
            d.shape = std::move(discrete);
            break;
        }
    }
    if (const std::string problem = check(d); !problem.empty()) throw in.error("dist", problem);
    in.finish();
    return d;
}

}  // namespace

Uncertainty read_uncertainty(const TomlReader& root) {
    Uncertainty u;
    const auto in = root.table("uncertainty", false);
    if (!in) return u;
    for (const std::string& key : in->keys()) {
        if (key == "correlations") continue;
        const auto table = in->table(key, true);
        u.inputs.push_back({key, read_distribution(*table), in->line_of(key)});
    }
    if (in->contains("correlations")) {
        for (const auto& c : in->array_of_tables("correlations", true)) {
            const auto between = c.strings("between");
            if (between.size() != 2 || between[0] == between[1])
                throw c.error("between", "expected two different uncertain keys, [\"a\", \"b\"]");
            for (const auto& key : between) {
                const bool known = std::any_of(u.inputs.begin(), u.inputs.end(),
                                               [&](const UncertainInput& i) { return i.key == key; });
                if (!known) throw c.error("between", "\"" + key + "\" has no distribution in [uncertainty]");
            }
            const double rank = c.number("rank");
            if (rank <= -1.0 || rank >= 1.0) throw c.error("rank", fmt::format("must be in (-1, 1), got {}", rank));
            u.correlations.push_back({between[0], between[1], rank});
            c.finish();
        }
    }
    in->finish();
    return u;
}

}  // namespace payback::detail

namespace payback {

std::vector<std::vector<double>> Uncertainty::rank_matrix() const {
    if (correlations.empty()) return {};
    const std::size_t n = inputs.size();
    std::vector<std::vector<double>> m(n, std::vector<double>(n, 0.0));
    const auto index = [&](const std::string& key) {
        for (std::size_t i = 0; i < n; ++i)
            if (inputs[i].key == key) return i;
        return n;
    };
    for (std::size_t i = 0; i < n; ++i) m[i][i] = 1.0;
    for (const auto& c : correlations) {
        const std::size_t a = index(c.a), b = index(c.b);
        m[a][b] = m[b][a] = c.rank;
    }
    return m;
}

}  // namespace payback
