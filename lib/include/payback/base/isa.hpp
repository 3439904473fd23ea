// Which instruction set the hot paths run (cmake/PaybackIsa.cmake): the batch engine's lanes, the
// draw and the CPU trainer's kernels are compiled once per variant (x86-64-v2, x86-64-v3 with AVX2
// and FMA, x86-64-v4 with AVX-512) and one is chosen when first asked: the best this CPU runs, or the
// one the environment variable PAYBACK_ISA names ("baseline" for the first).
#pragma once

#include <string>
#include <vector>

namespace payback {

/// The variants this build has, baseline first ("x86-64-v2", "x86-64-v3", "x86-64-v4"; "native" in a
/// PAYBACK_NATIVE build; "generic" off x86-64).
const std::vector<std::string>& isa_variants();

/// Whether this CPU (and its operating system) runs `variant`.
bool cpu_runs(const std::string& variant);

/// The variants of this build that this CPU runs, baseline first.
std::vector<std::string> runnable_isa_variants();

/// The variant the hot paths run. The first call reads PAYBACK_ISA and throws InputError (key
/// PAYBACK_ISA) when it names a variant this build lacks or this CPU cannot run.
const std::string& active_isa();

/// Makes `variant` ("baseline" for the first) the one the hot paths run, as PAYBACK_ISA does; throws
/// InputError as active_isa() does. For tests and benchmarks that compare variants.
void select_isa(const std::string& variant);

/// active_isa()'s place in isa_variants(): the index the dispatch tables use (isa_dispatch.hpp).
std::size_t active_isa_index();

/// The active variant and those built, for --version: "x86-64-v4 (built: x86-64-v2, x86-64-v3, x86-64-v4)".
/// Throws as active_isa() does.
std::string describe_isa();

}  // namespace payback
