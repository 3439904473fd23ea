#include "payback/base/isa.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <mutex>

#include "payback/base/error.hpp"
#include "payback_isa_variants.hpp"

namespace payback {

namespace {

// What each x86-64 level adds that the code generator uses (the psABI's levels; libgcc's
// __builtin_cpu_supports also checks that the operating system saves the wider registers). F16C,
// also in v3, is on every CPU with AVX2, and clang 14 cannot ask for it.
bool x86_has(const std::string& variant) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
    __builtin_cpu_init();
    const bool v2 = __builtin_cpu_supports("sse4.2") && __builtin_cpu_supports("popcnt") &&
                    __builtin_cpu_supports("ssse3") && __builtin_cpu_supports("sse4.1");
    const bool v3 = v2 && __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
                    __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
    const bool v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                    __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
                    __builtin_cpu_supports("avx512vl");
    if (variant == "x86-64-v2") return v2;
    if (variant == "x86-64-v3") return v3;
    if (variant == "x86-64-v4") return v4;
#endif
    // "native" runs where it was built, "generic" anywhere.
    return variant == "native" || variant == "generic";
}

std::string joined(const std::vector<std::string>& names) {
    std::string list;
    for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
    return list;
}

std::size_t index_of(const std::string& wanted) {
    const auto& all = isa_variants();
    if (wanted == "baseline") return 0;
    const auto at = std::find(all.begin(), all.end(), wanted);
    if (at == all.end())
        throw InputError("environment", 0, "PAYBACK_ISA",
                         "no variant \"" + wanted + "\" in this build; it has " + joined(all) +
                             " (\"baseline\" is the first)");
    if (!cpu_runs(wanted))
        throw InputError("environment", 0, "PAYBACK_ISA",
                         "this CPU cannot run " + wanted + "; it runs " + joined(runnable_isa_variants()));
    return static_cast<std::size_t>(at - all.begin());
}

std::size_t best_index() {
    const auto& all = isa_variants();
    for (std::size_t i = all.size(); i-- > 1;)
        if (cpu_runs(all[i])) return i;
    return 0;
}

std::once_flag chosen_once;
std::atomic<std::size_t> chosen{0};

void choose() {
    std::call_once(chosen_once, [] {
        const char* wanted = std::getenv("PAYBACK_ISA");
        chosen = wanted && *wanted ? index_of(wanted) : best_index();
    });
}

}  // namespace

const std::vector<std::string>& isa_variants() {
    static const std::vector<std::string> names{PAYBACK_ISA_NAMES};
    return names;
}

bool cpu_runs(const std::string& variant) { return x86_has(variant); }

std::vector<std::string> runnable_isa_variants() {
    std::vector<std::string> out;
    for (const auto& v : isa_variants())
        if (cpu_runs(v)) out.push_back(v);
    return out;
}

std::size_t active_isa_index() {
    choose();
    return chosen.load(std::memory_order_relaxed);
}

const std::string& active_isa() { return isa_variants()[active_isa_index()]; }

std::string describe_isa() { return active_isa() + " (built: " + joined(isa_variants()) + ")"; }

void select_isa(const std::string& variant) {
    const std::size_t index = index_of(variant);
    choose();
    chosen = index;
}

}  // namespace payback
