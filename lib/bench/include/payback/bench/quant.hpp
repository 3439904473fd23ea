// Weight formats of the llm-decode workload, laid out byte for byte as GGUF's (ggml's ggml-common.h and
// ggml-quants.c, https://github.com/ggml-org/llama.cpp/blob/master/ggml/src/ggml-quants.c):
//   F16:  IEEE half precision, one weight in 2 bytes.
//   Q8_0: blocks of 32 weights: an fp16 scale d, then 32 int8 q; weight = q · d (34 bytes, 8.5 bits a weight).
//   Q4_0: blocks of 32 weights: an fp16 scale d, then 16 bytes of 4-bit q; byte j holds weight j in its low
//         nibble and weight j + 16 in its high one; weight = (q − 8) · d (18 bytes, 4.5 bits a weight).
// The quantizers are ggml's reference ones (quantize_row_q8_0_ref, quantize_row_q4_0_ref), so a row
// quantized here is the row llama.cpp would write.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

namespace payback::bench {

enum class Quant { f16, q8_0, q4_0 };

/// "f16", "q8_0", "q4_0".
std::string quant_name(Quant quant);
/// The inverse of quant_name; InputError listing the three for anything else.
Quant parse_quant(const std::string& name);

inline constexpr int quant_block = 32;  ///< weights per Q8_0 or Q4_0 block

struct BlockQ8_0 {
    std::uint16_t d;  ///< fp16 bits
    std::int8_t qs[quant_block];
};
struct BlockQ4_0 {
    std::uint16_t d;  ///< fp16 bits
    std::uint8_t qs[quant_block / 2];
};
static_assert(sizeof(BlockQ8_0) == 34 && sizeof(BlockQ4_0) == 18, "GGUF's block sizes, no padding");

/// Bytes of `count` weights in `quant` (count a multiple of 32 for the block formats).
std::size_t quant_bytes(Quant quant, std::size_t count);

/// IEEE binary16 bits to float, exactly.
inline float half_to_float(std::uint16_t h) {
    const std::uint32_t sign = std::uint32_t(h & 0x8000u) << 16;
    const std::uint32_t exponent = (h >> 10) & 0x1fu;
    const std::uint32_t mantissa = h & 0x3ffu;
    std::uint32_t bits = 0;
    if (exponent == 0) {
        const float magnitude = static_cast<float>(mantissa) * 5.9604644775390625e-8f;  // mantissa · 2^-24
        std::memcpy(&bits, &magnitude, sizeof bits);
        bits |= sign;
    } else if (exponent == 31) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else {
        bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
    }
    float f = 0;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

/// float to the nearest binary16, ties to even (what F16C's vcvtps2ph and NumPy's astype(float16) give).
inline std::uint16_t float_to_half(float value) {
    std::uint32_t x = 0;
    std::memcpy(&x, &value, sizeof x);
    const std::uint32_t sign = x & 0x80000000u;
    x ^= sign;
    std::uint32_t out = 0;
    if (x >= (143u << 23)) {  // ≥ 2^16, or inf, or NaN
        out = x > 0x7f800000u ? 0x7e00u : 0x7c00u;
    } else if (x < (113u << 23)) {  // below 2^-14: a subnormal half; the float adder rounds it
        constexpr std::uint32_t magic_bits = 126u << 23;  // 0.5: its ulp is 2^-24, a half subnormal's step
        float magic = 0, sum = 0;
        std::memcpy(&magic, &magic_bits, sizeof magic);
        std::memcpy(&sum, &x, sizeof sum);
        sum += magic;
        std::memcpy(&out, &sum, sizeof out);
        out -= magic_bits;
    } else {
        const std::uint32_t odd = (x >> 13) & 1u;  // ties to even: round up a tie only when odd
        x += (std::uint32_t(15 - 127) << 23) + 0xfffu + odd;
        out = x >> 13;
    }
    return static_cast<std::uint16_t>(out | (sign >> 16));
}

/// ggml's quantize_row_q8_0_ref: d = max|x| / 127, q = round(x / d) (half away from zero).
void quantize_q8_0(const float* x, std::size_t count, BlockQ8_0* out);
/// ggml's quantize_row_q4_0_ref: m = the x of largest |x| (the first), d = m / −8, q = min(15, trunc(x/d + 8.5)).
void quantize_q4_0(const float* x, std::size_t count, BlockQ4_0* out);
void dequantize_q8_0(const BlockQ8_0* blocks, std::size_t count, float* out);
void dequantize_q4_0(const BlockQ4_0* blocks, std::size_t count, float* out);

/// How activations are quantized before a Q8_0 or Q4_0 product: Q8_0 blocks with d = max|x| / 127 and
/// q = x / d rounded to nearest even, as ggml's AVX2 quantize_row_q8_0 rounds (_mm256_round_ps). The
/// same in every instruction-set variant (cpu/quant_kernels.cpp) and in tools/llm_decode_reference.py.
void quantize_activations_q8_0(const float* x, std::size_t count, BlockQ8_0* out);

}  // namespace payback::bench
