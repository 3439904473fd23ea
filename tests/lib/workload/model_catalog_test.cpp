// The model catalog's mixtures of experts (models.csv's expert_parameters: the expert weights apart from the
// matrices every token reads) and windowed attention (attention_window, window_layers), by hand on gpt-oss, and rows
// whose split or window cannot be, refused.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "payback/base/error.hpp"
#include "payback/workload/model_catalog.hpp"
#include "support/input_errors.hpp"
#include "support/temp_dir.hpp"

using namespace payback;

namespace {

std::string shipped(const std::string& name) {
    std::ifstream in(std::string(PAYBACK_SOURCE_DIR) + "/pricing/" + name);
    REQUIRE(in.good());
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

// The shipped models.csv with gpt-oss-20b's expert_parameters (19116933120) or llama-3-8b's empty one replaced.
InputError refused(const std::string& from, const std::string& to) {
    test::TempDir dir;
    dir.write("models.csv", test::replaced(shipped("models.csv"), from, to));
    dir.write("quants.csv", shipped("quants.csv"));
    return test::input_error([&] { ModelCatalog::load(dir.path().string()); });
}

}  // namespace

TEST_CASE("a mixture of experts: its experts apart from the matrices every token reads", "[catalog]") {
    const ModelCatalog& catalog = ModelCatalog::shipped();
    // gpt-oss-20b: 24 layers × 32 experts × 24,891,840 = 19,116,933,120 expert weights of the 20,914,757,184 −
    // 201,088 × 2,880 = 20,335,623,744 matrices; the other 1,218,690,624 (attention, routers, the output head) are read
    // by every token, which reads 3,610,000,000 − 1,218,690,624 = 2,391,309,376 of the experts' (4 of 32: 2,389,616,640
    // by the shapes; the published 3.61 B is rounded).
    const ModelSpec& oss = catalog.model("gpt-oss-20b");
    CHECK(oss.expert_weights() == 19116933120.0);
    CHECK(oss.shared_weights() == 1218690624.0);
    CHECK(oss.active_expert_weights() == 2391309376.0);
    // B sequences, each routed to 4 of a layer's 32 experts independently and evenly, reach 32 × (1 − (7/8)^B) of
    // them: 4 at one sequence, 13.24 at four (not 16), 28.22 at sixteen, each 2,391,309,376 / 4 weights; past about
    // 53 sequences the 19,116,933,120 (32 × 8 × 2,391,309,376 / 32 is 0.07 % more: the published 3.61 B is rounded)
    CHECK(oss.step_expert_weights(1) == 2391309376.0);
    CHECK_THAT(oss.step_expert_weights(4), Catch::Matchers::WithinRel(2391309376.0 / 4 * 13.2421875, 1e-12));
    CHECK_THAT(oss.step_expert_weights(16), Catch::Matchers::WithinRel(16871795550.47, 1e-10));
    CHECK(oss.step_expert_weights(64) == 19116933120.0);
    // DeepSeek-V3 records no split: every matrix counts as an expert, a token's 37 B as its experts'
    const ModelSpec& deepseek = catalog.model("deepseek-v3");
    CHECK_FALSE(deepseek.expert_parameters);
    CHECK(deepseek.shared_weights() == 0);
    CHECK(deepseek.active_expert_weights() == 37e9);
    CHECK(deepseek.step_expert_weights(1000) == deepseek.matrix_parameters());
    // A dense model has no experts: a step reads its matrices once, however many sequences
    const ModelSpec& llama = catalog.model("llama-3-8b");
    CHECK(llama.expert_weights() == 0);
    CHECK(llama.shared_weights() == llama.matrix_parameters());
    CHECK(llama.step_expert_weights(64) == 0);
}

TEST_CASE("expert counts that cannot be are refused", "[catalog][errors]") {
    // gpt-oss-20b routing 40 of its 32 experts a token
    const InputError more = refused("3610000000,19116933120,32,4,", "3610000000,19116933120,32,40,");
    CHECK(more.key_path() == "active_experts");
    CHECK_THAT(more.message(), Catch::Contains("must not exceed experts (32)"));
    // A count of experts with no expert weights to spread over them
    const InputError alone = refused("3610000000,19116933120,32,4,", "3610000000,,32,4,");
    CHECK(alone.key_path() == "expert_parameters");
    CHECK_THAT(alone.message(), Catch::Contains("all three or none"));
}

TEST_CASE("expert_parameters that cannot be are refused, naming the file, line and column", "[catalog][errors]") {
    const std::string oss = "3610000000,19116933120,32,4,24,";
    // All the matrices or more: nothing left for the attention every token reads (models.csv line 13: gpt-oss-20b)
    const InputError all = refused(oss, "3610000000,20335623744,32,4,24,");
    CHECK(std::filesystem::path(all.source()).filename() == "models.csv");
    CHECK(all.line() == 13);
    CHECK(all.key_path() == "expert_parameters");
    CHECK_THAT(all.message(), Catch::Contains("must be below the 20335623744 weights outside the input embedding"));
    // Too few experts for the active count: 20,335,623,744 − 1,000,000,000 other matrices exceed the 3.61 B a token reads
    const InputError few = refused(oss, "3610000000,1000000000,32,4,24,");
    CHECK(few.key_path() == "expert_parameters");
    CHECK_THAT(few.message(), Catch::Contains("check both"));
    // A dense model given experts, without the weights a token reads
    const InputError dense = refused("llama-3-8b,llm,8030261248,,,", "llama-3-8b,llm,8030261248,,4000000000,");
    // (its experts and active_experts left empty: the weights are checked first)
    CHECK(dense.key_path() == "expert_parameters");
    CHECK_THAT(dense.message(), Catch::Contains("needs its active_parameters"));
}

TEST_CASE("a format may keep the weights outside the experts otherwise: mxfp4, gpt-oss's GGUFs", "[catalog]") {
    // MXFP4: 17 bytes per 32 weights (an E8M0 scale byte and 32 FP4 values) = 4.25 bits; the rest in Q8_0, 8.5
    const QuantFormat& mxfp4 = ModelCatalog::shipped().quant("mxfp4");
    CHECK(mxfp4.bits_per_weight == 4.25);
    CHECK(mxfp4.other_bits_per_weight == 8.5);
    CHECK(mxfp4.bytes(32, 32) == 34 + 17);  // 32 others as a Q8_0 block, 32 experts as an MXFP4 one
    // Every other format keeps all its weights alike
    const QuantFormat& q4 = ModelCatalog::shipped().quant("q4_0");
    CHECK_FALSE(q4.other_bits_per_weight);
    CHECK(q4.bytes(32, 32) == 2 * 18);
}

TEST_CASE("windowed attention: every other layer of gpt-oss attends to the last 128 tokens only", "[catalog]") {
    const ModelCatalog& catalog = ModelCatalog::shipped();
    // gpt-oss-20b at 32,784 tokens: 12 full layers × 32,784 + 12 windowed × 128 = 394,944 positions, which its
    // cache holds and attention reads (24 × 32,784 = 786,816 counting every layer whole); under 128 tokens the
    // window changes nothing
    const ModelSpec& oss = catalog.model("gpt-oss-20b");
    CHECK(oss.attended_positions(32784) == 394944);
    CHECK(oss.attended_positions(100) == 2400);
    // A model without windows: every layer, every position
    CHECK(catalog.model("llama-3-8b").attended_positions(4096) == 32 * 4096);
}

TEST_CASE("a window without its layers, or more windowed layers than layers, is refused", "[catalog][errors]") {
    // llama-3-8b (line 6) given a window and no layers for it
    const InputError alone = refused("128256,,8192,,,", "128256,,8192,4096,,");
    CHECK(alone.line() == 6);
    CHECK(alone.key_path() == "window_layers");
    CHECK_THAT(alone.message(), Catch::Contains("go together"));
    // gpt-oss-20b with 25 windowed layers of 24
    const InputError many = refused("131072,128,12,", "131072,128,25,");
    CHECK(many.key_path() == "window_layers");
    CHECK_THAT(many.message(), Catch::Contains("must not exceed layers (24)"));
}
