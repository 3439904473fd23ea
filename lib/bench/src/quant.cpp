#include "payback/bench/quant.hpp"

#include <cmath>

#include <fmt/format.h>

#include "payback/base/error.hpp"
#include "payback/base/suggest.hpp"

namespace payback::bench {

std::string quant_name(Quant quant) {
    switch (quant) {
        case Quant::f16: return "f16";
        case Quant::q8_0: return "q8_0";
        case Quant::q4_0: return "q4_0";
    }
    return "?";
}

Quant parse_quant(const std::string& name) {
    for (const Quant q : {Quant::f16, Quant::q8_0, Quant::q4_0})
        if (quant_name(q) == name) return q;
    const std::string hint = detail::closest_match(name, {"f16", "q8_0", "q4_0"});
    throw InputError("", 0, "quant",
                     fmt::format("unknown format \"{}\"{}; known: f16, q8_0, q4_0", name,
                                 hint.empty() ? "" : fmt::format(" (did you mean \"{}\"?)", hint)));
}

std::size_t quant_bytes(Quant quant, std::size_t count) {
    switch (quant) {
        case Quant::f16: return 2 * count;
        case Quant::q8_0: return count / quant_block * sizeof(BlockQ8_0);
        case Quant::q4_0: return count / quant_block * sizeof(BlockQ4_0);
    }
    return 0;
}

void quantize_q8_0(const float* x, std::size_t count, BlockQ8_0* out) {
    for (std::size_t b = 0; b < count / quant_block; ++b) {
        const float* xb = x + b * quant_block;
        float amax = 0;
        for (int j = 0; j < quant_block; ++j) amax = std::max(amax, std::fabs(xb[j]));
        const float d = amax / 127;
        const float id = d != 0 ? 1.0f / d : 0.0f;
        out[b].d = float_to_half(d);
        for (int j = 0; j < quant_block; ++j) out[b].qs[j] = static_cast<std::int8_t>(std::round(xb[j] * id));
    }
}

void quantize_q4_0(const float* x, std::size_t count, BlockQ4_0* out) {
    constexpr int half = quant_block / 2;
    for (std::size_t b = 0; b < count / quant_block; ++b) {
        const float* xb = x + b * quant_block;
        float amax = 0, max = 0;  // the value of largest magnitude, the first of equals, with its sign
        for (int j = 0; j < quant_block; ++j)
            if (amax < std::fabs(xb[j])) {
                amax = std::fabs(xb[j]);
                max = xb[j];
            }
        const float d = max / -8;
        const float id = d != 0 ? 1.0f / d : 0.0f;
        out[b].d = float_to_half(d);
        for (int j = 0; j < half; ++j) {
            // x·id lies in [−8, 8], so x·id + 8.5 is positive and the cast truncates it downwards.
            const int low = std::min(15, static_cast<int>(static_cast<std::int8_t>(xb[j] * id + 8.5f)));
            const int high = std::min(15, static_cast<int>(static_cast<std::int8_t>(xb[j + half] * id + 8.5f)));
            out[b].qs[j] = static_cast<std::uint8_t>(low | (high << 4));
        }
    }
}

void dequantize_q8_0(const BlockQ8_0* blocks, std::size_t count, float* out) {
    for (std::size_t b = 0; b < count / quant_block; ++b) {
        const float d = half_to_float(blocks[b].d);
        for (int j = 0; j < quant_block; ++j) out[b * quant_block + j] = blocks[b].qs[j] * d;
    }
}

void dequantize_q4_0(const BlockQ4_0* blocks, std::size_t count, float* out) {
    constexpr int half = quant_block / 2;
    for (std::size_t b = 0; b < count / quant_block; ++b) {
        const float d = half_to_float(blocks[b].d);
        for (int j = 0; j < half; ++j) {
            out[b * quant_block + j] = static_cast<float>((blocks[b].qs[j] & 0x0f) - 8) * d;
            out[b * quant_block + j + half] = static_cast<float>((blocks[b].qs[j] >> 4) - 8) * d;
        }
    }
}

void quantize_activations_q8_0(const float* x, std::size_t count, BlockQ8_0* out) {
    for (std::size_t b = 0; b < count / quant_block; ++b) {
        const float* xb = x + b * quant_block;
        float amax = 0;
        for (int j = 0; j < quant_block; ++j) amax = std::max(amax, std::fabs(xb[j]));
        const float d = amax / 127;
        const float id = d != 0 ? 1.0f / d : 0.0f;
        out[b].d = float_to_half(d);
        for (int j = 0; j < quant_block; ++j) out[b].qs[j] = static_cast<std::int8_t>(std::nearbyint(xb[j] * id));
    }
}

}  // namespace payback::bench
