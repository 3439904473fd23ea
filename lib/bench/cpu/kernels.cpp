#include "cpu/kernels.hpp"

#include <algorithm>
#include <limits>

#include "cpu/scratch.hpp"

// Compiled once per instruction set (cmake/PaybackIsa.cmake): the x86-64-v3 variant has the AVX2/FMA
// kernels, x86-64-v4 the same with AVX-512 tiles for the matrix products and the direct convolution,
// the baseline the portable loops.
#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#define PAYBACK_X86 1
#endif
#if PAYBACK_X86 && defined(__AVX512F__)
#define PAYBACK_AVX512 1
#endif

namespace payback::bench::cpu {
namespace {

// ---- Portable kernels: plain loops the compiler vectorizes as far as its target flags allow; the
// baseline variant's, unused (but for pooling) where the AVX2 kernels are. ----

[[maybe_unused]] void gemm_portable(int m, int n, int k, MatrixView a, MatrixView b, float* c, std::ptrdiff_t ldc, bool accumulate) {
    for (int i = 0; i < m; ++i) {
        float* ci = c + i * ldc;
        if (!accumulate) std::fill(ci, ci + n, 0.0f);
        for (int p = 0; p < k; ++p) {
            const float aip = a.data[i * a.row_stride + p * a.col_stride];
            const float* bp = b.data + p * b.row_stride;
            for (int j = 0; j < n; ++j) ci[j] += aip * bp[j * b.col_stride];
        }
    }
}

[[maybe_unused]] void gemm_abt_portable(int m, int n, int k, const float* a, std::ptrdiff_t lda, const float* b, std::ptrdiff_t ldb,
                       float* c, std::ptrdiff_t ldc, bool accumulate) {
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j) {
            float sum = 0.0f;
            for (int p = 0; p < k; ++p) sum += a[i * lda + p] * b[j * ldb + p];
            c[i * ldc + j] = accumulate ? c[i * ldc + j] + sum : sum;
        }
}

[[maybe_unused]] void conv_rows_portable(int m, int k, int rows, int width, const float* w, const float* x, const int* offsets,
                        std::ptrdiff_t x_row, float* y, bool accumulate) {
    const std::ptrdiff_t plane = std::ptrdiff_t(rows) * width;
    for (int o = 0; o < m; ++o)
        for (int r = 0; r < rows; ++r) {
            float* yr = y + o * plane + std::ptrdiff_t(r) * width;
            if (!accumulate) std::fill(yr, yr + width, 0.0f);
            for (int p = 0; p < k; ++p) {
                const float wp = w[o * k + p];
                const float* xr = x + offsets[p] + r * x_row;
                for (int q = 0; q < width; ++q) yr[q] += wp * xr[q];
            }
        }
}

[[maybe_unused]] void conv_rows_weight_grad_portable(int m, int k, int rows, int width, const float* dy, const float* x,
                                    const int* offsets, std::ptrdiff_t x_row, float* dw, bool accumulate) {
    for (int o = 0; o < m; ++o)
        for (int p = 0; p < k; ++p) {
            float sum = 0.0f;
            for (int r = 0; r < rows; ++r)
                for (int q = 0; q < width; ++q) sum += dy[(o * rows + r) * width + q] * x[offsets[p] + r * x_row + q];
            dw[o * k + p] = accumulate ? dw[o * k + p] + sum : sum;
        }
}

/// Kernel is the window size when known at compile time (2, the common case, then unrolls), 0 to use
/// `kernel`. Branch-free: which input wins is data, and mispredicted branches cost more than the
/// comparisons.
template <int Kernel>
void max_pool_plane_portable(const float* x, int height, int width, int kernel, bool relu, float* y,
                             std::int32_t* argmax, std::int32_t index_offset) {
    const int k = Kernel ? Kernel : kernel;
    const int out_height = height / k, out_width = width / k;
    for (int oh = 0; oh < out_height; ++oh)
        for (int ow = 0; ow < out_width; ++ow) {
            // PyTorch's loop: strictly greater (the first maximum wins ties), or NaN.
            float best = -std::numeric_limits<float>::infinity();
            int at = oh * k * width + ow * k;
            for (int i = 0; i < k; ++i)
                for (int j = 0; j < k; ++j) {
                    const int index = (oh * k + i) * width + ow * k + j;
                    const float v = x[index];
                    const bool take = v > best || v != v;
                    best = take ? v : best;
                    at = take ? index : at;
                }
            y[oh * out_width + ow] = relu && best < 0.0f ? 0.0f : best;
            argmax[oh * out_width + ow] = index_offset + at;
        }
}

#if PAYBACK_X86

thread_local Scratch packed_a_scratch;
thread_local Scratch packed_b_scratch;

inline __m256i lanes_below(int count) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(count), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

// ---- gemm: the BLIS scheme. A 6×16 tile of C lives in 12 registers; each step of k broadcasts six
// elements of A and loads sixteen of B. A is packed into 6-row panels (contiguous broadcasts); B is
// packed into 16-column panels when many row tiles will reuse them, and read in place otherwise. ----

constexpr int tile_rows = 6, tile_cols = 16;
constexpr int depth_block = 256;  // k per pass: a packed B panel (16 KB) stays in L1
constexpr int row_block = 144;    // rows of A packed at once: 144 KB, in L2
constexpr int col_block = 3072;   // columns of B packed at once
constexpr int tiny_depth = 16;    // below this a tile is mostly its stores (a batch-4 weight gradient)

/// Lanes [lo, hi) of a vector whose first lane is number `first`.
inline __m256i lanes_between(int lo, int hi, int first) {
    return _mm256_andnot_si256(lanes_below(lo - first), lanes_below(hi - first));
}

/// Columns [skip, cols) of a row of sixteen: set, or added to.
__attribute__((always_inline)) inline void store_row(float* c, __m256 lo, __m256 hi, bool whole,
                                                                         __m256i mask0, __m256i mask1, bool accumulate) {
    if (whole) {
        if (accumulate) lo = _mm256_add_ps(lo, _mm256_loadu_ps(c)), hi = _mm256_add_ps(hi, _mm256_loadu_ps(c + 8));
        _mm256_storeu_ps(c, lo);
        _mm256_storeu_ps(c + 8, hi);
    } else {
        if (accumulate)
            lo = _mm256_add_ps(lo, _mm256_maskload_ps(c, mask0)), hi = _mm256_add_ps(hi, _mm256_maskload_ps(c + 8, mask1));
        _mm256_maskstore_ps(c, mask0, lo);
        _mm256_maskstore_ps(c + 8, mask1, hi);
    }
}

/// Which of a tile's sixteen columns of B it loads: all (B packed, or in place away from its right
/// edge), or at B's right edge in place, the first `cols` only: 9 to 15 (the second half masked) or 1
/// to 8 (the first half masked, the second skipped). A mask lives in a register through the loop only
/// where needed: 12 accumulators, two B vectors and a broadcast leave one of the sixteen.
enum class Part { all, wide_edge, narrow_edge };

/// Row p of B at b + p·ldb, or at b + offsets[p] when Indirect (a convolution's input read in place).
/// Stores columns [skip, cols) of the tile.
template <Part P, bool Indirect = false>
void tile_6x16(int depth, const float* a, const float* b, std::ptrdiff_t ldb, float* c,
                            std::ptrdiff_t ldc, int rows, int cols, bool accumulate, const int* offsets = nullptr,
                            int skip = 0) {
    constexpr bool second = P != Part::narrow_edge;
    const __m256i edge = lanes_below(P == Part::wide_edge ? cols - 8 : cols);
    __m256 c00 = _mm256_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00;
    __m256 c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
    for (int p = 0; p < depth; ++p, a += tile_rows) {
        const float* bp = Indirect ? b + offsets[p] : b + p * ldb;
        const __m256 b0 = P == Part::narrow_edge ? _mm256_maskload_ps(bp, edge) : _mm256_loadu_ps(bp);
        __m256 b1 = c00;
        if constexpr (P == Part::all) b1 = _mm256_loadu_ps(bp + 8);
        if constexpr (P == Part::wide_edge) b1 = _mm256_maskload_ps(bp + 8, edge);
        __m256 ai = _mm256_broadcast_ss(a + 0);
        c00 = _mm256_fmadd_ps(ai, b0, c00);
        if constexpr (second) c01 = _mm256_fmadd_ps(ai, b1, c01);
        ai = _mm256_broadcast_ss(a + 1);
        c10 = _mm256_fmadd_ps(ai, b0, c10);
        if constexpr (second) c11 = _mm256_fmadd_ps(ai, b1, c11);
        ai = _mm256_broadcast_ss(a + 2);
        c20 = _mm256_fmadd_ps(ai, b0, c20);
        if constexpr (second) c21 = _mm256_fmadd_ps(ai, b1, c21);
        ai = _mm256_broadcast_ss(a + 3);
        c30 = _mm256_fmadd_ps(ai, b0, c30);
        if constexpr (second) c31 = _mm256_fmadd_ps(ai, b1, c31);
        ai = _mm256_broadcast_ss(a + 4);
        c40 = _mm256_fmadd_ps(ai, b0, c40);
        if constexpr (second) c41 = _mm256_fmadd_ps(ai, b1, c41);
        ai = _mm256_broadcast_ss(a + 5);
        c50 = _mm256_fmadd_ps(ai, b0, c50);
        if constexpr (second) c51 = _mm256_fmadd_ps(ai, b1, c51);
    }
    // Rows past `rows` exist in A's zero-padded panel, not in C.
    const bool whole = skip == 0 && cols == tile_cols;
    const __m256i mask0 = lanes_between(skip, cols, 0), mask1 = lanes_between(skip, cols, 8);
    store_row(c, c00, c01, whole, mask0, mask1, accumulate);
    if (rows > 1) store_row(c + ldc, c10, c11, whole, mask0, mask1, accumulate);
    if (rows > 2) store_row(c + 2 * ldc, c20, c21, whole, mask0, mask1, accumulate);
    if (rows > 3) store_row(c + 3 * ldc, c30, c31, whole, mask0, mask1, accumulate);
    if (rows > 4) store_row(c + 4 * ldc, c40, c41, whole, mask0, mask1, accumulate);
    if (rows > 5) store_row(c + 5 * ldc, c50, c51, whole, mask0, mask1, accumulate);
}

/// The tile for columns [0, cols) of B read in place, by how far they reach.
template <bool Indirect = false>
void edge_tile(int depth, const float* a, const float* b, std::ptrdiff_t ldb, float* c,
                            std::ptrdiff_t ldc, int rows, int cols, bool accumulate, const int* offsets = nullptr) {
    if (cols == tile_cols)
        tile_6x16<Part::all, Indirect>(depth, a, b, ldb, c, ldc, rows, cols, accumulate, offsets);
    else if (cols > 8)
        tile_6x16<Part::wide_edge, Indirect>(depth, a, b, ldb, c, ldc, rows, cols, accumulate, offsets);
    else
        tile_6x16<Part::narrow_edge, Indirect>(depth, a, b, ldb, c, ldc, rows, cols, accumulate, offsets);
}

#if PAYBACK_AVX512
// ---- AVX-512 (the x86-64-v4 variant): a 6×32 tile of C in 12 of the 32 zmm registers, each step of k
// broadcasting six elements of A against two 16-lane loads of B; the edges masked, loads and stores. ----

constexpr int wide_tile_cols = 32;

/// The first `count` of 16 lanes (none for count <= 0, all for count >= 16).
inline __mmask16 first_lanes(int count) {
    return count <= 0 ? __mmask16(0) : count >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << count) - 1);
}

/// Columns [skip, cols) of a row of 32: set, or added to.
__attribute__((always_inline)) inline void store_wide_row(float* c, __m512 lo, __m512 hi, __mmask16 mask0,
                                                          __mmask16 mask1, bool accumulate) {
    if (accumulate) {
        lo = _mm512_add_ps(lo, _mm512_maskz_loadu_ps(mask0, c));
        hi = _mm512_add_ps(hi, _mm512_maskz_loadu_ps(mask1, c + 16));
    }
    _mm512_mask_storeu_ps(c, mask0, lo);
    _mm512_mask_storeu_ps(c + 16, mask1, hi);
}

/// tile_6x16's contract for 32 columns: row p of B at b + p·ldb, or at b + offsets[p] when Indirect;
/// columns past `cols` are neither loaded nor stored, nor those before `skip`.
template <bool Indirect = false>
void tile_6x32(int depth, const float* a, const float* b, std::ptrdiff_t ldb, float* c, std::ptrdiff_t ldc, int rows,
               int cols, bool accumulate, const int* offsets = nullptr, int skip = 0) {
    const __mmask16 load0 = first_lanes(cols), load1 = first_lanes(cols - 16);
    __m512 c00 = _mm512_setzero_ps(), c01 = c00, c10 = c00, c11 = c00, c20 = c00, c21 = c00;
    __m512 c30 = c00, c31 = c00, c40 = c00, c41 = c00, c50 = c00, c51 = c00;
    for (int p = 0; p < depth; ++p, a += tile_rows) {
        const float* bp = Indirect ? b + offsets[p] : b + p * ldb;
        const __m512 b0 = _mm512_maskz_loadu_ps(load0, bp), b1 = _mm512_maskz_loadu_ps(load1, bp + 16);
        __m512 ai = _mm512_set1_ps(a[0]);
        c00 = _mm512_fmadd_ps(ai, b0, c00), c01 = _mm512_fmadd_ps(ai, b1, c01);
        ai = _mm512_set1_ps(a[1]);
        c10 = _mm512_fmadd_ps(ai, b0, c10), c11 = _mm512_fmadd_ps(ai, b1, c11);
        ai = _mm512_set1_ps(a[2]);
        c20 = _mm512_fmadd_ps(ai, b0, c20), c21 = _mm512_fmadd_ps(ai, b1, c21);
        ai = _mm512_set1_ps(a[3]);
        c30 = _mm512_fmadd_ps(ai, b0, c30), c31 = _mm512_fmadd_ps(ai, b1, c31);
        ai = _mm512_set1_ps(a[4]);
        c40 = _mm512_fmadd_ps(ai, b0, c40), c41 = _mm512_fmadd_ps(ai, b1, c41);
        ai = _mm512_set1_ps(a[5]);
        c50 = _mm512_fmadd_ps(ai, b0, c50), c51 = _mm512_fmadd_ps(ai, b1, c51);
    }
    // Rows past `rows` exist in A's zero-padded panel, not in C.
    const __mmask16 mask0 = load0 & ~first_lanes(skip), mask1 = load1 & ~first_lanes(skip - 16);
    store_wide_row(c, c00, c01, mask0, mask1, accumulate);
    if (rows > 1) store_wide_row(c + ldc, c10, c11, mask0, mask1, accumulate);
    if (rows > 2) store_wide_row(c + 2 * ldc, c20, c21, mask0, mask1, accumulate);
    if (rows > 3) store_wide_row(c + 3 * ldc, c30, c31, mask0, mask1, accumulate);
    if (rows > 4) store_wide_row(c + 4 * ldc, c40, c41, mask0, mask1, accumulate);
    if (rows > 5) store_wide_row(c + 5 * ldc, c50, c51, mask0, mask1, accumulate);
}

#endif

/// 8 rows of 8 floats (src, rows `ld` apart) transposed: column j of the block into out[j].
void transpose_8x8(const float* src, std::ptrdiff_t ld, __m256 out[8]) {
    __m256 r[8], t[8];
#pragma GCC unroll 8
    for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(src + i * ld);
#pragma GCC unroll 4
    for (int i = 0; i < 8; i += 2) t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]), t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
#pragma GCC unroll 2
    for (int i = 0; i < 8; i += 4)
#pragma GCC unroll 2
        for (int j = 0; j < 2; ++j) {
            r[i + j] = _mm256_shuffle_ps(t[i + j], t[i + j + 2], _MM_SHUFFLE(1, 0, 1, 0));
            r[i + j + 2] = _mm256_shuffle_ps(t[i + j], t[i + j + 2], _MM_SHUFFLE(3, 2, 3, 2));
        }
    // Now r[0], r[2], r[1], r[3] hold columns 0-3 of rows 0-3 (low halves) and columns 4-7 (high halves);
    // r[4..7] the same for rows 4-7.
    constexpr int order[4] = {0, 2, 1, 3};
#pragma GCC unroll 4
    for (int i = 0; i < 4; ++i) {
        out[i] = _mm256_permute2f128_ps(r[order[i]], r[order[i] + 4], 0x20);
        out[i + 4] = _mm256_permute2f128_ps(r[order[i]], r[order[i] + 4], 0x31);
    }
}

/// Rows [0, m) × columns [0, k) of A as 6-row panels, each k × 6 (zero rows past m).
void pack_a(int m, int k, MatrixView a, float* out) {
    for (int i0 = 0; i0 < m; i0 += tile_rows, out += std::ptrdiff_t(k) * tile_rows) {
        const int rows = std::min(tile_rows, m - i0);
        const float* panel = a.data + i0 * a.row_stride;
        int p = 0;
        if (rows == tile_rows && a.row_stride == 1) {  // Aᵀ stored row-major: a panel's k-th column is contiguous
            const __m256i six = lanes_below(tile_rows);
            for (; p < k; ++p) _mm256_maskstore_ps(out + std::ptrdiff_t(p) * tile_rows, six, _mm256_maskload_ps(panel + p * a.col_stride, six));
        } else if (a.col_stride == 1 && i0 + 8 <= m) {
            // Rows stored contiguously: 8×8 blocks transposed, of which 6 rows are kept. Each column is
            // stored whole, 8 floats, in increasing order, so that the next one overwrites the two past
            // the panel's six; past the last column they fall in the next panel (there is one: i0 + 8 <= m),
            // which is packed after this one.
            __m256 columns[8];
            for (; p + 8 <= k; p += 8) {
                transpose_8x8(panel + p, a.row_stride, columns);
#pragma GCC unroll 8
                for (int j = 0; j < 8; ++j) _mm256_storeu_ps(out + std::ptrdiff_t(p + j) * tile_rows, columns[j]);
            }
        }
        for (; p < k; ++p) {
            const float* src = panel + p * a.col_stride;
            for (int i = 0; i < tile_rows; ++i) out[p * tile_rows + i] = i < rows ? src[i * a.row_stride] : 0.0f;
        }
    }
}

/// Rows [0, k) × columns [0, n) of B as Cols-column panels, each k × Cols (zero columns past n).
template <int Cols>
void pack_b(int k, int n, MatrixView b, float* out) {
    for (int j0 = 0; j0 < n; j0 += Cols, out += std::ptrdiff_t(k) * Cols) {
        const int cols = std::min(Cols, n - j0);
        const float* src = b.data + j0 * b.col_stride;
        int p = 0;
        if (b.row_stride == 1 && cols == Cols) {  // Bᵀ stored row-major (a weight matrix): transpose 8×8 blocks
            for (; p + 8 <= k; p += 8)
                for (int j = 0; j < Cols; j += 8) {
                    __m256 columns[8];
                    transpose_8x8(src + p + j * b.col_stride, b.col_stride, columns);
#pragma GCC unroll 8
                    for (int i = 0; i < 8; ++i) _mm256_storeu_ps(out + std::ptrdiff_t(p + i) * Cols + j, columns[i]);
                }
        }
        for (; p < k; ++p) {
            float* o = out + std::ptrdiff_t(p) * Cols;
            const float* row = src + p * b.row_stride;
            if (b.col_stride == 1 && cols == Cols) {
#pragma GCC unroll 4
                for (int j = 0; j < Cols; j += 8) _mm256_storeu_ps(o + j, _mm256_loadu_ps(row + j));
            } else {
                for (int j = 0; j < Cols; ++j) o[j] = j < cols ? row[j * b.col_stride] : 0.0f;
            }
        }
    }
}

/// The BLIS loops around a register tile of tile_rows × Cols (16 with AVX2, 32 with AVX-512).
template <int Cols>
void gemm_blocked(int m, int n, int k, MatrixView a, MatrixView b, float* c, std::ptrdiff_t ldc, bool accumulate) {
    // Packing B costs a pass over it; it pays when several row tiles reuse each panel, and is needed
    // when B's rows are not contiguous.
    const bool packed_b = b.col_stride != 1 || m > 4 * tile_rows;
    float* a_panels = packed_a_scratch.get(std::size_t(row_block) * depth_block);
    float* b_panels = packed_b ? packed_b_scratch.get(std::size_t(depth_block) * (col_block + Cols)) : nullptr;
    // With one tile of rows and B read in place, nothing reuses B: sweep it a few rows at a time,
    // each row left to right, rather than down 256 rows 16 columns at a time (rows of a weight matrix
    // are 4 or 12 KB apart, and every load would start a new stream).
    const int depth_step = !packed_b && m <= tile_rows ? tiny_depth : depth_block;
    for (int jc = 0; jc < n; jc += col_block) {
        const int nc = std::min(col_block, n - jc);
        for (int pc = 0; pc < k; pc += depth_step) {
            const int kc = std::min(depth_step, k - pc);
            const bool add = accumulate || pc > 0;
            const MatrixView b_block{b.data + pc * b.row_stride + jc * b.col_stride, b.row_stride, b.col_stride};
            if (packed_b) pack_b<Cols>(kc, nc, b_block, b_panels);
            for (int ic = 0; ic < m; ic += row_block) {
                const int mc = std::min(row_block, m - ic);
                pack_a(mc, kc, {a.data + ic * a.row_stride + pc * a.col_stride, a.row_stride, a.col_stride}, a_panels);
                const auto tile = [&](int ir, int jr) {
                    const int rows = std::min(tile_rows, mc - ir), cols = std::min(Cols, nc - jr);
                    const float* ap = a_panels + std::ptrdiff_t(ir) * kc;
                    const float* bp = packed_b ? b_panels + std::ptrdiff_t(jr) * kc : b_block.data + jr;
                    float* ct = c + (ic + ir) * ldc + jc + jr;
#if PAYBACK_AVX512
                    if constexpr (Cols == wide_tile_cols) {  // masks at the edges, packed or not
                        tile_6x32(kc, ap, bp, packed_b ? Cols : b.row_stride, ct, ldc, rows, cols, add);
                        return;
                    }
#endif
                    if (packed_b)  // zero-padded: always sixteen columns to load
                        tile_6x16<Part::all>(kc, ap, bp, tile_cols, ct, ldc, rows, cols, add);
                    else
                        edge_tile(kc, ap, bp, b.row_stride, ct, ldc, rows, cols, add);
                };
                if (kc > tiny_depth) {  // a panel of B stays in L1 for every tile of rows
                    for (int jr = 0; jr < nc; jr += Cols)
                        for (int ir = 0; ir < mc; ir += tile_rows) tile(ir, jr);
                } else {  // a rank-k update, bound by writing C: along its rows, not down its columns
                    for (int ir = 0; ir < mc; ir += tile_rows)
                        for (int jr = 0; jr < nc; jr += Cols) tile(ir, jr);
                }
            }
        }
    }
}

void gemm_simd(int m, int n, int k, MatrixView a, MatrixView b, float* c, std::ptrdiff_t ldc, bool accumulate) {
#if PAYBACK_AVX512
    gemm_blocked<wide_tile_cols>(m, n, k, a, b, c, ldc, accumulate);
#else
    gemm_blocked<tile_cols>(m, n, k, a, b, c, ldc, accumulate);
#endif
}

// ---- gemm_abt: dot products of rows. An R×C tile of C keeps R·C vector accumulators (at most 3×4
// = 12) over k; A and B rows are read in place, so nothing is packed for small problems. ----

constexpr int dot_depth_block = 512;  // k per pass: 3 + 4 rows of 2 KB in L1
constexpr int dot_max_rows = 16;      // more rows of A go to the packed kernel

/// Four 8-lane vectors to their four sums.
inline __m128 sum4(__m256 x0, __m256 x1, __m256 x2, __m256 x3) {
    const __m256 s = _mm256_hadd_ps(_mm256_hadd_ps(x0, x1), _mm256_hadd_ps(x2, x3));
    return _mm_add_ps(_mm256_castps256_ps128(s), _mm256_extractf128_ps(s, 1));
}

/// B's row j at b + j·ldb.
struct StridedRows {
    const float* b;
    std::ptrdiff_t ldb;
    const float* operator[](int j) const { return b + j * ldb; }
};

/// One step of 8 along k for an R×C tile (B's row j at b[j] + offset); masked loads for the tail of k.
template <int R, int C, bool Masked, class Rows>
__attribute__((always_inline)) inline void dot_step(const float* a, std::ptrdiff_t lda,
                                                                        const Rows& b, std::ptrdiff_t offset,
                                                                        __m256 (&acc)[R][4], __m256i mask) {
    __m256 av[R];
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
        av[r] = Masked ? _mm256_maskload_ps(a + r * lda, mask) : _mm256_loadu_ps(a + r * lda);
        __asm__("" : "+x"(av[r]));  // see below
    }
#pragma GCC unroll 4
    for (int j = 0; j < C; ++j) {
        const float* bj = b[j] + offset;
        __m256 bv = Masked ? _mm256_maskload_ps(bj, mask) : _mm256_loadu_ps(bj);
        // One load of each A and B row per step: GCC otherwise folds the loads into the FMAs, loading
        // each B row R times (or each A row C times), and the loop becomes bound by loads (15 or 16
        // per 12 FMAs instead of 7).
        __asm__("" : "+x"(bv));
#pragma GCC unroll 4
        for (int r = 0; r < R; ++r) acc[r][j] = _mm256_fmadd_ps(av[r], bv, acc[r][j]);
    }
}

/// C[r][j] (+)= A row r · B row j; stored as C[j][r] when Transposed.
template <int R, int C, bool Transposed = false>
void dot_tile(int depth, const float* a, std::ptrdiff_t lda, const float* b, std::ptrdiff_t ldb,
                           float* c, std::ptrdiff_t ldc, bool accumulate) {
    __m256 acc[R][4];
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
        for (int j = 0; j < 4; ++j) acc[r][j] = _mm256_setzero_ps();
    int p = 0;
    const StridedRows rows{b, ldb};
    for (; p + 8 <= depth; p += 8) dot_step<R, C, false>(a + p, lda, rows, p, acc, __m256i{});
    if (p < depth) dot_step<R, C, true>(a + p, lda, rows, p, acc, lanes_below(depth - p));
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
        const __m128 sums = sum4(acc[r][0], acc[r][1], acc[r][2], acc[r][3]);
        float* cr = c + r * ldc;
        if constexpr (Transposed) {
            alignas(16) float part[4];
            _mm_store_ps(part, sums);
            for (int j = 0; j < C; ++j) c[j * ldc + r] = accumulate ? c[j * ldc + r] + part[j] : part[j];
        } else if constexpr (C == 4) {
            _mm_storeu_ps(cr, accumulate ? _mm_add_ps(_mm_loadu_ps(cr), sums) : sums);
        } else {
            alignas(16) float part[4];
            _mm_store_ps(part, sums);
            for (int j = 0; j < C; ++j) cr[j] = accumulate ? cr[j] + part[j] : part[j];
        }
    }
}

using DotTile = void (*)(int, const float*, std::ptrdiff_t, const float*, std::ptrdiff_t, float*, std::ptrdiff_t, bool);
constexpr DotTile dot_tiles[3][4] = {
    {dot_tile<1, 1>, dot_tile<1, 2>, dot_tile<1, 3>, dot_tile<1, 4>},
    {dot_tile<2, 1>, dot_tile<2, 2>, dot_tile<2, 3>, dot_tile<2, 4>},
    {dot_tile<3, 1>, dot_tile<3, 2>, dot_tile<3, 3>, dot_tile<3, 4>},
};

constexpr DotTile transposed_dot_tiles[3][4] = {
    {dot_tile<1, 1, true>, dot_tile<1, 2, true>, dot_tile<1, 3, true>, dot_tile<1, 4, true>},
    {dot_tile<2, 1, true>, dot_tile<2, 2, true>, dot_tile<2, 3, true>, dot_tile<2, 4, true>},
    {dot_tile<3, 1, true>, dot_tile<3, 2, true>, dot_tile<3, 3, true>, dot_tile<3, 4, true>},
};

/// Rows of A per tile: 3, except that 4 rows go as 2 + 2 rather than 3 + 1 (a 1-row tile does a load
/// of B per FMA).
int dot_rows(int remaining) { return remaining == 4 ? 2 : std::min(3, remaining); }

void gemm_abt_avx2(int m, int n, int k, const float* a, std::ptrdiff_t lda, const float* b,
                                std::ptrdiff_t ldb, float* c, std::ptrdiff_t ldc, bool accumulate) {
    // Many rows of A reuse each row of B: the broadcast kernel with B transposed into packed panels
    // moves less data per FMA (a dot tile streams 4 rows of B from L2 per 12 FMAs).
    if (m > dot_max_rows) return gemm_simd(m, n, k, {a, lda, 1}, {b, 1, ldb}, c, ldc, accumulate);
    if (m <= 4) {
        // At most four rows of A (a batch of 4): tiles of 3 rows of B by all of A, so that each row
        // of B (a weight matrix, read from memory) is read once, with 7 loads per 12 FMAs.
        for (int j = 0, rows; j < n; j += rows) {
            rows = dot_rows(n - j);
            transposed_dot_tiles[rows - 1][m - 1](k, b + j * ldb, ldb, a, lda, c + j, ldc, accumulate);
        }
        return;
    }
    // A's few rows stay in L1 while each tile of B is read once.
    for (int pc = 0; pc < k; pc += dot_depth_block) {
        const int kc = std::min(dot_depth_block, k - pc);
        const bool add = accumulate || pc > 0;
        for (int j = 0; j < n; j += 4) {
            const int cols = std::min(4, n - j);
            for (int i = 0, rows; i < m; i += rows) {
                rows = dot_rows(m - i);
                dot_tiles[rows - 1][cols - 1](kc, a + i * lda + pc, lda, b + j * ldb + pc, ldb, c + i * ldc + j, ldc, add);
            }
        }
    }
}

// ---- Direct convolution: the tile kernels with B's rows (or the dot tiles' B rows) taken from the
// input in place, one output row at a time. ----

void conv_rows_simd(int m, int k, int rows, int width, const float* w, const float* x, const int* offsets,
                                 std::ptrdiff_t x_row, float* y, bool accumulate) {
    const std::ptrdiff_t plane = std::ptrdiff_t(rows) * width;
    const int panels = (m + tile_rows - 1) / tile_rows;
    float* w_panels = packed_a_scratch.get(std::size_t(panels) * tile_rows * k);
    pack_a(m, k, {w, k, 1}, w_panels);
    const int whole_tiles = width / tile_cols;
    for (int r = 0; r < rows; ++r)
        for (int panel = 0; panel < panels; ++panel) {
            const float* ap = w_panels + std::ptrdiff_t(panel) * tile_rows * k;
            const int tile_m = std::min(tile_rows, m - panel * tile_rows);
            float* yr = y + std::ptrdiff_t(panel) * tile_rows * plane + std::ptrdiff_t(r) * width;
            const float* xr = x + r * x_row;
#if PAYBACK_AVX512
            for (int q = 0; q < width; q += wide_tile_cols)  // the last tile masked
                tile_6x32<true>(k, ap, xr + q, 0, yr + q, plane, tile_m, std::min(wide_tile_cols, width - q),
                                accumulate, offsets);
            continue;
#endif
            for (int t = 0; t < whole_tiles; ++t)
                tile_6x16<Part::all, true>(k, ap, xr + std::ptrdiff_t(t) * tile_cols, 0, yr + std::ptrdiff_t(t) * tile_cols, plane, tile_m, tile_cols,
                                           accumulate, offsets);
            const int done = whole_tiles * tile_cols;
            if (done == width) continue;
            if (width >= tile_cols) {
                // The last tile ends at the row's end, overlapping the one before: every load is whole,
                // and the overlapping columns are not stored again.
                const int q = width - tile_cols;
                tile_6x16<Part::all, true>(k, ap, xr + q, 0, yr + q, plane, tile_m, tile_cols, accumulate, offsets,
                                           done - q);
            } else {
                edge_tile<true>(k, ap, xr, 0, yr, plane, tile_m, width, accumulate, offsets);
            }
        }
}

/// An R×C tile of dw: R output channels by C taps, summed over every output position.
template <int R, int C>
void conv_grad_tile(int rows, int width, const float* dy, std::ptrdiff_t plane, const float* x,
                                 const int* offsets, std::ptrdiff_t x_row, float* dw, std::ptrdiff_t ldw,
                                 bool accumulate) {
    __m256 acc[R][4];
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r)
#pragma GCC unroll 4
        for (int j = 0; j < 4; ++j) acc[r][j] = _mm256_setzero_ps();
    const float* taps[C];
#pragma GCC unroll 4
    for (int j = 0; j < C; ++j) taps[j] = x + offsets[j];
    // Whole columns of eight for every row first, then the masked remainder for every row: the mask
    // then needs no register while the accumulators fill all sixteen.
    const int whole = width & ~7;
    for (int q = 0; q < whole; q += 8)
        for (int row = 0; row < rows; ++row)
            dot_step<R, C, false>(dy + std::ptrdiff_t(row) * width + q, plane, taps, row * x_row + q, acc, __m256i{});
    if (whole < width) {
        const __m256i tail = lanes_below(width - whole);
        for (int row = 0; row < rows; ++row)
            dot_step<R, C, true>(dy + std::ptrdiff_t(row) * width + whole, plane, taps, row * x_row + whole, acc, tail);
    }
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
        const __m128 sums = sum4(acc[r][0], acc[r][1], acc[r][2], acc[r][3]);
        float* dr = dw + r * ldw;
        if constexpr (C == 4) {
            _mm_storeu_ps(dr, accumulate ? _mm_add_ps(_mm_loadu_ps(dr), sums) : sums);
        } else {
            alignas(16) float part[4];
            _mm_store_ps(part, sums);
            for (int j = 0; j < C; ++j) dr[j] = accumulate ? dr[j] + part[j] : part[j];
        }
    }
}

using ConvGradTile = void (*)(int, int, const float*, std::ptrdiff_t, const float*, const int*, std::ptrdiff_t, float*,
                              std::ptrdiff_t, bool);
constexpr ConvGradTile conv_grad_tiles[3][4] = {
    {conv_grad_tile<1, 1>, conv_grad_tile<1, 2>, conv_grad_tile<1, 3>, conv_grad_tile<1, 4>},
    {conv_grad_tile<2, 1>, conv_grad_tile<2, 2>, conv_grad_tile<2, 3>, conv_grad_tile<2, 4>},
    {conv_grad_tile<3, 1>, conv_grad_tile<3, 2>, conv_grad_tile<3, 3>, conv_grad_tile<3, 4>},
};

void conv_rows_weight_grad_avx2(int m, int k, int rows, int width, const float* dy, const float* x,
                                             const int* offsets, std::ptrdiff_t x_row, float* dw, bool accumulate) {
    const std::ptrdiff_t plane = std::ptrdiff_t(rows) * width;
    for (int p = 0; p < k; p += 4) {
        const int cols = std::min(4, k - p);
        for (int o = 0, tile_m; o < m; o += tile_m) {
            tile_m = dot_rows(m - o);
            conv_grad_tiles[tile_m - 1][cols - 1](rows, width, dy + o * plane, plane, x, offsets + p, x_row,
                                                  dw + std::ptrdiff_t(o) * k + p, k, accumulate);
        }
    }
}

// ---- Max-pooling 2×2: eight windows at once, even and odd columns of each row pair separated. ----

/// Elements 0, 2, …, 14 of the sixteen in a, b (Odd: 1, 3, …, 15).
template <bool Odd>
inline __m256 deinterleave(__m256 a, __m256 b) {
    const __m256 t = Odd ? _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)) : _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
    return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(t), _MM_SHUFFLE(3, 1, 2, 0)));
}

void max_pool2_plane_avx2(const float* x, int height, int width, bool relu, float* y, std::int32_t* argmax,
                                       std::int32_t index_offset) {
    const int out_height = height / 2, out_width = width / 2;
    const __m256i columns = _mm256_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14);
    for (int oh = 0; oh < out_height; ++oh) {
        const float* r0 = x + std::ptrdiff_t(2) * oh * width;
        const float* r1 = r0 + width;
        for (int group = 0; group < out_width; group += 8) {
            const int ow = std::min(group, out_width - 8);  // the last group may overlap: pooling twice is harmless
            const __m256 a = _mm256_loadu_ps(r0 + std::ptrdiff_t(2) * ow), b = _mm256_loadu_ps(r0 + std::ptrdiff_t(2) * ow + 8);
            const __m256 c = _mm256_loadu_ps(r1 + std::ptrdiff_t(2) * ow), d = _mm256_loadu_ps(r1 + std::ptrdiff_t(2) * ow + 8);
            __m256 best = deinterleave<false>(a, b);
            __m256 at = _mm256_castsi256_ps(_mm256_setzero_si256());
            // The window in PyTorch's order; a candidate wins when strictly greater, or NaN.
            const __m256 candidates[3] = {deinterleave<true>(a, b), deinterleave<false>(c, d), deinterleave<true>(c, d)};
            const int offsets[3] = {1, width, width + 1};
            for (int i = 0; i < 3; ++i) {
                const __m256 v = candidates[i];
                const __m256 take = _mm256_or_ps(_mm256_cmp_ps(v, best, _CMP_GT_OQ), _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
                best = _mm256_blendv_ps(best, v, take);
                at = _mm256_blendv_ps(at, _mm256_castsi256_ps(_mm256_set1_epi32(offsets[i])), take);
            }
            if (relu) best = _mm256_blendv_ps(best, _mm256_setzero_ps(), _mm256_cmp_ps(best, _mm256_setzero_ps(), _CMP_LT_OQ));
            _mm256_storeu_ps(y + std::ptrdiff_t(oh) * out_width + ow, best);
            const __m256i first = _mm256_add_epi32(_mm256_set1_epi32(index_offset + 2 * oh * width + 2 * ow), columns);
            _mm256_storeu_si256(reinterpret_cast<__m256i*>(argmax + std::ptrdiff_t(oh) * out_width + ow),
                                _mm256_add_epi32(first, _mm256_castps_si256(at)));
        }
    }
}

#endif

}  // namespace

namespace kernel {

void gemm(int m, int n, int k, MatrixView a, MatrixView b, float* c, std::ptrdiff_t ldc, bool accumulate) {
    if (m <= 0 || n <= 0) return;
    if (k <= 0) {
        if (!accumulate)
            for (int i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, 0.0f);
        return;
    }
#if PAYBACK_X86
    gemm_simd(m, n, k, a, b, c, ldc, accumulate);
#else
    gemm_portable(m, n, k, a, b, c, ldc, accumulate);
#endif
}

void gemm_abt(int m, int n, int k, const float* a, std::ptrdiff_t lda, const float* b, std::ptrdiff_t ldb,
              float* c, std::ptrdiff_t ldc, bool accumulate) {
    if (m <= 0 || n <= 0) return;
    if (k <= 0) {
        if (!accumulate)
            for (int i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, 0.0f);
        return;
    }
#if PAYBACK_X86
    gemm_abt_avx2(m, n, k, a, lda, b, ldb, c, ldc, accumulate);
#else
    gemm_abt_portable(m, n, k, a, lda, b, ldb, c, ldc, accumulate);
#endif
}

void conv_rows(int m, int k, int rows, int width, const float* w, const float* x, const int* offsets,
               std::ptrdiff_t x_row, float* y, bool accumulate) {
#if PAYBACK_X86
    conv_rows_simd(m, k, rows, width, w, x, offsets, x_row, y, accumulate);
#else
    conv_rows_portable(m, k, rows, width, w, x, offsets, x_row, y, accumulate);
#endif
}

void conv_rows_weight_grad(int m, int k, int rows, int width, const float* dy, const float* x, const int* offsets,
                           std::ptrdiff_t x_row, float* dw, bool accumulate) {
#if PAYBACK_X86
    conv_rows_weight_grad_avx2(m, k, rows, width, dy, x, offsets, x_row, dw, accumulate);
#else
    conv_rows_weight_grad_portable(m, k, rows, width, dy, x, offsets, x_row, dw, accumulate);
#endif
}

void max_pool_plane(const float* x, int height, int width, int kernel, bool relu, float* y, std::int32_t* argmax,
                    std::int32_t index_offset) {
#if PAYBACK_X86
    if (kernel == 2 && width / 2 >= 8)
        return max_pool2_plane_avx2(x, height, width, relu, y, argmax, index_offset);
#endif
    if (kernel == 2)
        max_pool_plane_portable<2>(x, height, width, kernel, relu, y, argmax, index_offset);
    else
        max_pool_plane_portable<0>(x, height, width, kernel, relu, y, argmax, index_offset);
}

}  // namespace kernel

}  // namespace payback::bench::cpu

namespace payback::PAYBACK_ISA_NAMESPACE {

const bench::cpu::Kernels& cpu_kernels() {
    using namespace bench::cpu::kernel;
    static constexpr bench::cpu::Kernels kernels{&gemm, &gemm_abt, &conv_rows, &conv_rows_weight_grad, &max_pool_plane};
    return kernels;
}

}  // namespace payback::PAYBACK_ISA_NAMESPACE
