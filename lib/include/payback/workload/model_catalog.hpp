// The model catalog: named models with their shapes and FLOPs (pricing/models.csv) and the weight
// formats LLMs are served in with their bits per weight (pricing/quants.csv, GGUF's formats). Loading
// checks every row and throws InputError naming the file, line and column; lookups suggest the
// closest name on a miss.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace payback {

/// A training workload (FLOPs per sample, fwd+bwd) or an LLM served token by token.
enum class ModelKind { train, llm };

struct ModelSpec {
    std::string name;
    ModelKind kind = ModelKind::train;
    double parameters = 0;
    std::optional<double> active_parameters;  ///< a mixture of experts: the weights one token reads
    std::optional<double> expert_parameters;  ///< a mixture of experts: the weights of all its routed experts
    std::optional<int> experts;         ///< routed experts a layer (gpt-oss-20b: 32)
    std::optional<int> active_experts;  ///< of them, those a token routes to (4)
    std::optional<int> layers;
    std::optional<int> d_model;
    std::optional<int> heads;
    std::optional<int> kv_heads;
    std::optional<int> head_dim;
    std::optional<int> ffn;
    std::optional<int> vocabulary;
    bool tied_embeddings = false;  ///< the output matrix is the input embedding table (read whole as the head)
    std::optional<int> context;   ///< the longest context the model takes, tokens
    std::optional<int> attention_window;  ///< tokens a windowed layer attends to (gpt-oss: 128)
    std::optional<int> window_layers;     ///< how many of the layers attend to that window only
    std::optional<int> sequence;  ///< a training sample's tokens
    std::optional<double> flops_per_sample;  ///< train: forward + backward
    std::optional<double> flops_per_token;   ///< llm: forward, 2 × parameters_per_token()
    std::string as_of;  ///< when the row was read, YYYY-MM-DD
    std::string source;
    std::string file;  ///< pricing/models.csv as loaded, and the row's line, for messages
    int line = 0;

    /// The input embedding table, vocabulary × d_model, of which a decoding step reads one row a token: 0
    /// when it is tied to the output matrix (read whole, as the head) or the shape is not given.
    double input_embedding_parameters() const {
        return tied_embeddings || !vocabulary || !d_model ? 0.0 : double(*vocabulary) * *d_model;
    }
    /// The weights a decoding step can read: all but the untied input embedding.
    double matrix_parameters() const { return parameters - input_embedding_parameters(); }
    /// The weights one token reads: a mixture of experts' active ones as published (gpt-oss's count
    /// already leaves the input embedding out), else matrix_parameters().
    double parameters_per_token() const { return active_parameters.value_or(matrix_parameters()); }
    /// A mixture of experts' expert weights: expert_parameters, or where the row gives none every matrix (its
    /// tokens then read shares of all of them); none in a dense model.
    double expert_weights() const { return expert_parameters.value_or(active_parameters ? matrix_parameters() : 0.0); }
    /// The matrices every token reads: all but the experts.
    double shared_weights() const { return matrix_parameters() - expert_weights(); }
    /// The expert weights one token reads.
    double active_expert_weights() const { return parameters_per_token() - shared_weights(); }
    /// The expert weights a decoding step of `sequences` reads. With the experts counted, each layer reads the
    /// experts any sequence routes to: k of n each, routed independently and evenly, n × (1 − (1 − k/n)^sequences)
    /// of them on average; without, each sequence's own, until all are read.
    double step_expert_weights(int sequences) const {
        if (!experts || !active_experts) return std::min(expert_weights(), active_expert_weights() * sequences);
        const double n = *experts, k = *active_experts;
        const double routed = n * (1 - std::pow(1 - k / n, sequences));
        return std::min(expert_weights(), active_expert_weights() / k * routed);
    }
    /// Positions a token attends to at `position`, summed over the layers: every one in a full layer, at most the
    /// window in a windowed one (whose cache llama.cpp keeps no longer). A KV cache and attention's FLOPs scale by it.
    double attended_positions(double position) const {
        const double windowed = window_layers.value_or(0);
        return (layers.value_or(0) - windowed) * position +
               windowed * std::min(position, double(attention_window.value_or(0)));
    }
    /// One sequence's KV cache at `context` tokens: a key and a value of every KV head at every attended position.
    double kv_cache_bytes(double context, double bytes_per_element) const {
        return 2.0 * kv_heads.value_or(0) * head_dim.value_or(0) * attended_positions(context) * bytes_per_element;
    }
};

struct QuantFormat {
    std::string name;  ///< "f16", "q8_0", "q4_0", "q4_k_m", "mxfp4"
    double bits_per_weight = 0;
    /// The weights outside a mixture of experts' experts, where the format keeps them otherwise (gpt-oss's MXFP4
    /// GGUFs: Q8_0, 8.5); else bits_per_weight
    std::optional<double> other_bits_per_weight;
    int block_size = 1;
    std::string source;

    /// Bytes of `others` weights outside the experts and `experts` expert weights.
    double bytes(double others, double experts) const {
        return (others * other_bits_per_weight.value_or(bits_per_weight) + experts * bits_per_weight) / 8;
    }
};

class ModelCatalog {
public:
    /// models.csv and quants.csv of `directory`; InputError on the first bad cell.
    static ModelCatalog load(const std::string& directory);
    /// The shipped catalog (find_data_directory), loaded once.
    static const ModelCatalog& shipped();

    const std::vector<ModelSpec>& models() const { return models_; }
    const std::vector<QuantFormat>& quants() const { return quants_; }
    /// InputError (source "pricing", key "workload" / "quant") with a suggestion on a miss.
    const ModelSpec& model(const std::string& name) const;
    const QuantFormat& quant(const std::string& name) const;

private:
    std::vector<ModelSpec> models_;
    std::vector<QuantFormat> quants_;
};

}  // namespace payback
