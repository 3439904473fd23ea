// What the tests of bad input share: editing a valid text into a bad one, catching the InputError
// it must raise, and checking every field of that error and its one-line form.
#pragma once

#include <stdexcept>
#include <string>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "payback/base/error.hpp"

namespace payback::test {

/// `text` with the first `from` replaced by `to`; REQUIREs the match, so a typo in a test cannot
/// silently leave the text valid.
inline std::string replaced(std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

/// The InputError that `run()` throws; fails the test if it returns or throws anything else.
template <class Run>
InputError input_error(Run&& run) {
    try {
        run();
    } catch (const InputError& e) {
        return e;
    }
    FAIL("expected an InputError, but the input was accepted");
    throw std::logic_error("unreachable");  // FAIL throws; this keeps the compiler content
}

/// Checks every field of the error and its one-line form "source:line: key.path: message" (the
/// line left out when 0, the key path when empty).
inline void check_error(const InputError& e, const std::string& source, int line, const std::string& key_path,
                        const std::string& fragment) {
    INFO("what(): " << e.what());
    CHECK(e.source() == source);
    CHECK(e.line() == line);
    CHECK(e.key_path() == key_path);
    CHECK_THAT(e.message(), Catch::Contains(fragment));
    std::string expected = source;
    if (line > 0) expected += fmt::format(":{}", line);
    if (!key_path.empty()) expected += fmt::format(": {}", key_path);
    CHECK(std::string(e.what()) == fmt::format("{}: {}", expected, e.message()));
}

}  // namespace payback::test
