// A validated Scenario as the engine's plain numbers in canonical units (engine.hpp). The unpacking
// lives here, apart from the engine, so that the month model needs nothing but base and finance.
#pragma once

#include "payback/model/engine.hpp"
#include "payback/scenario/scenario.hpp"

namespace payback {

struct RigEnergy;

/// Converts a validated scenario to canonical plain numbers.
ModelInputs<double> model_inputs(const Scenario& scenario);
/// The same, with the rig's energy already worked out (rig_energy.hpp).
ModelInputs<double> model_inputs(const Scenario& scenario, const RigEnergy& energy);

}  // namespace payback
