// Token-by-token generation on the CPU for the llm-decode workload: a Llama-style model (llm_config.hpp)
// with weights random from a seed (the speed of a product does not depend on the values), its matrices in
// F16, Q8_0 or Q4_0, several sequences decoded together, each with its own key/value cache.
//
// Weight w of tensor t is scale_t · (2·(h >> 40)·2^-24 − 1), h = mix(seed·φ + t·c + index): splitmix64's
// finalizer, so that tools/llm_decode_reference.py can build the same model in NumPy.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "payback/bench/llm_config.hpp"

namespace payback::bench {

class LlmDecoder {
public:
    /// `sequences` ≥ 1 decoded together, each with room for `capacity` positions; `threads` ≥ 1.
    LlmDecoder(const LlmConfig& config, Quant quant, std::uint64_t seed, int threads, int sequences, int capacity);
    ~LlmDecoder();
    LlmDecoder(const LlmDecoder&) = delete;
    LlmDecoder& operator=(const LlmDecoder&) = delete;

    const LlmConfig& config() const;
    Quant quant() const;
    int sequences() const;

    /// One token for every sequence, at each sequence's current length (which grows by one); returns
    /// the logits, sequences × vocab. Throws std::length_error when a sequence is full.
    std::vector<float> decode(const std::vector<int>& tokens);

    /// The prompt `tokens` of one sequence, processed together (matrix products over the prompt's
    /// positions, causal attention); returns the last position's logits (vocab).
    std::vector<float> prefill(int sequence, const std::vector<int>& tokens);

    int length(int sequence) const;
    /// Forgets the positions from `length` on, or takes the first `length` as they are (the benchmark
    /// decodes at a fixed context this way, after fill_cache).
    void set_length(int sequence, int length);
    /// Every position of every cache set to random values from `seed`, as if a context were there.
    void fill_cache(std::uint64_t seed);

    /// Bytes of the matrices a decode step reads (llm_matrix_bytes).
    std::int64_t matrix_bytes() const;
    /// The matrix kernels this CPU runs: "avx512-vnni", "avx512", "avx2" or "portable".
    const char* kernels() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

/// Weight `index` of tensor `tensor` before scaling, in [−1, 1): the generator above.
float llm_uniform(std::uint64_t seed, std::uint64_t tensor, std::uint64_t index);

}  // namespace payback::bench
