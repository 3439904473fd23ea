// The answer in a sentence, for the program, the report and the Python package alike: which side wins
// the pair the answer is about (cost_breakdown.hpp's headline_pair), by how much in present value, and
// what decides it: running costs a month against the capital the rig takes.
#pragma once

#include <string>

#include "payback/model/comparison.hpp"
#include "payback/scenario/scenario.hpp"

namespace payback {

/// "Build: over 36 months the rig costs 1,234 USD less in present value than the cheapest cloud
/// option (...), and pays for itself in 14.2 months." or "Rent ...".
std::string verdict(const Comparison& comparison, const Scenario& scenario);

/// What decides the pair, from its cash flows (undiscounted): each side's running cost a month, how
/// many months the difference takes to recover the rig's parts, and what selling them gives back.
std::string biggest_reason(const Scenario& scenario, const Comparison& comparison, const VersusResult& pair);

}  // namespace payback
