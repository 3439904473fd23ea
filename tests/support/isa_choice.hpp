// Runs part of a test on one instruction set's variant of the hot paths (payback/base/isa.hpp).
#pragma once

#include <string>

#include "payback/base/isa.hpp"

namespace payback::test {

/// Makes `variant` ("baseline" for the first) the active one for a scope, and restores the one before.
struct IsaChoice {
    explicit IsaChoice(const std::string& variant) : saved(active_isa()) { select_isa(variant); }
    ~IsaChoice() { select_isa(saved); }
    IsaChoice(const IsaChoice&) = delete;
    IsaChoice& operator=(const IsaChoice&) = delete;
    std::string saved;
};

}  // namespace payback::test
