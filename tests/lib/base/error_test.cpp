#include <catch2/catch.hpp>

#include <string>

#include "payback/base/error.hpp"

using payback::InputError;

TEST_CASE("an input error is one line: file, line, key and message, each left out when empty", "[error]") {
    CHECK(std::string(InputError("rig.toml", 12, "rig.parts[0].price", "must be >= 0").what()) ==
          "rig.toml:12: rig.parts[0].price: must be >= 0");
    CHECK(std::string(InputError("rig.toml", 0, "electricity", "missing").what()) == "rig.toml: electricity: missing");
    CHECK(std::string(InputError("prices.csv", 3, "", "bad row").what()) == "prices.csv:3: bad row");
    // An option's value has no file: "quant: ...", not ": quant: ...".
    CHECK(std::string(InputError("", 0, "quant", "unknown format").what()) == "quant: unknown format");
    CHECK(std::string(InputError("", 0, "", "no file").what()) == "no file");
    const InputError e("rig.toml", 12, "rig.parts[0].price", "must be >= 0");
    CHECK(e.line() == 12);
    CHECK(e.key_path() == "rig.parts[0].price");
}
