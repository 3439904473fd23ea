#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "cpu/kernels.hpp"

using namespace payback::bench;

// The matrix products of the active instruction set (CI runs these again with PAYBACK_ISA=baseline)
// against a double-precision loop, on shapes that leave every edge partial: the 6-row panels, the
// 16- and 32-column tiles, the 8×8 transposes that pack A and B, and the depth blocks of 256.

namespace {

/// |A|·|B| per element of C: the float error bound of a product scales with it.
struct Reference {
    std::vector<double> c, magnitude;
};

Reference reference(int m, int n, int k, const std::vector<float>& a, cpu::MatrixView av, const std::vector<float>& b,
                    cpu::MatrixView bv) {
    Reference r{std::vector<double>(std::size_t(m) * n), std::vector<double>(std::size_t(m) * n)};
    for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
            for (int p = 0; p < k; ++p) {
                const double x = a[std::size_t(i * av.row_stride + p * av.col_stride)];
                const double y = b[std::size_t(p * bv.row_stride + j * bv.col_stride)];
                r.c[std::size_t(i) * n + j] += x * y;
                r.magnitude[std::size_t(i) * n + j] += std::fabs(x * y);
            }
    return r;
}

std::vector<float> random_values(std::size_t count, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> value(-1.0f, 1.0f);
    std::vector<float> v(count);
    for (float& x : v) x = value(rng);
    return v;
}

/// The largest error of C (+)= A·B against the reference, in units of (k + 1)·2⁻²⁴·(Σ|a·b| + |c|): the
/// float bound of k products and k additions, in any order, under 1 for a correct kernel.
double worst_error(int m, int n, int k, bool a_transposed, bool b_transposed, bool accumulate) {
    const std::vector<float> a = random_values(std::size_t(m) * k, 1), b = random_values(std::size_t(k) * n, 2);
    // Row-major m×k, or stored as its transpose (k×m row-major: a weight gradient's dyᵀ).
    const cpu::MatrixView av = a_transposed ? cpu::MatrixView{a.data(), 1, m} : cpu::MatrixView{a.data(), k, 1};
    // Row-major k×n, or stored as its transpose (n×k: a linear layer's weight read as Wᵀ).
    const cpu::MatrixView bv = b_transposed ? cpu::MatrixView{b.data(), 1, k} : cpu::MatrixView{b.data(), n, 1};
    const std::ptrdiff_t ldc = n + 3;
    std::vector<float> c(std::size_t(m) * ldc, 0.5f);
    cpu::gemm(m, n, k, av, bv, c.data(), ldc, accumulate);
    const Reference r = reference(m, n, k, a, av, b, bv);
    double worst = 0.0;
    for (int i = 0; i < m; ++i) {
        for (int j = 0; j < n; ++j) {
            const double expected = r.c[std::size_t(i) * n + j] + (accumulate ? 0.5 : 0.0);
            const double bound = (k + 1) * std::ldexp(1.0, -24) * (r.magnitude[std::size_t(i) * n + j] + 0.5);
            worst = std::max(worst, std::fabs(c[std::size_t(i) * ldc + j] - expected) / bound);
        }
        for (std::ptrdiff_t j = n; j < ldc; ++j) REQUIRE(c[std::size_t(i * ldc + j)] == 0.5f);  // past n: untouched
    }
    return worst;
}

}  // namespace

TEST_CASE("gemm matches a double-precision product on every layout and ragged shape", "[bench][cpu]") {
    for (const int m : {1, 5, 6, 7, 13, 150})
        for (const int n : {1, 15, 17, 33, 70})
            for (const int k : {1, 7, 8, 9, 300})
                for (const bool a_transposed : {false, true})
                    for (const bool b_transposed : {false, true})
                        for (const bool accumulate : {false, true}) {
                            INFO("m " << m << " n " << n << " k " << k << " Aᵀ " << a_transposed << " Bᵀ "
                                      << b_transposed << " accumulate " << accumulate);
                            CHECK(worst_error(m, n, k, a_transposed, b_transposed, accumulate) < 1.0);
                        }
}

TEST_CASE("gemm_abt is A·Bᵀ over rows of both", "[bench][cpu]") {
    // 2×3 by 2×3: C[i][j] = a_i · b_j. Row 0 of A against row 1 of B: 1·0 + 2·1 + 3·(−1) = −1.
    const std::vector<float> a{1, 2, 3, -1, 0.5f, 4}, b{2, 0, 1, 0, 1, -1};
    std::vector<float> c(4, 10.0f);
    cpu::gemm_abt(2, 2, 3, a.data(), 3, b.data(), 3, c.data(), 2, false);
    CHECK(c == std::vector<float>{5.0f, -1.0f, 2.0f, -3.5f});  // 1·2+3·1, −1, −2+4, 0.5−4
    cpu::gemm_abt(2, 2, 3, a.data(), 3, b.data(), 3, c.data(), 2, true);
    CHECK(c == std::vector<float>{10.0f, -2.0f, 4.0f, -7.0f});
}
