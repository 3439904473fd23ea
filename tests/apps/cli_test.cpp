#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The arithmetic of the Dettmers scenario (scenarios/dettmers-3090.toml): 15 % of a 730-hour
// month, a $2,200 desktop drawing 350 W + 100 W while training at $0.12/kWh, switched off
// otherwise, against an AWS V100 at $2.14/h, over 36 months with no discounting or resale.
constexpr double hours = 0.15 * 730.0;                      // 109.5 GPU-hours a month
constexpr double rig_price = 2200.0;
constexpr double energy_per_month = 0.45 * hours * 0.12;   // kW x h x $/kWh = $5.913
constexpr double cloud_per_month = 2.14 * hours;           // $234.33

using payback::test::TempDir;
using payback::test::read_file;
using payback::test::write_file;
using payback::test::lines_of;
using payback::test::quote;
using payback::test::run;
using payback::test::Result;
using payback::test::check_bad_input;


// One CSV line's cells (RFC 4180 quoting; no newlines inside cells in our output).
std::vector<std::string> split_csv(const std::string& line) {
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
            cells.back() += '"';
            ++i;
        } else if (c == '"') {
            quoted = !quoted;
        } else if (c == ',' && !quoted) {
            cells.emplace_back();
        } else {
            cells.back() += c;
        }
    }
    return cells;
}

// CSV rows by column name, read through the header.
class CsvRows {
public:
    explicit CsvRows(const std::vector<std::string>& lines) : header_(split_csv(lines.at(0))) {
        for (std::size_t i = 1; i < lines.size(); ++i) {
            rows_.push_back(split_csv(lines[i]));
            REQUIRE(rows_.back().size() == header_.size());
        }
    }
    const std::vector<std::string>& header() const { return header_; }
    std::size_t size() const { return rows_.size(); }
    const std::string& cell(std::size_t row, const std::string& column) const {
        const auto at = std::find(header_.begin(), header_.end(), column);
        REQUIRE(at != header_.end());
        return rows_.at(row).at(static_cast<std::size_t>(at - header_.begin()));
    }
    double number(std::size_t row, const std::string& column) const { return std::stod(cell(row, column)); }

private:
    std::vector<std::string> header_;
    std::vector<std::vector<std::string>> rows_;
};


// The 1-based line of `needle` in `text`.
int line_of(const std::string& text, const std::string& needle) {
    const auto at = text.find(needle);
    REQUIRE(at != std::string::npos);
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

const std::string dettmers = "scenarios/dettmers-3090.toml";

json compare_json(const std::string& extra = "") {
    const Result r = run("compare " + dettmers + " --json " + extra);
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    return json::parse(r.out);
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// compare

TEST_CASE("compare --json has the documented shape", "[cli]") {
    const json j = compare_json();
    CHECK(j.at("scenario") == "Dettmers: RTX 3090 desktop vs AWS V100");
    CHECK(j.at("horizon_months") == 36);
    const json& options = j.at("options");
    REQUIRE(options.size() == 2);
    CHECK(options[0].at("kind") == "diy");
    CHECK(options[0].at("name") == "RTX 3090 desktop");
    CHECK(options[1].at("kind") == "cloud");
    CHECK(options[1].at("name") == "AWS V100 on-demand (2020)");
    for (const json& option : options) {
        CHECK(option.at("total_cost").is_number());
        CHECK(option.at("monthly_net").size() == 36);
    }
    REQUIRE(j.at("versus").size() == 1);
    const json& versus = j.at("versus")[0];
    CHECK(versus.at("cloud") == "AWS V100 on-demand (2020)");
    for (const char* key : {"payback_months", "payback_months_if_sold", "discounted_payback_months", "npv_savings",
                            "roi", "irr", "optimal_sale_month", "optimal_sale_npv_savings",
                            "breakeven_gpu_hours_per_month"}) {
        INFO("versus[0]." << key);
        CHECK(versus.at(key).is_number());
    }
    CHECK(versus.at("irr_status") == "ok");
    CHECK(versus.at("irr_roots").size() == 1);
    for (const json& option : options)
        for (const char* key : {"npv", "npv_cost", "levelized_cost_per_gpu_hour"}) CHECK(option.at(key).is_number());
    CHECK(j.at("perspective") == "hobbyist");
}

TEST_CASE("compare --json: Dettmers' IRR, ROI and levelized cost by hand", "[cli]") {
    const json j = compare_json();
    const json& versus = j.at("versus")[0];
    // -2200 now, then +228.417 a month for 36 months: the monthly rate r where the annuity is
    // worth 2200; its annual form is (1 + r)^12 - 1.
    const double r = std::pow(1.0 + versus.at("irr").get<double>(), 1.0 / 12.0) - 1.0;
    const double saving = cloud_per_month - energy_per_month;
    CHECK(saving * (1.0 - std::pow(1.0 + r, -36)) / r == Approx(rig_price).epsilon(1e-9));
    // ROI: 36 x 228.417 - 2200 = 6023.0 over 2200 = 2.738.
    CHECK(versus.at("roi").get<double>() == Approx((36 * saving - rig_price) / rig_price).epsilon(1e-9));
    // At 0 % the levelized cost is the cost per GPU-hour.
    const json& rig = j.at("options")[0];
    CHECK(rig.at("levelized_cost_per_gpu_hour").get<double>() ==
          Approx(rig.at("cost_per_gpu_hour").get<double>()).epsilon(1e-12));
    CHECK(rig.at("npv").get<double>() == Approx(-rig.at("npv_cost").get<double>()));
    CHECK(versus.at("optimal_sale_month") == 36);  // no resale: keep saving to the end
}

TEST_CASE("compare --json reports the rig as hardware", "[cli][hardware]") {
    const Result r = run("compare " + quote(std::string(PAYBACK_SOURCE_DIR "/scenarios/venus-2019.toml")) + " --json");
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    const json& rig = j.at("options")[0];
    for (const char* key : {"peak_wall_watts", "circuit_load_fraction", "energy_kwh_per_month", "co2_kg_total"}) {
        INFO(key);
        CHECK(rig.at(key).is_number());
        CHECK(rig.at(key).get<double>() > 0);
    }
    CHECK(rig.at("circuit_load_fraction").get<double>() ==
          Approx(rig.at("peak_wall_watts").get<double>() / 1440.0));  // 120 V x 15 A x 80 %
    // One flat period: all the energy is in it.
    CHECK(rig.at("energy_kwh_by_period").at("all hours").get<double>() == Approx(rig.at("energy_kwh").get<double>()));
    CHECK(j.at("options")[1].at("energy_kwh_by_period").empty());
    CHECK(j.at("options")[1].at("co2_kg_total").get<double>() > 0);  // AWS us-east-1, 300 W, PUE 1.15
    const json& hardware = j.at("rig");
    CHECK(hardware.at("circuit").at("over") == false);
    CHECK(hardware.at("heat_btu_per_hour").at("training").get<double>() ==
          Approx(hardware.at("heat_watts").at("training").get<double>() * 3.412141633));
    CHECK(hardware.at("gpus") == 1);
}

TEST_CASE("catalog lists and filters; --json gives the rows with their sources", "[cli][catalog]") {
    const Result r = run("catalog instances --provider aws --gpu " + quote("V100 16GB") + " --json");
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const json rows = json::parse(r.out);
    REQUIRE_FALSE(rows.empty());
    for (const json& row : rows) {
        CHECK_THAT(row.at("instance").get<std::string>(), Catch::StartsWith("aws:"));
        CHECK(row.at("gpu") == "V100 16GB");
        CHECK_FALSE(row.at("source").get<std::string>().empty());
    }
    const Result text = run("catalog gpus --max-price 800");
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Catch::Contains("RTX 3080 10GB"));
    CHECK_THAT(text.out, !Catch::Contains("RTX 3090 "));  // $1,499
    check_bad_input(run("catalog dragons"));
}

TEST_CASE("compare --cloud ranks every matching instance by cost per hour of work", "[cli][catalog]") {
    const Result r = run("compare scenarios/rtx3080-rental.toml --cloud " + quote("provider==aws,gpu_memory_gb>=40") +
                         " --json");
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    double previous = 0;
    int clouds = 0;
    for (const json& option : j.at("options")) {
        if (option.at("kind") != "cloud") continue;
        ++clouds;
        CHECK_THAT(option.at("name").get<std::string>(), Catch::StartsWith("aws:"));
        const double price = option.at("billing").at("effective_price_per_work_hour").get<double>();
        CHECK(price >= previous);
        previous = price;
    }
    CHECK(clouds >= 3);
    const Result bad = run("compare scenarios/rtx3080-rental.toml --cloud " + quote("gpu_ram>=40"));
    check_bad_input(bad);
    CHECK_THAT(bad.err, Catch::Contains("--cloud"));
}

// ---------------------------------------------------------------------------------------------
// breakeven

TEST_CASE("breakeven --json solves for any numeric key", "[cli][breakeven]") {
    const Result r = run("breakeven " + dettmers + " --for cloud[0].price_per_hour --json");
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    CHECK(j.at("key") == "cloud[0].price_per_hour");
    CHECK(j.at("metric") == "npv_savings");
    CHECK(j.at("against") == "AWS V100 on-demand (2020)");
    CHECK(j.at("range")[0].get<double>() == 0.0);
    CHECK(j.at("range")[1].get<double>() == Approx(21.4).epsilon(1e-15));  // 0 to 10 x $2.14
    CHECK(j.at("current").get<double>() == 2.14);
    // 36 x 109.5 h x c = 2200 + 212.868: c = $0.6121 an hour.
    CHECK(j.at("value").get<double>() == Approx((rig_price + 36 * energy_per_month) / (36 * hours)).epsilon(1e-9));
    CHECK_THAT(j.at("message").get<std::string>(), Catch::Contains("building wins above it"));
}

TEST_CASE("breakeven with no root in the range: value null and a sentence", "[cli][breakeven]") {
    const Result json_run = run("breakeven " + dettmers + " --for electricity.price_per_kwh --range 0:0.5 --json");
    REQUIRE(json_run.code == 0);
    const json j = json::parse(json_run.out);
    CHECK(j.at("value").is_null());
    CHECK(j.at("range") == json::array({0.0, 0.5}));
    Result text = run("breakeven " + dettmers + " --for electricity.price_per_kwh --range 0:0.5");
    REQUIRE(text.code == 0);
    std::replace(text.out.begin(), text.out.end(), '\n', ' ');  // the sentence is wrapped at 80 columns
    CHECK_THAT(text.out, Catch::StartsWith("No break-even for electricity.price_per_kwh between 0 and 0.5: "
                                           "building beats AWS V100 on-demand (2020)"));
}

TEST_CASE("breakeven's bad input exits 2 naming what is wrong", "[cli][breakeven]") {
    const Result unknown = run("breakeven " + dettmers + " --for electricity.pric_per_kwh");
    check_bad_input(unknown);
    CHECK_THAT(unknown.err, Catch::Contains("did you mean electricity.price_per_kwh?"));
    const Result range = run("breakeven " + dettmers + " --for electricity.price_per_kwh --range 0.1-0.5");
    check_bad_input(range);
    CHECK_THAT(range.err, Catch::Contains("--range"));
    check_bad_input(run("breakeven " + dettmers));  // --for is required
    check_bad_input(run("breakeven " + dettmers + " --for rig.psu_efficiency --range 0:2"));
}

TEST_CASE("compare reproduces Dettmers' published break-even", "[cli]") {
    const json j = compare_json();
    const json& rig = j.at("options")[0];
    const json& cloud = j.at("options")[1];
    const json& versus = j.at("versus")[0];

    // The rig's cost falls behind the cloud's by 2.14*109.5 - 0.45*109.5*0.12 = 234.33 - 5.913
    // = $228.417 a month, so the $2,200 is back after 2200 / 228.417 = 9.6316 months.
    const double payback = rig_price / (cloud_per_month - energy_per_month);
    CHECK(versus.at("payback_months").get<double>() == Approx(payback).epsilon(1e-6));
    CHECK(versus.at("payback_months_if_sold").get<double>() == Approx(payback).epsilon(1e-6));  // no resale
    CHECK(versus.at("discounted_payback_months").get<double>() == Approx(payback).epsilon(1e-6));  // at 0 %

    // 9.6316 months x 730/24 days a month = 293 days: the published "about 300 days".
    const double days = versus.at("payback_months").get<double>() * 730.0 / 24.0;
    CHECK(days == Approx(293.0).margin(0.5));

    // Rig: 2200 + 36 x 0.45 kW x 109.5 h x $0.12 = 2200 + 212.868 = $2,412.868; cloud: 36 x 234.33.
    CHECK(rig.at("total_cost").get<double>() == Approx(rig_price + 36 * energy_per_month).epsilon(1e-9));
    CHECK(cloud.at("total_cost").get<double>() == Approx(36 * cloud_per_month).epsilon(1e-9));
    CHECK(rig.at("energy_kwh").get<double>() == Approx(36 * 0.45 * hours).epsilon(1e-9));  // 1,773.9 kWh
    CHECK(rig.at("cost_per_gpu_hour").get<double>() ==
          Approx((rig_price + 36 * energy_per_month) / (36 * hours)).epsilon(1e-9));
    CHECK(cloud.at("cost_per_gpu_hour").get<double>() == Approx(2.14).epsilon(1e-9));

    // No discounting: NPV savings are the difference of the totals.
    CHECK(versus.at("npv_savings").get<double>() ==
          Approx(36 * cloud_per_month - rig_price - 36 * energy_per_month).epsilon(1e-9));
    // Break-even hours h: 36 h (2.14 - 0.45 x 0.12) = 2200, h = 29.296 GPU-hours a month.
    CHECK(versus.at("breakeven_gpu_hours_per_month").get<double>() ==
          Approx(rig_price / (36 * (2.14 - 0.45 * 0.12))).epsilon(1e-6));

    // Month 1 carries the purchase; every month after, the rig costs only its electricity.
    CHECK(rig.at("monthly_net")[0].get<double>() == Approx(-(rig_price + energy_per_month)));
    CHECK(rig.at("monthly_net")[35].get<double>() == Approx(-energy_per_month));
    CHECK(cloud.at("monthly_net")[17].get<double>() == Approx(-cloud_per_month));
}

TEST_CASE("compare with no training has no payback and no cost per GPU-hour", "[cli]") {
    const json j = compare_json("--set workload.gpu_hours_per_month=0");
    const json& versus = j.at("versus")[0];
    CHECK(versus.at("payback_months").is_null());
    CHECK(versus.at("payback_months_if_sold").is_null());
    CHECK(versus.at("npv_savings").get<double>() == Approx(-rig_price));  // bought, never used
    for (const json& option : j.at("options")) {
        INFO("option " << option.at("name"));
        CHECK(option.at("cost_per_gpu_hour").is_null());
    }
    CHECK(j.at("options")[1].at("total_cost").get<double>() == 0.0);
}

TEST_CASE("compare without a scenario runs the default, Venus", "[cli]") {
    const Result r = run("compare");
    INFO("stderr: " << r.err);
    CHECK(r.code == 0);
    CHECK_THAT(r.out, Catch::StartsWith("Venus (2019): 36 months"));
    CHECK_THAT(r.out, Catch::Contains("AWS p3.2xlarge (V100) on-demand"));
    CHECK(r.err.empty());
}

TEST_CASE("compare --csv prints a header and one row per option", "[cli]") {
    const Result r = run("compare " + dettmers + " --csv");
    REQUIRE(r.code == 0);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 3);
    CHECK(lines[0] ==
          "name,kind,total_cost,npv_cost,npv,cost_per_gpu_hour,levelized_cost_per_gpu_hour,energy_kwh,"
          "payback_months,payback_months_if_sold,discounted_payback_months,npv_savings,roi,irr,irr_status,"
          "irr_roots,optimal_sale_month,optimal_sale_npv_savings,breakeven_gpu_hours_per_month,"
          "cost_per_run,cost_per_epoch,cost_per_million_samples,kwh_per_run");
    const CsvRows csv(lines);
    CHECK(csv.cell(0, "name") == "RTX 3090 desktop");
    CHECK(csv.cell(0, "kind") == "diy");
    CHECK(csv.number(0, "total_cost") == Approx(rig_price + 36 * energy_per_month));
    CHECK(csv.cell(0, "payback_months").empty());  // the rig against itself: no cell
    CHECK(csv.cell(1, "name") == "AWS V100 on-demand (2020)");
    CHECK(csv.cell(1, "kind") == "cloud");
    CHECK(csv.number(1, "payback_months") == Approx(rig_price / (cloud_per_month - energy_per_month)));
    CHECK(csv.cell(1, "irr_status") == "ok");
}

// ---------------------------------------------------------------------------------------------
// cashflow

TEST_CASE("cashflow --csv prints the rig's 36 months", "[cli]") {
    const Result r = run("cashflow " + dettmers + " --csv");
    REQUIRE(r.code == 0);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 37);
    CHECK_THAT(lines[0], Catch::StartsWith("month,capex,energy,maintenance,repair,cloud,storage,rental_income,"
                                           "rental_fees,resale,loan_proceeds,loan_interest,loan_principal,tax,"
                                           "net,cumulative,discounted,cumulative_discounted,energy_kwh,"
                                           "asset_value,work_hours,tax_on_sale,tax_on_interest,\"capex:RTX 3090"));
    const CsvRows csv(lines);
    CHECK(csv.cell(0, "month") == "1");
    CHECK(csv.number(0, "capex") == -2200.0);
    CHECK(csv.number(0, "capex:RTX 3090 (in a 2-GPU barebone, as published)") == -2200.0);
    CHECK(csv.number(0, "energy") == Approx(-energy_per_month));
    CHECK(csv.number(0, "energy_kwh") == Approx(0.45 * hours));  // kWh in the month: 49.275
    CHECK(csv.number(0, "work_hours") == Approx(hours));
    CHECK(csv.cell(1, "capex") == "0");  // no negative zeros
    CHECK(csv.cell(35, "month") == "36");
    CHECK(csv.number(35, "cumulative") == Approx(-(rig_price + 36 * energy_per_month)));  // -total cost
}

TEST_CASE("cashflow --option picks a cloud option by name", "[cli]") {
    const Result r = run("cashflow " + dettmers + " --option " + quote("AWS V100 on-demand (2020)") + " --csv");
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const auto lines = lines_of(r.out);
    REQUIRE(lines.size() == 37);
    const CsvRows csv(lines);
    CHECK(csv.header().back() == "tax_on_interest");  // no parts, so no per-part capex columns
    CHECK(csv.number(0, "capex") == 0.0);  // no capex for a cloud option
    CHECK(csv.number(0, "cloud") == Approx(-cloud_per_month));
    CHECK(csv.number(35, "cumulative") == Approx(-36 * cloud_per_month));
}

TEST_CASE("cashflow with an unknown --option exits 2 listing the options", "[cli]") {
    const Result r = run("cashflow " + dettmers + " --option 'Azure'");
    check_bad_input(r);
    CHECK_THAT(r.err, Catch::Contains("no option named \"Azure\""));
    CHECK_THAT(r.err, Catch::Contains("\"AWS V100 on-demand (2020)\""));
}

// ---------------------------------------------------------------------------------------------
// check

TEST_CASE("check prints the scenario resolved, and its output checks again", "[cli]") {
    const Result first = run("check scenarios/venus-2019.toml");
    INFO("stderr: " << first.err);
    REQUIRE(first.code == 0);
    CHECK_THAT(first.out, Catch::StartsWith("# scenarios/venus-2019.toml: valid\n"));
    // venus-2019.toml never writes a part's count; the resolved scenario does.
    CHECK(std::regex_search(first.out, std::regex(R"(\ncount\s*=\s*1\n)")));
    // Each value with its unit from the key table: the Threadripper's price, its idle draw.
    CHECK_THAT(first.out, Catch::Contains("\nprice = 250.0  # USD\n"));
    CHECK_THAT(first.out, Catch::Contains("\nidle_watts = 32.0  # W\n"));
    CHECK_THAT(first.out, Catch::Contains("\nhorizon_months = 36  # months\n"));

    TempDir dir;
    const fs::path resolved = dir.path() / "resolved.toml";
    write_file(resolved, first.out);
    const Result second = run("check " + quote(resolved.string()));
    INFO("second stderr: " << second.err);
    REQUIRE(second.code == 0);
    CHECK_THAT(second.out, Catch::StartsWith("# " + resolved.string() + ": valid\n"));
    // Past the header line the two are identical: nothing is lost or changed by the round trip.
    CHECK(second.out.substr(second.out.find('\n')) == first.out.substr(first.out.find('\n')));
}

TEST_CASE("check --json gives every resolved value with its unit and source", "[cli]") {
    const std::string path = "scenarios/rtx3080-rental.toml";
    const Result r = run("check " + path + " --json --set electricity.price_per_kwh=0.3");
    INFO("stderr: " << r.err);
    REQUIRE(r.code == 0);
    const json out = json::parse(r.out);
    CHECK(out["scenario"] == path);
    CHECK(out["valid"] == true);
    std::map<std::string, json> by_key;
    for (const json& v : out["values"]) by_key[v["key"].get<std::string>()] = v;
    // One of each kind of source: --set, the file's line, a catalog row with its date, the default.
    CHECK(by_key["electricity.price_per_kwh"]["source"] == "--set");
    CHECK(by_key["electricity.price_per_kwh"]["value"] == "0.3");
    CHECK(by_key["electricity.price_per_kwh"]["unit"] == "USD/kWh");
    CHECK(by_key["cloud[0].name"]["source"] == path + ":70");
    CHECK(by_key["cloud[0].name"]["value"] == "Lambda 1x A100 40 GB");
    CHECK_THAT(by_key["cloud[0].price_per_hour"]["source"].get<std::string>(),
               Catch::StartsWith("pricing/cloud-instances.csv:") && Catch::Contains("as of"));
    CHECK(by_key["scenario.inflation"]["source"] == "default");
    CHECK(by_key["scenario.inflation"]["unit"] == "/yr");
    // Every value cited by line is on that line of the file: "name =" of its key's last name.
    const std::vector<std::string> file = lines_of(read_file(fs::path(PAYBACK_SOURCE_DIR) / path));
    int cited = 0;
    for (const auto& [key, v] : by_key) {
        const std::string source = v["source"];
        if (source.rfind(path + ":", 0) != 0) continue;
        const std::size_t line = std::stoul(source.substr(path.size() + 1));
        const std::string name = key.substr(key.find_last_of('.') + 1);
        INFO(key << " cited at " << source);
        REQUIRE(line <= file.size());
        CHECK_THAT(file[line - 1], Catch::Contains(name + " ="));
        ++cited;
    }
    CHECK(cited > 10);
    // --format json is the same; the table is still the default.
    CHECK(run("check " + path + " --format json --set electricity.price_per_kwh=0.3").out == r.out);
    CHECK_THAT(run("check " + path).out, Catch::StartsWith("# " + path + ": valid\n"));
}

// ---------------------------------------------------------------------------------------------
// Bad input: exit 2, one line on stderr naming the file, line and key, nothing on stdout

TEST_CASE("a bad value in a scenario file exits 2 naming file, line and key", "[cli]") {
    TempDir dir;
    const fs::path path = dir.path() / "bad.toml";
    const std::string text = [] {
        std::string t = read_file(fs::path(PAYBACK_SOURCE_DIR) / dettmers);
        const auto at = t.find("price = 0\n");
        REQUIRE(at != std::string::npos);
        return t.replace(at, 9, "price = -120");
    }();
    write_file(path, text);
    for (const char* command : {"compare", "cashflow", "check"}) {
        INFO("payback " << command);
        const Result r = run(std::string(command) + " " + quote(path.string()));
        check_bad_input(r);
        CHECK(r.err == "payback: " + path.string() + ":" + std::to_string(line_of(text, "price = -120")) +
                           ": rig.parts[1].price: must be >= 0, got -120\n");
    }
}

TEST_CASE("a TOML syntax error exits 2 naming file and line", "[cli]") {
    TempDir dir;
    const fs::path path = dir.path() / "syntax.toml";
    write_file(path, "[workload]\ngpu_hours_per_month = 100\n[rig\n");
    const Result r = run("check " + quote(path.string()));
    check_bad_input(r);
    CHECK_THAT(r.err, Catch::StartsWith("payback: " + path.string() + ":3: syntax error"));
}

TEST_CASE("a missing scenario file exits 2 naming it", "[cli]") {
    const Result r = run("compare no/such.toml");
    check_bad_input(r);
    CHECK(r.err == "payback: no/such.toml: no such scenario file\n");
}

TEST_CASE("a bad --set exits 2 naming the override and key", "[cli]") {
    SECTION("a negative price") {
        const Result r = run("compare " + dettmers + " --set 'rig.parts[0].price=-5'");
        check_bad_input(r);
        CHECK(r.err == "payback: --set rig.parts[0].price=-5: rig.parts[0].price: must be >= 0, got -5\n");
    }
    SECTION("no '='") {
        const Result r = run("compare " + dettmers + " --set novalue");
        check_bad_input(r);
        CHECK_THAT(r.err, Catch::StartsWith("payback: --set novalue: expected key.path=value"));
    }
    SECTION("an index past the end") {
        const Result r = run("check " + dettmers + " --set 'rig.parts[9].price=1'");
        check_bad_input(r);
        CHECK_THAT(r.err, Catch::Contains("rig.parts[9]: no such element"));
    }
}

TEST_CASE("an unknown subcommand or flag exits 2", "[cli]") {
    for (const char* args : {"frobnicate", "compare --frobnicate", "compare --json --csv", ""}) {
        INFO("payback " << args);
        check_bad_input(run(args));
    }
    const Result r = run("compare --frobnicate");
    CHECK_THAT(r.err, Catch::Contains("--frobnicate"));
    CHECK_THAT(run("frobnicate").err, Catch::Contains("unknown command \"frobnicate\""));
}

TEST_CASE("a mistyped command gets the one it was likely meant to be", "[cli]") {
    // One letter too many, one dropped, two swapped: each within closest_match's reach.
    for (const auto& [typed, meant] : {std::pair{"comparee", "compare"}, std::pair{"chek", "check"},
                                       std::pair{"cashfolw", "cashflow"}}) {
        INFO("payback " << typed);
        const Result r = run(typed);
        check_bad_input(r);
        CHECK(r.err == std::string("payback: unknown command \"") + typed + "\"; did you mean \"" + meant + "\"?\n");
    }
    // Nothing close: the list of commands instead, still one line.
    const Result r = run("frobnicate");
    CHECK_THAT(r.err, Catch::Contains("the commands are compare, explain,"));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

TEST_CASE("--help exits 0 and lists the subcommands", "[cli]") {
    const Result r = run("--help");
    CHECK(r.code == 0);
    for (const char* command : {"compare", "cashflow", "check", "breakeven"}) CHECK_THAT(r.out, Catch::Contains(command));
    CHECK(r.err.empty());
}
