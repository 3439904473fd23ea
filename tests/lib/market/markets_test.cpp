// Scenarios using the catalogs and the cloud's billing: catalog fills and overrides, billing
// increments, spot, reservations, egress, the instance filter, and renting the rig out.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "payback/base/error.hpp"
#include "payback/market/catalog.hpp"
#include "payback/market/cloud_billing.hpp"
#include "payback/market/cloud_cost.hpp"
#include "payback/market/instance_filter.hpp"
#include "payback/market/price_history.hpp"
#include "payback/model/comparison.hpp"
#include "support/scenario_text.hpp"

using namespace payback;

namespace {
Scenario hand(const std::vector<Override>& overrides = {}) {
    return parse_scenario(test::hand_scenario(), PAYBACK_SOURCE_DIR "/hand.toml", overrides);
}
}  // namespace

TEST_CASE("a part by catalog name takes the row's figures; the scenario's own keys win", "[markets][catalog]") {
    const Scenario s = hand({{"rig.parts[0]", "{ gpu = \"RTX 3090\" }"}});
    const Part& gpu = s.rig.parts[0];
    CHECK(gpu.kind == PartKind::gpu);
    CHECK(gpu.name == "RTX 3090");
    CHECK(units::in_money(gpu.price) == 1499.0);     // launch price, pricing/gpus.csv
    CHECK(units::in_watts(gpu.load_power) == 350.0);  // board power
    REQUIRE(gpu.from_catalog.size() == 2);
    CHECK_THAT(gpu.from_catalog[0].second, Catch::StartsWith("pricing/gpus.csv:"));
    const Scenario cheaper = hand({{"rig.parts[0]", "{ gpu = \"RTX 3090\", price = 900, name = \"used 3090\" }"}});
    CHECK(units::in_money(cheaper.rig.parts[0].price) == 900.0);
    CHECK(cheaper.rig.parts[0].name == "used 3090");
    CHECK_THAT(to_toml(s), Catch::Contains("price = 1499.0  # pricing/gpus.csv:"));
    CHECK_THROWS_WITH(hand({{"rig.parts[0]", "{ gpu = \"RTX 3009\" }"}}), Catch::Contains("rig.parts[0].gpu"));
}

TEST_CASE("a cloud option from the instance catalog: price by mode, speed from the GPU catalog", "[markets][catalog]") {
    const Scenario s = hand({{"rig.parts[0]", "{ gpu = \"RTX 3090\" }"},
                             {"cloud[0]", "{ name = \"p3\", instance = \"aws:p3.2xlarge\", region = \"us-east-1\" }"}});
    const CloudOption& c = s.clouds[0];
    CHECK(units::in_money_per_hour(c.price) == Approx(3.06));  // pricing-facts §1.1
    CHECK(c.billing.increment_seconds == 1.0);
    CHECK(c.billing.minimum_seconds == 60.0);
    // Lambda ResNet-50 AMP, 2022: V100 16 GB ... over the RTX 3090's 801 img/s; one GPU each.
    REQUIRE(c.per_gpu_speedup);
    const double ratio = *Catalog::shipped().gpu("V100 16GB").resnet50_amp_img_s / 801.0;
    CHECK(*c.per_gpu_speedup == Approx(ratio));
    CHECK(c.speedup == Approx(ratio));
    // AWS us-east-1 from pricing/cloud-regions.csv: PUE 1.15.
    CHECK(c.pue == Approx(1.15));
    const Scenario spot = hand({{"rig.parts[0]", "{ gpu = \"RTX 3090\" }"},
                                {"cloud[0]", "{ name = \"p3\", instance = \"aws:p3.2xlarge\", mode = \"spot\" }"}});
    CHECK(units::in_money_per_hour(spot.clouds[0].price) ==
          Approx(*Catalog::shipped().instance("aws:p3.2xlarge", "us-east-1").spot_per_hour));
    CHECK_THROWS_WITH(hand({{"cloud[0]", "{ name = \"p3\", instance = \"aws:p3.2xlarge\", mode = \"reserved_1y\" }"}}),
                      Catch::Contains("no reserved_1y price"));
}

TEST_CASE("a cloud option from the catalog is named after its row and mode unless named by hand",
          "[markets][catalog]") {
    // One instance in two modes and, in a third, a region picked by hand: three distinct names.
    const std::string rig_gpu = "\n[[rig.parts]]\ngpu = \"RTX 3090\"\n";
    const std::string clouds = "\n[[cloud]]\ninstance = \"aws:p3.2xlarge\"\nmode = \"spot\"\n"
                               "\n[[cloud]]\ninstance = \"aws:p3.2xlarge\"\n"
                               "\n[[cloud]]\ninstance = \"aws:p3.2xlarge\"\nregion = \"us-east-1\"\n"
                               "\n[[cloud]]\nname = \"my p3\"\ninstance = \"aws:p3.2xlarge\"\nmode = \"spot\"\n";
    const std::string text = test::hand_scenario();
    const std::string with_parts = text.substr(0, text.find("[electricity]")) + rig_gpu + "\n" +
                                   text.substr(text.find("[electricity]"));
    const Scenario s = parse_scenario(with_parts + clouds, PAYBACK_SOURCE_DIR "/hand.toml");
    REQUIRE(s.clouds.size() == 5);
    CHECK(s.clouds[1].name == "AWS p3.2xlarge spot");
    CHECK(s.clouds[2].name == "AWS p3.2xlarge on-demand");
    CHECK(s.clouds[3].name == "AWS p3.2xlarge on-demand us-east-1");
    CHECK(s.clouds[4].name == "my p3");
    // The derived name cites the row it came from (the assumptions table's source); a hand-given one does not.
    const auto cites_row = [](const CloudOption& c) {
        return std::any_of(c.from_catalog.begin(), c.from_catalog.end(), [](const auto& entry) {
            return entry.first == "name" && entry.second.rfind("pricing/cloud-instances.csv:", 0) == 0;
        });
    };
    CHECK(cites_row(s.clouds[1]));
    CHECK_FALSE(cites_row(s.clouds[4]));
    // Written out and read back, the name survives as an ordinary key.
    CHECK(parse_scenario(to_toml(s), PAYBACK_SOURCE_DIR "/hand.toml").clouds[1].name == "AWS p3.2xlarge spot");
    // The same instance and mode twice: the second would take the first's name, and the error says how to fix it.
    const std::string twice = "\n[[cloud]]\ninstance = \"aws:p3.2xlarge\"\nspeedup = 1\n"
                              "\n[[cloud]]\ninstance = \"aws:p3.2xlarge\"\nspeedup = 1\n";
    CHECK_THROWS_WITH(parse_scenario(text + twice, PAYBACK_SOURCE_DIR "/hand.toml"),
                      Catch::Contains("cloud[2].instance") &&
                          Catch::Contains("duplicate cloud option \"AWS p3.2xlarge on-demand\"") &&
                          Catch::Contains("give name = "));
    // Without an instance a name is still required.
    CHECK_THROWS_WITH(parse_scenario(text + "\n[[cloud]]\nprice_per_hour = 1\n", PAYBACK_SOURCE_DIR "/hand.toml"),
                      Catch::Contains("cloud[1].name: missing required key"));
}

TEST_CASE("billing increments: short jobs cost more on hourly billing", "[markets][billing]") {
    // 100 h of work a month at speedup 2 is 50 instance-hours; as 15-minute jobs (7.5 min at speedup 2),
    // hourly billing charges each job a full hour: 400 jobs = 400 h at $2 = $800 instead of $100.
    const auto hourly = hand({{"workload.job_hours", "0.25"}, {"cloud[0].billing", "{ increment_seconds = 3600 }"}});
    const CloudMonth m = cloud_month(hourly.clouds[0], 100.0, hourly.job_hours);
    CHECK(m.instance_hours == Approx(50.0));
    CHECK(m.billed_hours == Approx(400.0));
    CHECK(m.spend == Approx(800.0));
    const auto per_second = hand({{"workload.job_hours", "0.25"}});
    CHECK(cloud_month(per_second.clouds[0], 100.0, per_second.job_hours).spend == Approx(100.0));
}

TEST_CASE("spot: the lost and repeated work raise the price of an hour of work", "[markets][spot]") {
    // 0.05 interruptions an hour, checkpoints every hour, 0.1 h to restart, spot at $1 against $2 on demand.
    const auto s = hand({{"cloud[0].mode", "spot"}, {"cloud[0].price_per_hour", "1.0"},
                         {"cloud[0].interruptions_per_hour", "0.05"}, {"cloud[0].checkpoint_interval_hours", "1"},
                         {"cloud[0].restart_hours", "0.1"}});
    // Overhead (e^{λτ} - 1)(1/λ + R)/τ = (e^0.05 - 1)(20 + 0.1) = 1.030 599.
    const double overhead = (std::exp(0.05) - 1.0) * (20.0 + 0.1);
    REQUIRE(s.clouds[0].spot);
    CHECK(spot_overhead_factor(*s.clouds[0].spot) == Approx(overhead));
    const CloudMonth m = cloud_month(s.clouds[0], 100.0, s.job_hours);
    CHECK(m.spend == Approx(50.0 * overhead * 1.0));
    // With no on-demand price known there is no break-even rate; with one, spot at $1 against $2 breaks
    // even where the overhead reaches 2.
    CHECK_FALSE(m.breakeven_interruptions_per_hour);
    const auto rate = breakeven_interruption_rate(1.0, 2.0, 1.0, 0.1);
    REQUIRE(rate);
    CHECK(effective_spot_price(1.0, SpotTerms{*rate, 1.0, 0.1, 0.0}) == Approx(2.0));
}

TEST_CASE("reserved: the commitment is paid whether used or not", "[markets][reserved]") {
    // 730 h committed at $1.2 against $2 on demand: 50 h of use still costs 876; break-even at 60 % use.
    const auto s = hand({{"cloud[0].mode", "reserved_1y"}, {"cloud[0].price_per_hour", "1.2"},
                         {"cloud[0].on_demand_price_per_hour", "2.0"}});
    const CloudMonth m = cloud_month(s.clouds[0], 100.0, s.job_hours);
    CHECK(m.spend == Approx(730.0 * 1.2));
    REQUIRE(m.breakeven_utilization);
    CHECK(*m.breakeven_utilization == Approx(0.6));
    CHECK(compare(s).options[1].total_cost == Approx(24 * 876.0));
}

TEST_CASE("egress and storage by the gigabyte", "[markets][storage]") {
    // 500 GB kept at $0.08 = $40 a month; 200 GB out at $0.09 = $18 a month.
    const auto s = hand({{"cloud[0].storage_gb", "500"}, {"cloud[0].storage_price_per_gb_month", "0.08"},
                         {"cloud[0].egress_gb_per_month", "200"}, {"cloud[0].egress_price_per_gb", "0.09"}});
    CHECK(units::in_money(s.clouds[0].storage_per_month) == Approx(40.0));
    CHECK(cloud_month(s.clouds[0], 100.0, s.job_hours).spend == Approx(100.0 + 18.0));
}

TEST_CASE("the instance filter", "[markets][filter]") {
    const Catalog& c = Catalog::shipped();
    const auto big = filter_instances(c, "gpu_memory_gb>=80,provider==aws");
    REQUIRE_FALSE(big.empty());
    for (const CloudInstance* i : big) {
        CHECK(i->provider == "aws");
        CHECK(*i->gpu_memory_gb >= 80);
    }
    CHECK(filter_instances(c, "gpu==RTX 3090").size() ==
          static_cast<std::size_t>(std::count_if(c.instances().begin(), c.instances().end(),
                                                 [](const CloudInstance& i) { return i.gpu == "RTX 3090"; })));
    CHECK_THROWS_WITH(filter_instances(c, "gpu_memroy_gb>=24"), Catch::Contains("did you mean \"gpu_memory_gb\""));
    CHECK_THROWS_WITH(filter_instances(c, "provider>aws"), Catch::Contains("use == or !="));
    CHECK_THROWS_WITH(filter_instances(c, "gpu_memory_gb>=lots"), Catch::Contains("expected a number"));
}

TEST_CASE("matching instances a comparison can use: priced in the currency, with a measured GPU", "[markets][filter]") {
    const Catalog& c = Catalog::shipped();
    const auto all = filter_instances(c, "provider==aws");
    const InstanceMatch m = match_instances(c, "provider==aws", "USD");
    // Every match is either usable or left out, and the usable keep the catalog's order.
    CHECK(m.usable.size() + static_cast<std::size_t>(m.left_out) == all.size());
    REQUIRE_FALSE(m.usable.empty());
    for (const CloudInstance* i : m.usable) {
        CHECK(i->currency == "USD");
        CHECK(i->on_demand_per_hour.has_value());
        CHECK(c.gpu(i->gpu).resnet50_amp_img_s.has_value());
    }
    CHECK(std::is_sorted(m.usable.begin(), m.usable.end(), [&](const CloudInstance* a, const CloudInstance* b) {
        return std::find(all.begin(), all.end(), a) < std::find(all.begin(), all.end(), b);
    }));
    // No instance is priced in a currency nobody uses.
    CHECK_THROWS_WITH(match_instances(c, "provider==aws", "XYZ"), Catch::Contains("with a price and a speed"));
}

TEST_CASE("instances in effect: one row per instance and region, by date", "[markets][filter]") {
    const Catalog& shipped = Catalog::shipped();
    // A history pricing aws:p3.2xlarge in us-east-1 at $2.50 from 2026-12-15 (the catalog: $3.06 as of
    // 2026-11-29) gives the catalog a second row of it.
    const Catalog c = shipped.with_history(
        {{{"instance", "aws", "p3.2xlarge", "us-east-1", "on_demand"}, "2026-12-15", 2.50, "USD", "test", "test"}},
        "/data/prices.sqlite");
    REQUIRE(c.instances().size() == shipped.instances().size() + 1);
    const auto price_on = [&](const std::optional<std::string>& at) {
        std::vector<double> prices;
        for (const CloudInstance* i : instances_in_effect(c, at))
            if (i->key() == "aws:p3.2xlarge" && i->region == "us-east-1") prices.push_back(*i->on_demand_per_hour);
        return prices;
    };
    CHECK(instances_in_effect(c, std::nullopt).size() == shipped.instances().size());
    CHECK(price_on("2026-12-14") == std::vector<double>{3.06});
    CHECK(price_on("2026-12-15") == std::vector<double>{2.50});
    CHECK(price_on(std::nullopt) == std::vector<double>{2.50});  // the newest
    CHECK(price_on("2000-01-01").empty());                       // no row yet
    // match_instances filters the rows in effect, its price conditions on their prices.
    CHECK(match_instances(c, "instance==p3.2xlarge,region==us-east-1,on_demand_per_hour<=2.8", "USD").usable.size() == 1);
    CHECK_THROWS_WITH(
        match_instances(c, "instance==p3.2xlarge,region==us-east-1,on_demand_per_hour<=2.8", "USD", "2026-12-14"),
        Catch::Contains("with a price and a speed"));
}

TEST_CASE("renting out: the RTX 3080 host's month by hand", "[markets][rental]") {
    const Scenario s = load_scenario(PAYBACK_SOURCE_DIR "/scenarios/rtx3080-rental.toml");
    const Comparison c = compare(s);
    REQUIRE(c.options.size() == 3);
    CHECK(c.options[1].name == "2x RTX 3080 host + rental");
    const CashFlows& rented = c.cashflows[1];
    // Month 1: 2 cards x (730 - 60) h offered x 70 % = 938 GPU-h at $0.0925 = $86.765 gross; 24 % fee.
    CHECK(rented.rental_income[0] == Approx(938 * 0.0925));
    CHECK(rented.rental_fees[0] == Approx(-938 * 0.0925 * 0.24));
    CHECK(rented.rental_income[0] + rented.rental_fees[0] == Approx(65.9414));  // the scenario's comment
    // Month 13: prices halve every 2.5 years: x 0.5^(1/2.5) = 0.757858.
    CHECK(rented.rental_income[12] == Approx(938 * 0.0925 * std::pow(0.5, 1 / 2.5)));
    // The owner pays the power of the rented hours: the rig renting draws far more than the rig alone.
    CHECK(c.options[1].energy_kwh > 3 * c.options[0].energy_kwh);
    // The rig alone has no rental line items.
    CHECK(c.cashflows[0].rental_income[0] == 0.0);
    // Wear: 2 % of the GPUs' resale per 1,000 rented hours per card.
    CHECK(rented.resale.back() < c.cashflows[0].resale.back());
}

TEST_CASE("rental income is taxed under the business perspective", "[markets][rental][tax]") {
    const Scenario s = load_scenario(PAYBACK_SOURCE_DIR "/scenarios/rtx3080-rental.toml",
                                     {{"scenario.perspective", "business"},
                                      {"tax", "{ income_tax_rate = 0.25, depreciation = \"none\", deduct_running_costs = false }"}});
    const Comparison c = compare(s);
    const CashFlows& rented = c.cashflows[1];
    // No deductions: the tax is 25 % of the rental income.
    CHECK(rented.tax[0] == Approx(-0.25 * rented.rental_income[0]));
}

TEST_CASE("an electricity region takes its price from the catalog, and its grid's carbon", "[markets][catalog]") {
    // EIA 2023: California 29.51 cents/kWh (pricing-facts §4.1).
    const Scenario s = hand({{"electricity", "{ region = \"US-CA\" }"}});
    CHECK(units::in_money_per_kwh(s.electricity_price) == Approx(0.2951));
    CHECK(s.tariff_kind == "region");
    CHECK(s.grid_region == "US-CA");
    CHECK(s.grid_co2_kg_per_kwh > 0);
    CHECK_THAT(to_toml(s), Catch::Contains("region = 'US-CA'  # 0.2951 per kWh, pricing/electricity-prices.csv:"));
    const Scenario again = parse_scenario(to_toml(s), PAYBACK_SOURCE_DIR "/hand.toml");
    CHECK(units::in_money_per_kwh(again.electricity_price) == Approx(0.2951));
    CHECK_THROWS_WITH(hand({{"electricity", "{ region = \"DE\" }"}}), Catch::Contains("priced in EUR"));
    CHECK_THROWS_WITH(hand({{"electricity", "{ region = \"US-CAL\" }"}}), Catch::Contains("electricity.region"));
}
