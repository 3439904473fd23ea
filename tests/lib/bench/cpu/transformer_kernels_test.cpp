#include <catch2/catch.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "cpu/transformer_kernels.hpp"
#include "payback/base/isa.hpp"

using namespace payback::bench;

// llm-decode's attention kernels (cpu/transformer_kernels.hpp) on every instruction set this CPU runs:
// cases by hand, then shapes that leave every tile, block and vector partial, against sums in double.

namespace {

/// Switches the hot paths to each variant this CPU runs, and back at the end.
struct EachIsa {
    std::string original = payback::active_isa();
    ~EachIsa() { payback::select_isa(original); }
};

}  // namespace

TEST_CASE("attention scores, softmax and weighted sums by hand", "[bench][llm]") {
    EachIsa restore;
    for (const std::string& isa : payback::runnable_isa_variants()) {
        payback::select_isa(isa);
        INFO(isa);
        const cpu::TransformerKernels& kernels = cpu::transformer_kernels();
        constexpr int stride = cpu::attention_key_block;
        // One head of 2 elements, keys (3, 4) and (5, 6), in one tile: row e holds the keys' element e.
        std::vector<float> keys(2 * stride, 0.0f), scores(stride, -1.0f);
        keys[0] = 3, keys[1] = 5, keys[stride] = 4, keys[stride + 1] = 6;
        const float query[] = {1, 2};
        kernels.attention_scores(query, 1, keys.data(), 2, 2, 0.5f, scores.data(), stride);
        CHECK(scores[0] == 5.5f);  // 0.5 · (1·3 + 2·4)
        CHECK(scores[1] == 8.5f);  // 0.5 · (1·5 + 2·6)
        CHECK(scores[2] == 0.0f);  // the rest of the tile: keys of zeros
        // Softmax of (0, ln 3) and (0, ln 4) over length 2 of 3: e^x over the sum, (1, 3)/4 and (1, 4)/5.
        std::vector<float> rows = {0.0f, std::log(3.0f), 9.0f, 0.0f, std::log(4.0f), 9.0f};
        kernels.attention_softmax(rows.data(), 3, 2, 2);
        CHECK(rows[0] == Approx(0.25f).epsilon(1e-6));
        CHECK(rows[1] == Approx(0.75f).epsilon(1e-6));
        CHECK(rows[2] == 9.0f);  // past the length: untouched
        CHECK(rows[3] == Approx(0.2f).epsilon(1e-6));
        CHECK(rows[4] == Approx(0.8f).epsilon(1e-6));
        // 20 scores (16 in the running maxima, 4 after): the largest last in one row, first in the other.
        std::vector<float> long_rows(40);
        for (int j = 0; j < 20; ++j) long_rows[j] = 0.1f * j, long_rows[20 + j] = -0.1f * j;
        const std::vector<float> inputs = long_rows;
        kernels.attention_softmax(long_rows.data(), 20, 2, 20);
        for (int r = 0; r < 2; ++r) {
            double sum = 0;
            for (int j = 0; j < 20; ++j) sum += std::exp(double(inputs[r * 20 + j]));
            for (int j = 0; j < 20; ++j)
                CHECK(long_rows[r * 20 + j] == Approx(std::exp(double(inputs[r * 20 + j])) / sum).epsilon(1e-6));
        }
        // Weights 0.25 and 0.75 of the values (1, 2) and (3, 4): (0.25 + 2.25, 0.5 + 3).
        std::vector<float> weights(stride, 0.0f);
        weights[0] = 0.25f, weights[1] = 0.75f;
        const float values[] = {1, 2, 3, 4};
        float out[2] = {-1, -1};
        kernels.attention_weighted_sum(weights.data(), stride, 1, values, 2, 2, out);
        CHECK(out[0] == 2.5f);
        CHECK(out[1] == 3.5f);
    }
}

TEST_CASE("attention kernels match double sums over partial blocks and vectors", "[bench][llm]") {
    // 3 heads (a pair and one) of 70 elements (a 64-wide chunk and 6 more) over 130 keys (two tiles of 64
    // and 2 more).
    constexpr int heads = 3, head_dim = 70, length = 130, stride = 3 * cpu::attention_key_block;
    std::mt19937 random(7);
    std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
    std::vector<float> queries(heads * head_dim), keys(stride * head_dim, 0.0f), values(length * head_dim);
    std::vector<float> weights(heads * stride, 0.0f);
    for (float& q : queries) q = uniform(random);
    for (int e = 0; e < head_dim; ++e)
        for (int j = 0; j < length; ++j) keys[cpu::tiled_key_index(j, e, head_dim)] = uniform(random);
    for (float& v : values) v = uniform(random);
    for (int h = 0; h < heads; ++h)
        for (int j = 0; j < length; ++j) weights[h * stride + j] = 0.5f * (1.0f + uniform(random));
    const float scale = 0.125f;

    EachIsa restore;
    for (const std::string& isa : payback::runnable_isa_variants()) {
        payback::select_isa(isa);
        INFO(isa);
        const cpu::TransformerKernels& kernels = cpu::transformer_kernels();
        std::vector<float> scores(heads * stride + 1, -7.0f);  // one float past the rows, to see it untouched
        kernels.attention_scores(queries.data(), heads, keys.data(), length, head_dim, scale, scores.data(), stride);
        double worst_score = 0;
        for (int h = 0; h < heads; ++h)
            for (int j = 0; j < stride; ++j) {  // 130 rounded up to the tile: 192, the padding's keys zero
                double exact = 0, size = 0;
                for (int e = 0; e < head_dim; ++e) {
                    const double product = double(queries[h * head_dim + e]) * keys[cpu::tiled_key_index(j, e, head_dim)];
                    exact += product;
                    size += std::fabs(product);
                }
                // float sums of 70 products: within 70 rounding errors of their magnitudes' sum
                worst_score = std::max(worst_score, std::fabs(scores[h * stride + j] - scale * exact) / (scale * size + 1e-30));
            }
        CHECK(worst_score < 70 * 6e-8);
        CHECK(scores[heads * stride] == -7.0f);

        std::vector<float> out(heads * head_dim + 1, -7.0f);
        kernels.attention_weighted_sum(weights.data(), stride, heads, values.data(), length, head_dim, out.data());
        double worst_sum = 0;
        for (int h = 0; h < heads; ++h)
            for (int e = 0; e < head_dim; ++e) {
                double exact = 0, size = 0;
                for (int j = 0; j < length; ++j) {
                    exact += double(weights[h * stride + j]) * values[j * head_dim + e];
                    size += std::fabs(double(weights[h * stride + j]) * values[j * head_dim + e]);
                }
                worst_sum = std::max(worst_sum, std::fabs(out[h * head_dim + e] - exact) / size);
            }
        CHECK(worst_sum < 130 * 6e-8);
        CHECK(out[heads * head_dim] == -7.0f);
    }
}
