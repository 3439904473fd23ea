// The gpt-small training step on the CPU. One step is one run of the thread pool. Token-wise work
// (embedding, LayerNorm, GELU, residuals, every linear layer's forward and input gradient, the output
// head and its cross-entropy) is split by rows of tokens, so that a thread carries its own rows from one
// such pass to the next with no barrier; attention is split by (sequence, head), and weight gradients
// by output features, so that no gradient needs a per-thread copy. Barriers stand only where a pass
// reads rows another thread wrote: around each attention, and before the weight gradients.
#include "payback/bench/gpt_trainer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "cpu/attention.hpp"
#include "cpu/kernels.hpp"
#include "cpu/layers.hpp"
#include "cpu/scratch.hpp"
#include "cpu/thread_pool.hpp"
#include "cpu/transformer_kernels.hpp"
#include "payback/bench/cpu_trainer.hpp"

namespace payback::bench {
namespace {

using cpu::Range;

using cpu::feature_align;  // weight-gradient rows are split in multiples of it
using cpu::share;

/// One block's parameters (or gradients): pointers into the flat array.
struct Block {
    float *ln1_w, *ln1_b, *qkv_w, *qkv_b, *proj_w, *proj_b, *ln2_w, *ln2_b, *fc1_w, *fc1_b, *fc2_w, *fc2_b;
};

/// The named parts of a flat parameter (or gradient) array, in gpt_parameter_shapes() order.
struct Parts {
    float *wte, *wpe;
    std::vector<Block> blocks;
    float *lnf_w, *lnf_b;

    Parts(float* base, const std::vector<std::size_t>& offsets) {
        const auto at = [&](std::size_t p) { return base + offsets[p]; };
        wte = at(0);
        wpe = at(1);
        const std::size_t layers = (offsets.size() - 4) / 12;
        for (std::size_t l = 0; l < layers; ++l) {
            const std::size_t p = 2 + 12 * l;
            blocks.push_back({at(p), at(p + 1), at(p + 2), at(p + 3), at(p + 4), at(p + 5), at(p + 6), at(p + 7),
                              at(p + 8), at(p + 9), at(p + 10), at(p + 11)});
        }
        lnf_w = at(offsets.size() - 2);
        lnf_b = at(offsets.size() - 1);
    }
};

/// What one block's forward pass keeps for its backward pass.
struct BlockActivations {
    std::vector<float> ln1_mean, ln1_rstd, h, qkv, probs, att, mid, ln2_mean, ln2_rstd, h2, f, g;
};

// ---- the row-split linear layer: y = x·Wᵀ + b, W [out, in] ----

void linear_rows(Range rows, const float* x, int in, const float* w, const float* b, int out, float* y) {
    if (rows.empty()) return;
    float* yr = y + std::ptrdiff_t(rows.begin) * out;
    for (int r = 0; r < rows.size(); ++r) std::copy(b, b + out, yr + std::ptrdiff_t(r) * out);
    cpu::gemm(rows.size(), out, in, {x + std::ptrdiff_t(rows.begin) * in, in, 1}, {w, 1, in}, yr, out, true);
}

/// dx (+)= dy·W for the rows.
void input_grad_rows(Range rows, const float* dy, int out, const float* w, int in, float* dx, bool accumulate) {
    if (rows.empty()) return;
    cpu::gemm(rows.size(), in, out, {dy + std::ptrdiff_t(rows.begin) * out, out, 1}, {w, in, 1},
              dx + std::ptrdiff_t(rows.begin) * in, in, accumulate);
}

/// Rows `features` of dW = dyᵀ·x and entries `features` of db = Σ_rows dy, over all `tokens` rows.
void weight_grad_features(Range features, const float* x, const float* dy, int tokens, int in, int out, float* dw,
                          float* db) {
    if (features.empty()) return;
    cpu::gemm(features.size(), in, tokens, {dy + features.begin, 1, out}, {x, in, 1},
              dw + std::ptrdiff_t(features.begin) * in, in, false);
    if (db == nullptr) return;
    std::fill(db + features.begin, db + features.end, 0.0f);
    for (int r = 0; r < tokens; ++r) {
        const float* row = dy + std::ptrdiff_t(r) * out;
        for (int o = features.begin; o < features.end; ++o) db[o] += row[o];
    }
}

/// Columns `cols` of a LayerNorm's weight and bias gradients: Σ_rows dy·x̂ and Σ_rows dy.
void layer_norm_param_grads(Range cols, const float* dy, const float* x, const float* mean, const float* rstd,
                            int tokens, int d, float* dw, float* db) {
    std::fill(dw + cols.begin, dw + cols.end, 0.0f);
    std::fill(db + cols.begin, db + cols.end, 0.0f);
    for (int r = 0; r < tokens; ++r) {
        const float* dyr = dy + std::ptrdiff_t(r) * d;
        const float* xr = x + std::ptrdiff_t(r) * d;
        for (int j = cols.begin; j < cols.end; ++j) {
            dw[j] += dyr[j] * (xr[j] - mean[r]) * rstd[r];
            db[j] += dyr[j];
        }
    }
}

class CpuGptTrainer final : public GptTrainer {
public:
    CpuGptTrainer(const GptConfig& config, const std::vector<Tensor>& parameters, int batch_size, int threads, Sgd sgd)
        : config_(config), batch_(batch_size), tokens_(batch_size * config.sequence), sgd_(sgd), pool_(threads),
          losses_(pool_.size()), work_(pool_.size()) {
        validate_gpt_config(config);
        if (batch_size < 1) throw std::invalid_argument("gpt: batch size must be at least 1");
        const auto shapes = gpt_parameter_shapes(config);
        if (parameters.size() != shapes.size())
            throw std::invalid_argument(
                fmt::format("gpt: {} parameter tensors given, {} expected", parameters.size(), shapes.size()));
        std::size_t total = 0;
        for (std::size_t p = 0; p < shapes.size(); ++p) {
            if (parameters[p].shape != shapes[p] || parameters[p].size() != Tensor::element_count(shapes[p]))
                throw std::invalid_argument(fmt::format("gpt: parameter {} has the wrong shape", p));
            offsets_.push_back(total);
            total += parameters[p].size();
        }
        shapes_ = shapes;
        params_.resize(total);
        grads_.resize(total);
        momentum_.resize(total);
        for (std::size_t p = 0; p < shapes.size(); ++p)
            std::copy(parameters[p].data.begin(), parameters[p].data.end(), params_.begin() + std::ptrdiff_t(offsets_[p]));
        param_parts_ = std::make_unique<Parts>(params_.data(), offsets_);
        grad_parts_ = std::make_unique<Parts>(grads_.data(), offsets_);

        // gpt_trainer_bytes() counts what follows: keep the two alike.
        const std::size_t T = tokens_, d = config.d_model;
        residual_.assign(config.layers + 1, std::vector<float>(T * d));
        blocks_.resize(config.layers);
        for (auto& a : blocks_) {
            a.ln1_mean.resize(T), a.ln1_rstd.resize(T), a.ln2_mean.resize(T), a.ln2_rstd.resize(T);
            a.h.resize(T * d), a.qkv.resize(3 * T * d), a.att.resize(T * d), a.mid.resize(T * d), a.h2.resize(T * d);
            a.f.resize(T * config.ffn()), a.g.resize(T * config.ffn());
            a.probs.resize(std::size_t(batch_) * config.heads * config.sequence * config.sequence);
        }
        lnf_mean_.resize(T), lnf_rstd_.resize(T), xf_.resize(T * d);
        logits_.resize(T * config.vocab);
        dout_.resize(T * d), dmid_.resize(T * d), datt_.resize(T * d), dh_.resize(T * d);
        dqkv_.resize(3 * T * d), dffn_.resize(T * config.ffn());
    }

    std::string device_name() const override {
        return fmt::format("{} ({} thread{})", cpu_model_name(), pool_.size(), pool_.size() == 1 ? "" : "s");
    }

    float train_step(const TokenBatch& batch, bool update) override {
        check(batch);
        tokens_in_ = batch.tokens.data();
        targets_ = batch.targets.data();
        update_ = update;
        auto task = [this](int t) { step(t); };
        pool_.run(task);
        if (update) first_update_ = false;
        double loss = 0.0;
        for (const auto& l : losses_) loss += l.sum;
        return static_cast<float>(loss / tokens_);
    }

    std::vector<Tensor> parameters() const override { return unflatten(params_); }
    std::vector<Tensor> gradients() const override { return unflatten(grads_); }

    double timed_steps(const std::vector<TokenBatch>& pool, int steps) override {
        if (pool.empty()) throw std::invalid_argument("timed_steps: empty batch pool");
        for (const auto& b : pool) check(b);
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < steps; ++i) train_step(pool[std::size_t(i) % pool.size()], true);
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

private:
    void check(const TokenBatch& batch) const { check_token_batch(config_, batch_, batch); }

    std::vector<Tensor> unflatten(const std::vector<float>& flat) const {
        std::vector<Tensor> out;
        for (std::size_t p = 0; p < shapes_.size(); ++p) {
            Tensor t(shapes_[p]);
            std::copy_n(flat.begin() + std::ptrdiff_t(offsets_[p]), t.size(), t.data.begin());
            out.push_back(std::move(t));
        }
        return out;
    }

    void step(int t);
    void forward_block(int l, int t, Range rows);
    void head_and_loss(int t, Range rows);
    void backward_block(int l, int t, Range rows);
    void attention(int l, int t, bool backward);

    GptConfig config_;
    int batch_, tokens_;
    Sgd sgd_;
    cpu::ThreadPool pool_;
    std::vector<std::vector<int>> shapes_;
    std::vector<std::size_t> offsets_;
    std::vector<float> params_, grads_, momentum_;  // flat, in gpt_parameter_shapes() order
    std::unique_ptr<Parts> param_parts_, grad_parts_;  // views of params_ and grads_
    std::vector<std::vector<float>> residual_;      // the stream entering each block, and leaving the last
    std::vector<BlockActivations> blocks_;
    std::vector<float> lnf_mean_, lnf_rstd_, xf_, logits_;
    // Gradients: of the stream leaving the block (dout_), of the stream between attention and MLP
    // (dmid_), of the attention output (datt_), of a LayerNorm's output (dh_), of qkv and of the MLP's
    // hidden layer (dffn_).
    std::vector<float> dout_, dmid_, datt_, dh_, dqkv_, dffn_;
    struct alignas(64) Loss {  // one cache line per thread
        double sum = 0.0;
    };
    std::vector<Loss> losses_;
    std::vector<cpu::Scratch> work_;  // per thread: attention's backward scores
    const int* tokens_in_ = nullptr;
    const int* targets_ = nullptr;
    bool update_ = true, first_update_ = true;
};

void CpuGptTrainer::step(int t) {
    const int threads = pool_.size();
    const Range rows = share(tokens_, threads, t);
    const int d = config_.d_model;
    const Parts &P = *param_parts_, &G = *grad_parts_;

    // Embedding: token row plus position row.
    for (int r = rows.begin; r < rows.end; ++r) {
        const float* te = P.wte + std::ptrdiff_t(tokens_in_[r]) * d;
        const float* pe = P.wpe + std::ptrdiff_t(r % config_.sequence) * d;
        float* x = residual_[0].data() + std::ptrdiff_t(r) * d;
        for (int j = 0; j < d; ++j) x[j] = te[j] + pe[j];
    }
    for (int l = 0; l < config_.layers; ++l) forward_block(l, t, rows);
    head_and_loss(t, rows);
    for (int l = config_.layers - 1; l >= 0; --l) backward_block(l, t, rows);

    // Embedding gradients, split by columns: dwte already holds the head's part (head_and_loss).
    pool_.barrier();
    const Range cols = share(d, threads, t);
    for (int s = 0; s < config_.sequence; ++s)
        std::fill(G.wpe + std::ptrdiff_t(s) * d + cols.begin, G.wpe + std::ptrdiff_t(s) * d + cols.end, 0.0f);
    for (int r = 0; r < tokens_; ++r) {
        const float* dx = dout_.data() + std::ptrdiff_t(r) * d;
        float* dte = G.wte + std::ptrdiff_t(tokens_in_[r]) * d;
        float* dpe = G.wpe + std::ptrdiff_t(r % config_.sequence) * d;
        for (int j = cols.begin; j < cols.end; ++j) {
            dte[j] += dx[j];
            dpe[j] += dx[j];
        }
    }
    if (!update_) return;
    pool_.barrier();
    // SGD with momentum, PyTorch's form (v₁ = g₁).
    const Range elements = share(int(params_.size()), threads, t, feature_align);
    float* p = params_.data();
    float* v = momentum_.data();
    const float* g = grads_.data();
    const float lr = sgd_.learning_rate, mu = sgd_.momentum;
    if (first_update_)
        for (int i = elements.begin; i < elements.end; ++i) v[i] = g[i], p[i] -= lr * g[i];
    else
        for (int i = elements.begin; i < elements.end; ++i) v[i] = mu * v[i] + g[i], p[i] -= lr * v[i];
}

void CpuGptTrainer::forward_block(int l, int t, Range rows) {
    const int d = config_.d_model, ffn = config_.ffn();
    const Block& w = param_parts_->blocks[l];
    BlockActivations& a = blocks_[l];
    const cpu::TransformerKernels& k = cpu::transformer_kernels();
    const float* x = residual_[l].data();
    const std::ptrdiff_t r0 = rows.begin;
    k.layer_norm_forward(x + r0 * d, rows.size(), d, w.ln1_w, w.ln1_b, a.h.data() + r0 * d, a.ln1_mean.data() + r0,
                         a.ln1_rstd.data() + r0);
    linear_rows(rows, a.h.data(), d, w.qkv_w, w.qkv_b, 3 * d, a.qkv.data());
    pool_.barrier();
    attention(l, t, false);
    pool_.barrier();
    linear_rows(rows, a.att.data(), d, w.proj_w, w.proj_b, d, a.mid.data());
    for (std::ptrdiff_t i = r0 * d; i < std::ptrdiff_t(rows.end) * d; ++i) a.mid[i] += x[i];
    k.layer_norm_forward(a.mid.data() + r0 * d, rows.size(), d, w.ln2_w, w.ln2_b, a.h2.data() + r0 * d,
                         a.ln2_mean.data() + r0, a.ln2_rstd.data() + r0);
    linear_rows(rows, a.h2.data(), d, w.fc1_w, w.fc1_b, ffn, a.f.data());
    k.gelu_forward(a.f.data() + r0 * ffn, a.g.data() + r0 * ffn, std::size_t(rows.size()) * ffn);
    float* next = residual_[l + 1].data();
    linear_rows(rows, a.g.data(), ffn, w.fc2_w, w.fc2_b, d, next);
    for (std::ptrdiff_t i = r0 * d; i < std::ptrdiff_t(rows.end) * d; ++i) next[i] += a.mid[i];
}

void CpuGptTrainer::attention(int l, int t, bool backward) {
    BlockActivations& a = blocks_[l];
    const int d = config_.d_model, S = config_.sequence, hd = config_.head_dim();
    const cpu::HeadView view{S, hd, std::ptrdiff_t(3) * d, d};
    const float scale = 1.0f / std::sqrt(static_cast<float>(hd));
    const Range pairs = share(batch_ * config_.heads, pool_.size(), t);
    float* work = backward ? work_[t].get(std::size_t(S) * S) : nullptr;
    for (int pair = pairs.begin; pair < pairs.end; ++pair) {
        const int b = pair / config_.heads, h = pair % config_.heads;
        const std::ptrdiff_t qkv_at = std::ptrdiff_t(b) * S * 3 * d + std::ptrdiff_t(h) * hd;
        const std::ptrdiff_t out_at = std::ptrdiff_t(b) * S * d + std::ptrdiff_t(h) * hd;
        const float* q = a.qkv.data() + qkv_at;
        float* probs = a.probs.data() + std::ptrdiff_t(pair) * S * S;
        if (!backward) {
            cpu::attention_forward(view, q, q + d, q + std::ptrdiff_t(2) * d, scale, probs, a.att.data() + out_at);
        } else {
            float* dq = dqkv_.data() + qkv_at;
            cpu::attention_backward(view, q, q + d, q + std::ptrdiff_t(2) * d, probs, datt_.data() + out_at, scale, dq,
                                    dq + d, dq + std::ptrdiff_t(2) * d, work);
        }
    }
}

void CpuGptTrainer::head_and_loss(int t, Range rows) {
    const int d = config_.d_model, V = config_.vocab;
    const Parts &P = *param_parts_, &G = *grad_parts_;
    const cpu::TransformerKernels& k = cpu::transformer_kernels();
    const std::ptrdiff_t r0 = rows.begin;
    const float* x = residual_[config_.layers].data();
    k.layer_norm_forward(x + r0 * d, rows.size(), d, P.lnf_w, P.lnf_b, xf_.data() + r0 * d, lnf_mean_.data() + r0,
                         lnf_rstd_.data() + r0);
    // Tied head: logits = xf·W_teᵀ; then the mean cross-entropy, its gradient left in place of the logits.
    double loss = 0.0;
    if (!rows.empty()) {
        cpu::gemm(rows.size(), V, d, {xf_.data() + r0 * d, d, 1}, {P.wte, 1, d}, logits_.data() + r0 * V, V, false);
        const float scale = 1.0f / static_cast<float>(tokens_);
        for (int r = rows.begin; r < rows.end; ++r) {
            float* row = logits_.data() + std::ptrdiff_t(r) * V;
            const float top = *std::max_element(row, row + V);
            const float target = row[targets_[r]];
            const float sum = k.exp_shifted(row, V, top);
            loss += double(top) + std::log(double(sum)) - target;
            const float to_probability = scale / sum;
            for (int j = 0; j < V; ++j) row[j] *= to_probability;
            row[targets_[r]] -= scale;
        }
        cpu::gemm(rows.size(), d, V, {logits_.data() + r0 * V, V, 1}, {P.wte, d, 1}, dh_.data() + r0 * d, d, false);
    }
    losses_[t].sum = loss;
    k.layer_norm_backward(dh_.data() + r0 * d, x + r0 * d, lnf_mean_.data() + r0, lnf_rstd_.data() + r0, P.lnf_w,
                          rows.size(), d, dout_.data() + r0 * d, false);
    pool_.barrier();
    weight_grad_features(share(V, pool_.size(), t, feature_align), xf_.data(), logits_.data(), tokens_, d, V, G.wte,
                         nullptr);
    layer_norm_param_grads(share(d, pool_.size(), t), dh_.data(), x, lnf_mean_.data(), lnf_rstd_.data(), tokens_, d,
                           G.lnf_w, G.lnf_b);
    // dh_ is rewritten by the first block's backward pass below only after its barrier.
}

void CpuGptTrainer::backward_block(int l, int t, Range rows) {
    const int d = config_.d_model, ffn = config_.ffn(), threads = pool_.size();
    const Block& w = param_parts_->blocks[l];
    const Block& g = grad_parts_->blocks[l];
    BlockActivations& a = blocks_[l];
    const cpu::TransformerKernels& k = cpu::transformer_kernels();
    const std::ptrdiff_t r0 = rows.begin, r1 = rows.end;
    const float* x = residual_[l].data();

    // Rows: MLP back to the stream between attention and MLP, then into the attention output.
    input_grad_rows(rows, dout_.data(), d, w.fc2_w, ffn, dffn_.data(), false);
    k.gelu_backward(a.f.data() + r0 * ffn, dffn_.data() + r0 * ffn, dffn_.data() + r0 * ffn,
                    std::size_t(rows.size()) * ffn);
    input_grad_rows(rows, dffn_.data(), ffn, w.fc1_w, d, datt_.data(), false);  // datt_ holds dh2 for a moment
    std::copy(dout_.begin() + r0 * d, dout_.begin() + r1 * d, dmid_.begin() + r0 * d);
    k.layer_norm_backward(datt_.data() + r0 * d, a.mid.data() + r0 * d, a.ln2_mean.data() + r0, a.ln2_rstd.data() + r0,
                          w.ln2_w, rows.size(), d, dmid_.data() + r0 * d, true);
    pool_.barrier();
    // Features: the MLP's and LayerNorm 2's weight gradients (which read dh2 in datt_ and dout_ whole).
    weight_grad_features(share(d, threads, t, feature_align), a.g.data(), dout_.data(), tokens_, ffn, d, g.fc2_w,
                         g.fc2_b);
    weight_grad_features(share(ffn, threads, t, feature_align), a.h2.data(), dffn_.data(), tokens_, d, ffn, g.fc1_w,
                         g.fc1_b);
    layer_norm_param_grads(share(d, threads, t), datt_.data(), a.mid.data(), a.ln2_mean.data(), a.ln2_rstd.data(),
                           tokens_, d, g.ln2_w, g.ln2_b);
    weight_grad_features(share(d, threads, t, feature_align), a.att.data(), dmid_.data(), tokens_, d, d, g.proj_w,
                         g.proj_b);
    pool_.barrier();
    input_grad_rows(rows, dmid_.data(), d, w.proj_w, d, datt_.data(), false);
    pool_.barrier();
    attention(l, t, true);
    pool_.barrier();
    // Rows: back through qkv and LayerNorm 1 to the stream entering the block (dout_ for the block before).
    input_grad_rows(rows, dqkv_.data(), 3 * d, w.qkv_w, d, dh_.data(), false);
    std::copy(dmid_.begin() + r0 * d, dmid_.begin() + r1 * d, dout_.begin() + r0 * d);
    k.layer_norm_backward(dh_.data() + r0 * d, x + r0 * d, a.ln1_mean.data() + r0, a.ln1_rstd.data() + r0, w.ln1_w,
                          rows.size(), d, dout_.data() + r0 * d, true);
    pool_.barrier();
    weight_grad_features(share(3 * d, threads, t, feature_align), a.h.data(), dqkv_.data(), tokens_, d, 3 * d, g.qkv_w,
                         g.qkv_b);
    layer_norm_param_grads(share(d, threads, t), dh_.data(), x, a.ln1_mean.data(), a.ln1_rstd.data(), tokens_, d,
                           g.ln1_w, g.ln1_b);
}

}  // namespace

std::int64_t gpt_trainer_bytes(const GptConfig& c, int batch_size) {
    const std::int64_t T = std::int64_t(batch_size) * c.sequence, d = c.d_model, F = c.ffn(), L = c.layers;
    const std::int64_t per_block = 4 * T + 7 * T * d + 2 * T * F + std::int64_t(batch_size) * c.heads * c.sequence * c.sequence;
    const std::int64_t floats = 3 * std::int64_t(gpt_parameter_count(c))  // parameters, gradients, momentum
                                + (L + 1) * T * d + L * per_block        // the residual stream, the blocks
                                + 2 * T + T * d + T * c.vocab             // the final LayerNorm, the logits
                                + 7 * T * d + T * F;                      // the backward pass's buffers
    return floats * std::int64_t(sizeof(float));
}

std::unique_ptr<GptTrainer> make_gpt_trainer(const GptConfig& config, const std::vector<Tensor>& parameters,
                                             int batch_size, int threads, Sgd sgd) {
    return std::make_unique<CpuGptTrainer>(config, parameters, batch_size, threads, sgd);
}

}  // namespace payback::bench
