#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "payback/bench/cpu_trainer.hpp"
#include "payback/bench/data.hpp"
#include "payback/workload/network.hpp"
#include "support/fixture_tensors.hpp"
#include "support/temp_dir.hpp"

using namespace payback;
using namespace payback::bench;
using payback::test::fixture_tensors;

// The CPU trainer against PyTorch itself: the tutorial network from PyTorch's initial parameters,
// trained on PyTorch's batches (tools/torch_fixture.py writes them with every step's loss and the
// final parameters). Float32 sums run in different orders (oneDNN's convolutions, BLAS, our
// kernels), so: each step's loss within 1e-5 relative, and every final parameter within 1e-6 of
// PyTorch's. They move by up to 1.5e-3 over the five steps; measured with PyTorch 1.13 (seeds 0, 7, and
// 3 at batch 64 over ten steps), one thread or two: losses within 2.1e-7 relative, parameters within
// 7.5e-9.

namespace {

void check_against(const nlohmann::json& fixture) {
    const Workload& workload = find_workload(fixture.at("workload").get<std::string>());
    const std::vector<Tensor> initial = fixture_tensors(fixture.at("initial_parameters"));
    const std::vector<Tensor> final_params = fixture_tensors(fixture.at("final_parameters"));
    const Sgd sgd{fixture.at("learning_rate").get<float>(), fixture.at("momentum").get<float>()};
    const int batch_size = fixture.at("batch").get<int>();
    std::vector<Batch> batches;
    std::vector<double> losses;
    for (const auto& step : fixture.at("steps")) {
        Batch b;
        b.size = batch_size;
        b.images = step.at("images").get<std::vector<float>>();
        b.labels = step.at("labels").get<std::vector<int>>();
        batches.push_back(std::move(b));
        losses.push_back(step.at("loss").get<double>());
    }
    REQUIRE(!batches.empty());

    for (int threads : {1, 2}) {
        INFO(threads << " thread(s), PyTorch " << fixture.at("torch_version").get<std::string>());
        auto trainer = make_cpu_trainer(workload, initial, batch_size, threads, sgd);
        for (std::size_t s = 0; s < batches.size(); ++s) {
            INFO("step " << s);
            CHECK(trainer->train_step(batches[s]) == Approx(losses[s]).epsilon(1e-5));
        }
        const auto ours = trainer->parameters();
        REQUIRE(ours.size() == final_params.size());
        for (std::size_t t = 0; t < ours.size(); ++t) {
            REQUIRE(ours[t].shape == final_params[t].shape);
            double worst = 0.0;
            for (std::size_t i = 0; i < ours[t].size(); ++i)
                worst = std::max(worst, double(std::fabs(ours[t].data[i] - final_params[t].data[i])));
            INFO("parameter tensor " << t);
            CHECK(worst <= 1e-6);
        }
    }
}

}  // namespace

TEST_CASE("the CPU trainer trains the tutorial network as PyTorch does (stored fixture)", "[bench][cpu][pytorch]") {
    std::ifstream file(PAYBACK_SOURCE_DIR "/tests/fixtures/bench/cifar10_tutorial_sgd.json");
    REQUIRE(file);
    check_against(nlohmann::json::parse(file));
}

TEST_CASE("the CPU trainer trains the tutorial network as PyTorch does (live, where torch is installed)",
          "[bench][cpu][pytorch]") {
    if (std::system("/usr/bin/python3 -c 'import torch' >/dev/null 2>&1") != 0) {
        WARN("PyTorch is not installed for /usr/bin/python3: the live comparison is skipped");
        return;
    }
    const payback::test::TempDir dir;
    const std::string out = (dir.path() / "fixture.json").string();
    const std::string command =
        "/usr/bin/python3 " PAYBACK_SOURCE_DIR "/tools/torch_fixture.py --seed 7 --out '" + out + "'";
    REQUIRE(std::system(command.c_str()) == 0);
    std::ifstream file(out);
    REQUIRE(file);
    check_against(nlohmann::json::parse(file));
}
