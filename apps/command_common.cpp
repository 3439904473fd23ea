#include "command_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <stdexcept>
#include <system_error>

#include <unistd.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "payback/base/data_directory.hpp"
#include "payback/base/error.hpp"
#include "payback/base/format.hpp"
#include "payback/market/catalog.hpp"
#include "payback/scenario/price_choice.hpp"
#include "terminal.hpp"

namespace payback::cli {

void add_scenario_args(CLI::App& command, ScenarioArgs& args, bool optional) {
    auto* positional = command.add_option("scenario", args.path, "Scenario file (TOML)");
    if (!optional) positional->required();
    command.add_option("--set", args.assignments,
                       "Override a scenario value, e.g. --set electricity.price_per_kwh=0.3 "
                       "or --set rig.parts[0].price=1400 (repeatable)");
    command.add_option("--as-of", args.as_of,
                       "Use the prices in effect on this date (YYYY-MM-DD): each item's row with the latest "
                       "as_of on or before it, the price history's (--db) before the catalogs'");
    command.add_option("--db", args.db,
                       "Read prices from this price history (SQLite, as catalog import writes it) before the "
                       "catalogs; without --db, $PAYBACK_DB's history is read when set, and with --as-of the "
                       "default one (~/.local/share/payback/prices.sqlite) when it exists");
    command.add_option("--max-age", args.max_age_days,
                       "Prices older than this many days are stale: the JSON says \"stale\": true and text "
                       "output warns (default 90; today is $PAYBACK_TODAY when set)")
        ->check(CLI::Range(0, 100000));
}

std::string default_scenario_path() {
    if (const char* path = std::getenv("PAYBACK_DEFAULT_SCENARIO"); path && *path) return path;
    return (find_data_directory(ShippedData::scenarios).path / "venus-2019.toml").string();
}

std::vector<Override> parsed_overrides(const ScenarioArgs& args) {
    std::vector<Override> out;
    for (const auto& assignment : args.assignments) out.push_back(parse_override(assignment));
    return out;
}

Scenario load(const ScenarioArgs& args) {
    return load_scenario(args.path.empty() ? default_scenario_path() : args.path, parsed_overrides(args),
                         choose_prices(args.as_of, args.db));
}

PriceAge price_age_of(const Scenario& scenario, const ScenarioArgs& args) {
    return price_age_of(scenario, args.max_age_days);
}

void add_price_age(nlohmann::json& out, const PriceAge& age) {
    out["prices_as_of"] = age.prices_as_of ? nlohmann::json(*age.prices_as_of) : nlohmann::json(nullptr);
    out["stale"] = age.stale;
}

void warn_if_stale(const PriceAge& age) {
    if (age.stale) std::fprintf(stderr, "%s\n", age.warning().c_str());
}

void add_example(CLI::App& command, const std::vector<std::string>& examples) {
    std::string footer = examples.size() == 1 ? "Example:" : "Examples:";
    for (const auto& example : examples) {
        // "  payback ..." then "      --more \" lines of at most 80 columns, cut at spaces outside quotes.
        std::string line = "  ";
        bool quoted = false;
        std::size_t start = 0;
        while (start < example.size()) {
            std::size_t end = start;
            while (end < example.size() && (quoted || example[end] != ' ')) quoted ^= example[end++] == '"';
            const std::string word = example.substr(start, end - start);
            if (line.size() > 6 && line.size() + 1 + word.size() + 2 > 80) {
                footer += "\n" + line + " \\";
                line = "      " + word;
            } else {
                line += (line.size() > 2 ? " " : "") + word;
            }
            start = end + 1;
        }
        footer += "\n" + line;
    }
    command.footer(footer);
}

bool Output::to_terminal() const { return path.empty() && isatty(STDOUT_FILENO) != 0; }

std::size_t table_width(const Output& output, bool wide) {
    if (wide) return std::numeric_limits<std::size_t>::max() / 2;  // room for any table, and for sums of widths
    return output.to_terminal() ? terminal_width() : 80;
}

void add_output_options(CLI::App& command, Output& output, const std::vector<Format>& formats) {
    static const std::vector<std::pair<std::string, Format>> names = {
        {"table", Format::table}, {"json", Format::json}, {"csv", Format::csv}};
    std::vector<std::string> allowed;
    for (const auto& [name, format] : names)
        if (std::find(formats.begin(), formats.end(), format) != formats.end()) allowed.push_back(name);
    output.format = formats.front();
    const auto format_named = [](const std::string& name) {
        for (const auto& [known, format] : names)
            if (known == name) return format;
        return Format::table;  // unreachable: IsMember admits only the names above
    };
    auto* option = command
                       .add_option_function<std::string>(
                           "--format", [&output, format_named](const std::string& name) { output.format = format_named(name); },
                           fmt::format("Output format (default {})", names[static_cast<std::size_t>(formats.front())].first))
                       ->check(CLI::IsMember(allowed, CLI::ignore_case));
    std::vector<CLI::Option*> shorthands;
    for (const auto& [name, format] : names) {
        if (format == Format::table || std::find(allowed.begin(), allowed.end(), name) == allowed.end()) continue;
        const Format chosen = format;
        auto* flag = command.add_flag_callback("--" + name, [&output, chosen] { output.format = chosen; },
                                               "Shorthand for --format " + name);
        flag->excludes(option);
        for (auto* other : shorthands) flag->excludes(other);
        shorthands.push_back(flag);
    }
    command.add_option("-o,--output", output.path,
                       "Write the result to this file instead of stdout (whole or not at all: a temporary file, "
                       "then a rename)");
}

void emit(const Output& output, const std::string& text) {
    if (output.path.empty()) emit(text);
    else write_file_atomically(output.path, text);
}

void emit(const std::string& text) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
}

void write_file_atomically(const std::string& path, const std::string& text) {
    const std::string temporary = path + ".tmp-" + std::to_string(::getpid());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out) throw InputError(path, 0, "", "cannot write here (no such directory, or no permission)");
        out << text;
        out.flush();
        if (!out) {
            std::error_code ignored;
            std::filesystem::remove(temporary, ignored);
            throw InputError(path, 0, "", "could not write all of it (disk full?)");
        }
    }
    std::error_code error;
    std::filesystem::rename(temporary, path, error);
    if (error) {
        std::error_code ignored;
        std::filesystem::remove(temporary, ignored);
        throw InputError(path, 0, "", "cannot replace it: " + error.message());
    }
}

std::string amount(double value, int decimals) { return format_amount(value, decimals); }

std::string amount(const std::optional<double>& value, int decimals) {
    return value ? amount(*value, decimals) : "-";
}

std::string wrapped(const std::string& text, std::size_t width) {
    std::string out, line;
    std::size_t start = 0;
    while (start <= text.size()) {
        auto end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        const std::string word = text.substr(start, end - start);
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            out += line + "\n";
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
        start = end + 1;
    }
    return out + line + "\n";
}

std::string csv_field(const std::string& text) {
    if (text.find_first_of(",\"\n") == std::string::npos) return text;
    std::string quoted = "\"";
    for (char ch : text) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
    return quoted + "\"";
}

std::string records_csv(const nlohmann::json& records, const std::vector<std::string>& columns) {
    std::string out;
    for (const auto& column : columns) out += (out.empty() ? "" : ",") + csv_field(column);
    out += "\n";
    for (const auto& record : records) {
        std::string line;
        for (std::size_t c = 0; c < columns.size(); ++c) {
            if (c > 0) line += ",";
            const auto found = record.find(columns[c]);
            if (found == record.end() || found->is_null()) continue;
            line += csv_field(found->is_string() ? found->get<std::string>() : found->dump());
        }
        out += line + "\n";
    }
    return out;
}

nlohmann::json number_or_null(double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

}  // namespace payback::cli
