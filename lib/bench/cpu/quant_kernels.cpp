#include "cpu/quant_kernels.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

// Compiled once per instruction set (cmake/PaybackIsa.cmake): AVX2 with F16C and FMA in x86-64-v3,
// AVX-512 (F, BW, DQ) in x86-64-v4, plain loops in the baseline.
#if defined(__AVX2__) && defined(__FMA__) && defined(__F16C__)
#include <immintrin.h>
#define PAYBACK_QUANT_AVX2 1
#endif
#if PAYBACK_QUANT_AVX2 && defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__)
#define PAYBACK_QUANT_AVX512 1
#endif

namespace payback::bench::cpu {
namespace {

// ---- One row times one vector: the portable forms, which the baseline runs and the SIMD ones match
// (the same integer sums; only the order of the float additions differs). ----

[[maybe_unused]] float dot_f16_portable(const std::uint16_t* w, const float* x, int cols) {
    float sum = 0;
    for (int i = 0; i < cols; ++i) sum += half_to_float(w[i]) * x[i];
    return sum;
}

[[maybe_unused]] float dot_q8_0_portable(const BlockQ8_0* w, const BlockQ8_0* x, int blocks) {
    float sum = 0;
    for (int b = 0; b < blocks; ++b) {
        int s = 0;
        for (int j = 0; j < quant_block; ++j) s += w[b].qs[j] * x[b].qs[j];
        sum += static_cast<float>(s) * (half_to_float(w[b].d) * half_to_float(x[b].d));
    }
    return sum;
}

[[maybe_unused]] float dot_q4_0_portable(const BlockQ4_0* w, const BlockQ8_0* x, int blocks) {
    float sum = 0;
    for (int b = 0; b < blocks; ++b) {
        int s = 0;
        for (int j = 0; j < quant_block / 2; ++j) {
            s += ((w[b].qs[j] & 0x0f) - 8) * x[b].qs[j];                   // low nibble: element j
            s += ((w[b].qs[j] >> 4) - 8) * x[b].qs[j + quant_block / 2];  // high nibble: element j + 16
        }
        sum += static_cast<float>(s) * (half_to_float(w[b].d) * half_to_float(x[b].d));
    }
    return sum;
}

#if PAYBACK_QUANT_AVX2

float hsum(__m256 v) {
    __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
    s = _mm_add_ps(s, _mm_movehl_ps(s, s));
    s = _mm_add_ss(s, _mm_movehdup_ps(s));
    return _mm_cvtss_f32(s);
}

/// Σ over 4-element groups of w·x as 8 int32 lanes, for int8 w in [−127, 127] and x in [−127, 127]: the
/// sign trick of ggml (|w| times x with w's sign) feeds vpmaddubsw, whose int16 pair sums cannot
/// saturate (2 · 127 · 127 < 32767).
[[maybe_unused]] __m256i dot_i8_lanes(__m256i w, __m256i x) {
    const __m256i products = _mm256_maddubs_epi16(_mm256_sign_epi8(w, w), _mm256_sign_epi8(x, w));
    return _mm256_madd_epi16(products, _mm256_set1_epi16(1));
}

/// A Q4_0 block's 32 nibbles (0..15) as bytes in element order: the low nibbles (elements 0..15), then the high ones.
__m256i q4_0_nibbles(const BlockQ4_0& block) {
    const __m128i packed = _mm_loadu_si128(reinterpret_cast<const __m128i*>(block.qs));
    return _mm256_and_si256(_mm256_set_m128i(_mm_srli_epi16(packed, 4), packed), _mm256_set1_epi8(0x0f));
}

/// A Q4_0 block's 32 weights as int8 in element order: its nibbles less 8.
__m256i unpack_q4_0(const BlockQ4_0& block) { return _mm256_sub_epi8(q4_0_nibbles(block), _mm256_set1_epi8(8)); }

__m256i load_q8_0(const BlockQ8_0& block) { return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(block.qs)); }

float scale(std::uint16_t dw, std::uint16_t dx) { return _cvtsh_ss(dw) * _cvtsh_ss(dx); }

#endif

#if PAYBACK_QUANT_AVX512

float hsum(__m512 v) {
    return hsum(_mm256_add_ps(_mm512_castps512_ps256(v), _mm512_extractf32x8_ps(v, 1)));
}

/// Two blocks' 32 weights each, side by side: AVX-512BW has no vpsignb, so x takes w's sign by a masked negation.
__m512 block_pair_sums(__m256i w0, __m256i w1, __m256i x0, __m256i x1) {
    const __m512i w = _mm512_inserti64x4(_mm512_castsi256_si512(w0), w1, 1);
    const __m512i x = _mm512_inserti64x4(_mm512_castsi256_si512(x0), x1, 1);
    const __m512i signed_x = _mm512_mask_sub_epi8(x, _mm512_movepi8_mask(w), _mm512_setzero_si512(), x);
    const __m512i products = _mm512_maddubs_epi16(_mm512_abs_epi8(w), signed_x);
    return _mm512_cvtepi32_ps(_mm512_madd_epi16(products, _mm512_set1_epi16(1)));
}

__m512 pair_scales(float d0, float d1) {
    return _mm512_insertf32x8(_mm512_castps256_ps512(_mm256_set1_ps(d0)), _mm256_set1_ps(d1), 1);
}

// How far ahead of the rows being read to prefetch, in bytes (F16 reads four rows side by side: one row
// alone is read too slowly to keep enough cache-line fills in flight). 8 KB, about the next four rows of
// a 2,048-column Q8_0 matrix when Q8_0 was read by rows, gave it 21 to 26 tokens/s where 512 bytes gave
// 17 and 2 KB 13 to 15 (docs/benchmark.md, "llm-decode against the memory bandwidth"); F16 barely moved.
constexpr int prefetch_distance = 8192;

void prefetch(const void* address) { _mm_prefetch(static_cast<const char*>(address) + prefetch_distance, _MM_HINT_T0); }

/// `Rows` consecutive rows of W (`cols` apart) times x, into out[0..Rows). Each row's operations are the
/// same whatever Rows is, so a row's result does not depend on how rows are grouped (threads, batches).
template <int Rows>
void dot_rows_f16(const std::uint16_t* w, int cols, const float* x, bool fetch_ahead, float* out) {
    __m512 a0[Rows], a1[Rows];
    for (int r = 0; r < Rows; ++r) a0[r] = a1[r] = _mm512_setzero_ps();
    int i = 0;
    for (; i + 32 <= cols; i += 32) {
        const __m512 x0 = _mm512_loadu_ps(x + i), x1 = _mm512_loadu_ps(x + i + 16);
        for (int r = 0; r < Rows; ++r) {
            const std::uint16_t* row = w + std::ptrdiff_t(r) * cols + i;
            if (fetch_ahead) prefetch(row);
            a0[r] = _mm512_fmadd_ps(_mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(row))), x0, a0[r]);
            a1[r] = _mm512_fmadd_ps(_mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(row + 16))), x1,
                                    a1[r]);
        }
    }
    for (int r = 0; r < Rows; ++r) {
        const std::uint16_t* row = w + std::ptrdiff_t(r) * cols;
        float sum = hsum(_mm512_add_ps(a0[r], a1[r]));
        for (int j = i; j < cols; ++j) sum += half_to_float(row[j]) * x[j];
        out[r] = sum;
    }
}

float dot_q8_0(const BlockQ8_0* w, const BlockQ8_0* x, int blocks) {
    __m512 acc = _mm512_setzero_ps();
    int b = 0;
    for (; b + 2 <= blocks; b += 2) {
        const __m512 sums = block_pair_sums(load_q8_0(w[b]), load_q8_0(w[b + 1]), load_q8_0(x[b]), load_q8_0(x[b + 1]));
        acc = _mm512_fmadd_ps(pair_scales(scale(w[b].d, x[b].d), scale(w[b + 1].d, x[b + 1].d)), sums, acc);
    }
    float sum = hsum(acc);
    if (b < blocks) sum += dot_q8_0_portable(w + b, x + b, blocks - b);
    return sum;
}

float dot_q4_0(const BlockQ4_0* w, const BlockQ8_0* x, int blocks) {
    __m512 acc = _mm512_setzero_ps();
    int b = 0;
    for (; b + 2 <= blocks; b += 2) {
        const __m512 sums = block_pair_sums(unpack_q4_0(w[b]), unpack_q4_0(w[b + 1]), load_q8_0(x[b]), load_q8_0(x[b + 1]));
        acc = _mm512_fmadd_ps(pair_scales(scale(w[b].d, x[b].d), scale(w[b + 1].d, x[b + 1].d)), sums, acc);
    }
    float sum = hsum(acc);
    if (b < blocks) sum += dot_q4_0_portable(w + b, x + b, blocks - b);
    return sum;
}

// ---- AVX-512 with VNNI: Q4_0 and Q8_0 packed 16 rows at a time (cpu/packed_blocks.hpp), lane r of every
// vector row r of the group. vpdpbusd multiplies unsigned bytes by signed ones and adds each 4 products
// to an int32 lane. The weights are made unsigned by an offset c (Q8_0: w + 128, in [1, 255]; Q4_0: its
// nibbles, w + 8, in [0, 15]) and Σ w·x = Σ (w + c)·x − c·Σx, with each block's Σx computed once per
// product: the integer sums are the other kernels'. ----

#define PAYBACK_VNNI __attribute__((target("avx512vnni")))

/// An activation block's part of every product, found once per product: its scale and Σ q_x.
struct PreparedBlock {
    float d;
    std::int32_t sum;
};

void prepare_blocks(const BlockQ8_0* x, std::ptrdiff_t ldx, int vectors, int blocks, std::vector<PreparedBlock>& out) {
    out.resize(std::size_t(vectors) * blocks);
    for (int v = 0; v < vectors; ++v)
        for (int b = 0; b < blocks; ++b) {
            const BlockQ8_0& block = x[v * ldx + b];
            std::int32_t sum = 0;
            for (const std::int8_t q : block.qs) sum += q;
            out[std::size_t(v) * blocks + b] = {_cvtsh_ss(block.d), sum};
        }
}

/// Four consecutive activation quants in every 32-bit lane.
__m512i broadcast_quad(const std::int8_t* quants) {
    std::int32_t quad = 0;
    std::memcpy(&quad, quants, sizeof quad);
    return _mm512_set1_epi32(quad);
}

/// A packed block column's weights as unsigned bytes, weights[i] holding weights 4i..4i+3 of each row
/// (in its lane), each its quant plus `offset`: Q4_0's nibbles as they are (q − 8 + 8), Q8_0's
/// quants + 128 (the sign bit flipped).
template <class Packed>
struct Unsigned;
template <>
struct Unsigned<BlockQ4_0x16> {
    static constexpr std::int32_t offset = 8;
    /// Run j's low nibbles are weights 4j..4j+3, its high ones 16 + those.
    static void load(const BlockQ4_0x16& block, __m512i (&weights)[8]) {
        const __m512i low_nibble = _mm512_set1_epi8(0x0f);
        for (int j = 0; j < 4; ++j) {
            const __m512i bytes = _mm512_loadu_si512(block.qs + std::ptrdiff_t(64) * j);
            weights[j] = _mm512_and_si512(bytes, low_nibble);
            weights[4 + j] = _mm512_and_si512(_mm512_srli_epi16(bytes, 4), low_nibble);
        }
    }
};
template <>
struct Unsigned<BlockQ8_0x16> {
    static constexpr std::int32_t offset = 128;
    static void load(const BlockQ8_0x16& block, __m512i (&weights)[8]) {
        for (int j = 0; j < 8; ++j)
            weights[j] = _mm512_xor_si512(_mm512_loadu_si512(block.qs + std::ptrdiff_t(64) * j),
                                          _mm512_set1_epi8(static_cast<char>(0x80)));
    }
};

/// One block column's integer sums Σ q_w·q_x for the group's 16 rows: Σ (q_w + c)·q_x − c·Σ q_x, in
/// four chains, not one, so that the eight vpdpbusd need not wait for each other.
PAYBACK_VNNI __m512i group_block_sums(const __m512i (&weights)[8], const BlockQ8_0& x, std::int32_t minus_offset_sum) {
    __m512i sums[4];
    for (int j = 0; j < 4; ++j) {
        sums[j] = j == 0 ? _mm512_set1_epi32(minus_offset_sum) : _mm512_setzero_si512();
        sums[j] = _mm512_dpbusd_epi32(sums[j], weights[j], broadcast_quad(x.qs + std::ptrdiff_t(4) * j));
        sums[j] = _mm512_dpbusd_epi32(sums[j], weights[4 + j], broadcast_quad(x.qs + 16 + std::ptrdiff_t(4) * j));
    }
    return _mm512_add_epi32(_mm512_add_epi32(sums[0], sums[1]), _mm512_add_epi32(sums[2], sums[3]));
}

// How far ahead of each group's stream to prefetch: about seven Q4_0 block columns. Of 1, 2 and 4 KB (four
// streams a thread), 1 and 2 KB were best; one stream a thread wanted 8 KB and was still 15 % slower.
constexpr int group_prefetch_distance = 2048;

/// `Groups` consecutive groups of 16 rows times `Vectors` vectors, into out[group][vector]: each block
/// column's weights are unpacked once for all the vectors, and the groups are read side by side, as
/// separate streams: one stream a thread does not keep enough cache-line fills in flight (docs/benchmark.md).
/// A group's operations with a vector do not depend on Groups or Vectors.
template <int Groups, int Vectors, class Packed>
PAYBACK_VNNI void groups_times_vectors(const Packed* groups, int blocks, const BlockQ8_0* const* x,
                                       const PreparedBlock* const* prepared, bool fetch_ahead, __m512 (*out)[4]) {
    __m512 acc[Groups][Vectors];
    for (int g = 0; g < Groups; ++g)
        for (int v = 0; v < Vectors; ++v) acc[g][v] = _mm512_setzero_ps();
    for (int b = 0; b < blocks; ++b)
        for (int g = 0; g < Groups; ++g) {
            const Packed& block = groups[std::ptrdiff_t(g) * blocks + b];
            if (fetch_ahead) {
                for (int line = 0; line < int(sizeof block); line += 64)
                    _mm_prefetch(reinterpret_cast<const char*>(&block) + line + group_prefetch_distance, _MM_HINT_T0);
            }
            __m512i weights[8];
            Unsigned<Packed>::load(block, weights);
            const __m512 d_w = _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(block.d)));
            for (int v = 0; v < Vectors; ++v) {
                const __m512i sums =
                    group_block_sums(weights, x[v][b], -Unsigned<Packed>::offset * prepared[v][b].sum);
                acc[g][v] = _mm512_fmadd_ps(_mm512_cvtepi32_ps(sums),
                                            _mm512_mul_ps(d_w, _mm512_set1_ps(prepared[v][b].d)), acc[g][v]);
            }
        }
    for (int g = 0; g < Groups; ++g)
        for (int v = 0; v < Vectors; ++v) out[g][v] = acc[g][v];
}

template <int Groups, class Packed>
PAYBACK_VNNI void groups_times_vectors(int vectors, const Packed* groups, int blocks, const BlockQ8_0* const* x,
                                       const PreparedBlock* const* prepared, bool fetch_ahead, __m512 (*out)[4]) {
    if (vectors == 4) groups_times_vectors<Groups, 4>(groups, blocks, x, prepared, fetch_ahead, out);
    if (vectors == 3) groups_times_vectors<Groups, 3>(groups, blocks, x, prepared, fetch_ahead, out);
    if (vectors == 2) groups_times_vectors<Groups, 2>(groups, blocks, x, prepared, fetch_ahead, out);
    if (vectors == 1) groups_times_vectors<Groups, 1>(groups, blocks, x, prepared, fetch_ahead, out);
}

/// Lanes of the group whose first row is `first` that hold rows in [row_begin, row_end).
__mmask16 rows_in(int first, int row_begin, int row_end) {
    const int from = std::max(row_begin - first, 0), to = std::min(row_end - first, packed_rows);
    return static_cast<__mmask16>(((1u << to) - 1) & ~((1u << from) - 1));
}

/// Four groups at a time, then one, against the vectors four at a time while the groups' block columns
/// are in cache, prefetched during the first four's pass; each row's result is stored from its lane.
template <class Packed>
PAYBACK_VNNI void matmul_packed(const Packed* w, int cols, int row_begin, int row_end, const BlockQ8_0* x,
                                std::ptrdiff_t ldx, int vectors, float* y, std::ptrdiff_t ldy) {
    constexpr int most = 4;  // groups, and vectors, at a time
    const int blocks = cols / quant_block;
    thread_local std::vector<PreparedBlock> prepared;
    prepare_blocks(x, ldx, vectors, blocks, prepared);
    const int end_group = (row_end + packed_rows - 1) / packed_rows;
    for (int g = row_begin / packed_rows; g < end_group;) {
        const int groups = end_group - g >= most ? most : 1;
        for (int v = 0; v < vectors; v += most) {
            const int n = std::min(most, vectors - v);
            const BlockQ8_0* xs[most];
            const PreparedBlock* ps[most];
            for (int i = 0; i < n; ++i) {
                xs[i] = x + (v + i) * ldx;
                ps[i] = prepared.data() + std::ptrdiff_t(v + i) * blocks;
            }
            __m512 out[most][most];
            const Packed* first = w + std::ptrdiff_t(g) * blocks;
            if (groups == most) groups_times_vectors<most>(n, first, blocks, xs, ps, v == 0, out);
            if (groups == 1) groups_times_vectors<1>(n, first, blocks, xs, ps, v == 0, out);
            for (int k = 0; k < groups; ++k) {
                const int first_row = (g + k) * packed_rows;
                for (int i = 0; i < n; ++i)
                    _mm512_mask_storeu_ps(y + (v + i) * ldy + first_row, rows_in(first_row, row_begin, row_end), out[k][i]);
            }
        }
        g += groups;
    }
}

PAYBACK_VNNI void matmul_q4_0x16_vnni(const BlockQ4_0x16* w, int cols, int row_begin, int row_end, const BlockQ8_0* x,
                                      std::ptrdiff_t ldx, int vectors, float* y, std::ptrdiff_t ldy) {
    matmul_packed(w, cols, row_begin, row_end, x, ldx, vectors, y, ldy);
}

PAYBACK_VNNI void matmul_q8_0x16_vnni(const BlockQ8_0x16* w, int cols, int row_begin, int row_end, const BlockQ8_0* x,
                                      std::ptrdiff_t ldx, int vectors, float* y, std::ptrdiff_t ldy) {
    matmul_packed(w, cols, row_begin, row_end, x, ldx, vectors, y, ldy);
}

#undef PAYBACK_VNNI

#elif PAYBACK_QUANT_AVX2

float dot_f16(const std::uint16_t* w, const float* x, int cols) {
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
    int i = 0;
    for (; i + 16 <= cols; i += 16) {
        const __m256 w0 = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + i)));
        const __m256 w1 = _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + i + 8)));
        a0 = _mm256_fmadd_ps(w0, _mm256_loadu_ps(x + i), a0);
        a1 = _mm256_fmadd_ps(w1, _mm256_loadu_ps(x + i + 8), a1);
    }
    float sum = hsum(_mm256_add_ps(a0, a1));
    for (; i < cols; ++i) sum += half_to_float(w[i]) * x[i];
    return sum;
}

// Two accumulators, so that consecutive blocks' multiply-adds do not wait for each other.
float dot_q8_0(const BlockQ8_0* w, const BlockQ8_0* x, int blocks) {
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
    int b = 0;
    for (; b + 2 <= blocks; b += 2) {
        a0 = _mm256_fmadd_ps(_mm256_set1_ps(scale(w[b].d, x[b].d)),
                             _mm256_cvtepi32_ps(dot_i8_lanes(load_q8_0(w[b]), load_q8_0(x[b]))), a0);
        a1 = _mm256_fmadd_ps(_mm256_set1_ps(scale(w[b + 1].d, x[b + 1].d)),
                             _mm256_cvtepi32_ps(dot_i8_lanes(load_q8_0(w[b + 1]), load_q8_0(x[b + 1]))), a1);
    }
    float sum = hsum(_mm256_add_ps(a0, a1));
    if (b < blocks) sum += dot_q8_0_portable(w + b, x + b, blocks - b);
    return sum;
}

float dot_q4_0(const BlockQ4_0* w, const BlockQ8_0* x, int blocks) {
    __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps();
    int b = 0;
    for (; b + 2 <= blocks; b += 2) {
        a0 = _mm256_fmadd_ps(_mm256_set1_ps(scale(w[b].d, x[b].d)),
                             _mm256_cvtepi32_ps(dot_i8_lanes(unpack_q4_0(w[b]), load_q8_0(x[b]))), a0);
        a1 = _mm256_fmadd_ps(_mm256_set1_ps(scale(w[b + 1].d, x[b + 1].d)),
                             _mm256_cvtepi32_ps(dot_i8_lanes(unpack_q4_0(w[b + 1]), load_q8_0(x[b + 1]))), a1);
    }
    float sum = hsum(_mm256_add_ps(a0, a1));
    if (b < blocks) sum += dot_q4_0_portable(w + b, x + b, blocks - b);
    return sum;
}

#else

float dot_f16(const std::uint16_t* w, const float* x, int cols) { return dot_f16_portable(w, x, cols); }
float dot_q8_0(const BlockQ8_0* w, const BlockQ8_0* x, int blocks) { return dot_q8_0_portable(w, x, blocks); }
float dot_q4_0(const BlockQ4_0* w, const BlockQ8_0* x, int blocks) { return dot_q4_0_portable(w, x, blocks); }

#endif

// Row by row, every vector against the row while it is in L1: each weight comes from memory once
// however many vectors (sequences, or a prompt's positions) there are.
#if PAYBACK_QUANT_AVX512
// Four rows at a time, then one, each group against every vector while it is in L1, and prefetched
// during the first vector's pass.
void matmul_f16(const std::uint16_t* w, int cols, int row_begin, int row_end, const float* x, std::ptrdiff_t ldx,
                int vectors, float* y, std::ptrdiff_t ldy) {
    float out[4];
    int r = row_begin;
    for (; r + 4 <= row_end; r += 4)
        for (int v = 0; v < vectors; ++v) {
            dot_rows_f16<4>(w + std::ptrdiff_t(r) * cols, cols, x + v * ldx, v == 0, out);
            for (int i = 0; i < 4; ++i) y[v * ldy + r + i] = out[i];
        }
    for (; r < row_end; ++r)
        for (int v = 0; v < vectors; ++v) {
            dot_rows_f16<1>(w + std::ptrdiff_t(r) * cols, cols, x + v * ldx, v == 0, out);
            y[v * ldy + r] = out[0];
        }
}
#else
void matmul_f16(const std::uint16_t* w, int cols, int row_begin, int row_end, const float* x, std::ptrdiff_t ldx,
                int vectors, float* y, std::ptrdiff_t ldy) {
    for (int r = row_begin; r < row_end; ++r) {
        const std::uint16_t* row = w + std::ptrdiff_t(r) * cols;
        for (int v = 0; v < vectors; ++v) y[v * ldy + r] = dot_f16(row, x + v * ldx, cols);
    }
}
#endif

void matmul_q8_0(const BlockQ8_0* w, int cols, int row_begin, int row_end, const BlockQ8_0* x, std::ptrdiff_t ldx,
                 int vectors, float* y, std::ptrdiff_t ldy) {
    const int blocks = cols / quant_block;
    for (int r = row_begin; r < row_end; ++r) {
        const BlockQ8_0* row = w + std::ptrdiff_t(r) * blocks;
        for (int v = 0; v < vectors; ++v) y[v * ldy + r] = dot_q8_0(row, x + v * ldx, blocks);
    }
}

void matmul_q4_0(const BlockQ4_0* w, int cols, int row_begin, int row_end, const BlockQ8_0* x, std::ptrdiff_t ldx,
                 int vectors, float* y, std::ptrdiff_t ldy) {
    const int blocks = cols / quant_block;
    for (int r = row_begin; r < row_end; ++r) {
        const BlockQ4_0* row = w + std::ptrdiff_t(r) * blocks;
        for (int v = 0; v < vectors; ++v) y[v * ldy + r] = dot_q4_0(row, x + v * ldx, blocks);
    }
}

}  // namespace
}  // namespace payback::bench::cpu

namespace payback::PAYBACK_ISA_NAMESPACE {

const bench::cpu::QuantKernelChoices& llm_quant_kernels() {
    using namespace bench::cpu;
#if PAYBACK_QUANT_AVX512
    static constexpr QuantKernels plain{"avx512", &matmul_f16, &matmul_q8_0, &matmul_q4_0, nullptr, nullptr};
    // With VNNI the decoder reads Q8_0 and Q4_0 packed; the row layout's products stay the plain ones.
    static constexpr QuantKernels vnni{"avx512-vnni", &matmul_f16, &matmul_q8_0, &matmul_q4_0, &matmul_q8_0x16_vnni,
                                       &matmul_q4_0x16_vnni};
    static const QuantKernelChoices choices =
        __builtin_cpu_supports("avx512vnni") ? QuantKernelChoices{&vnni, &plain} : QuantKernelChoices{&plain, nullptr};
#elif PAYBACK_QUANT_AVX2
    static constexpr QuantKernels plain{"avx2", &matmul_f16, &matmul_q8_0, &matmul_q4_0, nullptr, nullptr};
    static constexpr QuantKernelChoices choices{&plain, nullptr};
#else
    static constexpr QuantKernels plain{"portable", &matmul_f16, &matmul_q8_0, &matmul_q4_0, nullptr, nullptr};
    static constexpr QuantKernelChoices choices{&plain, nullptr};
#endif
    return choices;
}

}  // namespace payback::PAYBACK_ISA_NAMESPACE
