// The scenario's rig on its links: its GPUs, the PCIe slots and lanes its parts give them, and what
// the data-parallel model of workload/rig_scaling.hpp makes of that.
#pragma once

#include "payback/scenario/scenario.hpp"
#include "payback/workload/rig_scaling.hpp"

namespace payback {

/// The rig's GPUs on their links: an NVLink bridge between two cards when given, else the PCIe links
/// the wiring gives them (a full x16 link of generation 3 when the scenario does not describe it).
RigScaling rig_scaling(const Scenario& s);

}  // namespace payback
