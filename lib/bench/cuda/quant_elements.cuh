// The index logic of the llm-decode workload's CUDA matrix-vector products over GGUF's Q8_0 and Q4_0
// blocks (payback/bench/quant.hpp has the layouts): one block's contribution to one output row, written
// once for the GPU and for the host, so that a test runs it in plain loops against the CPU kernels.
//
// The weights are the raw bytes of rows × blocks_per_row blocks, row after row; a Q8_0 block is
// 34 bytes (fp16 d, then 32 int8), a Q4_0 block 18 (fp16 d, then 16 bytes: element j < 16 in the low
// nibble of byte j, element j ≥ 16 in the high nibble of byte j − 16). The activation is quantized to
// Q8_0 as on the CPU, given as int8 values and float scales (one per block of 32).
#pragma once

#include <cstring>

#if defined(__CUDACC__)
#define PAYBACK_HD __host__ __device__
#else
#define PAYBACK_HD
#endif

namespace payback::bench::gpu {

enum QuantFormat { quant_q8_0 = 0, quant_q4_0 = 1 };

PAYBACK_HD inline int quant_block_bytes(int format) { return format == quant_q8_0 ? 34 : 18; }

/// IEEE binary16 bits (little-endian, at p) to float.
PAYBACK_HD inline float fp16_at(const unsigned char* p) {
    const unsigned h = p[0] | (unsigned(p[1]) << 8);
    const unsigned sign = (h & 0x8000u) << 16, exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
    if (exponent == 0) {
        const float magnitude = float(mantissa) * 5.9604644775390625e-8f;  // mantissa · 2^-24
        return sign ? -magnitude : magnitude;
    }
    const unsigned bits = exponent == 31 ? (sign | 0x7f800000u | (mantissa << 13))
                                         : (sign | ((exponent + 112) << 23) | (mantissa << 13));
#if defined(__CUDA_ARCH__)
    return __uint_as_float(bits);
#else
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
#endif
}

/// Weight j (0..31) of a block, as the integer its scale multiplies.
PAYBACK_HD inline int block_weight(const unsigned char* block, int format, int j) {
    if (format == quant_q8_0) return static_cast<signed char>(block[2 + j]);
    const unsigned char byte = block[2 + (j & 15)];
    return (j < 16 ? (byte & 0x0f) : (byte >> 4)) - 8;
}

/// The first byte of block `block` of row `row`: 64-bit, since a large model's matrix exceeds 2^31 bytes.
PAYBACK_HD inline long long block_offset(int row, int block, int blocks_per_row, int format) {
    return (static_cast<long long>(row) * blocks_per_row + block) * quant_block_bytes(format);
}

/// Block `block` of row `row` times the activation's block: d_w · d_x · Σ_j q_w[j] · q_x[j], the
/// integer sum exact as on the CPU.
PAYBACK_HD inline float block_product(const unsigned char* weights, int format, int row, int block, int blocks_per_row,
                                      const signed char* x_values, const float* x_scales) {
    const unsigned char* w = weights + block_offset(row, block, blocks_per_row, format);
    const signed char* x = x_values + block * 32;
    int sum = 0;
    for (int j = 0; j < 32; ++j) sum += block_weight(w, format, j) * x[j];
    return static_cast<float>(sum) * (fp16_at(w) * x_scales[block]);
}

}  // namespace payback::bench::gpu
