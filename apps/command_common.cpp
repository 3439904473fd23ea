#include "command_common.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <unistd.h>

#include "payback/error.hpp"

#include "payback/format.hpp"

namespace payback::cli {

void add_scenario_args(CLI::App& command, ScenarioArgs& args, bool optional) {
    auto* positional = command.add_option("scenario", args.path, "Scenario file (TOML)");
    if (!optional) positional->required();
    command.add_option("--set", args.assignments,
                       "Override a scenario value, e.g. --set electricity.price_per_kwh=0.3 "
                       "or --set rig.parts[0].price=1400 (repeatable)");
}

std::string default_scenario_path() {
    if (const char* path = std::getenv("PAYBACK_DEFAULT_SCENARIO"); path && *path) return path;
    return std::string(PAYBACK_SCENARIOS_DIR) + "/venus-2019.toml";
}

Scenario load(const ScenarioArgs& args) {
    std::vector<Override> overrides;
    for (const auto& assignment : args.assignments) overrides.push_back(parse_override(assignment));
    return load_scenario(args.path.empty() ? default_scenario_path() : args.path, overrides);
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

std::string wrapped(const std::string& text) {
    std::string out, line;
    std::size_t start = 0;
    while (start <= text.size()) {
        auto end = text.find(' ', start);
        if (end == std::string::npos) end = text.size();
        const std::string word = text.substr(start, end - start);
        if (!line.empty() && line.size() + 1 + word.size() > 80) {
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

}  // namespace payback::cli
