#include "payback/market/pcie.hpp"

#include <stdexcept>

#include <fmt/format.h>

namespace payback {

double pcie_gb_per_s(int generation, int lanes) {
    // GB/s per lane and direction after line coding (8b/10b for gen 1-2, 128b/130b from gen 3).
    static constexpr double per_lane[] = {0.25, 0.5, 0.985, 1.969, 3.938};
    if (generation < 1 || generation > 5) {
        throw std::invalid_argument(fmt::format("PCIe generation {} is not 1..5", generation));
    }
    if (lanes < 1) throw std::invalid_argument(fmt::format("PCIe lanes {} is not positive", lanes));
    return per_lane[generation - 1] * lanes;
}

}  // namespace payback
