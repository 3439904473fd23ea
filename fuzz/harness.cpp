#include "harness.hpp"

#include <cmath>
#include <filesystem>
#include <map>
#include <sstream>

#include <fmt/format.h>

#include "base/csv_reader.hpp"
#include "payback/base/error.hpp"
#include "payback/base/text_file.hpp"
#include "payback/energy/tariff.hpp"
#include "payback/energy/urdb.hpp"
#include "payback/base/calendar.hpp"
#include "payback/market/catalog.hpp"
#include "payback/market/price_import.hpp"
#include "payback/model/comparison.hpp"
#include "payback/model/engine.hpp"
#include "payback/model/metrics.hpp"
#include "payback/model/model_inputs.hpp"
#include "payback/scenario/scenario.hpp"
#include "payback/workload/calibration.hpp"

namespace payback::fuzz {

namespace {

void require(bool holds, const std::string& what) {
    if (!holds) throw HarnessFailure(what);
}

// Sums of many terms agree to rounding: relative to the largest magnitude involved.
bool close(double a, double b, double scale) { return std::abs(a - b) <= 1e-9 * std::max({1.0, std::abs(scale)}); }

// Beside the shipped scenarios, so file names in a fuzzed scenario resolve as in theirs.
const std::string scenario_source = PAYBACK_SOURCE_DIR "/scenarios/fuzz.toml";
const std::string pricing = PAYBACK_SOURCE_DIR "/pricing";
const std::vector<std::string> catalog_files = {"gpus.csv",           "cloud-instances.csv",    "parts.csv",
                                                "electricity-prices.csv", "rental-markets.csv", "rental-discounts.csv",
                                                "grid-carbon.csv",    "cloud-regions.csv",      "used-gpu-prices.csv",
                                                "api-prices.csv"};

void check_comparison(const Scenario& s) {
    Comparison c;
    try {
        c = compare(s);
    } catch (const InputError&) {
        return;  // a check that needs the model (a job's calibration): still a clear message
    }
    require(c.cashflows.size() == c.options.size(), "one cash-flow table per option");
    for (std::size_t i = 0; i < c.options.size(); ++i) {
        const CashFlows& table = c.cashflows[i];
        const OptionResult& option = c.options[i];
        require(table.months() == static_cast<std::size_t>(s.horizon_months), fmt::format("{}: a row per month", option.name));
        double net = 0, discounted = 0, scale = 0;
        for (std::size_t m = 0; m < table.months(); ++m) {
            require(std::isfinite(table.net[m]) && std::isfinite(table.discounted[m]),
                    fmt::format("{}: month {} is not finite", option.name, m + 1));
            net += table.net[m];
            discounted += table.discounted[m];
            scale = std::max(scale, std::abs(table.cumulative[m]) + std::abs(table.net[m]));
        }
        require(close(-net, option.total_cost, scale * static_cast<double>(table.months())),
                fmt::format("{}: the months' net sums to {}, total_cost is {}", option.name, net, option.total_cost));
        require(close(-discounted, option.npv_cost, scale * static_cast<double>(table.months())),
                fmt::format("{}: the discounted months sum to {}, npv_cost is {}", option.name, discounted,
                            option.npv_cost));
    }
}

// Written and read back, a scenario costs the same; a second writing is the first, word for word
// (the first may differ: it notes which values came from a catalog, and read back they are typed in).
void check_round_trip(const Scenario& s) {
    const auto read_back = [](const std::string& text) {
        try {
            return parse_scenario(text, scenario_source);
        } catch (const InputError& e) {
            throw HarnessFailure(fmt::format("to_toml wrote a scenario parse_scenario rejects: {}\n{}", e.what(), text));
        }
    };
    const Scenario again = read_back(to_toml(s));
    const std::string written = to_toml(again);
    require(to_toml(read_back(written)) == written, fmt::format("to_toml(parse(w)) differs from w:\n{}", written));
    const Metrics<double> a = evaluate(model_inputs(s)), b = evaluate(model_inputs(again));
    const auto same = [&](double x, double y, const std::string& what) {
        require(close(x, y, std::abs(x)), fmt::format("{} is {} before writing and {} after", what, x, y));
    };
    same(a.rig.total_cost, b.rig.total_cost, "the rig's total cost");
    same(a.rig.npv_cost, b.rig.npv_cost, "the rig's NPV cost");
    require(a.clouds.size() == b.clouds.size(), "as many cloud options after writing");
    for (std::size_t c = 0; c < a.clouds.size(); ++c) {
        same(a.clouds[c].total_cost, b.clouds[c].total_cost, fmt::format("cloud {}'s total cost", c));
        same(a.clouds[c].npv_cost, b.clouds[c].npv_cost, fmt::format("cloud {}'s NPV cost", c));
    }
}

// The shipped catalog files cut to their first rows (gpus.csv whole: instances name its GPUs), so
// that each run spends its time on the file being fuzzed.
std::string first_rows(const std::string& text, int rows) {
    std::string out;
    std::size_t at = 0;
    int kept = -1;  // the header is not a row
    while (at < text.size() && kept < rows) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        const std::string_view line(text.data() + at, end - at);
        if (!line.empty() && line[0] != '#') ++kept;
        out.append(line);
        out += '\n';
        at = end + 1;
    }
    return out;
}

void import_format(const std::string& format, std::string_view data) {
    static const GpuAliases aliases = [] {
        const Catalog shipped = Catalog::load(pricing);
        std::vector<std::string> names;
        for (const GpuSpec& gpu : shipped.gpus()) names.push_back(gpu.name);
        return GpuAliases::load(pricing + "/gpu-aliases.csv", names);
    }();
    ImportResult result;
    try {
        result = import_prices(format, {{"fuzz.txt", std::string(data)}}, {"aws", "2026-01-01", ""}, aliases);
    } catch (const InputError&) {
        return;
    }
    const auto& columns = catalog_columns(result.catalog);
    const auto as_of = static_cast<std::size_t>(std::find(columns.begin(), columns.end(), "as_of") - columns.begin());
    for (const auto& row : result.rows) {
        require(row.size() == columns.size(), fmt::format("a row of {} cells for {} columns", row.size(), columns.size()));
        require(parse_date(row[as_of]).has_value(), "a row's as_of is not a date: " + row[as_of]);
    }
    try {
        require(detail::CsvTable::parse(to_csv(result), "written.csv").rows() == result.rows.size(),
                "the CSV written reads back as another number of rows");
    } catch (const InputError& e) {
        throw HarnessFailure(std::string("the CSV written does not read back: ") + e.what());
    }
}

}  // namespace

void import_skypilot(std::string_view data) { import_format("skypilot", data); }
void import_aws_ec2(std::string_view data) { import_format("aws-ec2", data); }
void import_azure_retail(std::string_view data) { import_format("azure-retail", data); }
void import_vast_offers(std::string_view data) { import_format("vast-offers", data); }
void import_litellm(std::string_view data) { import_format("litellm", data); }
void import_llm_prices(std::string_view data) { import_format("llm-prices", data); }
void import_silybench(std::string_view data) { import_format("silybench", data); }
void import_epoch(std::string_view data) { import_format("epoch", data); }

std::string import_seed_prefix(const std::string& target) {
    static const std::map<std::string, std::string> prefixes = {
        {"import_skypilot", "skypilot_"}, {"import_aws_ec2", "ec2instances_"}, {"import_azure_retail", "azure_"},
        {"import_vast_offers", "vastai_"}, {"import_litellm", "litellm_"},     {"import_llm_prices", "llm-prices_"},
        {"import_silybench", "silybench-"}, {"import_epoch", "epoch_"}};
    const auto at = prefixes.find(target);
    return at == prefixes.end() ? "" : at->second;
}

void scenario(std::string_view data) {
    std::string text(data);
    std::string set_lines;
    if (const auto at = text.find("\n--set\n"); at != std::string::npos) {
        set_lines = text.substr(at + 7);
        text.resize(at + 1);
    }
    Scenario s;
    try {
        std::vector<Override> overrides;
        std::istringstream lines(set_lines);
        for (std::string line; std::getline(lines, line);)
            if (!line.empty()) overrides.push_back(parse_override(line));
        s = parse_scenario(text, scenario_source, overrides);
    } catch (const InputError&) {
        return;
    }
    check_comparison(s);
    check_round_trip(s);
}

void catalog(std::string_view data) {
    if (data.empty()) return;
    const std::size_t pick = static_cast<unsigned char>(data[0]) % (catalog_files.size() + 1);
    const std::string text(data.substr(1));
    try {
        if (pick == catalog_files.size()) {
            const auto table = detail::CsvTable::parse(text, "fuzz.csv");
            for (std::size_t r = 0; r < table.rows(); ++r) {
                require(table.line_of(r) >= 1 && (r == 0 || table.line_of(r) > table.line_of(r - 1)),
                        "data rows start on increasing lines");
                for (const std::string& column : table.columns()) try {
                        require(std::isfinite(table.number(r, column)), "CsvTable::number returned a non-finite number");
                    } catch (const InputError&) {
                    }
            }
            return;
        }
        static const std::map<std::string, std::string> shipped = [] {
            std::map<std::string, std::string> texts;
            for (const std::string& name : catalog_files) {
                const std::string text = detail::read_text_file((std::filesystem::path(pricing) / name).string());
                texts[name] = name == "gpus.csv" ? text : first_rows(text, 3);
            }
            return texts;
        }();
        const Catalog c = Catalog::parse(pricing, [&](const std::string& name) {
            return name == catalog_files[pick] ? text : shipped.at(name);
        });
        for (const GpuSpec& gpu : c.gpus()) require(c.gpu(gpu.name).name == gpu.name, "a loaded GPU is found by name");
        for (const PartSpec& part : c.parts()) require(c.part(part.name).name == part.name, "a loaded part is found");
        for (const CloudInstance& i : c.instances())
            require(c.instance(i.key(), i.region).region == i.region, "a loaded instance is found in its region");
        for (const GridIntensity& g : c.grid_carbon().rows())
            require(c.grid_carbon().find(g.region).region == g.region, "a loaded grid is found by region");
        for (const CloudRegion& r : c.cloud_regions().rows())
            require(&c.cloud_regions().find(r.provider, r.region) == &r, "a loaded cloud region is found");
        for (const PriceSchedule& s : c.used_prices().schedules())
            require(&c.used_prices().schedule(s.item) == &s && !s.points.empty(), "a loaded item has its prices");
        for (const ApiPriceRow& a : c.api_prices()) require(&c.api_price(a.key()) == &a, "a loaded API row is found");
    } catch (const InputError&) {
    }
}

void urdb(std::string_view data) {
    Tariff tariff;
    try {
        tariff = parse_urdb_tariff(data, "fuzz.json");
    } catch (const InputError&) {
        return;
    }
    // An accepted tariff has no negative rate: 100 kWh spread like the hours cost something finite.
    for (int month = 1; month <= 12; ++month) {
        std::vector<double> kwh = period_hour_shares(tariff, month);
        double share_sum = 0;
        for (double& k : kwh) {
            share_sum += k;
            k *= 100.0;
        }
        require(close(share_sum, 1.0, 1.0), fmt::format("month {}: period shares sum to {}", month, share_sum));
        const double cost = bill(tariff, kwh);
        require(std::isfinite(cost) && cost >= 0, fmt::format("month {}: bill {} for 100 kWh", month, cost));
        require(std::isfinite(incremental_bill(tariff, month, kwh)), "the rig's share of the bill is finite");
    }
}

void calibration(std::string_view data) {
    CalibrationProfile profile;
    try {
        profile = parse_profile(std::string(data), "fuzz.json");
    } catch (const InputError&) {
        return;
    }
    const std::string written = to_json(profile);
    CalibrationProfile again;
    try {
        again = parse_profile(written, "written.json");
    } catch (const InputError& e) {
        throw HarnessFailure(fmt::format("to_json wrote a profile parse_profile rejects: {}\n{}", e.what(), written));
    }
    require(to_json(again) == written, fmt::format("to_json(parse(to_json(p))) differs from to_json(p):\n{}", written));
}

const std::vector<Target>& targets() {
    static const std::vector<Target> all = {
        {"scenario", scenario},
        {"catalog", catalog},
        {"urdb", urdb},
        {"calibration", calibration},
        {"import_skypilot", import_skypilot},
        {"import_aws_ec2", import_aws_ec2},
        {"import_azure_retail", import_azure_retail},
        {"import_vast_offers", import_vast_offers},
        {"import_litellm", import_litellm},
        {"import_llm_prices", import_llm_prices},
        {"import_silybench", import_silybench},
        {"import_epoch", import_epoch}};
    return all;
}

}  // namespace payback::fuzz
