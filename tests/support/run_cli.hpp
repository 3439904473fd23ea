// Running the `payback` program from a test: its exit code, stdout and stderr.
#pragma once

#include <sys/wait.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "support/temp_dir.hpp"

namespace payback::test {

// A shell word: single-quoted, with embedded single quotes escaped.
inline std::string quote(const std::string& word) {
    std::string out = "'";
    for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

// A program's output, a line an entry (no newlines).
inline std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

inline std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

inline void write_file(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
    REQUIRE(out.good());
}


struct Result {
    int code;
    std::string out;
    std::string err;
};

// Runs `<program> <args>` from the repository root (so scenarios/... resolves), capturing stdout
// through popen and stderr through a temp file. `args` are shell words, already quoted.
// PAYBACK_DEFAULT_SCENARIO is unset so the default scenario is the shipped one; `environment`
// (shell words such as "unset PAYBACK_PRICING_DIR") runs first.
inline Result run_program(const std::string& program, const std::string& args, const std::string& environment = "true") {
    TempDir dir;
    const std::filesystem::path err_path = dir.path() / "stderr";
    const std::string command = "cd " + quote(PAYBACK_SOURCE_DIR) + " && unset PAYBACK_DEFAULT_SCENARIO && " +
                                environment + " && " + quote(program) + " " + args + " 2>" + quote(err_path.string());
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

// Runs the program of this build: `payback <args>`.
inline Result run(const std::string& args) { return run_program(PAYBACK_BINARY, args); }


// The contract for bad input: exit 2, nothing on stdout, exactly one line on stderr.
inline void check_bad_input(const Result& r) {
    INFO("stderr: " << r.err);
    CHECK(r.code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::StartsWith("payback: "));
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK_THAT(r.err, Catch::EndsWith("\n"));
}

}  // namespace payback::test
