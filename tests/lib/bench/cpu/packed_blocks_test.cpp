#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include "cpu/packed_blocks.hpp"
#include "cpu/quant_kernels.hpp"

using namespace payback::bench;

// The packed Q4_0 and Q8_0 layouts (cpu/packed_blocks.hpp) byte by byte, and the AVX-512 VNNI products
// that read them against the dequantized weights, on shapes that leave every edge partial.

namespace {

/// Checks that row r's block b sits where the layout says, for rows 0..31 of `rows` real ones.
template <class Packed, class Block>
void check_layout(const std::vector<Packed>& packed, const std::vector<Block>& w, int rows, int blocks,
                  const Block& padding) {
    constexpr int runs = int(sizeof(Block::qs)) / 4;
    REQUIRE(packed.size() == std::size_t(2 * blocks));  // 2 groups × `blocks` block columns, group after group
    for (int r = 0; r < 32; ++r)
        for (int b = 0; b < blocks; ++b) {
            const Packed& column = packed[(r / 16) * blocks + b];
            INFO("row " << r << ", block " << b);
            const Block& expected = r < rows ? w[r * blocks + b] : padding;
            CHECK(column.d[r % 16] == expected.d);
            // Run j holds GGUF bytes 4j..4j+3 of row r at 64j + 4r: byte 6 of row 5 (run 1, k = 2) is at 64 + 20 + 2.
            for (int j = 0; j < runs; ++j)
                for (int k = 0; k < 4; ++k) CHECK(column.qs[64 * j + 4 * (r % 16) + k] == expected.qs[4 * j + k]);
        }
}

/// Fills every block with bytes that differ by row, block and position.
template <class Block>
std::vector<Block> distinct_blocks(int rows, int blocks) {
    std::vector<Block> w(rows * blocks);
    for (int r = 0; r < rows; ++r)
        for (int b = 0; b < blocks; ++b) {
            Block& block = w[r * blocks + b];
            block.d = static_cast<std::uint16_t>(1000 + 10 * r + b);
            for (std::size_t i = 0; i < sizeof block.qs; ++i)
                block.qs[i] = static_cast<std::remove_cvref_t<decltype(block.qs[0])>>(r * 7 + b * 3 + int(i) * 11);
        }
    return w;
}

}  // namespace

TEST_CASE("pack_q4_0x16 and pack_q8_0x16 put each row's bytes where the layout says", "[bench][llm]") {
    // 17 rows of 2 blocks: one full group and one with a single row and 15 rows of padding.
    constexpr int rows = 17, blocks = 2;
    const auto w4 = distinct_blocks<BlockQ4_0>(rows, blocks);
    // Q4_0 padding is zero weights: scale 0, and every nibble 8 ((8 − 8) · d = 0).
    const BlockQ4_0 zero4{0, {0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88}};
    check_layout(cpu::pack_q4_0x16(w4.data(), rows, blocks), w4, rows, blocks, zero4);
    const auto w8 = distinct_blocks<BlockQ8_0>(rows, blocks);
    check_layout(cpu::pack_q8_0x16(w8.data(), rows, blocks), w8, rows, blocks, BlockQ8_0{});
}

TEST_CASE("the packed products agree with the dequantized ones and with themselves however they are split",
          "[bench][llm]") {
    const cpu::QuantKernels& kernels = cpu::quant_kernels();
    if (kernels.matmul_q4_0x16 == nullptr || kernels.matmul_q8_0x16 == nullptr) {
        WARN("kernels " << kernels.name << " have no packed products (they need AVX-512 VNNI)");
        return;
    }
    // 83 rows (a run of four groups, one group alone, and a last group of 3 rows and 13 of padding), 96
    // columns (3 block columns), 6 vectors (four, then two, at a time).
    constexpr int rows = 83, cols = 96, blocks = cols / 32, vectors = 6;
    std::mt19937 random(5);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> w(rows * cols), x(vectors * cols);
    for (float& value : w) value = uniform(random);
    for (float& value : x) value = uniform(random);
    std::vector<BlockQ4_0> w4(rows * blocks);
    std::vector<BlockQ8_0> w8(rows * blocks), x8(vectors * blocks);
    quantize_q4_0(w.data(), w.size(), w4.data());
    quantize_q8_0(w.data(), w.size(), w8.data());
    quantize_activations_q8_0(x.data(), x.size(), x8.data());
    const auto packed4 = cpu::pack_q4_0x16(w4.data(), rows, blocks);
    const auto packed8 = cpu::pack_q8_0x16(w8.data(), rows, blocks);
    std::vector<float> w4_values(w.size()), w8_values(w.size()), x_values(x.size());
    dequantize_q4_0(w4.data(), w.size(), w4_values.data());
    dequantize_q8_0(w8.data(), w.size(), w8_values.data());
    dequantize_q8_0(x8.data(), x.size(), x_values.data());

    // y = W·x for rows [begin, end) and `count` vectors from vector `first`, by either packed product.
    auto product = [&](bool q4, int begin, int end, int first, int count, float* y) {
        if (q4) kernels.matmul_q4_0x16(packed4.data(), cols, begin, end, x8.data() + first * blocks, blocks, count, y, rows);
        else kernels.matmul_q8_0x16(packed8.data(), cols, begin, end, x8.data() + first * blocks, blocks, count, y, rows);
    };
    for (const bool q4 : {true, false}) {
        INFO((q4 ? "Q4_0" : "Q8_0"));
        const std::vector<float>& w_values = q4 ? w4_values : w8_values;
        // All rows and vectors at once: within float rounding of 96 terms (≤ 96 · 2^-24 · 96 ≈ 6e-4 at
        // worst, a few 1e-7 in fact) of the double sums of the dequantized values.
        std::vector<float> all(vectors * rows);
        product(q4, 0, rows, 0, vectors, all.data());
        for (int v = 0; v < vectors; ++v)
            for (int r = 0; r < rows; ++r) {
                double sum = 0;
                for (int j = 0; j < cols; ++j) sum += double(w_values[r * cols + j]) * x_values[v * cols + j];
                INFO("row " << r << ", vector " << v);
                CHECK(all[v * rows + r] == Approx(sum).margin(1e-5));
            }
        // Rows [5, 70), one vector at a time: every row in range is the same float as above (the decoder's
        // prefill, batches and thread splits give token-by-token decoding's logits exactly), and no other
        // row is written, in the first group or the padded last one.
        std::vector<float> part(vectors * rows, 42.0f);
        for (int v = 0; v < vectors; ++v) product(q4, 5, 70, v, 1, part.data() + v * rows);
        for (int v = 0; v < vectors; ++v)
            for (int r = 0; r < rows; ++r) {
                INFO("row " << r << ", vector " << v);
                CHECK(part[v * rows + r] == (r >= 5 && r < 70 ? all[v * rows + r] : 42.0f));
            }
    }
}
