// payback catalog gpus|instances|parts|rates|rental [--gpu NAME] [--provider NAME] [--max-price X] [--json]
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "command_common.hpp"
#include "commands.hpp"
#include "payback/catalog.hpp"
#include "payback/error.hpp"

namespace payback::cli {

namespace {

struct CatalogArgs {
    std::string what;
    std::string gpu;
    std::string provider;
    double max_price = -1;  ///< negative: no limit
    bool json = false;
};

nlohmann::json optional_number(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

bool matches(const std::string& wanted, const std::string& value) { return wanted.empty() || wanted == value; }
bool under(double max_price, const std::optional<double>& price) { return max_price < 0 || (price && *price <= max_price); }

std::string cell(const std::optional<double>& v, int decimals = 2) { return v ? amount(*v, decimals) : "-"; }

void list_gpus(const Catalog& c, const CatalogArgs& a, std::string& text, nlohmann::json& json) {
    text += fmt::format("{:<22} {:>10} {:>6} {:>7} {:>9} {:>9}  {}\n", "gpu", "launch $", "watts", "GB", "FP32 TF",
                        "RN50 img/s", "row");
    for (const GpuSpec& g : c.gpus()) {
        if (!matches(a.gpu, g.name) || !under(a.max_price, g.launch_price_usd)) continue;
        text += fmt::format("{:<22} {:>10} {:>6} {:>7} {:>9} {:>9}  {}\n", g.name, cell(g.launch_price_usd, 0),
                            cell(g.board_power_watts, 0), cell(g.memory_gb, 0), cell(g.fp32_tflops, 1),
                            cell(g.resnet50_amp_img_s, 0), g.origin.describe());
        json.push_back({{"name", g.name}, {"launch_price_usd", optional_number(g.launch_price_usd)},
                        {"board_power_watts", optional_number(g.board_power_watts)},
                        {"memory_gb", optional_number(g.memory_gb)}, {"fp32_tflops", optional_number(g.fp32_tflops)},
                        {"resnet50_amp_img_s", optional_number(g.resnet50_amp_img_s)}, {"as_of", g.origin.as_of},
                        {"source", g.origin.source}});
    }
}

void list_instances(const Catalog& c, const CatalogArgs& a, std::string& text, nlohmann::json& json) {
    text += fmt::format("{:<34} {:<14} {:<18} {:>2} {:>9} {:>9}  {}\n", "instance", "region", "gpu", "n", "on-demand",
                        "spot", "row");
    for (const CloudInstance& i : c.instances()) {
        if (!matches(a.gpu, i.gpu) || !matches(a.provider, i.provider) || !under(a.max_price, i.on_demand_per_hour))
            continue;
        text += fmt::format("{:<34} {:<14} {:<18} {:>2} {:>9} {:>9}  {}\n", i.key(), i.region, i.gpu, i.gpu_count,
                            cell(i.on_demand_per_hour, 3), cell(i.spot_per_hour, 3), i.origin.describe());
        json.push_back({{"instance", i.key()}, {"region", i.region}, {"gpu", i.gpu}, {"gpu_count", i.gpu_count},
                        {"gpu_memory_gb", optional_number(i.gpu_memory_gb)},
                        {"on_demand_per_hour", optional_number(i.on_demand_per_hour)},
                        {"spot_per_hour", optional_number(i.spot_per_hour)},
                        {"reserved_1y_per_hour", optional_number(i.reserved_1y_per_hour)},
                        {"reserved_3y_per_hour", optional_number(i.reserved_3y_per_hour)}, {"currency", i.currency},
                        {"as_of", i.origin.as_of}, {"source", i.origin.source}});
    }
}

void list_parts(const Catalog& c, const CatalogArgs& a, std::string& text, nlohmann::json& json) {
    text += fmt::format("{:<12} {:<48} {:>9} {:>6}  {}\n", "kind", "part", "price $", "watts", "row");
    for (const PartSpec& p : c.parts()) {
        if (!under(a.max_price, p.price_usd)) continue;
        text += fmt::format("{:<12} {:<48} {:>9} {:>6}  {}\n", p.kind, p.name, cell(p.price_usd, 2), cell(p.load_watts, 0),
                            p.origin.describe());
        json.push_back({{"kind", p.kind}, {"name", p.name}, {"price_usd", optional_number(p.price_usd)},
                        {"load_watts", optional_number(p.load_watts)}, {"as_of", p.origin.as_of},
                        {"source", p.origin.source}});
    }
}

void list_rates(const Catalog& c, const CatalogArgs& a, std::string& text, nlohmann::json& json) {
    text += fmt::format("{:<8} {:<24} {:>8} {:<4} {:>5}  {}\n", "region", "name", "per kWh", "cur", "year", "row");
    for (const ElectricityRate& r : c.rates()) {
        if (!under(a.max_price, r.price_per_kwh)) continue;
        text += fmt::format("{:<8} {:<24} {:>8.4f} {:<4} {:>5}  {}\n", r.region, r.name, r.price_per_kwh, r.currency, r.year,
                            r.origin.describe());
        json.push_back({{"region", r.region}, {"name", r.name}, {"price_per_kwh", r.price_per_kwh},
                        {"currency", r.currency}, {"year", r.year}, {"as_of", r.origin.as_of},
                        {"source", r.origin.source}});
    }
}

void list_rental(const Catalog& c, const CatalogArgs& a, std::string& text, nlohmann::json& json) {
    text += fmt::format("{:<12} {:<16} {:>9} {:>6} {:>10}  {}\n", "market", "gpu", "price/h", "fee", "occupancy", "row");
    for (const RentalMarket& m : c.rental_markets()) {
        if (!matches(a.gpu, m.gpu) || !matches(a.provider, m.market) || !under(a.max_price, m.host_price_per_hour)) continue;
        text += fmt::format("{:<12} {:<16} {:>9} {:>6} {:>10}  {}\n", m.market, m.gpu, cell(m.host_price_per_hour, 4),
                            cell(m.platform_fee, 2),
                            cell(m.occupancy, 2) + (m.occupancy_is_assumption ? "*" : ""), m.origin.describe());
        json.push_back({{"market", m.market}, {"gpu", m.gpu}, {"host_price_per_hour", optional_number(m.host_price_per_hour)},
                        {"platform_fee", optional_number(m.platform_fee)}, {"occupancy", optional_number(m.occupancy)},
                        {"occupancy_is_assumption", m.occupancy_is_assumption}, {"as_of", m.origin.as_of},
                        {"source", m.origin.source}});
    }
    text += "* occupancy is an assumption: no measurement exists (pricing/README.md)\n";
}

}  // namespace

void add_catalog_command(CLI::App& app) {
    auto args = std::make_shared<CatalogArgs>();
    CLI::App* command = app.add_subcommand("catalog", "List the price catalogs in pricing/, filtered");
    command->add_option("what", args->what, "gpus, instances, parts, rates or rental")
        ->required()
        ->check(CLI::IsMember({"gpus", "instances", "parts", "rates", "rental"}));
    command->add_option("--gpu", args->gpu, "Only this GPU (a gpus.csv name)");
    command->add_option("--provider", args->provider, "Only this provider or market (aws, gcp, vast, ...)");
    command->add_option("--max-price", args->max_price, "Only rows priced at most this (per hour, per kWh, or each)")
        ->check(CLI::NonNegativeNumber);
    command->add_flag("--json", args->json, "Print a JSON array");
    command->callback([args] {
        const Catalog& catalog = Catalog::shipped();
        std::string text;
        nlohmann::json json = nlohmann::json::array();
        if (args->what == "gpus") list_gpus(catalog, *args, text, json);
        if (args->what == "instances") list_instances(catalog, *args, text, json);
        if (args->what == "parts") list_parts(catalog, *args, text, json);
        if (args->what == "rates") list_rates(catalog, *args, text, json);
        if (args->what == "rental") list_rental(catalog, *args, text, json);
        emit(args->json ? json.dump(2) + "\n" : text);
    });
}

}  // namespace payback::cli
