// Energy counters read around a timed run: the CPU package through Linux powercap (RAPL) and the GPU
// through NVML's total-energy counter (Volta and newer, loaded with dlopen so that no NVIDIA library is
// needed to build or run). A counter that cannot be read says why; it is never guessed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace payback::bench {

class EnergyMeter {
public:
    virtual ~EnergyMeter() = default;
    virtual bool available() const = 0;
    virtual std::string unavailable_reason() const = 0;  ///< empty when available
    virtual std::string describe() const = 0;            ///< "RAPL package-0, package-1", "NVML GPU 0"
    virtual void start() = 0;
    /// Joules since start(); nullopt when unavailable or the window was too short to see a change.
    virtual std::optional<double> stop() = 0;
};

/// Package domains under `powercap_root` (default /sys/class/powercap), intel-rapl and the
/// intel-rapl-mmio duplicates collapsed by name, one wrap-around per domain corrected with
/// max_energy_range_uj.
std::unique_ptr<EnergyMeter> make_rapl_meter(const std::string& powercap_root = "/sys/class/powercap");

/// GPU `index`'s NVML energy counter (mJ).
std::unique_ptr<EnergyMeter> make_nvml_meter(int index = 0);

}  // namespace payback::bench
