#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include "cpu/q4_0x16.hpp"
#include "cpu/quant_kernels.hpp"

using namespace payback::bench;

// The packed Q4_0 layout (cpu/q4_0x16.hpp) byte by byte, and the AVX-512 VNNI product that reads it
// against the dequantized weights, on shapes that leave every edge partial.

TEST_CASE("pack_q4_0x16 puts each row's bytes where the layout says", "[bench][llm]") {
    // 17 rows of 2 blocks: one full group and one with a single row and 15 rows of padding.
    constexpr int rows = 17, blocks = 2;
    std::vector<BlockQ4_0> w(rows * blocks);
    for (int r = 0; r < rows; ++r)
        for (int b = 0; b < blocks; ++b) {
            BlockQ4_0& block = w[r * blocks + b];
            block.d = static_cast<std::uint16_t>(1000 + 10 * r + b);
            for (int i = 0; i < 16; ++i) block.qs[i] = static_cast<std::uint8_t>(r * 7 + b * 3 + i * 11);
        }
    const std::vector<cpu::BlockQ4_0x16> packed = cpu::pack_q4_0x16(w.data(), rows, blocks);
    REQUIRE(packed.size() == 4);  // 2 groups × 2 block columns, group after group
    for (int r = 0; r < 32; ++r)
        for (int b = 0; b < blocks; ++b) {
            const cpu::BlockQ4_0x16& column = packed[(r / 16) * blocks + b];
            INFO("row " << r << ", block " << b);
            // Padding rows are zero weights: scale 0, and every nibble 8 ((8 − 8) · d = 0).
            const BlockQ4_0 expected = r < rows ? w[r * blocks + b] : BlockQ4_0{0, {0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88, 0x88}};
            CHECK(column.d[r % 16] == expected.d);
            // Run j holds GGUF bytes 4j..4j+3 of row r at 64j + 4r: byte 6 of row 5 (run 1, k = 2) is at 64 + 20 + 2.
            for (int j = 0; j < 4; ++j)
                for (int k = 0; k < 4; ++k) CHECK(column.qs[64 * j + 4 * (r % 16) + k] == expected.qs[4 * j + k]);
        }
}

TEST_CASE("the packed Q4_0 product agrees with the dequantized one and with itself however it is split", "[bench][llm]") {
    const cpu::QuantKernels& kernels = cpu::quant_kernels();
    if (kernels.matmul_q4_0x16 == nullptr) {
        WARN("kernels " << kernels.name << " have no packed Q4_0 product (it needs AVX-512 VNNI)");
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
    std::vector<BlockQ8_0> x8(vectors * blocks);
    quantize_q4_0(w.data(), w.size(), w4.data());
    quantize_activations_q8_0(x.data(), x.size(), x8.data());
    const std::vector<cpu::BlockQ4_0x16> packed = cpu::pack_q4_0x16(w4.data(), rows, blocks);
    std::vector<float> w_values(w.size()), x_values(x.size());
    dequantize_q4_0(w4.data(), w.size(), w_values.data());
    dequantize_q8_0(x8.data(), x.size(), x_values.data());

    // All rows and vectors at once: within float rounding of 96 terms (≤ 96 · 2^-24 · 96 ≈ 6e-4 at worst,
    // a few 1e-7 in fact) of the double sums of the dequantized values.
    std::vector<float> all(vectors * rows);
    kernels.matmul_q4_0x16(packed.data(), cols, 0, rows, x8.data(), blocks, vectors, all.data(), rows);
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
    for (int v = 0; v < vectors; ++v)
        kernels.matmul_q4_0x16(packed.data(), cols, 5, 70, x8.data() + v * blocks, blocks, 1, part.data() + v * rows,
                               rows);
    for (int v = 0; v < vectors; ++v)
        for (int r = 0; r < rows; ++r) {
            INFO("row " << r << ", vector " << v);
            CHECK(part[v * rows + r] == (r >= 5 && r < 70 ? all[v * rows + r] : 42.0f));
        }
}
