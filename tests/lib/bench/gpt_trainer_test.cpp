#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cpu/transformer_kernels.hpp"
#include "payback/bench/gpt_trainer.hpp"
#include "support/fixture_tensors.hpp"
#include "support/heap_in_use.hpp"
#include "support/temp_dir.hpp"

using namespace payback;
using namespace payback::bench;
using payback::test::fixture_tensors;
using payback::test::relative_error;

// The gpt-small trainer against PyTorch itself, on a tiny config (2 layers, d_model 16, 4 heads,
// sequence 16, vocabulary 48, batch 2): tools/gpt_fixture.py trains the same model from the same
// parameters on the same tokens for three SGD steps (lr 0.1, momentum 0.9) and writes each step's loss,
// the last step's gradients and the final parameters. Tolerance 1e-5 relative: each loss, and per
// tensor the norm-based error ‖ours − PyTorch‖₂ / ‖PyTorch‖₂ of the gradients and of the final
// parameters (an element-wise ratio would blow up on entries near zero; the stored gradients and final
// parameters are rounded to 7 digits, 5e-7 relative at most). Measured with PyTorch 1.13 (Debian's
// build), one thread or two: see the INFO lines on failure.

namespace {

void check_tensors(const std::vector<Tensor>& ours, const std::vector<Tensor>& reference, const char* what) {
    REQUIRE(ours.size() == reference.size());
    for (std::size_t t = 0; t < ours.size(); ++t) {
        REQUIRE(ours[t].shape == reference[t].shape);
        const double error = relative_error(ours[t], reference[t]);
        INFO(what << " tensor " << t << ": relative error " << error);
        CHECK(error <= 1e-5);
    }
}

void check_against(const nlohmann::json& fixture) {
    const auto& c = fixture.at("config");
    GptConfig config;
    config.layers = c.at("layers").get<int>();
    config.d_model = c.at("d_model").get<int>();
    config.heads = c.at("heads").get<int>();
    config.sequence = c.at("sequence").get<int>();
    config.vocab = c.at("vocab").get<int>();
    const Sgd sgd{fixture.at("learning_rate").get<float>(), fixture.at("momentum").get<float>()};
    const int batch_size = fixture.at("batch").get<int>();
    const std::vector<Tensor> initial = fixture_tensors(fixture.at("initial_parameters"));
    std::vector<TokenBatch> batches;
    std::vector<double> losses;
    for (const auto& step : fixture.at("steps")) {
        TokenBatch b;
        b.size = batch_size;
        b.tokens = step.at("tokens").get<std::vector<int>>();
        b.targets = step.at("targets").get<std::vector<int>>();
        batches.push_back(std::move(b));
        losses.push_back(step.at("loss").get<double>());
    }
    REQUIRE(batches.size() == 3);

    for (int threads : {1, 2}) {
        INFO(threads << " thread(s), PyTorch " << fixture.at("torch_version").get<std::string>());
        auto trainer = make_gpt_trainer(config, initial, batch_size, threads, sgd);
        for (std::size_t s = 0; s < batches.size(); ++s) {
            INFO("step " << s);
            CHECK(trainer->train_step(batches[s]) == Approx(losses[s]).epsilon(1e-5));
        }
        check_tensors(trainer->gradients(), fixture_tensors(fixture.at("last_gradients")), "last step's gradient");
        check_tensors(trainer->parameters(), fixture_tensors(fixture.at("final_parameters")), "final parameter");
    }
}

}  // namespace

TEST_CASE("the gpt trainer trains a tiny transformer as PyTorch does (stored fixture)", "[bench][cpu][pytorch]") {
    std::ifstream file(PAYBACK_SOURCE_DIR "/tests/fixtures/bench/gpt_tiny_sgd.json");
    REQUIRE(file);
    check_against(nlohmann::json::parse(file));
}

TEST_CASE("the gpt trainer trains a tiny transformer as PyTorch does (live, where torch is installed)",
          "[bench][cpu][pytorch]") {
    if (std::system("/usr/bin/python3 -c 'import torch' >/dev/null 2>&1") != 0) {
        WARN("PyTorch is not installed for /usr/bin/python3: the live comparison is skipped");
        return;
    }
    const payback::test::TempDir dir;
    const std::string out = (dir.path() / "fixture.json").string();
    const std::string command = "/usr/bin/python3 " PAYBACK_SOURCE_DIR "/tools/gpt_fixture.py --seed 7 --out '" + out + "'";
    REQUIRE(std::system(command.c_str()) == 0);
    std::ifstream file(out);
    REQUIRE(file);
    check_against(nlohmann::json::parse(file));
}

TEST_CASE("gpt-small's size and FLOPs are the models.csv row's", "[bench][cpu]") {
    const GptConfig config = gpt_small_config();
    // 8192·512 (tokens) + 256·512 (positions) + 6·(12·512² + 13·512) (blocks: qkv, out, fc1, fc2 and
    // their biases, two LayerNorms) + 2·512 (final LayerNorm) = 4,194,304 + 131,072 + 18,914,304 + 1,024.
    CHECK(gpt_parameter_count(config) == 23'240'704u);
    // 3·(2·6·12·512²·256 + 4·6·256²·512 + 2·256·512·8192) = 3·(9,663,676,416 + 805,306,368 + 2,147,483,648).
    CHECK(gpt_flops_per_sequence(config) == 37'849'399'296.0);
    const auto params = gpt_default_parameters(config, 1);
    REQUIRE(params.size() == 2 + 12 * 6 + 2);
    CHECK(params[2].data[0] == 1.0f);   // ln1 weight
    CHECK(params[3].data[0] == 0.0f);   // ln1 bias
    CHECK(params[8].data[7] == 1.0f);   // ln2 weight
    CHECK(params.back().data[0] == 0.0f);
    CHECK(params[params.size() - 2].data[0] == 1.0f);
}

TEST_CASE("the CPU trainer's memory, by hand", "[bench][cpu]") {
    // gpt-small at batch 1 (T = 256 tokens, d 512, FFN 2,048, 6 layers, 8 heads, vocabulary 8,192), in floats:
    // parameters, gradients, momentum 3 · 23,240,704 = 69,722,112; the residual stream 7 · 256 · 512 = 917,504;
    // a block 4 · 256 + 7 · 256 · 512 + 2 · 256 · 2,048 + 8 · 256² = 2,491,392, six of them 14,948,352; the
    // final LayerNorm and the logits 2 · 256 + 256 · 512 + 256 · 8,192 = 2,228,736; the backward pass's
    // 7 · 256 · 512 + 256 · 2,048 = 1,441,792. 89,258,496 floats: 357,033,984 B. (At batch 8, 0.904 GB: the
    // peak resident set of `payback bench --workload gpt-small --batch 8` was 0.918 GB above the program's
    // own 0.231 GB, 7 December 2026.)
    CHECK(gpt_trainer_bytes(gpt_small_config(), 1) == 357033984);
    // And what the constructor really allocates, at batch 2 (the per-sequence buffers doubled)
    const std::vector<Tensor> parameters = gpt_default_parameters(gpt_small_config(), 1);
    const std::size_t before = payback::test::heap_in_use();
    const auto trainer = make_gpt_trainer(gpt_small_config(), parameters, 2, 1);
    const std::size_t allocated = payback::test::heap_in_use() - before;
    if (!payback::test::heap_counted()) {
        WARN("this allocator does not report the heap in use: the count alone was checked");
        return;
    }
    CHECK(static_cast<double>(allocated) ==
          Approx(static_cast<double>(gpt_trainer_bytes(gpt_small_config(), 2))).epsilon(0.02));
}

TEST_CASE("the gpt trainer refuses a bad config or batch", "[bench][cpu]") {
    GptConfig config{1, 12, 5, 4, 10};  // 5 heads do not divide d_model 12
    CHECK_THROWS_WITH(validate_gpt_config(config), "gpt: heads (5) must divide d_model (12)");
    config.heads = 3;
    auto trainer = make_gpt_trainer(config, gpt_default_parameters(config, 1), 1, 1);
    TokenBatch batch = synthetic_token_batch(config, 1, 2);
    batch.targets[3] = 10;
    CHECK_THROWS_WITH(trainer->train_step(batch), "gpt: token 3 outside the vocabulary");
    CHECK_THROWS_WITH(trainer->train_step(synthetic_token_batch(config, 2, 2)),
                      "gpt: a batch of 1 sequences of 4 tokens expected");
}

TEST_CASE("the transformer kernels' exponential and GELU are within a few ulp of libm's", "[bench][cpu]") {
    const auto& kernels = cpu::transformer_kernels();
    std::vector<float> x;
    for (float v = -80.0f; v <= 80.0f; v += 0.0137f) x.push_back(v);
    std::vector<float> e = x;
    kernels.exp_shifted(e.data(), int(e.size()), 0.0f);
    double worst = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i)
        worst = std::max(worst, std::fabs(e[i] / std::exp(double(x[i])) - 1.0));
    CHECK(worst < 3e-7);  // 2.5 float32 ulp
    std::vector<float> g(x.size());
    kernels.gelu_forward(x.data(), g.data(), x.size());
    double worst_gelu = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
        const double v = x[i];
        const double exact = 0.5 * v * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v)));
        worst_gelu = std::max(worst_gelu, std::fabs(g[i] - exact) / std::max(1.0, std::fabs(exact)));
    }
    CHECK(worst_gelu < 1e-6);
}
