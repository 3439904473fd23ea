// payback catalog gpus|instances|parts|rates|rental|api-prices|models [--gpu NAME] [--provider NAME] [--model NAME]
//                 [--max-price X]
//                 [--format table|json|csv] [-o FILE]
// payback catalog --where: the catalogs' directory in use, and why that one
// payback catalog import ...: catalog_import_command.cpp; payback catalog update ...: catalog_update_command.cpp;
// payback catalog history ...: catalog_history_command.cpp
#include <cmath>
#include <cstdint>
#include <memory>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "catalog_history_command.hpp"
#include "catalog_import_command.hpp"
#include "catalog_update_command.hpp"
#include "command_common.hpp"
#include "commands.hpp"
#include "payback/base/data_directory.hpp"
#include "payback/base/error.hpp"
#include "payback/market/catalog.hpp"
#include "payback/workload/model_catalog.hpp"
#include "text_table.hpp"

namespace payback::cli {

namespace {

struct CatalogArgs {
    std::string what;
    std::string gpu;
    std::string provider;
    std::string model;
    double max_price = -1;  ///< negative: no limit
    bool where = false;
    Output output;
};

using A = TextTable::Align;

// One catalog's rows as a table and as JSON records, with the CSV's columns (the records' keys).
struct Listing {
    Listing(TextTable rows, std::vector<std::string> columns) : table(std::move(rows)), csv_columns(std::move(columns)) {}
    TextTable table;
    std::vector<std::string> csv_columns;
    std::string note;  ///< under the table
    nlohmann::json json = nlohmann::json::array();
};

nlohmann::json optional_number(const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); }

bool matches(const std::string& wanted, const std::string& value) { return wanted.empty() || wanted == value; }
bool under(double max_price, const std::optional<double>& price) { return max_price < 0 || (price && *price <= max_price); }

std::string cell(const std::optional<double>& v, int decimals = 2) { return v ? amount(*v, decimals) : "-"; }

Listing list_gpus(const Catalog& c, const CatalogArgs& a) {
    Listing l{TextTable({{"gpu", A::left}, {"launch $"}, {"watts"}, {"GB"}, {"FP32 TF"}, {"RN50 img/s"}, {"row", A::left}}),
              {"name", "launch_price_usd", "board_power_watts", "memory_gb", "fp32_tflops", "resnet50_amp_img_s",
               "as_of", "source"}};
    auto& json = l.json;
    for (const GpuSpec& g : c.gpus()) {
        if (!matches(a.gpu, g.name) || !under(a.max_price, g.launch_price_usd)) continue;
        l.table.add_row({g.name, cell(g.launch_price_usd, 0), cell(g.board_power_watts, 0), cell(g.memory_gb, 0),
                         cell(g.fp32_tflops, 1), cell(g.resnet50_amp_img_s, 0), g.origin.describe()});
        json.push_back({{"name", g.name}, {"launch_price_usd", optional_number(g.launch_price_usd)},
                        {"board_power_watts", optional_number(g.board_power_watts)},
                        {"memory_gb", optional_number(g.memory_gb)}, {"fp32_tflops", optional_number(g.fp32_tflops)},
                        {"resnet50_amp_img_s", optional_number(g.resnet50_amp_img_s)}, {"as_of", g.origin.as_of},
                        {"source", g.origin.source}});
    }
    return l;
}

Listing list_instances(const Catalog& c, const CatalogArgs& a) {
    Listing l{TextTable({{"instance", A::left}, {"region", A::left}, {"gpu", A::left}, {"n"}, {"on-demand"}, {"spot"},
                         {"row", A::left}}),
              {"instance", "region", "gpu", "gpu_count", "gpu_memory_gb", "on_demand_per_hour", "spot_per_hour",
               "reserved_1y_per_hour", "reserved_3y_per_hour", "currency", "as_of", "source"}};
    auto& json = l.json;
    for (const CloudInstance& i : c.instances()) {
        if (!matches(a.gpu, i.gpu) || !matches(a.provider, i.provider) || !under(a.max_price, i.on_demand_per_hour))
            continue;
        l.table.add_row({i.key(), i.region, i.gpu, std::to_string(i.gpu_count), cell(i.on_demand_per_hour, 3),
                         cell(i.spot_per_hour, 3), i.origin.describe()});
        json.push_back({{"instance", i.key()}, {"region", i.region}, {"gpu", i.gpu}, {"gpu_count", i.gpu_count},
                        {"gpu_memory_gb", optional_number(i.gpu_memory_gb)},
                        {"on_demand_per_hour", optional_number(i.on_demand_per_hour)},
                        {"spot_per_hour", optional_number(i.spot_per_hour)},
                        {"reserved_1y_per_hour", optional_number(i.reserved_1y_per_hour)},
                        {"reserved_3y_per_hour", optional_number(i.reserved_3y_per_hour)}, {"currency", i.currency},
                        {"as_of", i.origin.as_of}, {"source", i.origin.source}});
    }
    return l;
}

Listing list_parts(const Catalog& c, const CatalogArgs& a) {
    Listing l{TextTable({{"part", A::left}, {"kind", A::left}, {"price $"}, {"watts"}, {"row", A::left}}),
              {"kind", "name", "price_usd", "load_watts", "as_of", "source"}};
    auto& json = l.json;
    for (const PartSpec& p : c.parts()) {
        if (!under(a.max_price, p.price_usd)) continue;
        l.table.add_row({p.name, p.kind, cell(p.price_usd, 2), cell(p.load_watts, 0), p.origin.describe()});
        json.push_back({{"kind", p.kind}, {"name", p.name}, {"price_usd", optional_number(p.price_usd)},
                        {"load_watts", optional_number(p.load_watts)}, {"as_of", p.origin.as_of},
                        {"source", p.origin.source}});
    }
    return l;
}

Listing list_rates(const Catalog& c, const CatalogArgs& a) {
    Listing l{TextTable({{"region", A::left}, {"name", A::left}, {"per kWh"}, {"cur", A::left}, {"year"}, {"row", A::left}}),
              {"region", "name", "price_per_kwh", "currency", "year", "as_of", "source"}};
    auto& json = l.json;
    for (const ElectricityRate& r : c.rates()) {
        if (!under(a.max_price, r.price_per_kwh)) continue;
        l.table.add_row({r.region, r.name, fmt::format("{:.4f}", r.price_per_kwh), r.currency, std::to_string(r.year),
                         r.origin.describe()});
        json.push_back({{"region", r.region}, {"name", r.name}, {"price_per_kwh", r.price_per_kwh},
                        {"currency", r.currency}, {"year", r.year}, {"as_of", r.origin.as_of},
                        {"source", r.origin.source}});
    }
    return l;
}

Listing list_rental(const Catalog& c, const CatalogArgs& a) {
    Listing l{TextTable({{"market", A::left}, {"gpu", A::left}, {"price/h"}, {"fee"}, {"occupancy"}, {"row", A::left}}),
              {"market", "gpu", "host_price_per_hour", "platform_fee", "occupancy", "occupancy_is_assumption", "as_of",
               "source"}};
    auto& json = l.json;
    for (const RentalMarket& m : c.rental_markets()) {
        if (!matches(a.gpu, m.gpu) || !matches(a.provider, m.market) || !under(a.max_price, m.host_price_per_hour)) continue;
        l.table.add_row({m.market, m.gpu, cell(m.host_price_per_hour, 4), cell(m.platform_fee, 2),
                         cell(m.occupancy, 2) + (m.occupancy_is_assumption ? "*" : ""), m.origin.describe()});
        json.push_back({{"market", m.market}, {"gpu", m.gpu}, {"host_price_per_hour", optional_number(m.host_price_per_hour)},
                        {"platform_fee", optional_number(m.platform_fee)}, {"occupancy", optional_number(m.occupancy)},
                        {"occupancy_is_assumption", m.occupancy_is_assumption}, {"as_of", m.origin.as_of},
                        {"source", m.origin.source}});
    }
    l.note = "* occupancy is an assumption: no measurement exists (pricing/README.md)\n";
    return l;
}

// Per-token APIs, priced per million tokens; --max-price bounds the output price, most of a bill.
Listing list_api_prices(const Catalog& c, const CatalogArgs& a) {
    Listing l{TextTable({{"api", A::left}, {"in $/M"}, {"out $/M"}, {"cached $/M"}, {"context"}, {"row", A::left}}),
              {"provider", "model", "input", "output", "cached_input", "context", "as_of", "source"}};
    auto& json = l.json;
    for (const ApiPriceRow& p : c.api_prices()) {
        if (!matches(a.provider, p.provider) || !matches(a.model, p.model) || !under(a.max_price, p.output_per_million))
            continue;
        l.table.add_row({p.key(), amount(p.input_per_million, 3), amount(p.output_per_million, 3),
                         cell(p.cached_input_per_million, 3), cell(p.context_tokens, 0), p.origin.describe()});
        json.push_back({{"provider", p.provider}, {"model", p.model}, {"input", p.input_per_million},
                        {"output", p.output_per_million}, {"cached_input", optional_number(p.cached_input_per_million)},
                        {"context", p.context_tokens ? nlohmann::json(static_cast<std::int64_t>(*p.context_tokens))
                                                     : nlohmann::json(nullptr)},
                        {"as_of", p.origin.as_of},
                        {"source", p.origin.source}});
    }
    return l;
}

// 62,006; 25.6 M; 8.03 B (or G for FLOPs): three figures, as model cards write sizes.
std::string scaled(double value, const char* billions) {
    if (value >= 1e9) return fmt::format("{:.3g} {}", value / 1e9, billions);
    if (value >= 1e6) return fmt::format("{:.3g} M", value / 1e6);
    return amount(value, 0);
}

// The models `payback predict --workload` takes (models.csv), with the weight formats under the table.
Listing list_models(const CatalogArgs& a) {
    const ModelCatalog& models = ModelCatalog::shipped();
    Listing l{TextTable({{"model", A::left}, {"kind", A::left}, {"params"}, {"active"}, {"layers"}, {"d_model"},
                         {"context"}, {"FLOPs"}}),
              {"name", "kind", "parameters", "active_parameters", "expert_parameters", "experts", "active_experts",
               "layers", "d_model", "heads", "kv_heads", "head_dim", "ffn", "vocabulary", "tied_embeddings", "context",
               "attention_window", "window_layers", "sequence", "flops_per_sample", "flops_per_token", "as_of",
               "source"}};
    const auto whole = [](const std::optional<int>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
    // Counts of weights and FLOPs are whole numbers: written as models.csv has them, not as 8030261248.0.
    const auto count = [](const std::optional<double>& v) {
        return v ? nlohmann::json(static_cast<std::int64_t>(std::llround(*v))) : nlohmann::json(nullptr);
    };
    const auto whole_cell = [](const std::optional<int>& v) { return v ? amount(*v, 0) : std::string("-"); };
    for (const ModelSpec& m : models.models()) {
        if (!matches(a.model, m.name)) continue;
        const bool llm = m.kind == ModelKind::llm;
        const std::optional<double> flops = llm ? m.flops_per_token : m.flops_per_sample;
        l.table.add_row({m.name, llm ? "llm" : "train", scaled(m.parameters, "B"),
                         m.active_parameters ? scaled(*m.active_parameters, "B") : "-", whole_cell(m.layers),
                         whole_cell(m.d_model), whole_cell(m.context), flops ? scaled(*flops, "G") : "-"});
        l.json.push_back({{"name", m.name}, {"kind", llm ? "llm" : "train"}, {"parameters", count(m.parameters)},
                          {"active_parameters", count(m.active_parameters)},
                          {"expert_parameters", count(m.expert_parameters)}, {"experts", whole(m.experts)},
                          {"active_experts", whole(m.active_experts)}, {"layers", whole(m.layers)},
                          {"d_model", whole(m.d_model)}, {"heads", whole(m.heads)}, {"kv_heads", whole(m.kv_heads)},
                          {"head_dim", whole(m.head_dim)}, {"ffn", whole(m.ffn)}, {"vocabulary", whole(m.vocabulary)},
                          {"tied_embeddings", m.tied_embeddings}, {"context", whole(m.context)},
                          {"attention_window", whole(m.attention_window)}, {"window_layers", whole(m.window_layers)},
                          {"sequence", whole(m.sequence)}, {"flops_per_sample", count(m.flops_per_sample)},
                          {"flops_per_token", count(m.flops_per_token)}, {"as_of", m.as_of},
                          {"source", m.source}});
    }
    std::vector<std::string> formats;
    for (const QuantFormat& q : models.quants())
        formats.push_back(q.other_bits_per_weight
                              ? fmt::format("{} {} (experts; other weights {})", q.name, q.bits_per_weight, *q.other_bits_per_weight)
                              : fmt::format("{} {}", q.name, q.bits_per_weight));
    l.note = fmt::format("FLOPs: a token's forward pass (llm), a sample's forward and backward (train). Weight "
                         "formats (--quant), bits a weight: {}.\n",
                         fmt::join(formats, ", "));
    return l;
}

}  // namespace

void add_catalog_command(CLI::App& app) {
    auto args = std::make_shared<CatalogArgs>();
    CLI::App* command = app.add_subcommand("catalog", "List the price catalogs in pricing/, filtered");
    command->add_option("what", args->what,
                        "gpus, instances, parts, rates, rental, api-prices or models (what payback predict takes)")
        ->check(CLI::IsMember({"gpus", "instances", "parts", "rates", "rental", "api-prices", "models"}));
    command->add_flag("--where", args->where,
                      "Print the catalogs' directory and why that one: $PAYBACK_PRICING_DIR, beside the program "
                      "(an install or a build tree), or the Python package's data");
    command->add_option("--gpu", args->gpu, "Only this GPU (a gpus.csv name)");
    command->add_option("--provider", args->provider, "Only this provider or market (aws, gcp, vast, together, ...)");
    command->add_option("--model", args->model, "Only this model (api-prices and models: \"llama-3.1-8b\")");
    command->add_option("--max-price", args->max_price,
                        "Only rows priced at most this (per hour, per kWh, each, or per million output tokens)")
        ->check(CLI::NonNegativeNumber);
    add_output_options(*command, args->output, {Format::table, Format::json, Format::csv});
    add_example(*command, {"payback catalog gpus", "payback catalog instances --gpu \"H100 SXM\" --provider aws",
                           "payback catalog rates --format csv -o rates.csv",
                           "payback catalog api-prices --model llama-3.1-8b --format csv", "payback catalog models",
                           "payback catalog --where"});
    add_catalog_import_command(*command);
    add_catalog_update_command(*command);
    add_catalog_history_command(*command);
    command->callback([command, args] {
        if (command->got_subcommand("import") || command->got_subcommand("update") || command->got_subcommand("history"))
            return;
        if (args->where) {
            const DataDirectory found = find_data_directory(ShippedData::pricing);
            if (args->output.format == Format::json)
                emit(args->output,
                     nlohmann::json{{"directory", found.path.string()}, {"reason", found.reason}}.dump(2) + "\n");
            else
                emit(args->output, found.path.string() + "\n" + found.reason + "\n");
            return;
        }
        if (args->what.empty()) throw CLI::RequiredError(
            "what: name a catalog (gpus, instances, parts, rates, rental, api-prices, models) or give --where");
        const Catalog& catalog = Catalog::shipped();
        const Listing l = args->what == "gpus"        ? list_gpus(catalog, *args)
                          : args->what == "instances" ? list_instances(catalog, *args)
                          : args->what == "parts"     ? list_parts(catalog, *args)
                          : args->what == "rates"     ? list_rates(catalog, *args)
                          : args->what == "rental"    ? list_rental(catalog, *args)
                          : args->what == "models"    ? list_models(*args)
                                                      : list_api_prices(catalog, *args);
        const Output& output = args->output;
        if (output.format == Format::json) emit(output, l.json.dump(2) + "\n");
        else if (output.format == Format::csv) emit(output, records_csv(l.json, l.csv_columns));
        else emit(output, l.table.render(Style::for_stdout(output.to_terminal())) + l.note);
    });
}

}  // namespace payback::cli
