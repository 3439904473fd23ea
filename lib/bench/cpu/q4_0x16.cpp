#include "cpu/q4_0x16.hpp"

#include <cstddef>

namespace payback::bench::cpu {

std::vector<BlockQ4_0x16> pack_q4_0x16(const BlockQ4_0* w, int rows, int blocks) {
    constexpr int runs = 4, bytes_per_run = quant_block / 2 / runs;
    const int groups = (rows + q4_0x16_rows - 1) / q4_0x16_rows;
    std::vector<BlockQ4_0x16> packed(std::size_t(groups) * blocks);
    for (int g = 0; g < groups; ++g)
        for (int b = 0; b < blocks; ++b) {
            BlockQ4_0x16& out = packed[std::size_t(g) * blocks + b];
            for (int r = 0; r < q4_0x16_rows; ++r) {
                const int row = g * q4_0x16_rows + r;
                const BlockQ4_0 zero{0, {0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88,
                                         0x88, 0x88, 0x88}};
                const BlockQ4_0& in = row < rows ? w[std::ptrdiff_t(row) * blocks + b] : zero;
                out.d[r] = in.d;
                for (int j = 0; j < runs; ++j)
                    for (int k = 0; k < bytes_per_run; ++k)
                        out.qs[j * q4_0x16_rows * bytes_per_run + bytes_per_run * r + k] = in.qs[bytes_per_run * j + k];
            }
        }
    return packed;
}

}  // namespace payback::bench::cpu
