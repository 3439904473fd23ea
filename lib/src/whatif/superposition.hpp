// The batch's fastest path (DESIGN.md, "One engine"): a sample's metrics from the engine's own
// outputs at probe points, instead of a month of the model per sample.
//
// What the batch reports (each option's totals, and the operating gaps that the payback searches
// step through month by month) is multilinear in the sampled keys once the flows that are not are
// taken out and computed per sample: a part's resale value (a power of its depreciation rate) and
// a cloud bill that rounds. So a sample's outputs are
//     y0 + Σ slope·δ + Σ cross·δδ + Σ b·(φ − φ0)
// where δ are the keys' offsets from the scenario, φ those flows, and every coefficient is
// measured by running the engine: at the scenario, with each key at its probe, with each pair of
// keys at their probes, and with each flow moved. The paybacks are then found over the superposed
// gaps by GapSearch (gap_search.hpp), with the engine's own crossing rule. SampleModel checks the
// result against the exact model at sample rows before trusting it, and runs lanes of the whole
// model otherwise.
#pragma once

#include <string>
#include <vector>

#include "payback/model/metrics.hpp"
#include "payback/whatif/lanes.hpp"
#include "payback/whatif/sample_model.hpp"
#include "whatif/gap_search.hpp"

namespace payback {

/// A flow that is not multilinear in the keys: computed per sample, superposed with its effect.
struct NonlinearFlow {
    enum class Kind { part_sale, cloud_bill };
    Kind kind;
    std::size_t index;  ///< the part, or the cloud option
};

class Superposition {
public:
    /// `single[k]`: the inputs with key k at its probe, `step[k]` its probe minus its current
    /// value; `pair`: keys i < j both at their probes, in the order (0,1), (0,2), ..., (1,2), ...
    /// usable() says whether every flow's effect could be measured.
    Superposition(const ModelInputs<double>& base, std::vector<NonlinearFlow> flows,
                  const std::vector<ModelInputs<double>>& single, const std::vector<double>& step,
                  const std::vector<ModelInputs<double>>& pair);

    bool usable() const { return why_not_.empty(); }
    const std::string& why_not() const { return why_not_; }
    const std::vector<NonlinearFlow>& flows() const { return flows_; }

    /// The metrics of the first `n` lanes of a block of samples, into samples `offset`... of
    /// `out`, for the metrics `out` holds (sized by SampleMetrics::resize): `delta[k]` is key k's
    /// offset from its current value, `flow[n]` the value of flows()[n].
    void evaluate(const std::vector<LaneBlock>& delta, const std::vector<LaneBlock>& flow, SampleMetrics& out,
                  std::size_t offset, Eigen::Index n) const;

private:
    /// One total's nonzero coefficients, over the features [1, δ..., δiδj..., φ − φ0...].
    struct Terms {
        std::vector<int> feature;
        std::vector<double> coefficient;
    };
    LaneBlock value(const Terms& terms, const std::vector<LaneBlock>& features) const;

    std::vector<NonlinearFlow> flows_;
    std::vector<double> flow_at_base_;
    std::size_t keys_ = 0, clouds_ = 0;
    int months_ = 0;
    std::vector<Terms> totals_;  ///< the rig's total and NPV cost, then each cloud's total cost and NPV savings
    std::vector<GapSearch> searches_;  ///< per cloud: the payback's, then the discounted payback's
    std::string why_not_;
};

}  // namespace payback
