#include "cpu/packed_blocks.hpp"

#include <cstddef>

namespace payback::bench::cpu {
namespace {

/// Run j of a packed block column holds row r's bytes 4j..4j+3 of GGUF's block at 64j + 4r.
template <class Packed, class Block>
std::vector<Packed> pack(const Block* w, int rows, int blocks, const Block& zero) {
    constexpr int bytes_per_run = 4, runs = int(sizeof zero.qs) / bytes_per_run;
    const int groups = (rows + packed_rows - 1) / packed_rows;
    std::vector<Packed> packed(std::size_t(groups) * blocks);
    for (int g = 0; g < groups; ++g)
        for (int b = 0; b < blocks; ++b) {
            Packed& out = packed[std::size_t(g) * blocks + b];
            for (int r = 0; r < packed_rows; ++r) {
                const int row = g * packed_rows + r;
                const Block& in = row < rows ? w[std::ptrdiff_t(row) * blocks + b] : zero;
                out.d[r] = in.d;
                for (int j = 0; j < runs; ++j)
                    for (int k = 0; k < bytes_per_run; ++k)
                        out.qs[j * packed_rows * bytes_per_run + bytes_per_run * r + k] = in.qs[bytes_per_run * j + k];
            }
        }
    return packed;
}

}  // namespace

std::vector<BlockQ4_0x16> pack_q4_0x16(const BlockQ4_0* w, int rows, int blocks) {
    const BlockQ4_0 zero{0, {0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88}};
    return pack<BlockQ4_0x16>(w, rows, blocks, zero);
}

std::vector<BlockQ8_0x16> pack_q8_0x16(const BlockQ8_0* w, int rows, int blocks) {
    return pack<BlockQ8_0x16>(w, rows, blocks, BlockQ8_0{});
}

}  // namespace payback::bench::cpu
