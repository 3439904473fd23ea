// The gpt-small benchmark workload: one training step of a decoder-only transformer in FP32 on the CPU
// (docs/benchmark.md). GPT-2's architecture (https://github.com/openai/gpt-2/blob/master/src/model.py):
// learned token and position embeddings, pre-LayerNorm blocks of causal multi-head attention and a
// 4×d_model MLP with GELU (tanh form), a final LayerNorm, and the output head tied to the token
// embedding (logits = x·W_teᵀ, no bias), as pricing/models.csv counts the gpt-small row. Mean
// cross-entropy of next-token prediction over every position, then SGD with momentum (trainer.hpp).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "payback/bench/trainer.hpp"
#include "payback/workload/tensor.hpp"

namespace payback::bench {

/// The workload name of the transformer training step, beside the training networks and llm-decode.
inline constexpr const char* gpt_small_workload = "gpt-small";

struct GptConfig {
    int layers = 6;
    int d_model = 512;
    int heads = 8;
    int sequence = 256;  ///< tokens per sample (the context trained on)
    int vocab = 8192;
    int ffn() const { return 4 * d_model; }
    int head_dim() const { return d_model / heads; }
};

/// 6 layers, d_model 512, 8 heads, sequence 256, vocabulary 8,192: 23,240,704 parameters.
inline GptConfig gpt_small_config() { return {}; }

/// Throws std::invalid_argument unless every size is ≥ 1 and heads divides d_model.
void validate_gpt_config(const GptConfig& config);

/// The parameters in this order (PyTorch's shapes, weights [out, in]): token embedding [vocab, d],
/// position embedding [sequence, d]; per layer ln1 weight and bias [d], attention qkv weight [3d, d]
/// (query, key, value rows in that order, heads d/heads apart inside each) and bias [3d], attention
/// output weight [d, d] and bias [d], ln2 weight and bias [d], fc1 weight [4d, d] and bias [4d], fc2
/// weight [d, 4d] and bias [d]; then the final LayerNorm's weight and bias [d].
std::vector<std::vector<int>> gpt_parameter_shapes(const GptConfig& config);
std::size_t gpt_parameter_count(const GptConfig& config);

/// One sequence's forward and backward FLOPs: 3 × (2 × matrix weights × sequence + 4 × layers ×
/// sequence² × d_model + 2 × sequence × d_model × vocab), the last the tied output head — the
/// models.csv row's formula (37,849,399,296 for gpt-small). Attention's FLOPs count the full square, as
/// that formula does, though the causal mask lets the step skip about half of them.
double gpt_flops_per_sequence(const GptConfig& config);

/// GPT-2's initialization from a seed: weights normal(0, 0.02), biases 0, LayerNorm weights 1.
std::vector<Tensor> gpt_default_parameters(const GptConfig& config, std::uint64_t seed);

/// `size` sequences of `sequence` tokens and the tokens to predict at each position, row-major [size,
/// sequence], all in [0, vocab).
struct TokenBatch {
    int size = 0;
    std::vector<int> tokens;
    std::vector<int> targets;
};

/// Random tokens from a seed; each target is the next token of a sequence one longer.
TokenBatch synthetic_token_batch(const GptConfig& config, int size, std::uint64_t seed);

/// What both trainers take: `batch_size` sequences of config.sequence tokens and targets, each in the
/// vocabulary; std::invalid_argument otherwise.
void check_token_batch(const GptConfig& config, int batch_size, const TokenBatch& batch);

/// The multithreaded CPU training step (cpu/gpt_trainer.cpp).
class GptTrainer {
public:
    virtual ~GptTrainer() = default;
    virtual std::string device_name() const = 0;
    /// Forward, backward and (with `update`) the SGD step; returns the mean loss before the update.
    virtual float train_step(const TokenBatch& batch, bool update = true) = 0;
    virtual std::vector<Tensor> parameters() const = 0;  ///< a copy, in gpt_parameter_shapes() order
    virtual std::vector<Tensor> gradients() const = 0;   ///< of the last train_step
    /// Trains `steps` steps cycling through `pool` and returns the elapsed seconds (a steady clock).
    virtual double timed_steps(const std::vector<TokenBatch>& pool, int steps) = 0;
};

/// Bytes the CPU trainer allocates for `batch_size` sequences: the parameters, their gradients and
/// momentum, and every activation and gradient buffer of the step (the logits alone are batch × sequence
/// × vocabulary floats). What `payback bench` checks against the machine's memory before making one.
std::int64_t gpt_trainer_bytes(const GptConfig& config, int batch_size);

/// `threads` ≥ 1, `batch_size` ≥ 1 sequences; `parameters` in gpt_parameter_shapes() order (else
/// std::invalid_argument).
std::unique_ptr<GptTrainer> make_gpt_trainer(const GptConfig& config, const std::vector<Tensor>& parameters,
                                             int batch_size, int threads, Sgd sgd = {});

}  // namespace payback::bench
