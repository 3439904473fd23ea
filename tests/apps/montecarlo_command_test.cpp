#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"

using nlohmann::json;
using payback::test::run;

TEST_CASE("payback montecarlo prints percentiles and the chance that building wins", "[cli][montecarlo]") {
    const auto r = run("montecarlo scenarios/venus-2019-uncertain.toml --samples 2000 --seed 7 --json");
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    CHECK(j["keys"].size() == 4);
    CHECK(j["samples"] == 2000);
    CHECK(j["method"] == "monte_carlo");
    bool found = false;
    for (const auto& m : j["metrics"])
        if (m["metric"] == "npv_savings") {
            found = true;
            CHECK(m["p10"].get<double>() <= m["p50"].get<double>());
            CHECK(m["p50"].get<double>() <= m["p90"].get<double>());
            CHECK(m["count"] == 2000);
            CHECK(m["histogram"]["counts"].size() == 30);
        }
    CHECK(found);
    const double p = j["probability_build_wins"]["AWS p3.2xlarge (V100) on-demand"];
    CHECK((p >= 0.0 && p <= 1.0));
    CHECK_THAT(r.err, Catch::Contains("montecarlo: fast"));
    // The same seed, the same answer.
    CHECK(json::parse(run("montecarlo scenarios/venus-2019-uncertain.toml --samples 2000 --seed 7 --json --threads 1").out)["metrics"] ==
          j["metrics"]);
}

TEST_CASE("payback montecarlo --metrics reports those metrics only", "[cli][montecarlo]") {
    const auto r = run("montecarlo scenarios/venus-2019-uncertain.toml --samples 2000 --seed 7 --json "
                       "--metrics payback_months,npv_savings");
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    const json all = json::parse(run("montecarlo scenarios/venus-2019-uncertain.toml --samples 2000 --seed 7 --json").out);
    json expected = json::array();
    for (const auto& m : all["metrics"])
        if (m["metric"] == "payback_months" || m["metric"] == "npv_savings") expected.push_back(m);
    CHECK(j["metrics"] == expected);
    CHECK(j["probability_build_wins"] == all["probability_build_wins"]);
    // Without npv_savings there is no chance of winning to report.
    const auto costs = run("montecarlo scenarios/venus-2019-uncertain.toml --samples 500 --json --metrics total_cost");
    REQUIRE(costs.code == 0);
    CHECK(json::parse(costs.out)["probability_build_wins"].empty());
    const auto bad = run("montecarlo scenarios/venus-2019-uncertain.toml --metrics npv");
    CHECK(bad.code == 2);
    CHECK_THAT(bad.err, Catch::Contains("--metrics"));
}

TEST_CASE("payback montecarlo without [uncertainty] says what to add", "[cli][montecarlo][errors]") {
    const auto r = run("montecarlo scenarios/venus-2019.toml");
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("uncertainty: missing"));
}
