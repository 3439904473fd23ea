#include <catch2/catch.hpp>

#include <cmath>

#include "payback/base/error.hpp"
#include "payback/workload/network.hpp"
#include "support/input_errors.hpp"

using namespace payback;

TEST_CASE("the tutorial network has the tutorial's parameters and work", "[bench][workload]") {
    const Workload& net = find_workload("cifar10-tutorial");
    // benchmark-facts.md §1.1: 456 + 2,416 + 48,120 + 10,164 + 850 = 62,006 parameters;
    // 352,800 + 240,000 + 48,000 + 10,080 + 840 = 651,720 MACs a sample forward.
    CHECK(parameter_count(net) == 62006);
    CHECK(forward_macs_per_sample(net) == 651720.0);
    CHECK(training_flops_per_sample(net) == 6.0 * 651720.0);
    const auto shapes = parameter_shapes(net);
    REQUIRE(shapes.size() == 10);
    CHECK(shapes[0] == std::vector<int>{6, 3, 5, 5});
    CHECK(shapes[1] == std::vector<int>{6});
    CHECK(shapes[2] == std::vector<int>{16, 6, 5, 5});
    CHECK(shapes[4] == std::vector<int>{120, 400});
    CHECK(shapes[9] == std::vector<int>{10});
}

TEST_CASE("the MLP is bound by its matrix products", "[bench][workload]") {
    const Workload& mlp = find_workload("mlp");
    // 3072·1024 + 1024 + 1024·1024 + 1024 + 1024·10 + 10 = 4,206,602 parameters.
    CHECK(parameter_count(mlp) == 4206602);
    CHECK(forward_macs_per_sample(mlp) == 3072.0 * 1024 + 1024.0 * 1024 + 1024.0 * 10);
}

TEST_CASE("default parameters follow PyTorch's bound 1/sqrt(fan_in) and are seeded", "[bench][workload]") {
    const Workload& net = find_workload("cifar10-tutorial");
    const auto a = default_parameters(net, 42);
    const auto b = default_parameters(net, 42);
    const auto c = default_parameters(net, 43);
    REQUIRE(a.size() == 10);
    CHECK(a[0].data == b[0].data);
    CHECK(a[0].data != c[0].data);
    // fan_in: conv1 3·5·5 = 75, conv2 6·25 = 150, fc1 400, fc2 120, fc3 84; biases share their layer's bound.
    const double fan_in[] = {75, 75, 150, 150, 400, 400, 120, 120, 84, 84};
    for (std::size_t i = 0; i < a.size(); ++i) {
        const double bound = 1.0 / std::sqrt(fan_in[i]);
        double largest = 0, sum = 0;
        for (float v : a[i].data) {
            largest = std::max(largest, std::abs(double(v)));
            sum += v;
        }
        CHECK(largest <= bound);
        if (a[i].size() > 1000) {
            CHECK(largest > 0.95 * bound);                        // the whole range is used
            CHECK(std::abs(sum / a[i].size()) < 0.05 * bound);    // centred on 0
        }
    }
}

TEST_CASE("an unknown workload is refused with the known ones", "[bench][workload][errors]") {
    const auto e = payback::test::input_error([] { find_workload("cifar10-tutorail"); });
    CHECK(e.key_path() == "workload");
    CHECK_THAT(e.message(), Catch::Contains("did you mean \"cifar10-tutorial\"") && Catch::Contains("mlp"));
}
