// The memory an LLM needs, by hand: an 8B model at Q4_0 and an 8k context against an 8 GB and a
// 12 GB card, and the shipped catalog's rows as the memory fit reads them.
#include <catch2/catch.hpp>

#include "payback/base/error.hpp"
#include "payback/workload/memory_fit.hpp"
#include "payback/workload/model_catalog.hpp"
#include "support/input_errors.hpp"

using namespace payback;
using Catch::Matchers::WithinRel;

TEST_CASE("Llama 3 8B at Q4_0 and 8k context: weights, KV cache and activations by hand", "[memory]") {
    const ModelCatalog& catalog = ModelCatalog::shipped();
    const ModelSpec& llama = catalog.model("llama-3-8b");
    const QuantFormat& q4_0 = catalog.quant("q4_0");
    const MemoryNeed one = llm_memory(llama, q4_0, 8192, 1);
    // weights: 8,030,261,248 parameters × 4.5 bits / 8 = 4,517,021,952 B = 4.2068 GB of 2^30 B
    CHECK_THAT(one.weights_gb, WithinRel(4517021952.0 / 1073741824.0, 1e-12));
    // KV: 2 × 32 layers × 8 KV heads × 128 × 8192 tokens × 1 sequence × 2 B = 1,073,741,824 B = 1 GB
    CHECK_THAT(one.kv_cache_gb, WithinRel(1.0, 1e-12));
    // activations: 4 B × (128,256 logits + 32 heads × 8192 scores + 4 × 4096 + 2 × 14,336) = 1,741,824 B
    CHECK_THAT(one.activations_gb, WithinRel(1741824.0 / 1073741824.0, 1e-12));
    // 5.2084 GB in all: it fits an 8 GB card and a 12 GB one
    CHECK(one.total_gb() < 8);
    CHECK_THAT(one.total_gb(), WithinRel(5.2084, 1e-4));
    // Four sequences at once: 4 GB of KV cache, 4.2068 + 4 + 0.0065 = 8.2133 GB: over 8 GB, under 12
    const MemoryNeed four = llm_memory(llama, q4_0, 8192, 4);
    CHECK_THAT(four.kv_cache_gb, WithinRel(4.0, 1e-12));
    CHECK_THAT(four.total_gb(), WithinRel(8.2133, 1e-4));
    CHECK(four.total_gb() > 8);
    CHECK(four.total_gb() < 12);
}

TEST_CASE("the KV cache grows linearly in context and batch, the weights with bits per weight", "[memory]") {
    const ModelCatalog& catalog = ModelCatalog::shipped();
    const ModelSpec& qwen = catalog.model("qwen2.5-7b");
    const MemoryNeed base = llm_memory(qwen, catalog.quant("f16"), 4096, 1);
    CHECK_THAT(llm_memory(qwen, catalog.quant("f16"), 8192, 3).kv_cache_gb, WithinRel(6 * base.kv_cache_gb, 1e-12));
    CHECK_THAT(llm_memory(qwen, catalog.quant("q8_0"), 4096, 1).weights_gb,
               WithinRel(base.weights_gb * 8.5 / 16, 1e-12));
    // Qwen2.5-7B: 2 × 28 layers × 4 KV heads × 128 × 4096 × 2 B = 234,881,024 B
    CHECK_THAT(base.kv_cache_gb, WithinRel(234881024.0 / 1073741824.0, 1e-12));
}

TEST_CASE("the shipped model catalog: every LLM's FLOPs per token are twice the weights a token reads",
          "[memory][catalog]") {
    const ModelCatalog& catalog = ModelCatalog::shipped();
    int llms = 0;
    for (const ModelSpec& m : catalog.models()) {
        if (m.kind != ModelKind::llm) continue;
        ++llms;
        INFO(m.name);
        CHECK_THAT(*m.flops_per_token, WithinRel(2 * m.parameters_per_token(), 1e-9));
        CHECK(*m.heads % *m.kv_heads == 0);
    }
    CHECK(llms >= 10);
    CHECK(catalog.quants().size() == 5);
}

TEST_CASE("a token reads every matrix but the untied input embedding, or a mixture's active weights", "[memory][catalog]") {
    const ModelCatalog& catalog = ModelCatalog::shipped();
    // Llama 3 8B: 8,030,261,248 − 128,256 × 4,096 = 7,504,924,672; its memory still holds all of them
    const ModelSpec& llama = catalog.model("llama-3-8b");
    CHECK_FALSE(llama.tied_embeddings);
    CHECK(llama.matrix_parameters() == 7504924672.0);
    CHECK(llama.parameters_per_token() == 7504924672.0);
    CHECK(llm_memory(llama, catalog.quant("f16"), 1, 1).weights_gb == 8030261248.0 * 2 / bytes_per_gb);
    // gpt-oss-20b: its published 3.61 B active weights; all experts at once, 20,914,757,184 − 201,088 × 2,880
    const ModelSpec& oss = catalog.model("gpt-oss-20b");
    CHECK(oss.parameters_per_token() == 3.61e9);
    CHECK(oss.matrix_parameters() == 20335623744.0);
    // gpt-small's head is its embedding table (tied): read whole, nothing left out
    const ModelSpec& small = catalog.model("gpt-small");
    CHECK(small.tied_embeddings);
    CHECK(small.matrix_parameters() == small.parameters);
}

TEST_CASE("gpt-oss in its own format: experts in MXFP4, the rest in Q8_0, as big as its published files",
          "[memory][catalog]") {
    const ModelCatalog& catalog = ModelCatalog::shipped();
    // gpt-oss-20b: 19,116,933,120 expert weights × 4.25 / 8 + the other 1,797,824,064 (the input embedding with
    // them) × 8.5 / 8 = 12,066,058,788 B = 11.237 GiB; llama-bench reports ggml-org's file as 11.27 GiB
    // (llama.cpp benches/dgx-spark.md)
    const QuantFormat& mxfp4 = catalog.quant("mxfp4");
    const MemoryNeed oss = llm_memory(catalog.model("gpt-oss-20b"), mxfp4, 1, 1);
    CHECK(oss.weights_gb == 12066058788.0 / bytes_per_gb);
    CHECK_THAT(oss.weights_gb, WithinRel(11.27, 0.005));
    // gpt-oss-120b: 114,701,598,720 × 4.25 / 8 + 2,127,557,952 × 8.5 / 8 = 63,195,754,644 B = 58.856 GiB; 59.02 reported
    const MemoryNeed big = llm_memory(catalog.model("gpt-oss-120b"), mxfp4, 1, 1);
    CHECK(big.weights_gb == 63195754644.0 / bytes_per_gb);
    CHECK_THAT(big.weights_gb, WithinRel(59.02, 0.005));
    // Its cache at the full 131,072 tokens: 2 × 8 KV heads × 64 × 2 B = 2,048 B a position, over 12 full layers ×
    // 131,072 + 12 windowed × 128 = 1,574,400 positions: 3,224,371,200 B (every layer whole would be twice that)
    CHECK(llm_memory(catalog.model("gpt-oss-20b"), mxfp4, 131072, 1).kv_cache_gb == 3224371200.0 / bytes_per_gb);
    // A dense model has only "other" weights: mxfp4 holds it as Q8_0 does
    CHECK(llm_memory(catalog.model("llama-3-8b"), mxfp4, 1, 1).weights_gb ==
          llm_memory(catalog.model("llama-3-8b"), catalog.quant("q8_0"), 1, 1).weights_gb);
}

TEST_CASE("a training workload has no memory fit as an LLM, and unknown names get a suggestion", "[memory]") {
    const ModelCatalog& catalog = ModelCatalog::shipped();
    const InputError not_llm =
        test::input_error([&] { llm_memory(catalog.model("resnet50"), catalog.quant("f16"), 1024, 1); });
    CHECK(not_llm.key_path() == "workload");
    const InputError model = test::input_error([&] { catalog.model("llama-3-8"); });
    CHECK(model.key_path() == "workload");
    CHECK_THAT(model.what(), Catch::Matchers::Contains("did you mean \"llama-3-8b\"?"));
    const InputError quant = test::input_error([&] { catalog.quant("q4_k"); });
    CHECK(quant.key_path() == "quant");
    CHECK_THAT(quant.what(), Catch::Matchers::Contains("(f16, q8_0, q4_0, q4_k_m, mxfp4); did you mean"));  // five: all named
    CHECK_THAT(model.what(), !Catch::Matchers::Contains("(resnet50"));  // seventeen models: only the closest
}
