// payback catalog update --source skypilot|azure-retail|aws-ec2 [--provider NAME] [--url URL] -o OUT.csv [--db FILE] [--json]
// Fetches a public price file that needs no account and imports it as `catalog import` would (into OUT
// and the price history). Without a network it fails in one line and writes nothing.
#include <map>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "catalog_history_command.hpp"
#include "catalog_import_command.hpp"
#include "catalog_update_command.hpp"
#include "command_common.hpp"
#include "http_fetch.hpp"
#include "payback/base/error.hpp"
#include "payback/market/price_dates.hpp"

namespace payback::cli {

namespace {

struct UpdateArgs {
    std::string source;
    std::string url;
    ImportOptions options;
    std::string out;
    std::string db;
    bool json = false;
};

// SkyPilot's catalog repository, refreshed by its GitHub Actions every few hours; one vms.csv per cloud.
std::string skypilot_url(const std::string& provider) {
    return fmt::format("https://raw.githubusercontent.com/skypilot-org/skypilot-catalog/master/catalogs/v7/{}/vms.csv",
                       provider);
}

// The Azure Retail Prices API, GPU virtual machines (the N series) at pay-as-you-go prices. It pages by
// NextPageLink, 1,000 items a page.
constexpr const char* azure_url =
    "https://prices.azure.com/api/retail/prices?$filter=serviceName%20eq%20%27Virtual%20Machines%27%20and%20"
    "priceType%20eq%20%27Consumption%27%20and%20contains(armSkuName,%27Standard_N%27)";
constexpr int max_azure_pages = 100;

// ec2instances.info's instances.json: every EC2 type and region, well over the 16 MiB a price file may have.
constexpr const char* ec2_url = "https://instances.vantage.sh/instances.json";
constexpr std::size_t max_ec2_download_bytes = std::size_t{512} << 20;

std::vector<PriceFile> fetch_azure(const std::string& first_url, const std::string& key) {
    std::vector<PriceFile> pages;
    std::string url = first_url;
    while (!url.empty()) {
        if (static_cast<int>(pages.size()) == max_azure_pages)
            throw InputError(first_url, 0, key, fmt::format("more than {} pages; nothing was changed", max_azure_pages));
        std::string text = http_get(url, max_price_file_bytes, key);
        std::string next;
        try {
            const auto page = nlohmann::json::parse(text);
            if (const auto link = page.find("NextPageLink"); link != page.end() && link->is_string()) next = *link;
        } catch (const nlohmann::json::exception&) {
            // Not JSON: the importer reports it with the line where it stops being JSON.
        }
        pages.push_back({url, std::move(text)});
        url = next;
    }
    return pages;
}

// The GPU instance types of instances.json (those with "GPU" of 1 or more), which is what the aws-ec2
// importer keeps anyway: small enough to import.
PriceFile fetch_ec2_gpu_types(const std::string& url, const std::string& key) {
    const std::string text = http_get(url, max_ec2_download_bytes, key);
    nlohmann::json kept = nlohmann::json::array();
    try {
        const auto all = nlohmann::json::parse(text);
        if (!all.is_array()) throw InputError(url, 1, "", "expected an array of instance types (instances.json)");
        for (const auto& type : all) {
            const auto gpu = type.is_object() ? type.find("GPU") : type.end();
            if (gpu == type.end()) continue;
            const double count = gpu->is_number() ? gpu->get<double>()
                                 : gpu->is_string() ? std::strtod(gpu->get<std::string>().c_str(), nullptr)
                                                    : 0.0;
            if (count >= 1) kept.push_back(type);
        }
    } catch (const nlohmann::json::exception& e) {
        throw InputError(url, 0, "", fmt::format("not JSON: {}", e.what()));
    }
    return {url, kept.dump(1)};
}

}  // namespace

void add_catalog_update_command(CLI::App& catalog) {
    auto args = std::make_shared<UpdateArgs>();
    CLI::App* command = catalog.add_subcommand(
        "update", "Fetch a public price catalog that needs no account and import it (as catalog import does)");
    command->add_option("--source", args->source,
                        "skypilot (SkyPilot's catalog, one cloud: give --provider), azure-retail (the Azure Retail "
                        "Prices API, N-series VMs) or aws-ec2 (ec2instances.info)")
        ->required()
        ->check(CLI::IsMember({"skypilot", "azure-retail", "aws-ec2"}));
    command->add_option("--provider", args->options.provider,
                        "The cloud, for skypilot: aws, gcp, azure, lambda, runpod, ... (the folder under catalogs/v7/)");
    command->add_option("--url", args->url, "Fetch from this URL instead of the source's public one (a mirror)");
    command->add_option("--as-of", args->options.as_of,
                        "YYYY-MM-DD: when the prices held, where the file does not say (default: today, the day "
                        "fetched; $PAYBACK_TODAY when set)");
    command->add_option("-o,--output", args->out, "The CSV to write (written only when everything was fetched and read)")
        ->required();
    command->add_option("--db", args->db, db_option_help);
    command->add_flag("--json", args->json,
                      "Print {format, rows, skipped: [{file, line, reason}], as_of, history: {db, import, prices, added}} "
                      "instead of a summary");
    add_example(*command, {"payback catalog update --source skypilot --provider aws -o aws.csv",
                           "payback catalog update --source azure-retail -o azure.csv --json"});
    command->callback([args] {
        if (args->source == "skypilot" && args->options.provider.empty())
            throw InputError("command line", 0, "--provider", "skypilot's catalog is one file per cloud: name it (aws, gcp, ...)");
        if (args->options.as_of.empty()) args->options.as_of = today();
        const std::string key = args->url.empty() ? "--source" : "--url";  // the option the URL came from
        std::vector<PriceFile> files;
        if (args->source == "skypilot") {
            const std::string url = args->url.empty() ? skypilot_url(args->options.provider) : args->url;
            files.push_back({url, http_get(url, max_price_file_bytes, key)});
        } else if (args->source == "azure-retail") {
            files = fetch_azure(args->url.empty() ? azure_url : args->url, key);
        } else {
            files.push_back(fetch_ec2_gpu_types(args->url.empty() ? ec2_url : args->url, key));
        }
        if (args->options.source.empty()) args->options.source = fmt::format("{} fetched {}", files.front().path, today());
        run_price_import(args->source, files, args->options, args->out, args->db, args->json);
    });
}

}  // namespace payback::cli
