#include <random>
#include <stdexcept>

#include <fmt/format.h>

#include "payback/bench/gpt_trainer.hpp"

namespace payback::bench {

void validate_gpt_config(const GptConfig& c) {
    for (const auto& [name, value] : {std::pair{"layers", c.layers}, std::pair{"d_model", c.d_model},
                                      std::pair{"heads", c.heads}, std::pair{"sequence", c.sequence},
                                      std::pair{"vocab", c.vocab}})
        if (value < 1) throw std::invalid_argument(fmt::format("gpt: {} must be at least 1, got {}", name, value));
    if (c.d_model % c.heads != 0)
        throw std::invalid_argument(fmt::format("gpt: heads ({}) must divide d_model ({})", c.heads, c.d_model));
}

std::vector<std::vector<int>> gpt_parameter_shapes(const GptConfig& c) {
    const int d = c.d_model;
    std::vector<std::vector<int>> shapes = {{c.vocab, d}, {c.sequence, d}};
    for (int l = 0; l < c.layers; ++l)
        for (const auto& shape : std::vector<std::vector<int>>{{d}, {d}, {3 * d, d}, {3 * d}, {d, d}, {d}, {d}, {d},
                                                              {c.ffn(), d}, {c.ffn()}, {d, c.ffn()}, {d}})
            shapes.push_back(shape);
    shapes.push_back({d});
    shapes.push_back({d});
    return shapes;
}

std::size_t gpt_parameter_count(const GptConfig& config) {
    std::size_t count = 0;
    for (const auto& shape : gpt_parameter_shapes(config)) count += Tensor::element_count(shape);
    return count;
}

void check_token_batch(const GptConfig& config, int batch_size, const TokenBatch& batch) {
    const std::size_t n = std::size_t(batch_size) * config.sequence;
    if (batch.size != batch_size || batch.tokens.size() != n || batch.targets.size() != n)
        throw std::invalid_argument(
            fmt::format("gpt: a batch of {} sequences of {} tokens expected", batch_size, config.sequence));
    for (std::size_t i = 0; i < n; ++i)
        if (batch.tokens[i] < 0 || batch.tokens[i] >= config.vocab || batch.targets[i] < 0 ||
            batch.targets[i] >= config.vocab)
            throw std::invalid_argument(fmt::format("gpt: token {} outside the vocabulary", i));
}

double gpt_flops_per_sequence(const GptConfig& c) {
    const double d = c.d_model, s = c.sequence;
    const double matrix_weights = c.layers * (4.0 * d * d + 2.0 * d * c.ffn());
    return 3.0 * (2.0 * matrix_weights * s + 4.0 * c.layers * s * s * d + 2.0 * s * d * c.vocab);
}

std::vector<Tensor> gpt_default_parameters(const GptConfig& config, std::uint64_t seed) {
    std::mt19937_64 generator(seed);
    std::normal_distribution<float> normal(0.0f, 0.02f);
    std::vector<Tensor> parameters;
    const auto shapes = gpt_parameter_shapes(config);
    for (std::size_t p = 0; p < shapes.size(); ++p) {
        Tensor t(shapes[p]);
        // Matrices are weights; vectors are biases (0) except the LayerNorm weights (1): ln1 and ln2 of
        // each layer (offsets 0 and 6 in its twelve) and the final one.
        const bool layer_norm_weight = p == shapes.size() - 2 || (p >= 2 && p < shapes.size() - 2 && ((p - 2) % 12 == 0 || (p - 2) % 12 == 6));
        if (shapes[p].size() == 2)
            for (auto& v : t.data) v = normal(generator);
        else if (layer_norm_weight)
            std::fill(t.data.begin(), t.data.end(), 1.0f);
        parameters.push_back(std::move(t));
    }
    return parameters;
}

TokenBatch synthetic_token_batch(const GptConfig& config, int size, std::uint64_t seed) {
    std::mt19937_64 generator(seed);
    std::uniform_int_distribution<int> token(0, config.vocab - 1);
    TokenBatch batch;
    batch.size = size;
    const std::size_t n = std::size_t(size) * config.sequence;
    batch.tokens.resize(n);
    batch.targets.resize(n);
    for (int s = 0; s < size; ++s) {
        int* tokens = batch.tokens.data() + std::size_t(s) * config.sequence;
        int* targets = batch.targets.data() + std::size_t(s) * config.sequence;
        tokens[0] = token(generator);
        for (int t = 0; t < config.sequence; ++t) {
            targets[t] = token(generator);
            if (t + 1 < config.sequence) tokens[t + 1] = targets[t];
        }
    }
    return batch;
}

}  // namespace payback::bench
