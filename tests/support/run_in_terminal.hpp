// Running `payback` on a pseudo-terminal (util-linux `script`), to see what a person sees: colour
// and progress bars. stdout and stderr arrive together, as on a screen.
#pragma once

#include <string>

#include "support/run_cli.hpp"

namespace payback::test {

/// `payback <args>` on a terminal, with `environment` ("NO_COLOR=1 ", or "") before it; TERM is xterm.
/// `typed` is what a person types, all at once: the terminal echoes it into `out`.
inline Result run_in_terminal(const std::string& args, const std::string& environment = "",
                              const std::string& typed = "") {
    const std::string inner = "cd " + quote(PAYBACK_SOURCE_DIR) + " && unset PAYBACK_DEFAULT_SCENARIO NO_COLOR && " +
                              environment + "TERM=xterm " + quote(PAYBACK_BINARY) + " " + args;
    TempDir dir;
    const auto err_path = dir.path() / "stderr";
    const auto typed_path = dir.path() / "typed";
    write_file(typed_path, typed);
    const std::string command =
        "script -qec " + quote(inner) + " /dev/null <" + quote(typed_path.string()) + " 2>" + quote(err_path.string());
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    Result result{-1, {}, {}};
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) result.out.append(buffer, n);
    const int status = pclose(pipe);
    REQUIRE(WIFEXITED(status));
    result.code = WEXITSTATUS(status);
    result.err = read_file(err_path);
    return result;
}

}  // namespace payback::test
