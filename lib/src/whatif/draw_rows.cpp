// The draw's hot path (draw_kernels.hpp), compiled once per instruction set with
// quantile_function.cpp, whose tables it reads.
#include "whatif/draw_kernels.hpp"

namespace payback::PAYBACK_ISA_NAMESPACE {

namespace {

void quantile_rows(const std::vector<QuantileFunction>& quantile, bool latin, std::uint64_t seed, SampleMatrix& m,
                   int first, int last) {
    const int k = static_cast<int>(quantile.size());
    for (int s = first; s < last; ++s)
        for (int i = 0; i < k; ++i) {
            const double u =
                latin ? m.at(s, i) : uniform01(seed, static_cast<std::uint64_t>(i), static_cast<std::uint64_t>(s));
            m.at(s, i) = quantile[static_cast<std::size_t>(i)](u);
        }
}

}  // namespace

const DrawKernels& draw_kernels() {
    static constexpr DrawKernels kernels{&quantile_rows};
    return kernels;
}

}  // namespace payback::PAYBACK_ISA_NAMESPACE
