// Q4_0 and Q8_0 weights regrouped for the AVX-512 VNNI kernels (cpu/quant_kernels.cpp), as llama.cpp
// repacks Q4_0 on loading (its block_q4_0x8 layout, ggml/src/ggml-cpu/repack.cpp), and Q8_0 alike: 16
// rows' blocks of one column of blocks side by side. One 512-bit load then holds four weights of each
// of the 16 rows, one row a 32-bit lane, so a vpdpbusd gives 16 rows' partial sums at once, and the 16
// rows' scales are converted by one vcvtph2ps. A row read alone converts its fp16 scale one block at a
// time, and that per-block work, not the memory, bounded Q4_0 decoding (docs/benchmark.md, "llm-decode
// against the memory bandwidth"). The bytes are GGUF's reordered: 18 (Q4_0) or 34 (Q8_0) for 32
// weights, as on disk.
#pragma once

#include <cstdint>
#include <vector>

#include "payback/bench/quant.hpp"

namespace payback::bench::cpu {

inline constexpr int packed_rows = 16;  ///< rows in a group

/// Block column b of 16 rows: d[r] is row r's scale; the quants come in 4 runs of 64 bytes, run j holding
/// row r's bytes 4j..4j+3 of GGUF's 16 at 64j + 4r (low nibbles: weights 4j..4j+3; high: 16 + those).
struct BlockQ4_0x16 {
    std::uint16_t d[packed_rows];
    std::uint8_t qs[packed_rows * quant_block / 2];
};
/// Q8_0 alike: run j (of 8) holds row r's quants 4j..4j+3 at 64j + 4r.
struct BlockQ8_0x16 {
    std::uint16_t d[packed_rows];
    std::int8_t qs[packed_rows * quant_block];
};
static_assert(sizeof(BlockQ4_0x16) == packed_rows * sizeof(BlockQ4_0), "the same bytes as 16 GGUF blocks");
static_assert(sizeof(BlockQ8_0x16) == packed_rows * sizeof(BlockQ8_0), "the same bytes as 16 GGUF blocks");

/// `rows` rows of `blocks` Q4_0 blocks each (GGUF's order: row after row) as ceil(rows / 16) groups of
/// `blocks` BlockQ4_0x16, group after group. The last group's missing rows are zero weights (scale 0,
/// quants 8), which the kernel computes and never stores.
std::vector<BlockQ4_0x16> pack_q4_0x16(const BlockQ4_0* w, int rows, int blocks);
/// The same for Q8_0; missing rows are zero weights (scale 0, quants 0).
std::vector<BlockQ8_0x16> pack_q8_0x16(const BlockQ8_0* w, int rows, int blocks);

}  // namespace payback::bench::cpu
