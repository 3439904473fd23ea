#include "payback/bench/llm_decoder.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>

#include "cpu/group_claims.hpp"
#include "cpu/quant_kernels.hpp"
#include "cpu/thread_pool.hpp"
#include "cpu/transformer_kernels.hpp"

namespace payback::bench {
namespace {

// The generator's tensor numbers: 0..2 for the whole model, 16 a layer from 16 on.
enum Tensor : std::uint64_t { embedding = 0, output_norm = 1, output = 2 };
enum LayerTensor : std::uint64_t { attn_norm = 0, wq, wk, wv, wo, ffn_norm, w_gate, w_up, w_down };
std::uint64_t layer_tensor(int layer, LayerTensor t) { return 16 + 16 * std::uint64_t(layer) + t; }

/// Consecutive positions of one sequence (a prompt's) that attend together: each tile of keys and block of
/// values is then read once for all of them, where one position at a time streamed a prompt's whole cache
/// again for each. 8 positions × 8 query heads of scores over a 4k context are 1 MB, within L2.
constexpr int attention_positions = 8;

/// Thread t's share [begin, end) of `count` items split evenly over `threads`.
std::pair<int, int> share_of(int count, int t, int threads) {
    return {static_cast<int>(std::int64_t(count) * t / threads), static_cast<int>(std::int64_t(count) * (t + 1) / threads)};
}

/// Runs body(thread, begin, end) on every thread of `pool` over its share of [0, count).
template <class Body>
void parallel_for(cpu::ThreadPool& pool, int count, Body body) {
    auto task = [&](int t) {
        const auto [begin, end] = share_of(count, t, pool.size());
        if (begin < end) body(t, begin, end);
    };
    pool.run(task);
}

}  // namespace

float llm_uniform(std::uint64_t seed, std::uint64_t tensor, std::uint64_t index) {
    std::uint64_t z = seed * 0x9E3779B97F4A7C15ull + tensor * 0xD1B54A32D192ED03ull + index;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;  // splitmix64's finalizer
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<float>(z >> 40) * (1.0f / 8388608.0f) - 1.0f;  // 24 bits: exact in float
}

struct LlmDecoder::Impl {
    // Nested rather than in the anonymous namespace: Impl has external linkage, and in a unity build GCC
    // warns (-Wsubobject-linkage) of members whose types have none.

    /// Rows × cols weights in one of the three formats; the other vectors stay empty. Q8_0 and Q4_0 are
    /// packed 16 rows at a time (q8x16, q4x16) where the kernels read that layout, as the products' matrices are.
    struct Matrix {
        int rows = 0, cols = 0;
        std::vector<std::uint16_t> f16;
        std::vector<BlockQ8_0> q8;
        std::vector<BlockQ4_0> q4;
        std::vector<cpu::BlockQ8_0x16> q8x16;
        std::vector<cpu::BlockQ4_0x16> q4x16;

        /// Rows that go to one thread together: a packed group's 16, or 1.
        int row_group() const { return q8x16.empty() && q4x16.empty() ? 1 : cpu::packed_rows; }
    };

    struct Layer {
        std::vector<float> attn_norm, ffn_norm;
        Matrix wq, wk, wv, wo, gate, up, down;
    };

    LlmConfig config;
    Quant quant;
    std::uint64_t seed;
    int sequences;
    int capacity;
    cpu::ThreadPool pool;
    const cpu::QuantKernels& kernels = cpu::quant_kernels();
    const cpu::TransformerKernels& transformer = cpu::transformer_kernels();

    Matrix embedding, output;
    std::vector<float> output_norm;
    std::vector<Layer> layers;
    // The caches, a block per layer, sequence and KV head, each block's positions padded to cache_rows
    // (capacity rounded up to attention's tile of keys): keys in tiles of 64 positions, each tile element
    // by element (cpu::tiled_key_index), so that attention's scores load a vector of keys at once; values
    // position by position ([cache_rows][head_dim]). A KV head's keys are one stretch of memory, and its
    // values another: attention streams through them.
    int cache_rows;
    std::vector<float> k_cache, v_cache;
    std::vector<int> lengths;

    // Scratch for up to `rows` items of one pass, grown as needed.
    int rows = 0;
    std::vector<float> x, h, q, k, v, attention, gate, up, product, logits, angles_cos, angles_sin;
    // Attention's scratch, one slice a thread: scores (rows × cache_rows), the rows' queries and their outputs
    // (rows × head_dim each), rows = attention_positions × the query heads of a KV group.
    std::vector<float> scores, attention_queries, attention_outputs;
    std::vector<BlockQ8_0> quantized;
    // The row groups of up to three products of one input, handed out to the threads (cpu/group_claims.hpp).
    std::vector<cpu::GroupClaims> claims;

    Impl(const LlmConfig& c, Quant format, std::uint64_t s, int threads, int seqs, int cap)
        : config(c), quant(format), seed(s), sequences(seqs), capacity(cap), pool(threads) {
        validate_llm_config(config);
        if (sequences < 1) throw std::invalid_argument("llm-decode: sequences must be at least 1");
        if (capacity < 1) throw std::invalid_argument("llm-decode: capacity must be at least 1");
        const int d = config.d_model, kv = config.kv_dim(), f = config.ffn;
        embedding = make_matrix(Tensor::embedding, config.vocab, d, 1.0f);  // read by row, never multiplied
        output = make_matrix(Tensor::output, config.vocab, d, 1.0f / std::sqrt(static_cast<float>(d)));
        output_norm = make_norm(Tensor::output_norm);
        for (int l = 0; l < config.layers; ++l) {
            Layer layer;
            const float over_d = 1.0f / std::sqrt(static_cast<float>(d));
            layer.attn_norm = make_norm(layer_tensor(l, attn_norm));
            layer.wq = make_matrix(layer_tensor(l, wq), d, d, over_d);
            layer.wk = make_matrix(layer_tensor(l, wk), kv, d, over_d);
            layer.wv = make_matrix(layer_tensor(l, wv), kv, d, over_d);
            layer.wo = make_matrix(layer_tensor(l, wo), d, d, over_d);
            layer.ffn_norm = make_norm(layer_tensor(l, ffn_norm));
            layer.gate = make_matrix(layer_tensor(l, w_gate), f, d, over_d);
            layer.up = make_matrix(layer_tensor(l, w_up), f, d, over_d);
            layer.down = make_matrix(layer_tensor(l, w_down), d, f, 1.0f / std::sqrt(static_cast<float>(f)));
            layers.push_back(std::move(layer));
        }
        if ((quant == Quant::q8_0 && kernels.matmul_q8_0x16 != nullptr) ||
            (quant == Quant::q4_0 && kernels.matmul_q4_0x16 != nullptr)) {
            std::vector<Matrix*> matrices = {&output};
            for (Layer& layer : layers)
                for (Matrix* m : {&layer.wq, &layer.wk, &layer.wv, &layer.wo, &layer.gate, &layer.up, &layer.down})
                    matrices.push_back(m);
            parallel_for(pool, static_cast<int>(matrices.size()), [&](int, int begin, int end) {
                for (int i = begin; i < end; ++i) pack(*matrices[i]);
            });
        }
        cache_rows = (capacity + cpu::attention_key_block - 1) / cpu::attention_key_block * cpu::attention_key_block;
        const std::size_t cache = std::size_t(config.layers) * sequences * cache_rows * kv;
        k_cache.assign(cache, 0.0f);
        v_cache.assign(cache, 0.0f);
        lengths.assign(static_cast<std::size_t>(sequences), 0);
        const std::size_t attention_rows = std::size_t(attention_positions) * (config.heads / config.kv_heads);
        scores.assign(std::size_t(pool.size()) * attention_rows * cache_rows, 0.0f);
        attention_queries.assign(std::size_t(pool.size()) * attention_rows * config.head_dim(), 0.0f);
        attention_outputs.assign(attention_queries.size(), 0.0f);
        // Claims of at least 64 rows: a packed call then reads four groups side by side (cpu/quant_kernels.cpp).
        for (int i = 0; i < 3; ++i) claims.emplace_back(pool.size(), 64 / output.row_group());
    }

    /// Weights scale · u, row by row on every thread, each row stored in the model's format.
    Matrix make_matrix(std::uint64_t tensor, int rows_, int cols, float scale) {
        Matrix m;
        m.rows = rows_;
        m.cols = cols;
        const std::size_t count = std::size_t(rows_) * cols;
        if (quant == Quant::f16) m.f16.resize(count);
        if (quant == Quant::q8_0) m.q8.resize(count / quant_block);
        if (quant == Quant::q4_0) m.q4.resize(count / quant_block);
        parallel_for(pool, rows_, [&](int, int begin, int end) {
            std::vector<float> row(static_cast<std::size_t>(cols));
            for (int r = begin; r < end; ++r) {
                const std::uint64_t first = std::uint64_t(r) * cols;
                for (int j = 0; j < cols; ++j) row[j] = scale * llm_uniform(seed, tensor, first + j);
                const std::size_t blocks = first / quant_block;
                if (quant == Quant::f16)
                    for (int j = 0; j < cols; ++j) m.f16[first + j] = float_to_half(row[j]);
                if (quant == Quant::q8_0) quantize_q8_0(row.data(), row.size(), m.q8.data() + blocks);
                if (quant == Quant::q4_0) quantize_q4_0(row.data(), row.size(), m.q4.data() + blocks);
            }
        });
        return m;
    }

    /// Q8_0 or Q4_0 rows to the packed layout, in place of the rows.
    static void pack(Matrix& m) {
        if (!m.q8.empty()) m.q8x16 = cpu::pack_q8_0x16(m.q8.data(), m.rows, m.cols / quant_block);
        if (!m.q4.empty()) m.q4x16 = cpu::pack_q4_0x16(m.q4.data(), m.rows, m.cols / quant_block);
        // Move-assigned empty vectors, so the row-major copies' memory is freed (`= {}` would only clear them).
        m.q8 = std::vector<BlockQ8_0>();
        m.q4 = std::vector<BlockQ4_0>();
    }

    /// RMSNorm gains 1 + u/4: near one, as trained models' are, and not all equal.
    std::vector<float> make_norm(std::uint64_t tensor) const {
        std::vector<float> g(static_cast<std::size_t>(config.d_model));
        for (std::size_t j = 0; j < g.size(); ++j) g[j] = 1.0f + 0.25f * llm_uniform(seed, tensor, j);
        return g;
    }

    std::int64_t matrix_bytes() const { return llm_matrix_bytes(config, quant); }

    void reserve(int n) {
        if (n <= rows) return;
        rows = n;
        const std::size_t d = config.d_model, kv = config.kv_dim(), f = config.ffn, pairs = config.head_dim() / 2;
        for (auto* buffer : {&x, &h, &q, &attention, &product}) buffer->assign(n * d, 0.0f);
        k.assign(n * kv, 0.0f);
        v.assign(n * kv, 0.0f);
        gate.assign(n * f, 0.0f);
        up.assign(n * f, 0.0f);
        logits.assign(n * std::size_t(config.vocab), 0.0f);
        angles_cos.assign(n * pairs, 0.0f);
        angles_sin.assign(n * pairs, 0.0f);
        quantized.resize(n * std::max(d, f) / quant_block);
    }

    /// Row `token` of the embedding, dequantized.
    void embed(int token, float* out) const {
        const std::size_t d = config.d_model, first = std::size_t(token) * d;
        if (quant == Quant::f16)
            for (std::size_t j = 0; j < d; ++j) out[j] = half_to_float(embedding.f16[first + j]);
        if (quant == Quant::q8_0) dequantize_q8_0(embedding.q8.data() + first / quant_block, d, out);
        if (quant == Quant::q4_0) dequantize_q4_0(embedding.q4.data() + first / quant_block, d, out);
    }

    /// out[i] = in[i] / rms(in[i]) · gain for each of the n rows.
    void rms_norm(const float* in, const std::vector<float>& gain, float* out, int n) const {
        const int d = config.d_model;
        for (int i = 0; i < n; ++i) {
            const float* row = in + std::ptrdiff_t(i) * d;
            double squares = 0;
            for (int j = 0; j < d; ++j) squares += double(row[j]) * row[j];
            const auto inverse = static_cast<float>(1.0 / std::sqrt(squares / d + config.norm_eps));
            for (int j = 0; j < d; ++j) out[std::ptrdiff_t(i) * d + j] = row[j] * inverse * gain[j];
        }
    }

    /// Before products of these matrices (on one thread, followed by a barrier): their row groups to be
    /// claimed, the i-th matrix's by claims[i].
    void share(std::initializer_list<const Matrix*> matrices) {
        std::size_t i = 0;
        for (const Matrix* m : matrices) claims[i++].reset((m->rows + m->row_group() - 1) / m->row_group());
    }

    /// The n input rows (cols wide) of the next products, as Q8_0 blocks for the block formats: once for
    /// all the matrices that share them.
    void quantize_input(const float* in, int cols, int n) {
        if (quant == Quant::f16) return;
        const std::ptrdiff_t blocks = cols / quant_block;
        for (int i = 0; i < n; ++i)
            quantize_activations_q8_0(in + std::ptrdiff_t(i) * cols, static_cast<std::size_t>(cols),
                                      quantized.data() + i * blocks);
    }

    /// Row groups [first, last) of m times the n inputs (`in`, quantized by quantize_input), into out.
    void multiply(const Matrix& m, int first, int last, const float* in, int cols, int n, float* out) const {
        const std::ptrdiff_t blocks = cols / quant_block;
        const int begin = first * m.row_group(), end = std::min(m.rows, last * m.row_group());
        if (quant == Quant::f16) kernels.matmul_f16(m.f16.data(), cols, begin, end, in, cols, n, out, m.rows);
        if (quant == Quant::q8_0 && !m.q8x16.empty())
            kernels.matmul_q8_0x16(m.q8x16.data(), cols, begin, end, quantized.data(), blocks, n, out, m.rows);
        if (quant == Quant::q8_0 && m.q8x16.empty())
            kernels.matmul_q8_0(m.q8.data(), cols, begin, end, quantized.data(), blocks, n, out, m.rows);
        if (quant == Quant::q4_0 && !m.q4x16.empty())
            kernels.matmul_q4_0x16(m.q4x16.data(), cols, begin, end, quantized.data(), blocks, n, out, m.rows);
        if (quant == Quant::q4_0 && m.q4x16.empty())
            kernels.matmul_q4_0(m.q4.data(), cols, begin, end, quantized.data(), blocks, n, out, m.rows);
    }

    /// Thread t's part of several products of the same n inputs, shared by share() in the same order:
    /// it claims each matrix's groups until none is left.
    void products(int t, const float* in, int cols, int n, std::initializer_list<std::pair<const Matrix*, float*>> outs) {
        std::size_t i = 0;
        for (const auto& [m, out] : outs) {
            int first = 0, last = 0;
            while (claims[i].next(t, first, last)) multiply(*m, first, last, in, cols, n, out);
            ++i;
        }
    }

    /// Thread t's part of the feed-forward's gate and up products (shared as the gate alone) and of
    /// SwiGLU, gate ← silu(gate)·up, on the rows it claimed.
    void gate_and_up(int t, const Layer& layer, int n) {
        const int d = config.d_model, f = config.ffn, group = layer.gate.row_group();
        int first = 0, last = 0;
        while (claims[0].next(t, first, last)) {
            multiply(layer.gate, first, last, h.data(), d, n, gate.data());
            multiply(layer.up, first, last, h.data(), d, n, up.data());
            const std::size_t begin = std::size_t(first) * group, end = std::min<std::size_t>(f, std::size_t(last) * group);
            for (int i = 0; i < n; ++i)
                for (std::size_t j = std::size_t(i) * f + begin; j < std::size_t(i) * f + end; ++j)
                    gate[j] = gate[j] / (1.0f + std::exp(-gate[j])) * up[j];
        }
    }

    /// step() on thread 0, then every thread waits for it: the pass's serial pieces (norms, residuals, the
    /// activations' quantization), microseconds each.
    template <class Step>
    void on_first_thread(int t, Step step) {
        if (t == 0) step();
        pool.barrier();
    }

    /// Rotary positions (the adjacent-pair form of GGUF's Llama models): pair i of each head turns by
    /// pos · θ^(−2i/head_dim).
    void set_angles(int i, int position) {
        const int pairs = config.head_dim() / 2;
        for (int p = 0; p < pairs; ++p) {
            const double angle = position * std::pow(config.rope_theta, -2.0 * p / config.head_dim());
            angles_cos[std::size_t(i) * pairs + p] = static_cast<float>(std::cos(angle));
            angles_sin[std::size_t(i) * pairs + p] = static_cast<float>(std::sin(angle));
        }
    }

    void rotate(float* vector, int heads, int i) const {
        const int hd = config.head_dim(), pairs = hd / 2;
        const float* c = angles_cos.data() + std::size_t(i) * pairs;
        const float* s = angles_sin.data() + std::size_t(i) * pairs;
        for (int head = 0; head < heads; ++head)
            for (int p = 0; p < pairs; ++p) {
                float* pair = vector + std::ptrdiff_t(head) * hd + std::ptrdiff_t(2) * p;
                const float a = pair[0], b = pair[1];
                pair[0] = a * c[p] - b * s[p];
                pair[1] = a * s[p] + b * c[p];
            }
    }

    /// KV head `kv_head`'s block in a cache: its keys, tiled, or its values.
    float* cache_block(std::vector<float>& cache, int layer, int sequence, int kv_head) {
        const std::size_t block = (std::size_t(layer) * sequences + sequence) * config.kv_heads + kv_head;
        return cache.data() + block * cache_rows * config.head_dim();
    }

    struct Item {
        int sequence, position, token;
    };

    /// Where attention's blocks of items start, and items.size() last: a block is up to attention_positions
    /// consecutive positions of one sequence.
    static std::vector<int> attention_blocks(const std::vector<Item>& items) {
        std::vector<int> starts;
        for (int i = 0; i < static_cast<int>(items.size()); ++i)
            if (i == 0 || items[i].sequence != items[i - 1].sequence || items[i].position != items[i - 1].position + 1 ||
                i - starts.back() == attention_positions)
                starts.push_back(i);
        starts.push_back(static_cast<int>(items.size()));
        return starts;
    }

    /// Causal attention of items [first_item, end_item), consecutive positions of one sequence, for query
    /// heads [first_head, end_head), which share one KV head: each item over the cached positions up to its
    /// own. Each key and value is read once for all of these rows (items × heads: up to 8 × 8 for TinyLlama),
    /// not once a row: at long contexts the cache is what a step reads most after the weights. The rows'
    /// scores run to the last item's position; an earlier item's later scores get weight 0, which adds
    /// exactly nothing, so each output is what its position alone would give, bit for bit. Uses thread
    /// t's slice of the scratch.
    void attend(int layer, const std::vector<Item>& items, int first_item, int end_item, int first_head, int end_head,
                int t) {
        const int hd = config.head_dim(), group = config.heads / config.kv_heads, kv_head = first_head / group;
        const int heads = end_head - first_head, rows = (end_item - first_item) * heads;
        const int sequence = items[first_item].sequence, length = items[end_item - 1].position + 1;
        const std::size_t slice = std::size_t(t) * attention_positions * group;
        float* scores_buffer = scores.data() + slice * cache_rows;
        float* queries = attention_queries.data() + slice * hd;
        float* outs = attention_outputs.data() + slice * hd;
        for (int i = first_item; i < end_item; ++i)
            std::copy_n(q.data() + std::size_t(i) * config.d_model + std::size_t(first_head) * hd, std::size_t(heads) * hd,
                        queries + std::size_t(i - first_item) * heads * hd);
        transformer.attention_scores(queries, rows, cache_block(k_cache, layer, sequence, kv_head), length, hd,
                                     1.0f / std::sqrt(static_cast<float>(hd)), scores_buffer, cache_rows);
        for (int i = first_item; i < end_item; ++i) {
            float* item_scores = scores_buffer + std::ptrdiff_t(i - first_item) * heads * cache_rows;
            const int own_length = items[i].position + 1;
            transformer.attention_softmax(item_scores, cache_rows, heads, own_length);
            for (int h = 0; h < heads; ++h)
                std::fill(item_scores + std::ptrdiff_t(h) * cache_rows + own_length,
                          item_scores + std::ptrdiff_t(h) * cache_rows + length, 0.0f);
        }
        transformer.attention_weighted_sum(scores_buffer, cache_rows, rows, cache_block(v_cache, layer, sequence, kv_head),
                                           length, hd, outs);
        for (int i = first_item; i < end_item; ++i)
            std::copy_n(outs + std::size_t(i - first_item) * heads * hd, std::size_t(heads) * hd,
                        attention.data() + std::size_t(i) * config.d_model + std::size_t(first_head) * hd);
    }

    int checked(int token) const {
        if (token < 0 || token >= config.vocab)
            throw std::out_of_range("llm-decode: token " + std::to_string(token) + " is outside the vocabulary");
        return token;
    }

    /// One pass over `items`, whose keys and values join the caches; logits for every item, or for the last only.
    /// The whole pass is one run of the pool, its phases separated by barriers: a run for each product and
    /// attention (111 a token for TinyLlama) cost 13 % of a decode step in waits, and SwiGLU ran on one thread.
    void forward(const std::vector<Item>& items, bool last_logits_only) {
        const int n = static_cast<int>(items.size()), d = config.d_model, kv = config.kv_dim(), f = config.ffn;
        const int hd = config.head_dim();
        // Attention's tasks: each block's KV heads, a block being up to attention_positions consecutive items
        // of one sequence (a prompt's; a decode step's items are a block each), each split into slices of its
        // query heads only where there are fewer tasks than threads (one item, few KV heads), so that every
        // thread has work.
        const int group = config.heads / config.kv_heads;
        const std::vector<int> block_starts = attention_blocks(items);
        const int blocks = static_cast<int>(block_starts.size()) - 1;
        const int head_slices =
            std::clamp((pool.size() + blocks * config.kv_heads - 1) / (blocks * config.kv_heads), 1, group);
        reserve(n);
        for (int i = 0; i < n; ++i) {
            embed(items[i].token, x.data() + std::size_t(i) * d);
            set_angles(i, items[i].position);
        }
        const auto add_product_to_x = [&] {
            for (std::size_t j = 0; j < std::size_t(n) * d; ++j) x[j] += product[j];
        };
        auto pass = [&](int t) {
            for (int l = 0; l < config.layers; ++l) {
                const Layer& layer = layers[l];
                on_first_thread(t, [&] {
                    if (l > 0) add_product_to_x();
                    rms_norm(x.data(), layer.attn_norm, h.data(), n);
                    quantize_input(h.data(), d, n);
                    share({&layer.wq, &layer.wk, &layer.wv});
                });
                products(t, h.data(), d, n, {{&layer.wq, q.data()}, {&layer.wk, k.data()}, {&layer.wv, v.data()}});
                pool.barrier();
                on_first_thread(t, [&] {
                    for (int i = 0; i < n; ++i) {
                        rotate(q.data() + std::size_t(i) * d, config.heads, i);
                        rotate(k.data() + std::size_t(i) * kv, config.kv_heads, i);
                        const int sequence = items[i].sequence, position = items[i].position;
                        for (int head = 0; head < config.kv_heads; ++head) {
                            const float* key = k.data() + std::size_t(i) * kv + std::size_t(head) * hd;
                            const float* value = v.data() + std::size_t(i) * kv + std::size_t(head) * hd;
                            float* keys = cache_block(k_cache, l, sequence, head);
                            for (int e = 0; e < hd; ++e) keys[cpu::tiled_key_index(position, e, hd)] = key[e];
                            std::copy_n(value, hd, cache_block(v_cache, l, sequence, head) + std::ptrdiff_t(position) * hd);
                        }
                    }
                });
                const auto [first_task, end_task] = share_of(blocks * config.kv_heads * head_slices, t, pool.size());
                for (int task = first_task; task < end_task; ++task) {
                    const int b = task / (config.kv_heads * head_slices), kv_head = task / head_slices % config.kv_heads;
                    const auto [first_head, end_head] = share_of(group, task % head_slices, head_slices);
                    attend(l, items, block_starts[b], block_starts[b + 1], kv_head * group + first_head,
                           kv_head * group + end_head, t);
                }
                pool.barrier();
                on_first_thread(t, [&] {
                    quantize_input(attention.data(), d, n);
                    share({&layer.wo});
                });
                products(t, attention.data(), d, n, {{&layer.wo, product.data()}});
                pool.barrier();
                on_first_thread(t, [&] {
                    add_product_to_x();
                    rms_norm(x.data(), layer.ffn_norm, h.data(), n);
                    quantize_input(h.data(), d, n);
                    share({&layer.gate});
                });
                gate_and_up(t, layer, n);
                pool.barrier();
                on_first_thread(t, [&] {
                    quantize_input(gate.data(), f, n);
                    share({&layer.down});
                });
                products(t, gate.data(), f, n, {{&layer.down, product.data()}});
                pool.barrier();
            }
            const int first = last_logits_only ? n - 1 : 0;
            on_first_thread(t, [&] {
                add_product_to_x();
                rms_norm(x.data() + std::size_t(first) * d, output_norm, h.data(), n - first);
                quantize_input(h.data(), d, n - first);
                share({&output});
            });
            products(t, h.data(), d, n - first, {{&output, logits.data()}});
        };
        pool.run(pass);
    }
};

LlmDecoder::LlmDecoder(const LlmConfig& config, Quant quant, std::uint64_t seed, int threads, int sequences,
                       int capacity)
    : impl_(std::make_unique<Impl>(config, quant, seed, threads, sequences, capacity)) {}

LlmDecoder::~LlmDecoder() = default;

const LlmConfig& LlmDecoder::config() const { return impl_->config; }
Quant LlmDecoder::quant() const { return impl_->quant; }
int LlmDecoder::sequences() const { return impl_->sequences; }
std::int64_t LlmDecoder::matrix_bytes() const { return impl_->matrix_bytes(); }
const char* LlmDecoder::kernels() const { return impl_->kernels.name; }
int LlmDecoder::length(int sequence) const { return impl_->lengths.at(static_cast<std::size_t>(sequence)); }

void LlmDecoder::set_length(int sequence, int length) {
    if (length < 0 || length > impl_->capacity)
        throw std::length_error("llm-decode: length " + std::to_string(length) + " is beyond the cache");
    impl_->lengths.at(static_cast<std::size_t>(sequence)) = length;
}

void LlmDecoder::fill_cache(std::uint64_t seed) {
    Impl& m = *impl_;
    for (std::size_t j = 0; j < m.k_cache.size(); ++j) {
        m.k_cache[j] = llm_uniform(seed, 0, j);
        m.v_cache[j] = llm_uniform(seed, 1, j);
    }
}

std::vector<float> LlmDecoder::decode(const std::vector<int>& tokens) {
    Impl& m = *impl_;
    if (static_cast<int>(tokens.size()) != m.sequences)
        throw std::invalid_argument("llm-decode: one token for each of the " + std::to_string(m.sequences) + " sequences");
    std::vector<Impl::Item> items;
    for (int s = 0; s < m.sequences; ++s) {
        if (m.lengths[s] >= m.capacity) throw std::length_error("llm-decode: sequence " + std::to_string(s) + " is full");
        items.push_back({s, m.lengths[s], m.checked(tokens[s])});
    }
    m.forward(items, false);
    for (int& length : m.lengths) ++length;
    return {m.logits.begin(), m.logits.begin() + std::ptrdiff_t(m.sequences) * m.config.vocab};
}

std::vector<float> LlmDecoder::prefill(int sequence, const std::vector<int>& tokens) {
    Impl& m = *impl_;
    int& length = m.lengths.at(static_cast<std::size_t>(sequence));
    if (tokens.empty() || length + static_cast<int>(tokens.size()) > m.capacity)
        throw std::length_error("llm-decode: a prompt of " + std::to_string(tokens.size()) + " tokens does not fit");
    // Chunks of 64 positions: each weight row is read once a chunk, while the chunk's activations stay in cache.
    constexpr std::size_t chunk = 64;
    for (std::size_t start = 0; start < tokens.size(); start += chunk) {
        std::vector<Impl::Item> items;
        for (std::size_t t = start; t < std::min(tokens.size(), start + chunk); ++t)
            items.push_back({sequence, length++, m.checked(tokens[t])});
        m.forward(items, true);
    }
    return {m.logits.begin(), m.logits.begin() + m.config.vocab};
}

}  // namespace payback::bench
