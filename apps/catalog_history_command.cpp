// payback catalog history (--instance PROVIDER:TYPE | --api PROVIDER:MODEL | --gpu NAME) [--mode M] [--region R] [--db FILE]
// The dated prices the history holds for one instance, API model or GPU (used and rental prices).
#include <algorithm>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "catalog_history_command.hpp"
#include "command_common.hpp"
#include "payback/base/data_directory.hpp"
#include "payback/base/error.hpp"
#include "payback/base/suggest.hpp"
#include "text_table.hpp"

namespace payback::cli {

const char* const db_option_help =
    "The price history (SQLite; default $PAYBACK_DB, else $XDG_DATA_HOME/payback/prices.sqlite, "
    "else ~/.local/share/payback/prices.sqlite)";

std::filesystem::path price_history_path(const std::string& db_option) {
    return db_option.empty() ? default_price_history_path() : std::filesystem::path(db_option);
}

PriceHistory open_price_history(const std::string& db_option) {
    return PriceHistory::open(price_history_path(db_option), find_data_directory(ShippedData::pricing).path);
}

namespace {

const std::vector<std::string> price_modes = {"on_demand", "spot",  "reserved_1y", "reserved_3y", "input",    "output",
                                              "cached_input", "used", "purchase", "host", "host_p10", "host_p90"};

struct HistoryArgs {
    std::string instance, api, gpu, mode, region, db;
    Output output;
};

// "provider:item" from --instance or --api.
std::pair<std::string, std::string> provider_and_item(const std::string& text, const std::string& option,
                                                      const std::string& item) {
    const auto colon = text.find(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
        throw InputError(option, 0, "", fmt::format("expected PROVIDER:{}, got \"{}\"", item, text));
    return {text.substr(0, colon), text.substr(colon + 1)};
}

std::string key_name(const PriceKey& key) { return key.provider.empty() ? key.item : key.provider + ":" + key.item; }

// The three known names nearest to `wanted`, for the error when it has no prices.
std::string closest_names(const std::string& wanted, const std::vector<PriceKey>& keys) {
    std::vector<std::string> names;
    for (const PriceKey& k : keys)
        if (names.empty() || names.back() != key_name(k)) names.push_back(key_name(k));
    std::stable_sort(names.begin(), names.end(), [&](const std::string& a, const std::string& b) {
        return detail::edit_distance(wanted, a) < detail::edit_distance(wanted, b);
    });
    names.erase(std::unique(names.begin(), names.end()), names.end());
    if (names.size() > 3) names.resize(3);
    return names.empty() ? "the history has none of this kind" : "closest: " + fmt::format("{}", fmt::join(names, ", "));
}

std::vector<DatedPrice> matching_prices(const PriceHistory& history, const HistoryArgs& a, std::string& option,
                                 std::string& wanted) {
    std::vector<PriceQuery> queries;
    if (!a.instance.empty()) {
        const auto [provider, item] = provider_and_item(a.instance, "--instance", "INSTANCE");
        queries.push_back({"instance", provider, item, a.region, a.mode});
        option = "--instance";
        wanted = a.instance;
    } else if (!a.api.empty()) {
        const auto [provider, item] = provider_and_item(a.api, "--api", "MODEL");
        queries.push_back({"api", provider, item, a.region, a.mode});
        option = "--api";
        wanted = a.api;
    } else {
        queries.push_back({"used", "", a.gpu, a.region, a.mode});
        queries.push_back({"rental", "", a.gpu, a.region, a.mode});
        option = "--gpu";
        wanted = a.gpu;
    }
    std::vector<DatedPrice> points;
    for (const PriceQuery& q : queries) {
        auto found = history.find(q);
        points.insert(points.end(), found.begin(), found.end());
    }
    if (!points.empty()) return points;
    // Nothing: either the name is unknown (say the nearest known), or --mode/--region ruled it all out.
    std::vector<PriceKey> keys;
    std::vector<std::string> kept;  // what the name has, when it is known
    for (PriceQuery q : queries) {
        for (const PriceKey& k : history.keys(q.kind)) keys.push_back(k);
        q.mode.clear();
        q.region.clear();
        for (const DatedPrice& p : history.find(q)) {
            const std::string has = p.key.region.empty() ? p.key.mode : p.key.mode + " in " + p.key.region;
            if (std::find(kept.begin(), kept.end(), has) == kept.end()) kept.push_back(has);
        }
    }
    if (!kept.empty())
        throw InputError(option, 0, "",
                         fmt::format("{} has no prices with{}{}; it has {}", wanted, a.mode.empty() ? "" : " --mode " + a.mode,
                                     a.region.empty() ? "" : " --region " + a.region, fmt::join(kept, ", ")));
    if (option == "--gpu") {  // used prices have no provider: compare the bare names
        for (PriceKey& k : keys) k.provider.clear();
        std::sort(keys.begin(), keys.end(), [](const PriceKey& x, const PriceKey& y) { return x.item < y.item; });
    }
    throw InputError(option, 0, "", fmt::format("no prices for \"{}\" in the history; {}", wanted, closest_names(wanted, keys)));
}

nlohmann::json history_records(const std::vector<DatedPrice>& points) {
    nlohmann::json json = nlohmann::json::array();
    for (const DatedPrice& p : points)
        json.push_back({{"kind", p.key.kind}, {"provider", p.key.provider}, {"item", p.key.item}, {"region", p.key.region},
                        {"mode", p.key.mode}, {"as_of", p.as_of}, {"price", p.price}, {"currency", p.currency},
                        {"import", p.import_format}, {"source", p.source}});
    return json;
}

std::string history_table(const std::vector<DatedPrice>& points, const Output& output) {
    using A = TextTable::Align;
    TextTable t({{"as_of", A::left}, {"price"}, {"currency", A::left}, {"mode", A::left}, {"region", A::left},
                 {"provider", A::left}, {"import", A::left}});
    for (const DatedPrice& p : points)
        t.add_row({p.as_of, amount(p.price, 4), p.currency, p.key.mode, p.key.region.empty() ? "-" : p.key.region,
                   p.key.provider.empty() ? "-" : p.key.provider, p.import_format});
    return t.render(Style::for_stdout(output.to_terminal()), table_width(output, false));
}

}  // namespace

void add_catalog_history_command(CLI::App& catalog) {
    auto args = std::make_shared<HistoryArgs>();
    CLI::App* command = catalog.add_subcommand(
        "history", "The dated prices of one instance, API model or GPU in the price history (docs/markets.md)");
    auto* instance = command->add_option("--instance", args->instance, "PROVIDER:TYPE, a cloud instance (aws:p5.48xlarge)");
    auto* api = command->add_option("--api", args->api, "PROVIDER:MODEL, a per-token API (openai:gpt-4o)");
    auto* gpu = command->add_option("--gpu", args->gpu, "A gpus.csv name: its used and rental prices");
    instance->excludes(api)->excludes(gpu);
    api->excludes(gpu);
    command->add_option("--mode", args->mode,
                        "Only this price: on_demand, spot, reserved_1y, reserved_3y (instances); input, output, "
                        "cached_input (APIs); used, purchase, host, host_p10, host_p90 (GPUs)");
    command->add_option("--region", args->region, "Only this region (instances)");
    command->add_option("--db", args->db, db_option_help);
    add_output_options(*command, args->output, {Format::table, Format::json, Format::csv});
    add_example(*command, {"payback catalog history --instance aws:p5.48xlarge --mode spot",
                           "payback catalog history --gpu \"RTX 3090\" --mode used --csv"});
    command->callback([args] {
        if (args->instance.empty() && args->api.empty() && args->gpu.empty())
            throw CLI::RequiredError("--instance, --api or --gpu: name what to show");
        if (!args->mode.empty() && std::find(price_modes.begin(), price_modes.end(), args->mode) == price_modes.end())
            throw InputError("--mode", 0, "", fmt::format("expected one of {}, got \"{}\"", fmt::join(price_modes, ", "), args->mode));
        const PriceHistory history = open_price_history(args->db);
        std::string option, wanted;
        const auto points = matching_prices(history, *args, option, wanted);
        const Output& output = args->output;
        const nlohmann::json json = history_records(points);
        if (output.format == Format::json) emit(output, json.dump(2) + "\n");
        else if (output.format == Format::csv)
            emit(output, records_csv(json, {"kind", "provider", "item", "region", "mode", "as_of", "price", "currency",
                                            "import", "source"}));
        else emit(output, history_table(points, output));
    });
}

}  // namespace payback::cli
