#include "payback/workload/calibration.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <ctime>
#include <initializer_list>
#include <set>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "payback/base/error.hpp"
#include "payback/base/text_file.hpp"
#include "payback/market/catalog.hpp"

namespace payback {
namespace {

using nlohmann::json;

// Reads one result's fields, naming `results[i].key` in every error.
class ResultReader {
public:
    /// `within` names an object inside the result: "llm" reads results[i].llm's keys.
    ResultReader(const json& node, std::string source, std::size_t index, const std::string& within = "")
        : node_(node), source_(std::move(source)),
          prefix_(fmt::format("results[{}]{}", index, within.empty() ? "" : "." + within)) {
        if (!node_.is_object()) throw error("", "expected an object");
    }

    InputError error(const std::string& key, const std::string& message) const {
        return InputError(source_, 0, key.empty() ? prefix_ : prefix_ + "." + key, message);
    }

    std::string text(const char* key) const {
        const auto it = node_.find(key);
        if (it == node_.end()) throw error(key, "missing required key");
        if (!it->is_string()) throw error(key, "expected a string, got " + it->dump());
        return it->get<std::string>();
    }

    double number(const char* key, bool required = true, double fallback = 0) const {
        const auto it = node_.find(key);
        if (it == node_.end()) {
            if (required) throw error(key, "missing required key");
            return fallback;
        }
        if (!it->is_number()) throw error(key, "expected a number, got " + it->dump());
        const double value = it->get<double>();
        if (!std::isfinite(value) || value < 0) throw error(key, fmt::format("must be >= 0, got {}", value));
        return value;
    }

    int positive_integer(const char* key) const {
        const double value = number(key);
        if (value < 1 || value != std::floor(value) || value > 1e9)
            throw error(key, fmt::format("expected a whole number >= 1, got {}", value));
        return static_cast<int>(value);
    }

    /// A count that may be left out (0): checked before the cast, since 1e300 has no int.
    int count_or_zero(const char* key) const {
        const double value = number(key, false, 0);
        if (value != std::floor(value) || value > 1e9)
            throw error(key, fmt::format("expected a whole number >= 0, got {}", value));
        return static_cast<int>(value);
    }

    std::string one_of(const char* key, std::initializer_list<const char*> allowed) const {
        std::string value = text(key);  // not const, so that the return moves it
        for (const char* a : allowed)
            if (value == a) return value;
        throw error(key, fmt::format("expected one of {}, got \"{}\"", fmt::join(allowed, ", "), value));
    }

    std::optional<double> optional_number(const char* key) const {
        const auto it = node_.find(key);
        if (it == node_.end() || it->is_null()) return std::nullopt;
        return number(key);
    }

private:
    const json& node_;
    std::string source_;
    std::string prefix_;
};

BenchResult read_result(const json& node, const std::string& source, std::size_t index) {
    const ResultReader in(node, source, index);
    BenchResult r;
    r.device = in.text("device");
    if (r.device != "cpu" && r.device != "cuda")
        throw in.error("device", "expected \"cpu\" or \"cuda\", got \"" + r.device + "\"");
    r.device_name = in.text("device_name");
    r.workload = in.text("workload");
    r.batch = in.positive_integer("batch");
    r.threads = in.positive_integer("threads");
    r.samples_per_second = in.number("samples_per_second");
    if (r.samples_per_second <= 0) throw in.error("samples_per_second", "must be > 0, got 0");
    r.samples_per_second_min = in.number("samples_per_second_min", false, r.samples_per_second);
    r.samples_per_second_max = in.number("samples_per_second_max", false, r.samples_per_second);
    r.repeats = in.count_or_zero("repeats");
    r.gflops = in.number("gflops", false, 0);
    r.joules_per_sample = in.optional_number("joules_per_sample");
    if (const auto it = node.find("energy_source"); it != node.end() && it->is_string())
        r.energy_source = it->get<std::string>();
    if (const auto it = node.find("isa"); it != node.end() && it->is_string()) r.isa = it->get<std::string>();
    if (node.contains("precision")) r.precision = in.one_of("precision", {"fp32", "bf16", "fp16"});
    if (node.contains("quant")) r.quant = in.one_of("quant", {"f16", "q8_0", "q4_0"});
    r.context = in.count_or_zero("context");
    r.tokens_per_second = in.optional_number("tokens_per_second");
    r.prefill_tokens_per_second = in.optional_number("prefill_tokens_per_second");
    if (const auto it = node.find("llm"); it != node.end()) {
        const ResultReader shape(*it, source, index, "llm");
        r.llm = LlmShape{shape.positive_integer("layers"), shape.positive_integer("d_model"),
                         shape.positive_integer("heads"),  shape.positive_integer("kv_heads"),
                         shape.positive_integer("ffn"),    shape.positive_integer("vocab")};
    }
    for (const auto& [key, value] : {std::pair{"tokens_per_second", r.tokens_per_second},
                                     std::pair{"prefill_tokens_per_second", r.prefill_tokens_per_second}})
        if (value && *value <= 0) throw in.error(key, "must be > 0, got 0");
    return r;
}

// Lower-case words without vendor and brand words: "NVIDIA GeForce RTX 3090" -> {"rtx", "3090"}.
std::vector<std::string> gpu_words(const std::string& name) {
    static const std::set<std::string> brands = {"nvidia", "geforce", "tesla", "quadro", "amd", "radeon"};
    std::vector<std::string> words;
    std::string word;
    const auto flush = [&] {
        if (!word.empty() && !brands.count(word)) words.push_back(word);
        word.clear();
    };
    for (const char c : name) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        else
            flush();
    }
    flush();
    return words;
}

}  // namespace

std::string to_json(const CalibrationProfile& profile) {
    json software = json::object();
    for (const auto& [name, version] : profile.software) software[name] = version;
    json results = json::array();
    for (const BenchResult& r : profile.results) {
        results.push_back({{"device", r.device},
                           {"device_name", r.device_name},
                           {"workload", r.workload},
                           {"batch", r.batch},
                           {"threads", r.threads},
                           {"samples_per_second", r.samples_per_second},
                           {"samples_per_second_min", r.samples_per_second_min},
                           {"samples_per_second_max", r.samples_per_second_max},
                           {"repeats", r.repeats},
                           {"gflops", r.gflops},
                           {"joules_per_sample", r.joules_per_sample ? json(*r.joules_per_sample) : json(nullptr)},
                           {"energy_source", r.energy_source},
                           {"isa", r.isa},
                           {"precision", r.precision}});
        if (r.quant.empty()) {
            // A transformer training workload (gpt-small) gives its tokens too: sequences × sequence length.
            if (r.tokens_per_second) results.back()["tokens_per_second"] = *r.tokens_per_second;
            continue;
        }
        json& llm = results.back();
        llm["quant"] = r.quant;
        llm["context"] = r.context;
        llm["tokens_per_second"] = r.tokens_per_second ? json(*r.tokens_per_second) : json(nullptr);
        llm["prefill_tokens_per_second"] = r.prefill_tokens_per_second ? json(*r.prefill_tokens_per_second) : json(nullptr);
        if (r.llm)
            llm["llm"] = {{"layers", r.llm->layers}, {"d_model", r.llm->d_model}, {"heads", r.llm->heads},
                          {"kv_heads", r.llm->kv_heads}, {"ffn", r.llm->ffn},       {"vocab", r.llm->vocab}};
    }
    return json{{"date", profile.date}, {"software", software}, {"results", results}}.dump(2) + "\n";
}

CalibrationProfile parse_profile(const std::string& text, const std::string& source) {
    json root;
    try {
        root = json::parse(text);
    } catch (const json::parse_error& e) {
        const std::string what = e.what();
        const auto colon = what.rfind(": ");
        throw InputError(source, detail::line_of_offset(text, e.byte), "",
                         "not a calibration profile (JSON syntax error: " +
                             (colon == std::string::npos ? what : what.substr(colon + 2)) + ")");
    } catch (const json::out_of_range& e) {  // a number beyond a double (1e999), found while parsing
        const std::string what = e.what();
        throw InputError(source, 0, "", "not a calibration profile (" + what.substr(what.find("] ") + 2) + ")");
    }
    if (!root.is_object()) throw InputError(source, 1, "", "expected a JSON object with \"results\"");
    CalibrationProfile profile;
    profile.source = source;
    if (const auto it = root.find("date"); it != root.end() && it->is_string()) profile.date = it->get<std::string>();
    if (const auto it = root.find("software"); it != root.end() && it->is_object())
        for (const auto& [name, version] : it->items())
            profile.software.emplace_back(name, version.is_string() ? version.get<std::string>() : version.dump());
    const auto results = root.find("results");
    if (results == root.end()) throw InputError(source, 0, "results", "missing required key");
    if (!results->is_array()) throw InputError(source, 0, "results", "expected an array of results");
    for (std::size_t i = 0; i < results->size(); ++i) profile.results.push_back(read_result((*results)[i], source, i));
    return profile;
}

CalibrationProfile read_profile(const std::string& path) {
    return parse_profile(detail::read_text_file(path, "calibration profile"), path);
}

std::optional<CalibrationProfile> read_profile_if_given(const std::string& path) {
    return path.empty() ? std::nullopt : std::optional<CalibrationProfile>(read_profile(path));
}

bool same_gpu(const std::string& device_name, const std::string& catalog_name) {
    // Memory words ("80gb", "hbm3") decorate a name: drivers add them ("NVIDIA A100-SXM4-80GB") and the
    // catalog adds them ("RTX 3080 10GB"). The model words must agree; sizes only when both give one.
    const auto split = [](const std::string& name) {
        std::set<std::string> model, memory;
        for (const std::string& w : gpu_words(name)) {
            const bool size = w.size() > 2 && w.ends_with("gb") && std::isdigit(static_cast<unsigned char>(w[0]));
            const bool kind = w.starts_with("hbm") || w.starts_with("gddr");
            (size ? memory : kind ? memory : model).insert(w);
        }
        return std::pair{model, memory};
    };
    const auto [device_model, device_memory] = split(device_name);
    const auto [catalog_model, catalog_memory] = split(catalog_name);
    if (catalog_model.empty() || device_model != catalog_model) return false;
    const auto sizes = [](const std::set<std::string>& words) {
        std::set<std::string> out;
        for (const auto& w : words)
            if (w.ends_with("gb")) out.insert(w);
        return out;
    };
    const auto a = sizes(device_memory), b = sizes(catalog_memory);
    return a.empty() || b.empty() || a == b;
}

std::vector<int> measured_gpu_batches(const CalibrationProfile& profile, const std::string& workload) {
    std::set<int> batches;
    for (const BenchResult& r : profile.results)
        if (r.device == "cuda" && r.workload == workload) batches.insert(r.batch);
    return {batches.begin(), batches.end()};
}

std::optional<GpuThroughput> gpu_throughput(const CalibrationProfile& profile, const std::string& gpu,
                                            const std::string& workload, int batch) {
    const BenchResult* closest = nullptr;
    double closest_distance = 0;
    const Catalog& catalog = Catalog::shipped();
    const auto bandwidth_of = [&](const std::string& name) -> std::optional<double> {
        for (const GpuSpec& spec : catalog.gpus())
            if (same_gpu(name, spec.name)) return spec.memory_bandwidth_gb_s;
        return std::nullopt;
    };
    const std::optional<double> target_bandwidth = bandwidth_of(gpu);
    for (const BenchResult& r : profile.results) {
        if (r.device != "cuda" || r.workload != workload || r.batch != batch) continue;
        if (same_gpu(r.device_name, gpu))
            return GpuThroughput{r.samples_per_second,
                                 fmt::format("measured: {}, {}, batch {}", profile.source, r.device_name, batch)};
        const auto anchor_bandwidth = bandwidth_of(r.device_name);
        if (!target_bandwidth || !anchor_bandwidth) continue;
        const double distance = std::abs(std::log(*target_bandwidth / *anchor_bandwidth));
        if (!closest || distance < closest_distance) {
            closest = &r;
            closest_distance = distance;
        }
    }
    if (!closest) return std::nullopt;
    const double anchor_bandwidth = *bandwidth_of(closest->device_name);
    GpuThroughput mapped;
    mapped.samples_per_second = closest->samples_per_second * *target_bandwidth / anchor_bandwidth;
    mapped.origin = fmt::format(
        "mapped from {} ({:.0f} samples/s measured in {}, batch {}) by memory bandwidth {:.0f}/{:.0f} GB/s; "
        "expected error {:+.0f} % to {:+.0f} %",
        closest->device_name, closest->samples_per_second, profile.source, batch, *target_bandwidth,
        anchor_bandwidth, 100 * mapping_error_low, 100 * mapping_error_high);
    mapped.mapped = true;
    mapped.error_low = mapping_error_low;
    mapped.error_high = mapping_error_high;
    return mapped;
}

std::string utc_timestamp() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    char text[32];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
    return text;
}

}  // namespace payback
