#include "payback/scenario/rig_links.hpp"

#include <algorithm>
#include <vector>

namespace payback {

RigScaling rig_scaling(const Scenario& s) {
    RigScaling out;
    GpuLink card;
    int cpu_lanes = 0;
    double nvlink = 0.0;
    std::vector<PcieSlot> slots;
    for (const Part& part : s.rig.parts) {
        if (part.kind == PartKind::gpu) {
            out.gpus += part.count;
            if (part.pcie) card = *part.pcie;
            nvlink = std::max(nvlink, part.nvlink_gb_per_s);
        }
        if (part.pcie_lanes) cpu_lanes += *part.pcie_lanes * part.count;
        slots.insert(slots.end(), part.pcie_slots.begin(), part.pcie_slots.end());
    }
    if (out.gpus <= 1) {
        out.efficiency = 1.0;
        return out;
    }
    std::vector<PcieSlot> links(static_cast<std::size_t>(out.gpus), PcieSlot{card.generation, card.lanes});
    if (!slots.empty() && cpu_lanes > 0) links = wire_gpus(out.gpus, card, slots, cpu_lanes).slots_used;
    double bandwidth = ring_bandwidth_bytes_per_s(links);
    if (nvlink > 0 && out.gpus == 2) bandwidth = std::max(bandwidth, nvlink * 1e9);  // a bridge joins a pair
    out.link_gb_per_s = bandwidth / 1e9;
    out.efficiency = fitted_efficiency(out.gpus, default_scaling_workload(), bandwidth, published_fit());
    return out;
}

}  // namespace payback
