// The batch's ways to evaluate samples, each a named evaluator behind one interface (as QuantLib's
// pricing engines are): a SampleModel measures how its keys act on the model (sample_model.cpp),
// and choose_evaluator() picks the fastest evaluator that holds, saying why. The reason is the
// model's path_note(), shown by montecarlo --json and sweep --json as "path".
//
//   - ExactEvaluator (exact_evaluator.hpp): each sample's scenario parsed with its keys set and
//     run through the scalar engine alone. Always right; the slowest.
//   - LanesEvaluator (lanes_evaluator.hpp): a block of samples' inputs as base + Σ slope·δ +
//     Σ cross·δδ, run through the engine on lanes of samples. Holds where every input number is
//     multilinear in the keys (checked at sample rows).
//   - SuperposedEvaluator (superposed_evaluator.hpp): a sample's metrics from the engine's outputs
//     at probe points (superposition.hpp), no month run per sample. Holds where, besides, the keys
//     move only numbers that act linearly or through a part's sale (Response, input_fields.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <memory>
#include <string>

#include "payback/whatif/lanes.hpp"
#include "payback/whatif/sample_model.hpp"

namespace payback {

struct SampleState;

/// One way to compute the metrics of samples.
class Evaluator {
public:
    Evaluator() = default;
    Evaluator(const Evaluator&) = delete;
    Evaluator& operator=(const Evaluator&) = delete;
    Evaluator(Evaluator&&) = delete;
    Evaluator& operator=(Evaluator&&) = delete;
    virtual ~Evaluator() = default;

    /// "exact", "lanes" or "superposed".
    virtual const char* name() const = 0;

    /// The metrics of samples [begin, end) of `rows` (row-major, the state's keys wide) into the
    /// same samples of `out` (sized by SampleMetrics::resize), for the metrics `out` holds. Called
    /// on many threads at once for disjoint ranges; the result does not depend on the ranges.
    virtual void evaluate(const double* rows, std::size_t begin, std::size_t end, SampleMetrics& out) const = 0;
};

/// An evaluator and why it was chosen: a sentence that starts with "exact" or "fast".
struct EvaluatorChoice {
    std::unique_ptr<const Evaluator> evaluator;
    std::string reason;
};

/// The fastest evaluator that holds for `state` (its findings: not_lanes, not_superposed, the
/// superposition): superposed where it holds and `superpose` allows it (false: the tests compare
/// it with lanes), else lanes where the model is multilinear in the keys, else exact. The
/// evaluator refers to `state`, which must outlive it.
EvaluatorChoice choose_evaluator(const SampleState& state, bool superpose = true);

/// Whether two evaluations of one number agree: within 1e-9 of the larger, or 1e-9 absolute near 0.
inline bool close_enough(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(a), std::abs(b)});
}

/// Calls `block(s, n)` for each block of up to a LaneBlock of samples in [begin, end): s its first
/// sample, n its samples (the last block may be short; the kernels pad it).
template <class Block>
void for_each_block(std::size_t begin, std::size_t end, Block&& block) {
    constexpr auto size = static_cast<std::size_t>(LaneBlock::SizeAtCompileTime);
    for (std::size_t s = begin; s < end; s += size)
        block(s, static_cast<Eigen::Index>(std::min(size, end - s)));
}

}  // namespace payback
