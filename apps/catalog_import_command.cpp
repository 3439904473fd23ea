// payback catalog import --format FORMAT FILE... [--provider NAME] [--as-of DATE] [--source TEXT] -o OUT.csv [--db FILE] [--json]
// Price files as providers publish them, into rows of the matching pricing/ catalog, appended to the
// price history in one transaction; OUT is written, and the history changed, only when every file
// was read whole.
#include <filesystem>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "catalog_history_command.hpp"
#include "catalog_import_command.hpp"
#include "command_common.hpp"
#include "payback/base/data_directory.hpp"
#include "payback/base/text_file.hpp"
#include "payback/market/catalog.hpp"
#include "payback/market/price_import.hpp"

namespace payback::cli {

namespace {

struct ImportArgs {
    std::string format;
    std::vector<std::string> files;
    ImportOptions options;
    std::string out;
    std::string db;
    bool json = false;
};

std::string summary_json(const ImportResult& result, const ImportRecord& record, const std::string& db) {
    nlohmann::json skipped = nlohmann::json::array();
    for (const SkippedRecord& s : result.skipped)
        skipped.push_back({{"file", s.file}, {"line", s.line}, {"reason", s.reason}});
    return nlohmann::json{{"format", result.format},
                          {"rows", result.rows.size()},
                          {"skipped", skipped},
                          {"as_of", result.as_of.empty() ? nlohmann::json(nullptr) : nlohmann::json(result.as_of)},
                          {"history", {{"db", db}, {"import", record.id}, {"prices", record.rows}, {"added", record.added}}}}
               .dump(2) +
           "\n";
}

std::string summary_text(const ImportResult& result, const std::string& out, const ImportRecord& record,
                         const std::string& db) {
    std::string text = fmt::format("{}: {} row{} written to {}{}, {} record{} skipped\n", result.format, result.rows.size(),
                                   result.rows.size() == 1 ? "" : "s", out,
                                   result.as_of.empty() ? "" : ", prices as of " + result.as_of, result.skipped.size(),
                                   result.skipped.size() == 1 ? "" : "s");
    for (const SkippedRecord& s : result.skipped) text += fmt::format("  skipped {}:{}: {}\n", s.file, s.line, s.reason);
    text += fmt::format("price history {}: import {}, {} of its {} prices new or changed\n", db, record.id, record.added,
                        record.rows);
    return text;
}

}  // namespace

void add_catalog_import_command(CLI::App& catalog) {
    auto args = std::make_shared<ImportArgs>();
    CLI::App* command = catalog.add_subcommand(
        "import", "Read price files as providers publish them into rows of the matching catalog (pricing/README.md)");
    command->add_option("--format", args->format, "The files' format")->required()->check(CLI::IsMember(import_formats()));
    command->add_option("files", args->files, "The price files (each at most 16 MiB)")->required();
    command->add_option("--provider", args->options.provider,
                        "The cloud or market, where the file does not say (SkyPilot's files are one per cloud)");
    command->add_option("--as-of", args->options.as_of,
                        "YYYY-MM-DD: when the prices held, where the file does not say (then required)");
    command->add_option("--source", args->options.source, "Where the files came from, where they do not say");
    command->add_option("-o,--output", args->out, "The CSV to write (written only when every file was read)")->required();
    command->add_option("--db", args->db, db_option_help);
    command->add_flag("--json", args->json,
                      "Print {format, rows, skipped: [{file, line, reason}], as_of, history: {db, import, prices, added}} "
                      "instead of a summary");
    add_example(*command, {"payback catalog import --format skypilot --provider aws --as-of 2026-11-29 vms.csv -o aws.csv",
                           "payback catalog import --format llm-prices openai.json anthropic.json -o api.csv --json"});
    command->callback([args] {
        std::vector<PriceFile> files;
        for (const std::string& path : args->files) files.push_back({path, detail::read_text_file(path, "price file")});
        run_price_import(args->format, files, args->options, args->out, args->db, args->json);
    });
}

void run_price_import(const std::string& format, const std::vector<PriceFile>& files, const ImportOptions& options,
                      const std::string& out, const std::string& db_option, bool json) {
    std::vector<std::string> gpu_names;
    for (const GpuSpec& gpu : Catalog::shipped().gpus()) gpu_names.push_back(gpu.name);
    const auto pricing = find_data_directory(ShippedData::pricing).path;
    const GpuAliases aliases = GpuAliases::load((pricing / "gpu-aliases.csv").string(), gpu_names);
    const ImportResult result = import_prices(format, files, options, aliases);
    const std::string db = price_history_path(db_option).string();
    PriceHistory history = open_price_history(db);
    // OUT before the history: a bad -o (the likelier failure) then leaves the history as it was.
    write_file_atomically(out, to_csv(result));
    std::vector<std::string> names;
    for (const PriceFile& file : files) names.push_back(file.path);
    // Epoch's purchase prices are the only series an import makes; the snapshot's are used prices.
    const ImportRecord record = history.append(format, names, price_points(result.catalog, result.rows, "purchase"));
    emit(json ? summary_json(result, record, db) : summary_text(result, out, record, db));
}

}  // namespace payback::cli
