// A rental market row with the P10, median and P90 of its offers (optional columns, as vast-offers
// imports write them): Monte Carlo draws the host price from them and reports the net host income a
// month at those quantiles; with the scenario's own occupancy range in [uncertainty] it draws the
// occupancy too; a row whose quantiles are out of order is refused with file, line, column.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "support/input_errors.hpp"
#include "support/run_cli.hpp"
#include "support/shipped_catalogs.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using payback::test::check_bad_input;
using payback::test::quote;
using payback::test::read_file;
using payback::test::replaced;
using payback::test::Result;
using payback::test::run_program;
using payback::test::TempDir;
using payback::test::write_file;

namespace {

const fs::path source = PAYBACK_SOURCE_DIR;

// The shipped catalogs in <dir>/pricing, rental-markets.csv with the two quantile columns (empty but
// for vast's RTX 3090: `p10` and `p90` around its median 0.1681); <dir>/host.toml rents an RTX 3090 out
// there and has no [uncertainty] of its own.
void write_catalog(const TempDir& dir, const std::string& p10, const std::string& p90) {
    payback::test::copy_shipped_catalogs(dir.path());
    std::string text = read_file(source / "pricing/rental-markets.csv");
    std::string out;
    std::size_t start = 0;
    for (std::size_t line = 0; start < text.size(); ++line) {
        const std::size_t end = text.find('\n', start);
        std::string row = text.substr(start, end - start);
        const std::size_t third = row.find(',', row.find(',', row.find(',') + 1) + 1);  // after host_price_per_hour
        std::string cells = ",,";
        if (line == 0) cells = "host_price_p10_per_hour,host_price_p90_per_hour,";
        else if (row.rfind("vast,RTX 3090,", 0) == 0) cells = std::string(p10).append(",").append(p90).append(",");
        out += row.insert(third + 1, cells);
        out += '\n';
        start = end + 1;
    }
    write_file(dir.path() / "pricing/rental-markets.csv", out);
    write_file(dir.path() / "host.toml",
               "[scenario]\nname = \"host\"\nhorizon_months = 24\n"
               "[workload]\ngpu_hours_per_month = 100\n"
               "[rig]\nname = \"Rig\"\n[[rig.parts]]\nkind = \"gpu\"\ngpu = \"RTX 3090\"\nprice = 800\n"
               "[electricity]\nprice_per_kwh = 0.2\n"
               "[rental]\nmarket = \"vast\"\nplatform_fee = 0.25\n"
               "[[cloud]]\nname = \"Cloud\"\nprice_per_hour = 0.5\nspeedup = 1\n");
}

Result run_with(const TempDir& dir, const std::string& args) {
    return run_program(PAYBACK_BINARY, args, "export PAYBACK_PRICING_DIR=" + quote((dir.path() / "pricing").string()));
}

}  // namespace

TEST_CASE("montecarlo draws the host price from a market row's quantiles", "[cli][montecarlo][rental]") {
    const TempDir dir;
    write_catalog(dir, "0.10", "0.28");
    const Result r = run_with(dir, "montecarlo --json --samples 2000 " + quote((dir.path() / "host.toml").string()));
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);  // no [uncertainty] in the scenario: the market row's spread is the draw
    const auto out = nlohmann::json::parse(r.out);
    const auto& income = out.at("host_income_per_month");
    const double p10 = income.at("p10"), p50 = income.at("p50"), p90 = income.at("p90");
    CHECK(p10 < p50);
    CHECK(p50 < p90);
    // Income is linear in the host price (rented hours x price x (1 - fee), less the price-free rest),
    // so the spreads keep the prices' ratio: (0.28 - 0.1681) / (0.1681 - 0.10) = 0.1119 / 0.0681.
    CHECK((p90 - p50) / (p50 - p10) == Approx(0.1119 / 0.0681).epsilon(1e-9));
}

TEST_CASE("a market row's quantiles must hold the median between them", "[cli][rental][errors]") {
    const TempDir dir;
    write_catalog(dir, "0.20", "0.28");  // P10 above the median 0.1681
    const Result r = run_with(dir, "catalog rental");
    check_bad_input(r);
    CHECK_THAT(r.err, Catch::Contains("rental-markets.csv:3: host_price_per_hour: expected P10 <= host_price_per_hour "
                                      "(the median) <= P90"));
    const TempDir half;
    write_catalog(half, "0.10", "");
    const Result one = run_with(half, "catalog rental");
    check_bad_input(one);
    CHECK_THAT(one.err, Catch::Contains("rental-markets.csv:3: host_price_p90_per_hour: give both quantiles"));
}

namespace {

// host.toml with an [uncertainty] of its own: rental.occupancy as `occupancy` says.
nlohmann::json host_income_with(const TempDir& dir, const std::string& occupancy) {
    const fs::path host = dir.path() / "host.toml";
    write_file(host, read_file(host) + "[uncertainty]\n\"rental.occupancy\" = " + occupancy + "\n");
    const Result r = run_with(dir, "montecarlo --json --samples 2000 " + quote(host.string()));
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    return nlohmann::json::parse(r.out).at("host_income_per_month");
}

}  // namespace

TEST_CASE("montecarlo draws the scenario's own occupancy range with the host price", "[cli][montecarlo][rental]") {
    const TempDir price_only, narrow, wide;
    write_catalog(price_only, "0.10", "0.28");
    const Result r =
        run_with(price_only, "montecarlo --json --samples 2000 " + quote((price_only.path() / "host.toml").string()));
    REQUIRE(r.code == 0);
    const auto exact = nlohmann::json::parse(r.out).at("host_income_per_month");
    write_catalog(narrow, "0.10", "0.28");
    write_catalog(wide, "0.10", "0.28");
    const auto a = host_income_with(narrow, "{ dist = \"uniform\", low = 0.6, high = 0.8 }");
    const auto b = host_income_with(wide, "{ dist = \"uniform\", low = 0.4, high = 1.0 }");
    for (const auto* income : {&a, &b}) {
        CHECK(double(income->at("p10")) < double(income->at("p50")));
        CHECK(double(income->at("p50")) < double(income->at("p90")));
    }
    // Around the same centre, 0.7, the wider range spreads the income further (income is about occupancy
    // x the margin of an hour, so a range with a lower centre could spread it less); both spread it
    // further than the price alone at the row's 0.7 does.
    const auto spread = [](const nlohmann::json& q) { return double(q.at("p90")) - double(q.at("p10")); };
    CHECK(spread(b) > spread(a));
    CHECK(spread(a) > spread(exact));
    const Result text = run_with(wide, "montecarlo --samples 2000 " + quote((wide.path() / "host.toml").string()));
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Catch::Contains("P10 / P50 / P90 over the host price and occupancy drawn"));
}
