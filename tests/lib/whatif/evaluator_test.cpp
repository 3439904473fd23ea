#include <catch2/catch.hpp>

#include <atomic>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "base/parallel.hpp"
#include "payback/model/input_fields.hpp"
#include "whatif/evaluator.hpp"
#include "whatif/sample_state.hpp"

using namespace payback;

TEST_CASE("choose_evaluator picks the fastest evaluator that holds and says why", "[evaluator]") {
    SampleState state;
    SECTION("exact where the lanes do not hold, whatever else") {
        state.not_lanes = "a key changes the model's structure";
        state.not_superposed = "a key moves inflation";
        const EvaluatorChoice chosen = choose_evaluator(state);
        CHECK(std::string(chosen.evaluator->name()) == "exact");
        CHECK(chosen.reason == "exact: every sample parsed and run alone (a key changes the model's structure)");
    }
    SECTION("lanes where superposition does not hold") {
        state.not_superposed = "a key moves inflation";
        const EvaluatorChoice chosen = choose_evaluator(state);
        CHECK(std::string(chosen.evaluator->name()) == "lanes");
        CHECK(chosen.reason ==
              "fast: lanes of samples, from the exact model's response to each key (not superposed: a key moves "
              "inflation)");
    }
    SECTION("lanes without a superposition") {
        const EvaluatorChoice chosen = choose_evaluator(state);
        CHECK(std::string(chosen.evaluator->name()) == "lanes");
        CHECK(chosen.reason == "fast: lanes of samples, from the exact model's response to each key");
    }
}

TEST_CASE("every number of the inputs is marked, the compounding ones as the batch needs", "[evaluator]") {
    ModelInputs<double> in;
    in.energy_kwh.assign(3, 0.0);
    in.energy_cost.assign(3, 0.0);
    in.parts.resize(2);
    in.clouds.resize(2);
    std::size_t numbers = 0;
    for_each_field(in, [&](double&) { ++numbers; });
    std::vector<std::string> compounding;
    std::size_t marked = 0, sale = 0;
    for_each_marked_field(in, [&](double&, Response response, const char* what) {
        ++marked;
        if (response == Response::compounding) compounding.emplace_back(what);
        if (response == Response::sale) ++sale;
    });
    CHECK(marked == numbers);
    CHECK(sale == std::size_t{8});  // each part's resale curve: 4 numbers, 2 parts
    CHECK(compounding == std::vector<std::string>{"the discount rate", "inflation", "the electricity price's escalation",
                                                  "the loan", "the loan", "the tax rate", "the tax rate",
                                                  "a cloud price's escalation", "a cloud price's escalation"});
}

TEST_CASE("same_structure compares what the marks call fixed and the length of every list", "[evaluator]") {
    ModelInputs<double> a;
    a.energy_kwh.assign(3, 1.0);
    a.energy_cost.assign(3, 2.0);
    a.parts.resize(2);
    a.clouds.resize(1);
    ModelInputs<double> b = a;
    // Every number may differ...
    for_each_field(b, [](double& x) { x += 7.0; });
    CHECK(same_structure(a, b));
    // ...but not a fixed member, however deep, nor a list's length.
    ModelInputs<double> sold_later = a;
    sold_later.parts[1].sell_month = 2;
    CHECK_FALSE(same_structure(a, sold_later));
    ModelInputs<double> other_curve = a;
    other_curve.parts[0].resale.method = ResaleMethod::straight_line;
    CHECK_FALSE(same_structure(a, other_curve));
    ModelInputs<double> longer_loan = a;
    longer_loan.loan.term_months = 12;
    CHECK_FALSE(same_structure(a, longer_loan));
    ModelInputs<double> rented = a;
    rented.rental_fees.assign(3, 0.0);
    CHECK_FALSE(same_structure(a, rented));
    ModelInputs<double> one_cloud_more = a;
    one_cloud_more.clouds.resize(2);
    CHECK_FALSE(same_structure(a, one_cloud_more));
}

TEST_CASE("parallel_for runs each item once, reports progress and stops when cancelled", "[parallel]") {
    SECTION("every item, progress up to 1 on the calling thread") {
        std::vector<std::atomic<int>> runs(1000);
        std::vector<double> progress;
        detail::LoopControl control;
        control.progress = [&](double done) { progress.push_back(done); };
        detail::parallel_for(runs.size(), [&](std::size_t i) { ++runs[i]; }, 4, control);
        for (const auto& r : runs) CHECK(r.load() == 1);
        // The helpers may run every item before the calling thread takes one: then no report.
        for (std::size_t i = 1; i < progress.size(); ++i) CHECK(progress[i] >= progress[i - 1]);
        for (const double p : progress) CHECK((p > 0.0 && p <= 1.0));
    }
    SECTION("on one thread the last report is 1") {
        double last = 0.0;
        detail::parallel_for(10, [](std::size_t) {}, 1, {[&](double done) { last = done; }, nullptr});
        CHECK(last == 1.0);
    }
    SECTION("cancelled: no item starts after") {
        std::atomic<bool> cancel{false};
        std::atomic<std::size_t> ran{0};
        detail::parallel_for(
            1000,
            [&](std::size_t) {
                if (++ran == 10) cancel = true;
            },
            1, {nullptr, &cancel});
        CHECK(ran.load() == 10);
    }
    SECTION("the first exception is rethrown on the calling thread") {
        CHECK_THROWS_AS(detail::parallel_for(100, [](std::size_t i) {
            if (i == 50) throw std::runtime_error("item 50");
        }, 3),
                        std::runtime_error);
    }
}
