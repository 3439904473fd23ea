// The CPU package energy counter through Linux powercap (RAPL).
//
// Each top-level domain `intel-rapl:N` (and its MMIO twin `intel-rapl-mmio:N` on newer Intel parts)
// has a `name` (package-0, psys, dram, ...), a cumulative `energy_uj` and the `max_energy_range_uj` at
// which that counter wraps. Only package domains are summed: psys contains the packages, and core,
// uncore and dram are subzones or separate scopes, so adding them would count energy twice or more.
// Duplicates are collapsed by name, preferring the MMIO domain as CodeCarbon does.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <map>
#include <system_error>
#include <utility>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "payback/bench/energy.hpp"

namespace payback::bench {
namespace {

namespace fs = std::filesystem;

/// A sysfs file's contents without surrounding whitespace, or the errno that stopped the read.
struct FileText {
    std::string text;
    int error = 0;
};

/// Reads a small file with open(2)/read(2) so that the errno (EACCES above all) is reliable.
FileText read_small_file(const fs::path& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return {"", errno};
    std::string text;
    char buffer[256];
    for (;;) {
        const ssize_t n = ::read(fd, buffer, sizeof buffer);
        if (n < 0) {
            const int error = errno;
            ::close(fd);
            return {"", error};
        }
        if (n == 0) break;
        text.append(buffer, static_cast<std::size_t>(n));
    }
    ::close(fd);
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return {"", 0};
    const auto last = text.find_last_not_of(" \t\r\n");
    return {text.substr(first, last - first + 1), 0};
}

std::optional<std::uint64_t> parse_u64(const std::string& text) {
    std::uint64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc{} || end != text.data() + text.size() || text.empty()) return std::nullopt;
    return value;
}

/// Why `path` could not be read as a counter, or empty when `read` holds a number. `zones` is the
/// glob of the domain directories, for the chmod hint.
std::string counter_problem(const fs::path& path, const FileText& read, const fs::path& zones) {
    if ((read.error == EACCES || read.error == EPERM) && path.filename() == "energy_uj")
        return fmt::format("cannot read {}: permission denied; energy_uj is readable by root only since "
                           "CVE-2020-8694 (PLATYPUS); grant read access with "
                           "`sudo chmod a+r {}` (lost at reboot)",
                           path.string(), (zones / path.filename()).string());
    if (read.error != 0) return fmt::format("cannot read {}: {}", path.string(), std::strerror(read.error));
    if (!parse_u64(read.text)) return fmt::format("{} holds \"{}\", not a count of µJ", path.string(), read.text);
    return "";
}

/// A directory name of the form `<prefix>N` with N all digits: a top-level zone, not a subzone `N:M`.
bool is_top_level_zone(const std::string& dir_name, const std::string& prefix) {
    if (dir_name.size() <= prefix.size() || dir_name.compare(0, prefix.size(), prefix) != 0) return false;
    return std::all_of(dir_name.begin() + static_cast<std::ptrdiff_t>(prefix.size()), dir_name.end(),
                       [](char c) { return c >= '0' && c <= '9'; });
}

struct Domain {
    std::string name;  ///< package-0, package-0-die-1, ...
    fs::path dir;
    bool mmio = false;
    std::uint64_t max_range_uj = 0;
};

class RaplMeter final : public EnergyMeter {
public:
    explicit RaplMeter(const fs::path& root) { discover(root); }

    bool available() const override { return reason_.empty(); }
    std::string unavailable_reason() const override { return reason_; }

    std::string describe() const override {
        if (!available()) return description_;
        std::vector<std::string> names;
        for (const auto& d : domains_) names.push_back(d.name);
        return fmt::format("RAPL {}", fmt::join(names, ", "));
    }

    void start() override { start_uj_ = available() ? read_all() : std::nullopt; }

    std::optional<double> stop() override {
        if (!start_uj_) return std::nullopt;
        const auto start = *std::exchange(start_uj_, std::nullopt);
        const auto end = read_all();
        if (!end) return std::nullopt;
        std::uint64_t total_uj = 0;
        for (std::size_t i = 0; i < domains_.size(); ++i) {
            // A domain that did not move was not updated inside the window: the sum would be short.
            if ((*end)[i] == start[i]) return std::nullopt;
            // One wrap-around is corrected; two within one window under-report by max_energy_range_uj.
            if ((*end)[i] < start[i] && start[i] > domains_[i].max_range_uj) return std::nullopt;  // not a wrap
            total_uj += (*end)[i] > start[i] ? (*end)[i] - start[i]
                                             : domains_[i].max_range_uj - start[i] + (*end)[i];
        }
        return static_cast<double>(total_uj) * 1e-6;
    }

private:
    void discover(const fs::path& root) {
        description_ = "RAPL (unavailable)";
        std::error_code ec;
        if (!fs::is_directory(root, ec)) {
            reason_ = fmt::format("no powercap interface at {} (virtual machine or kernel without RAPL)",
                                  root.string());
            return;
        }
        std::map<std::string, Domain> by_name;  // sorted by name: package-0 before package-1
        std::vector<std::string> skipped;       // other top-level domains, for the message
        for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
            const fs::directory_entry& entry = *it;
            const std::string dir_name = entry.path().filename().string();
            const bool mmio = is_top_level_zone(dir_name, "intel-rapl-mmio:");
            if (!mmio && !is_top_level_zone(dir_name, "intel-rapl:")) continue;
            const FileText name = read_small_file(entry.path() / "name");
            if (name.error != 0 || name.text.empty()) continue;
            if (name.text.rfind("package-", 0) != 0) {
                skipped.push_back(name.text);
                continue;
            }
            const auto [known, inserted] = by_name.try_emplace(name.text, Domain{name.text, entry.path(), mmio});
            if (!inserted && mmio && !known->second.mmio) known->second = Domain{name.text, entry.path(), mmio};
        }
        if (ec) {
            reason_ = fmt::format("cannot list {}: {}", root.string(), ec.message());
            return;
        }
        if (by_name.empty()) {
            std::sort(skipped.begin(), skipped.end());
            skipped.erase(std::unique(skipped.begin(), skipped.end()), skipped.end());
            reason_ = skipped.empty()
                          ? fmt::format("no intel-rapl package domain under {}", root.string())
                          : fmt::format("no intel-rapl package domain under {} (found {}; psys and the others "
                                        "overlap or differ from the CPU package and are not used)",
                                        root.string(), fmt::join(skipped, ", "));
            description_ = "RAPL: no package domain (only package-* domains are used, never psys)";
            return;
        }
        for (auto& [name, domain] : by_name) {
            const fs::path zones = root / (domain.mmio ? "intel-rapl-mmio:*" : "intel-rapl:*");
            const fs::path energy = domain.dir / "energy_uj";
            if (std::string problem = counter_problem(energy, read_small_file(energy), zones); !problem.empty()) {
                reason_ = std::move(problem);
                return;
            }
            const fs::path range = domain.dir / "max_energy_range_uj";
            const FileText range_text = read_small_file(range);
            if (std::string problem = counter_problem(range, range_text, zones); !problem.empty()) {
                reason_ = problem + " (needed to correct the counter's wrap-around)";
                return;
            }
            domain.max_range_uj = *parse_u64(range_text.text);
            domains_.push_back(std::move(domain));
        }
    }

    /// energy_uj of every domain, in domains_ order; nullopt if any read fails.
    std::optional<std::vector<std::uint64_t>> read_all() const {
        std::vector<std::uint64_t> values;
        values.reserve(domains_.size());
        for (const auto& d : domains_) {
            const FileText text = read_small_file(d.dir / "energy_uj");
            const auto value = text.error == 0 ? parse_u64(text.text) : std::nullopt;
            if (!value) return std::nullopt;
            values.push_back(*value);
        }
        return values;
    }

    std::vector<Domain> domains_;
    std::string reason_;       ///< empty when available
    std::string description_;  ///< used while unavailable
    std::optional<std::vector<std::uint64_t>> start_uj_;
};

}  // namespace

std::unique_ptr<EnergyMeter> make_rapl_meter(const std::string& powercap_root) {
    return std::make_unique<RaplMeter>(powercap_root);
}

}  // namespace payback::bench
