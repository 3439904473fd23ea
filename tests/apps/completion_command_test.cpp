// payback completion bash: the script, sourced in bash, completes commands, options and choices.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using payback::test::quote;
using payback::test::Result;
using payback::test::run;
using payback::test::TempDir;

namespace {

// COMPREPLY after completing the last of `words` (the word being typed, possibly empty).
std::string complete(const std::string& script, const std::string& words) {
    const std::string command = "bash --norc --noprofile -c " +
                                quote("source " + script + "; COMP_WORDS=(" + words +
                                      "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _payback; "
                                      "printf '%s\\n' \"${COMPREPLY[*]}\"");
    FILE* pipe = popen(command.c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string out;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
    REQUIRE(pclose(pipe) == 0);
    if (!out.empty() && out.back() == '\n') out.pop_back();
    return out;
}

}  // namespace

TEST_CASE("the bash completion completes commands, options and their choices", "[cli][completion]") {
    const Result r = run("completion bash");
    INFO(r.err);
    REQUIRE(r.code == 0);
    TempDir dir;
    const std::string script = quote(dir.write("payback.bash", r.out));
    CHECK(complete(script, "payback com") == "compare completion");
    CHECK(complete(script, "payback ex") == "explain");
    CHECK(complete(script, "payback --v") == "--version");
    CHECK(complete(script, "payback bench --dev") == "--device");
    CHECK(complete(script, "payback bench --device c") == "cpu cuda");
    CHECK(complete(script, "payback bench --precision f") == "fp32 fp16");
    CHECK(complete(script, "payback compare scenarios/x.toml --fo") == "--format");
    CHECK(complete(script, "payback compare --format j") == "json");
    CHECK(complete(script, "payback explain --format ''") == "table json");  // explain has no CSV
    CHECK(complete(script, "payback catalog r") == "rates rental");
    CHECK(complete(script, "payback catalog a") == "api-prices");
    CHECK(complete(script, "payback catalog --mo") == "--model");
    CHECK(complete(script, "payback catalog i") == "instances import");  // a subcommand beside the lists
    CHECK(complete(script, "payback catalog import --fo") == "--format");
    CHECK(complete(script, "payback catalog import --format sky") == "skypilot");
    CHECK(complete(script, "payback catalog update --source a") == "azure-retail aws-ec2");
    CHECK(complete(script, "payback catalog history --in") == "--instance");
    CHECK(complete(script, "payback init --g") == "--gpu");
    CHECK(complete(script, "payback completion ''") == "bash");
    CHECK(complete(script, "payback compare --set ''").empty());  // a free value: bash offers file names
}

TEST_CASE("completion refuses a shell it does not know", "[cli][completion][errors]") {
    payback::test::check_bad_input(run("completion fish"));
}
