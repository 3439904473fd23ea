// How a part plugs in, as the parts catalog and a scenario's [[rig.parts]] describe it: a board's PCIe
// slots and the link a GPU can use. What the links are worth to training is workload/scaling.hpp's.
#pragma once

namespace payback {

/// One direction's bandwidth of a PCIe link in GB/s: lanes × per-lane rate (gen 1 0.25, 2 0.5, 3 0.985,
/// 4 1.969, 5 3.938; benchmark-facts §5.2). Throws std::invalid_argument for a generation outside 1..5 or
/// lanes < 1.
double pcie_gb_per_s(int generation, int lanes);

struct PcieSlot {
    int generation = 3;
    int lanes = 16;  ///< electrical lanes, not the slot's length
};

struct GpuLink {
    int generation = 3;
    int lanes = 16;  ///< what the card can use (x8 on some mid-range cards)
};

}  // namespace payback
