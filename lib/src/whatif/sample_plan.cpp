#include "payback/whatif/sample_plan.hpp"

#include <stdexcept>

namespace payback {

SampleModel SamplePlan::model(const Scenario& scenario) const {
    SampleModel m(scenario, keys, probes);
    m.check_admitted(rows.values);
    m.verify(checks);
    return m;
}

SamplePlan SamplePlan::part(int first, int count) const {
    if (first < 0 || count < 0 || first + count > rows.samples) throw std::out_of_range("SamplePlan::part: rows out of range");
    SamplePlan p{keys, {}, probes, checks};
    p.rows.samples = count;
    p.rows.inputs = rows.inputs;
    const auto width = static_cast<std::ptrdiff_t>(rows.inputs);
    p.rows.values.assign(rows.values.begin() + first * width, rows.values.begin() + (first + count) * width);
    return p;
}

}  // namespace payback
