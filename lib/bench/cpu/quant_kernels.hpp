// The llm-decode workload's matrix products: rows of F16, Q8_0 or Q4_0 weights times a few activation
// vectors. quant_kernels.cpp is compiled once per instruction set (payback/base/isa_dispatch.hpp):
// AVX-512 (x86-64-v4), AVX2 (x86-64-v3) and plain loops (the baseline). Single-threaded: the decoder gives
// each thread its own rows.
//
// The block formats use integer dot products as ggml does: the activations are quantized to Q8_0
// (quantize_activations_q8_0), each block's Σ q_w·q_x is exact in int32, then scaled by d_w·d_x.
// On AVX-512 CPUs with VNNI (Ice Lake, Sapphire Rapids, Zen 4 and later; not part of x86-64-v4) the
// AVX-512 variant also has vpdpbusd kernels over Q8_0 and Q4_0 repacked 16 rows at a time
// (cpu/packed_blocks.hpp), which keep up with memory where the row kernels do not (docs/benchmark.md,
// "llm-decode against the memory bandwidth").
#pragma once

#include <cstddef>
#include <cstdint>

#include "cpu/packed_blocks.hpp"
#include "payback/bench/quant.hpp"

namespace payback::bench::cpu {

/// y[v·ldy + r] = row r of W · x_v for rows r in [row_begin, row_end) and vectors v < vectors.
/// W has `cols` columns (a multiple of 32 for the block formats), its rows one after another.
struct QuantKernels {
    const char* name;  ///< "avx512-vnni", "avx512", "avx2" or "portable"
    void (*matmul_f16)(const std::uint16_t* w, int cols, int row_begin, int row_end, const float* x,
                       std::ptrdiff_t ldx, int vectors, float* y, std::ptrdiff_t ldy);
    /// x_v is cols / 32 Q8_0 blocks, ldx blocks apart.
    void (*matmul_q8_0)(const BlockQ8_0* w, int cols, int row_begin, int row_end, const BlockQ8_0* x,
                        std::ptrdiff_t ldx, int vectors, float* y, std::ptrdiff_t ldy);
    void (*matmul_q4_0)(const BlockQ4_0* w, int cols, int row_begin, int row_end, const BlockQ8_0* x,
                        std::ptrdiff_t ldx, int vectors, float* y, std::ptrdiff_t ldy);
    /// The same products of W packed by pack_q8_0x16 and pack_q4_0x16, faster where the set has them
    /// (nullptr where not). Rows may start and end anywhere; a group read for a few rows costs the whole
    /// group's bytes.
    void (*matmul_q8_0x16)(const BlockQ8_0x16* w, int cols, int row_begin, int row_end, const BlockQ8_0* x,
                           std::ptrdiff_t ldx, int vectors, float* y, std::ptrdiff_t ldy);
    void (*matmul_q4_0x16)(const BlockQ4_0x16* w, int cols, int row_begin, int row_end, const BlockQ8_0* x,
                           std::ptrdiff_t ldx, int vectors, float* y, std::ptrdiff_t ldy);
};

/// What an instruction set's variant offers, best first: the AVX-512 variant has two where the CPU has VNNI.
struct QuantKernelChoices {
    const QuantKernels* best;
    const QuantKernels* fallback;  ///< nullptr, or kernels this CPU also runs (tested against `best`)
};

/// The best kernels of the active instruction set (payback::active_isa()) on this CPU.
const QuantKernels& quant_kernels();
/// All the kernels of the active instruction set that this CPU runs.
const QuantKernelChoices& quant_kernel_choices();

}  // namespace payback::bench::cpu
