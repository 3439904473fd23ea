#include <catch2/catch.hpp>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "payback/base/error.hpp"
#include "payback/scenario/scenario.hpp"
#include "support/input_errors.hpp"

using payback::InputError;
using payback::Override;
using payback::Scenario;

namespace {

// A valid scenario with every table present. Each bad case below changes one line of it, so a
// failure can only come from that line.
std::string base_scenario() {
    return R"([scenario]
currency = "USD"

[workload]
gpu_hours_per_month = 100

[rig]
name = "Test rig"
psu_efficiency = 0.9

[[rig.parts]]
kind = "gpu"
name = "GPU"
price = 1500
load_watts = 300

[[rig.parts]]
kind = "cpu"
name = "CPU"
price = 300

[electricity]
price_per_kwh = 0.15

[[cloud]]
name = "Cloud A"
price_per_hour = 2.0
)";
}

// The 1-based line on which `needle` first appears; the test fails if it does not appear.
int line_of(const std::string& text, const std::string& needle) {
    const auto at = text.find(needle);
    REQUIRE(at != std::string::npos);
    int line = 1;
    for (std::size_t i = 0; i < at; ++i)
        if (text[i] == '\n') ++line;
    return line;
}

using payback::test::replaced;

const std::string source = "test.toml";

// The InputError that parsing `text` throws.
InputError error_from(const std::string& text, const std::vector<Override>& overrides = {}) {
    return payback::test::input_error([&] { payback::parse_scenario(text, source, overrides); });
}

void check_error(const InputError& e, int line, const std::string& key_path, const std::string& fragment) {
    payback::test::check_error(e, source, line, key_path, fragment);
}

Override set(const std::string& assignment) { return payback::parse_override(assignment); }

}  // namespace

// ---------------------------------------------------------------------------------------------
// Valid input

TEST_CASE("the base scenario used by the error tests is itself valid", "[parse]") {
    const Scenario s = payback::parse_scenario(base_scenario(), source);
    CHECK(s.rig.name == "Test rig");
    REQUIRE(s.rig.parts.size() == 2);
    CHECK(payback::units::in_money(s.rig.parts[1].price) == 300.0);
    REQUIRE(s.clouds.size() == 1);
    CHECK(s.clouds[0].name == "Cloud A");
}

TEST_CASE("a minimal scenario gets the documented defaults", "[parse]") {
    const std::string text = R"([workload]
gpu_hours_per_month = 50

[[rig.parts]]
kind = "gpu"
name = "GPU"
price = 1000

[electricity]
price_per_kwh = 0.2
)";
    const Scenario s = payback::parse_scenario(text, "some/dir/minimal.toml");
    CHECK(s.source == "some/dir/minimal.toml");
    CHECK(s.name == "minimal");  // the file's stem when [scenario] gives none
    CHECK(s.currency == "USD");
    CHECK(s.horizon_months == 36);
    CHECK(s.discount_rate == 0.0);
    CHECK(payback::units::in_hours(s.training_per_month) == Approx(50.0));
    CHECK(payback::units::in_money_per_kwh(s.electricity_price) == Approx(0.2));
    CHECK(s.rig.name == "rig");
    CHECK(s.rig.psu_efficiency == 1.0);
    CHECK(s.rig.when_not_training == payback::WhenNotTraining::idle);
    CHECK(s.clouds.empty());
    REQUIRE(s.rig.parts.size() == 1);
    const payback::Part& part = s.rig.parts[0];
    CHECK(part.kind == payback::PartKind::gpu);
    CHECK(part.name == "GPU");
    CHECK(payback::units::in_money(part.price) == 1000.0);
    CHECK(part.count == 1);
    CHECK(payback::units::in_watts(part.idle_power) == 0.0);
    CHECK(payback::units::in_watts(part.load_power) == 0.0);
    CHECK(part.resale.method == payback::ResaleMethod::none);
}

TEST_CASE("a cloud option's speedup defaults to 1 and the name to the stem with [scenario] present",
          "[parse]") {
    const Scenario s = payback::parse_scenario(base_scenario(), "dir/base.toml");
    CHECK(s.name == "base");
    REQUIRE(s.clouds.size() == 1);
    CHECK(s.clouds[0].speedup == 1.0);
    CHECK(payback::units::in_money_per_hour(s.clouds[0].price) == Approx(2.0));
}

TEST_CASE("the accepted bounds are inclusive: horizon 1 and 600, 0 and 730 GPU-hours", "[parse]") {
    for (const char* horizon : {"1", "600"}) {
        INFO("horizon_months = " << horizon);
        const auto text = replaced(base_scenario(), "currency = \"USD\"",
                                   std::string("horizon_months = ") + horizon);
        CHECK(payback::parse_scenario(text, source).horizon_months == std::stoi(horizon));
    }
    for (const char* hours : {"0", "730"}) {
        INFO("gpu_hours_per_month = " << hours);
        const auto text = replaced(base_scenario(), "gpu_hours_per_month = 100",
                                   std::string("gpu_hours_per_month = ") + hours);
        CHECK(payback::units::in_hours(payback::parse_scenario(text, source).training_per_month) ==
              Approx(std::stod(hours)));
    }
}

TEST_CASE("every scenario in scenarios/ parses", "[parse]") {
    namespace fs = std::filesystem;
    int parsed = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(PAYBACK_SOURCE_DIR) / "scenarios")) {
        if (entry.path().extension() != ".toml") continue;
        INFO("scenario " << entry.path().string());
        const Scenario s = payback::load_scenario(entry.path().string());
        CHECK(s.source == entry.path().string());
        CHECK_FALSE(s.name.empty());
        CHECK_FALSE(s.rig.parts.empty());
        CHECK_FALSE(s.clouds.empty());
        ++parsed;
    }
    CHECK(parsed >= 3);  // dettmers-3090, rtx3080-home, venus-2019
}

TEST_CASE("the Dettmers scenario reads as published", "[parse]") {
    const Scenario s = payback::load_scenario(std::string(PAYBACK_SOURCE_DIR) + "/scenarios/dettmers-3090.toml");
    CHECK(s.horizon_months == 36);
    CHECK(payback::units::in_hours(s.training_per_month) == Approx(109.5));
    CHECK(s.rig.when_not_training == payback::WhenNotTraining::off);
    REQUIRE(s.rig.parts.size() == 2);
    CHECK(payback::units::in_money(s.rig.parts[0].price) == 2200.0);
    CHECK(payback::units::in_watts(s.rig.parts[0].load_power) == 350.0);
    CHECK(payback::units::in_watts(s.rig.parts[1].load_power) == 100.0);
    CHECK(payback::units::in_money_per_kwh(s.electricity_price) == Approx(0.12));
    REQUIRE(s.clouds.size() == 1);
    CHECK(payback::units::in_money_per_hour(s.clouds[0].price) == Approx(2.14));
}

// ---------------------------------------------------------------------------------------------
// Bad input: each names the file, the line and the key

TEST_CASE("a TOML syntax error names the line of the error", "[parse]") {
    const auto text = replaced(base_scenario(), "price = 300", "price = 300 ]");
    const InputError e = error_from(text);
    CHECK(e.line() == line_of(text, "price = 300 ]"));
    CHECK(e.key_path().empty());  // the parser knows no key path
    CHECK_THAT(e.message(), Catch::StartsWith("syntax error"));
    CHECK_THAT(e.what(), Catch::StartsWith(source + ":" + std::to_string(e.line()) + ": syntax error"));
}

TEST_CASE("a missing required key is named with the line of its table", "[parse]") {
    SECTION("electricity.price_per_kwh") {
        const auto text = replaced(base_scenario(), "price_per_kwh = 0.15\n", "");
        check_error(error_from(text), line_of(text, "[electricity]"), "electricity.price_per_kwh",
                    "missing required key");
    }
    SECTION("workload.gpu_hours_per_month") {
        const auto text = replaced(base_scenario(), "gpu_hours_per_month = 100\n", "");
        check_error(error_from(text), line_of(text, "[workload]"), "workload.gpu_hours_per_month",
                    "missing required key");
    }
    SECTION("rig.parts") {
        const auto full = base_scenario();
        const auto first_part = full.find("[[rig.parts]]");
        const auto electricity = full.find("[electricity]");
        const auto text = full.substr(0, first_part) + full.substr(electricity);
        check_error(error_from(text), line_of(text, "[rig]"), "rig.parts", "missing required key");
    }
    SECTION("a whole table: workload (no line to point at)") {
        const auto text = replaced(base_scenario(), "[workload]\ngpu_hours_per_month = 100\n", "");
        const InputError e = error_from(text);
        CHECK(e.line() == 0);
        CHECK(e.key_path() == "workload");
        CHECK(std::string(e.what()) == "test.toml: workload: missing required key (a table, or rig.schedule)");
    }
}

TEST_CASE("an unknown key is rejected with a did-you-mean hint", "[parse]") {
    SECTION("a misspelt key: psu_efficency") {
        const auto text = replaced(base_scenario(), "psu_efficiency = 0.9", "psu_efficency = 0.9");
        check_error(error_from(text), line_of(text, "psu_efficency"), "rig.psu_efficency",
                    "unknown key (did you mean \"psu_efficiency\"?)");
    }
    SECTION("a key with nothing close gets no hint") {
        const auto text = replaced(base_scenario(), "load_watts = 300", "load_watts = 300\ncolour = \"red\"");
        const InputError e = error_from(text);
        check_error(e, line_of(text, "colour"), "rig.parts[0].colour", "unknown key");
        CHECK(e.message() == "unknown key");
    }
}

TEST_CASE("a value of the wrong type is rejected, naming what was found", "[parse]") {
    SECTION("a string for an integer: horizon_months = \"36\"") {
        const auto text = replaced(base_scenario(), "currency = \"USD\"", "horizon_months = \"36\"");
        check_error(error_from(text), line_of(text, "horizon_months"), "scenario.horizon_months",
                    "expected an integer, got string \"36\"");
    }
    SECTION("a string for a price") {
        const auto text = replaced(base_scenario(), "price = 1500", "price = \"1500\"");
        check_error(error_from(text), line_of(text, "price = \"1500\""), "rig.parts[0].price",
                    "expected a number, got string \"1500\"");
    }
    SECTION("a boolean for a number") {
        const auto text = replaced(base_scenario(), "price_per_kwh = 0.15", "price_per_kwh = true");
        check_error(error_from(text), line_of(text, "price_per_kwh"), "electricity.price_per_kwh",
                    "expected a number, got boolean true");
    }
    SECTION("a fraction for a count") {
        const auto text = replaced(base_scenario(), "load_watts = 300", "load_watts = 300\ncount = 1.5");
        check_error(error_from(text), line_of(text, "count"), "rig.parts[0].count",
                    "expected an integer, got number 1.5");
    }
}

TEST_CASE("a negative price is rejected with its part's index", "[parse]") {
    const auto text = replaced(base_scenario(), "price = 300", "price = -120");
    check_error(error_from(text), line_of(text, "price = -120"), "rig.parts[1].price",
                "must be >= 0, got -120");
}

TEST_CASE("nan and infinities are rejected as not finite", "[parse]") {
    SECTION("in a price") {
        for (const std::string value : {"nan", "inf", "-inf", "+inf"}) {
            INFO("price = " << value);
            const auto text = replaced(base_scenario(), "price = 300", "price = " + value);
            check_error(error_from(text), line_of(text, "price = " + value), "rig.parts[1].price",
                        "expected a finite number");
        }
    }
    SECTION("in a fraction") {
        const auto text = replaced(base_scenario(), "psu_efficiency = 0.9", "psu_efficiency = nan");
        check_error(error_from(text), line_of(text, "psu_efficiency"), "rig.psu_efficiency", "finite");
    }
}

TEST_CASE("a fraction written as a percentage gets a hint", "[parse]") {
    SECTION("psu_efficiency = 85") {
        const auto text = replaced(base_scenario(), "psu_efficiency = 0.9", "psu_efficiency = 85");
        check_error(error_from(text), line_of(text, "psu_efficiency"), "rig.psu_efficiency",
                    "(a percentage? write 0.85 for 85%)");
    }
    SECTION("discount_rate = 5") {
        const auto text = replaced(base_scenario(), "currency = \"USD\"", "discount_rate = 5");
        check_error(error_from(text), line_of(text, "discount_rate"), "scenario.discount_rate",
                    "write 0.05 for 5%");
    }
    SECTION("psu_efficiency = 0 is outside (0, 1] and no percentage") {
        const auto text = replaced(base_scenario(), "psu_efficiency = 0.9", "psu_efficiency = 0");
        const InputError e = error_from(text);
        check_error(e, line_of(text, "psu_efficiency"), "rig.psu_efficiency", "must be a fraction in (0, 1]");
        CHECK_THAT(e.message(), !Catch::Contains("percentage"));
    }
}

TEST_CASE("a part count of 0 is rejected", "[parse]") {
    const auto text = replaced(base_scenario(), "load_watts = 300", "load_watts = 300\ncount = 0");
    check_error(error_from(text), line_of(text, "count = 0"), "rig.parts[0].count",
                "must be between 1 and 1000, got 0");
}

TEST_CASE("horizon_months outside 1..600 is rejected", "[parse]") {
    for (const std::string value : {"0", "601", "-12"}) {
        INFO("horizon_months = " << value);
        const auto text = replaced(base_scenario(), "currency = \"USD\"", "horizon_months = " + value);
        check_error(error_from(text), line_of(text, "horizon_months"), "scenario.horizon_months",
                    "must be between 1 and 600, got " + value);
    }
}

TEST_CASE("more GPU-hours a month than a month has (730) is rejected", "[parse]") {
    const auto text = replaced(base_scenario(), "gpu_hours_per_month = 100", "gpu_hours_per_month = 731");
    check_error(error_from(text), line_of(text, "gpu_hours_per_month"), "workload.gpu_hours_per_month",
                "must be between 0 and 730, got 731");
}

TEST_CASE("a bad choice is rejected with the choices and a hint", "[parse]") {
    SECTION("when_not_training = \"of\"") {
        const auto text = replaced(base_scenario(), "psu_efficiency = 0.9", "when_not_training = \"of\"");
        check_error(error_from(text), line_of(text, "when_not_training"), "rig.when_not_training",
                    "expected one of \"idle\", \"off\", got \"of\" (did you mean \"off\"?)");
    }
    SECTION("a part kind: gpu spelt gup") {
        const auto text = replaced(base_scenario(), "kind = \"gpu\"", "kind = \"gup\"");
        check_error(error_from(text), line_of(text, "kind = \"gup\""), "rig.parts[0].kind",
                    "(did you mean \"gpu\"?)");
    }
}

TEST_CASE("a bad resale method is rejected", "[parse]") {
    SECTION("a near miss gets a hint") {
        const auto text = replaced(base_scenario(), "load_watts = 300",
                                   "resale = { method = \"straigt_line\", life_years = 3 }");
        check_error(error_from(text), line_of(text, "resale"), "rig.parts[0].resale.method",
                    "got \"straigt_line\" (did you mean \"straight_line\"?)");
    }
    SECTION("a word far from every method lists them") {
        const auto text = replaced(base_scenario(), "load_watts = 300", "resale = { method = \"sell\" }");
        const InputError e = error_from(text);
        check_error(e, line_of(text, "resale"), "rig.parts[0].resale.method",
                    "expected one of \"none\", \"declining_balance\", \"straight_line\", \"price_performance\", \"observed\", got \"sell\"");
        CHECK_THAT(e.message(), !Catch::Contains("did you mean"));
    }
}

TEST_CASE("declining_balance resale without annual_rate is rejected", "[parse]") {
    SECTION("inline table") {
        const auto text = replaced(base_scenario(), "load_watts = 300", "resale = { method = \"declining_balance\" }");
        check_error(error_from(text), line_of(text, "resale"), "rig.parts[0].resale.annual_rate",
                    "missing required key (a number)");
    }
    SECTION("sub-table: the line of its header") {
        const auto text = replaced(base_scenario(), "load_watts = 300",
                                   "load_watts = 300\n[rig.parts.resale]\nmethod = \"declining_balance\"");
        check_error(error_from(text), line_of(text, "[rig.parts.resale]"), "rig.parts[0].resale.annual_rate",
                    "missing required key");
    }
}

TEST_CASE("an electricity price in cents gets a hint", "[parse]") {
    SECTION("in USD") {
        const auto text = replaced(base_scenario(), "price_per_kwh = 0.15", "price_per_kwh = 12");
        check_error(error_from(text), line_of(text, "price_per_kwh"), "electricity.price_per_kwh",
                    "must be in USD per kWh, got 12 (cents? write 0.12 for 12 cents)");
    }
    SECTION("but not in a currency whose kWh costs many units") {
        const auto yen = replaced(replaced(base_scenario(), "currency = \"USD\"", "currency = \"JPY\""),
                                  "price_per_kwh = 0.15", "price_per_kwh = 30");
        const Scenario s = payback::parse_scenario(yen, source);
        CHECK(payback::units::in_money_per_kwh(s.electricity_price) == Approx(30.0));
    }
}

TEST_CASE("two cloud options with one name are rejected at the second", "[parse]") {
    const auto text = base_scenario() + "\n[[cloud]]\nname = \"Cloud A\"\nprice_per_hour = 1.0\n";
    const int second_name = line_of(text, "[[cloud]]\nname = \"Cloud A\"\nprice_per_hour = 1.0") + 1;
    check_error(error_from(text), second_name, "cloud[1].name", "duplicate cloud option \"Cloud A\"");
}

TEST_CASE("a cloud option named like the rig is rejected", "[parse]") {
    const auto text = replaced(base_scenario(), "name = \"Cloud A\"", "name = \"Test rig\"");
    check_error(error_from(text), line_of(text, "name = \"Test rig\"\nprice_per_hour"), "cloud[0].name",
                "is the rig's name too");
}

TEST_CASE("a currency that is not a three-letter code is rejected", "[parse]") {
    for (const std::string code : {"usd", "US", "USDT", "U$D"}) {
        INFO("currency = " << code);
        const auto text = replaced(base_scenario(), "currency = \"USD\"", "currency = \"" + code + "\"");
        check_error(error_from(text), line_of(text, "currency"), "scenario.currency",
                    "expected a three-letter ISO 4217 code such as \"USD\", got \"" + code + "\"");
    }
}

TEST_CASE("an empty parts list is rejected", "[parse]") {
    const auto full = base_scenario();
    const auto text = replaced(full.substr(0, full.find("[[rig.parts]]")) + full.substr(full.find("[electricity]")),
                               "psu_efficiency = 0.9", "psu_efficiency = 0.9\nparts = []");
    check_error(error_from(text), line_of(text, "parts = []"), "rig.parts",
                "expected at least one part, got an empty list");
}

// ---------------------------------------------------------------------------------------------
// --set overrides: applied before validation, so they are checked like the file's own values

TEST_CASE("parse_override splits at the first '='", "[parse]") {
    const Override o = payback::parse_override("rig.parts[0].price=1400");
    CHECK(o.key_path == "rig.parts[0].price");
    CHECK(o.value == "1400");
    const Override name = payback::parse_override("rig.name=a=b");
    CHECK(name.key_path == "rig.name");
    CHECK(name.value == "a=b");
}

TEST_CASE("parse_override rejects an assignment without a key or '='", "[parse]") {
    for (const std::string bad : {"novalue", "=5"}) {
        INFO("--set " << bad);
        try {
            payback::parse_override(bad);
            FAIL("parse_override accepted \"" << bad << "\"");
        } catch (const InputError& e) {
            CHECK(e.source() == "--set " + bad);
            CHECK(e.line() == 0);
            CHECK_THAT(e.what(), Catch::Contains("expected key.path=value"));
        }
    }
}

TEST_CASE("an override changes the value it names", "[parse]") {
    SECTION("a part's price") {
        const Scenario s = payback::parse_scenario(base_scenario(), source, {set("rig.parts[0].price=1400")});
        CHECK(payback::units::in_money(s.rig.parts[0].price) == 1400.0);
        CHECK(payback::units::in_money(s.rig.parts[1].price) == 300.0);  // its neighbour untouched
    }
    SECTION("the electricity price") {
        const Scenario s = payback::parse_scenario(base_scenario(), source, {set("electricity.price_per_kwh=0.3")});
        CHECK(payback::units::in_money_per_kwh(s.electricity_price) == Approx(0.3));
    }
    SECTION("a bare word is taken as a string") {
        const Scenario s = payback::parse_scenario(base_scenario(), source, {set("rig.when_not_training=off")});
        CHECK(s.rig.when_not_training == payback::WhenNotTraining::off);
    }
    SECTION("a key the file leaves to its default, in a table the file lacks") {
        const auto text = replaced(base_scenario(), "[scenario]\ncurrency = \"USD\"\n", "");
        const Scenario s = payback::parse_scenario(text, source, {set("scenario.horizon_months=60")});
        CHECK(s.horizon_months == 60);
    }
    SECTION("later overrides win") {
        const Scenario s = payback::parse_scenario(
            base_scenario(), source, {set("workload.gpu_hours_per_month=10"), set("workload.gpu_hours_per_month=20")});
        CHECK(payback::units::in_hours(s.training_per_month) == Approx(20.0));
    }
}

TEST_CASE("a bad override value is reported against the override, not the file", "[parse]") {
    const InputError e = error_from(base_scenario(), {set("rig.parts[0].price=-5")});
    INFO("what(): " << e.what());
    CHECK_THAT(e.source(), Catch::StartsWith("--set"));
    CHECK(e.source() == "--set rig.parts[0].price=-5");
    CHECK(e.line() == 0);  // an override has no line
    CHECK(e.key_path() == "rig.parts[0].price");
    CHECK(std::string(e.what()) == "--set rig.parts[0].price=-5: rig.parts[0].price: must be >= 0, got -5");
}

TEST_CASE("an override with an index past the list's end is rejected", "[parse]") {
    const InputError e = error_from(base_scenario(), {set("rig.parts[9].price=1")});
    INFO("what(): " << e.what());
    CHECK(e.source() == "--set rig.parts[9].price=1");
    CHECK(e.key_path() == "rig.parts[9]");
    CHECK_THAT(e.message(), Catch::Contains("no such element: the list has 2"));
}

TEST_CASE("an override to an unknown key is rejected with a hint", "[parse]") {
    const InputError e = error_from(base_scenario(), {set("rig.psu_efficency=0.8")});
    INFO("what(): " << e.what());
    CHECK(e.source() == "--set rig.psu_efficency=0.8");
    CHECK(e.key_path() == "rig.psu_efficency");
    CHECK(e.message() == "unknown key (did you mean \"psu_efficiency\"?)");
}

TEST_CASE("an override with a malformed key path is rejected", "[parse]") {
    for (const std::string path : {"rig.parts[x].price", "rig.parts[0.price", "rig..name"}) {
        INFO("--set " << path << "=1");
        const InputError e = error_from(base_scenario(), {set(path + "=1")});
        CHECK(e.source() == "--set " + path + "=1");
        CHECK(e.key_path() == path);
    }
}

TEST_CASE("an override index too large for any list is a clear error, not a crash", "[parse]") {
    const InputError e = error_from(base_scenario(), {set("rig.parts[99999999999999999999999].price=1")});
    CHECK(e.source() == "--set rig.parts[99999999999999999999999].price=1");
    CHECK_THAT(e.message(), Catch::Contains("expected an index such as parts[0]"));
}

TEST_CASE("errors inside tables an override made or replaced name the override", "[parse]") {
    SECTION("an unknown key in a new table") {
        const InputError e = error_from(base_scenario(), {set("foo.bar=1")});
        CHECK(e.source() == "--set foo.bar=1");
        CHECK(e.key_path() == "foo");
        CHECK(e.message() == "unknown key");
    }
    SECTION("a key missing from an inline table given by --set") {
        const InputError e = error_from(base_scenario(), {set("rig.parts[0].resale={method=\"declining_balance\"}")});
        CHECK(e.source() == "--set rig.parts[0].resale={method=\"declining_balance\"}");
        CHECK(e.line() == 0);
        CHECK(e.key_path() == "rig.parts[0].resale.annual_rate");
        CHECK_THAT(e.message(), Catch::Contains("missing required key"));
    }
    SECTION("a key missing from a list element replaced by --set") {
        const InputError e = error_from(base_scenario(), {set("rig.parts[0]={kind=\"gpu\",name=\"x\"}")});
        CHECK(e.source() == "--set rig.parts[0]={kind=\"gpu\",name=\"x\"}");
        CHECK(e.key_path() == "rig.parts[0].price");
    }
}

// ---------------------------------------------------------------------------------------------
// Files

TEST_CASE("a missing scenario file is named in the error", "[parse]") {
    try {
        payback::load_scenario("no/such.toml");
        FAIL("load_scenario opened a file that does not exist");
    } catch (const InputError& e) {
        CHECK(e.source() == "no/such.toml");
        CHECK(e.line() == 0);
        CHECK(std::string(e.what()) == "no/such.toml: no such scenario file");
    }
}

TEST_CASE("a directory given as the scenario is rejected as not a file", "[parse]") {
    try {
        payback::load_scenario(PAYBACK_SOURCE_DIR "/scenarios");
        FAIL("load_scenario read a directory");
    } catch (const InputError& e) {
        CHECK(e.message() == "not a regular file");
    }
}

TEST_CASE("an error in a loaded file names its path and line", "[parse]") {
    const std::string path = std::string(PAYBACK_SOURCE_DIR) + "/tests/fixtures/negative-price.toml";
    try {
        payback::load_scenario(path);
        FAIL("load_scenario accepted a negative price");
    } catch (const InputError& e) {
        CHECK(e.source() == path);
        CHECK(e.line() == 16);  // the fixture's comment says where its bad line is
        CHECK(e.key_path() == "rig.parts[1].price");
        CHECK(std::string(e.what()) == path + ":16: rig.parts[1].price: must be >= 0, got -120");
    }
}

TEST_CASE("overrides given to load_scenario are checked like the file's values", "[parse]") {
    const std::string path = std::string(PAYBACK_SOURCE_DIR) + "/scenarios/dettmers-3090.toml";
    REQUIRE_THROWS_WITH(payback::load_scenario(path, {set("rig.parts[1].count=0")}),
                        "--set rig.parts[1].count=0: rig.parts[1].count: must be between 1 and 1000, got 0");
    REQUIRE_THROWS_WITH(payback::load_scenario(path, {set("workload.gpu_hours_per_month=[1]")}),
                        Catch::Contains("workload.gpu_hours_per_month: expected a number, got an array"));
    const Scenario s = payback::load_scenario(path, {set("rig.parts[0].price=1400")});
    CHECK(payback::units::in_money(s.rig.parts[0].price) == 1400.0);
}

// ---------------------------------------------------------------------------------------------
// Finance keys

TEST_CASE("finance keys default to a hobbyist with no loan, no taxes and flat prices", "[parse][finance]") {
    const Scenario s = payback::parse_scenario(base_scenario(), source);
    CHECK(s.inflation == 0.0);
    CHECK_FALSE(s.real_discount_rate);
    CHECK_FALSE(s.start);
    CHECK(s.perspective == payback::Perspective::hobbyist);
    CHECK(s.electricity_escalation == 0.0);
    CHECK(payback::units::in_money(s.running_costs.maintenance_per_year) == 0.0);
    CHECK(s.running_costs.repair_reserve == 0.0);
    CHECK_FALSE(s.financing);
    CHECK_FALSE(s.tax);
    CHECK(s.rig.parts[0].purchase_month == 1);
    CHECK_FALSE(s.rig.parts[0].retire_month);
    CHECK(s.clouds[0].escalation == 0.0);
    CHECK(payback::units::in_money(s.clouds[0].storage_per_month) == 0.0);
}

TEST_CASE("a real discount rate becomes nominal by the Fisher relation", "[parse][finance]") {
    // (1 + 0.03)(1 + 0.02) - 1 = 0.0506.
    const Scenario s = payback::parse_scenario(
        replaced(base_scenario(), "currency = \"USD\"", "currency = \"USD\"\nreal_discount_rate = 0.03\ninflation = 0.02"),
        source);
    REQUIRE(s.real_discount_rate);
    CHECK(*s.real_discount_rate == 0.03);
    CHECK(s.discount_rate == Approx(0.0506).epsilon(1e-14));
    const std::string both =
        replaced(base_scenario(), "currency = \"USD\"", "currency = \"USD\"\ndiscount_rate = 0.05\nreal_discount_rate = 0.03");
    check_error(error_from(both), 4, "scenario.real_discount_rate", "not both");  // its own line
}

TEST_CASE("financing and business taxes are read with their defaults", "[parse][finance]") {
    const Scenario s = payback::parse_scenario(base_scenario(), source,
                                               {set("financing={ apr = 0.079 }"), set("scenario.perspective=business"),
                                                set("tax={ income_tax_rate = 0.21 }")});
    REQUIRE(s.financing);
    CHECK(s.financing->apr == 0.079);
    CHECK(s.financing->term_months == 12);
    CHECK(payback::units::in_money(s.financing->down_payment) == 0.0);
    REQUIRE(s.tax);
    CHECK(s.tax->income_tax_rate == 0.21);
    CHECK(s.tax->depreciation == payback::finance::TaxDepreciation::macrs_5);
    CHECK(s.tax->deduct_running_costs);
}

TEST_CASE("taxes need the business perspective, and the business perspective needs taxes", "[parse][finance]") {
    const auto hobbyist_with_tax = error_from(base_scenario(), {set("tax={ income_tax_rate = 0.2 }")});
    CHECK(hobbyist_with_tax.key_path() == "tax");
    CHECK_THAT(hobbyist_with_tax.message(), Catch::Contains("scenario.perspective = \"business\""));
    const auto business_without = error_from(base_scenario(), {set("scenario.perspective=business")});
    CHECK(business_without.key_path() == "tax");
    CHECK_THAT(business_without.message(), Catch::Contains("missing required table"));
}

TEST_CASE("bad finance values are rejected naming their key", "[parse][finance]") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"financing={ apr = 7.9 }", "financing.apr"},                       // a percentage
        {"financing={ apr = 0.05, term_months = 0 }", "financing.term_months"},
        {"financing={ apr = 0.05, down_payment = -1 }", "financing.down_payment"},
        {"running_costs={ repair_reserve = 2 }", "running_costs.repair_reserve"},
        {"running_costs={ maintenance_per_year = -5 }", "running_costs.maintenance_per_year"},
        {"electricity.escalation=-1", "electricity.escalation"},
        {"cloud[0].storage_per_month=-3", "cloud[0].storage_per_month"},
        {"cloud[0].escalation=nan", "cloud[0].escalation"},
        {"rig.parts[0].purchase_month=37", "rig.parts[0].purchase_month"},  // past the 36-month horizon
        {"rig.parts[0].purchase_month=0", "rig.parts[0].purchase_month"},
        {"rig.parts[0].resale={ method = \"price_performance\" }", "rig.parts[0].resale.half_life_years"},
        {"scenario.start=\"2021-13\"", "scenario.start"},
        {"scenario.perspective=corporate", "scenario.perspective"},
    };
    for (const auto& [assignment, key] : cases) {
        INFO(assignment);
        CHECK(error_from(base_scenario(), {set(assignment)}).key_path() == key);
    }
}

TEST_CASE("a part retired before it is bought is rejected", "[parse][finance]") {
    const auto e = error_from(base_scenario(), {set("rig.parts[0].purchase_month=6"), set("rig.parts[0].retire_month=5")});
    CHECK(e.key_path() == "rig.parts[0].retire_month");
    CHECK_THAT(e.message(), Catch::Contains("must be between 6 and 600"));
}

TEST_CASE("tax schedules: the choices and a custom schedule that must add up to at most 1", "[parse][finance]") {
    const auto business = [](const std::string& tax) {
        return std::vector<Override>{set("scenario.perspective=business"), set("tax=" + tax)};
    };
    const Scenario s = payback::parse_scenario(
        base_scenario(), source, business("{ income_tax_rate = 0.2, depreciation = \"custom\", custom_schedule = [0.6, 0.4] }"));
    CHECK(s.tax->custom_schedule == std::vector<double>{0.6, 0.4});
    CHECK(error_from(base_scenario(), business("{ income_tax_rate = 0.2, depreciation = \"custom\", custom_schedule = [0.6, 0.6] }"))
              .key_path() == "tax.custom_schedule");
    CHECK(error_from(base_scenario(), business("{ income_tax_rate = 0.2, depreciation = \"custom\", custom_schedule = [0.6, \"a\"] }"))
              .key_path() == "tax.custom_schedule[1]");
    CHECK(error_from(base_scenario(), business("{ income_tax_rate = 0.2, depreciation = \"macrs_7\" }")).key_path() ==
          "tax.depreciation");
    CHECK(error_from(base_scenario(), business("{ income_tax_rate = 1.0 }")).key_path() == "tax.income_tax_rate");
    CHECK(error_from(base_scenario(), business("{ income_tax_rate = 0.2, deduct_running_costs = \"yes\" }")).key_path() ==
          "tax.deduct_running_costs");
}

TEST_CASE("observed resale needs a start month, a known item and the scenario's currency", "[parse][finance]") {
    const std::string observed = "rig.parts[0].resale={ method = \"observed\", file = \"pricing/used-gpu-prices.csv\", "
                                 "item = \"RTX 3090\" }";
    const std::string in_repo = PAYBACK_SOURCE_DIR "/test.toml";  // the file path is relative to the scenario
    auto error_at = [&](const std::vector<Override>& overrides) {
        try {
            payback::parse_scenario(base_scenario(), in_repo, overrides);
        } catch (const InputError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(error_at({set(observed)}), Catch::Contains("needs scenario.start"));
    const Scenario s = payback::parse_scenario(base_scenario(), in_repo, {set(observed), set("scenario.start=\"2022-06\"")});
    REQUIRE(s.rig.parts[0].observed_prices);
    CHECK(s.rig.parts[0].observed_prices->item == "RTX 3090");
    CHECK_THAT(error_at({set("rig.parts[0].resale={ method = \"observed\", file = \"pricing/used-gpu-prices.csv\", "
                             "item = \"RTX 3900\" }"),
                         set("scenario.start=\"2022-06\"")}),
               Catch::Contains("RTX 3090"));  // did you mean
    CHECK_THAT(error_at({set(observed), set("scenario.start=\"2022-06\""), set("scenario.currency=\"EUR\"")}),
               Catch::Contains("in USD, the scenario is in EUR"));
    CHECK_THAT(error_at({set("rig.parts[0].resale={ method = \"observed\", file = \"no/such.csv\", item = \"x\" }"),
                         set("scenario.start=\"2022-06\"")}),
               Catch::Contains("no/such.csv"));
}

// ---------------------------------------------------------------------------------------------
// Hardware keys

TEST_CASE("bad hardware values are rejected naming their key", "[parse][hardware]") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"rig.psu={ rating = \"diamond\", capacity_watts = 750 }", "rig.psu.rating"},
        {"rig.psu={ rating = \"gold\" }", "rig.psu.capacity_watts"},
        {"rig.psu={ rating = \"gold\", capacity_watts = 750, mains_volts = 400 }", "rig.psu.mains_volts"},
        {"rig.schedule=[\"weekdays 09-18 napping\"]", "rig.schedule"},
        {"rig.schedule=\"weekdays 09-18 training\"", "rig.schedule"},
        {"rig.cooling={ cop_by_month = [3, 3] }", "rig.cooling.cop_by_month"},
        {"rig.cooling={ cop = 0 }", "rig.cooling.cop"},
        {"rig.circuit={ volts = 120 }", "rig.circuit.breaker_amps"},
        {"rig.parts[0].power_limit_watts=0", "rig.parts[0].power_limit_watts"},
        {"rig.parts[0].rented_watts=-1", "rig.parts[0].rented_watts"},
        {"rig.parts[0].pcie={ generation = 3, lanes = 12 }", "rig.parts[0].pcie.lanes"},
        {"electricity.tiers=[{ price = 0.1 }]", "electricity.tiers"},  // price_per_kwh is there too
        {"electricity.grid_region=\"US-XX\"", "electricity.grid_region"},
        {"electricity.co2_kg_per_kwh=400", "electricity.co2_kg_per_kwh"},  // grams, not kg
        {"cloud[0].region=\"aws:mars-1\"", "cloud[0].region"},
        {"cloud[0].region=\"us-east-1\"", "cloud[0].region"},
        {"workload.deferrable=1", "workload.deferrable"},
    };
    // Without psu_efficiency, so that a psu table is not rejected for giving both.
    const std::string base = replaced(base_scenario(), "psu_efficiency = 0.9\n", "");
    for (const auto& [assignment, key] : cases) {
        INFO(assignment);
        CHECK(error_from(base, {set(assignment)}).key_path() == key);
    }
}

TEST_CASE("psu and psu_efficiency together are rejected", "[parse][hardware]") {
    const auto e = error_from(base_scenario(), {set("rig.psu={ rating = \"gold\", capacity_watts = 750 }")});
    CHECK(e.key_path() == "rig.psu");  // the base scenario has psu_efficiency = 0.9
    CHECK_THAT(e.message(), Catch::Contains("not both"));
}

TEST_CASE("a PSU too small for the parts is an error naming them", "[parse][hardware]") {
    std::string text = replaced(base_scenario(), "psu_efficiency = 0.9", "psu = { rating = \"gold\", capacity_watts = 500 }");
    const auto e = error_from(text, {set("rig.parts[0].count=2")});
    CHECK(e.key_path() == "rig.psu.capacity_watts");
    // 2 x 300 W GPUs: 600 W DC while training, over 500 W.
    CHECK_THAT(e.message(), Catch::Contains("600 W DC when training in month 1 (2 x GPU 600 W)"));
    CHECK_THAT(e.message(), Catch::Contains("more than the PSU's 500 W"));
}

TEST_CASE("a schedule that disagrees with the workload is an error; without a workload it sets it", "[parse][hardware]") {
    const auto e = error_from(base_scenario(), {set("rig.schedule=[\"weekdays 09-18 training\"]")});
    CHECK(e.key_path() == "workload.gpu_hours_per_month");
    CHECK_THAT(e.message(), Catch::Contains("is 100 but rig.schedule trains 195.54 h a month"));
    const std::string no_workload = replaced(base_scenario(), "[workload]\ngpu_hours_per_month = 100\n", "");
    const Scenario s = payback::parse_scenario(no_workload, source, {set("rig.schedule=[\"weekdays 09-18 training\"]")});
    CHECK(payback::units::in_hours(s.training_per_month) == Approx(45.0 * 730 / 168));
    CHECK(error_from(no_workload).key_path() == "workload");
}

TEST_CASE("exactly one tariff", "[parse][hardware]") {
    const std::string none = replaced(base_scenario(), "price_per_kwh = 0.15", "escalation = 0.02");
    const auto missing = error_from(none);
    CHECK(missing.key_path() == "electricity.price_per_kwh");
    CHECK_THAT(missing.message(), Catch::Contains("tiers, urdb or periods"));
    const auto tou = error_from(replaced(base_scenario(), "price_per_kwh = 0.15",
                                         "periods = [{ name = \"all\", price = 0.2 }]\nweekday_schedule = [[0]]"));
    CHECK(tou.key_path() == "electricity.weekday_schedule");
    CHECK_THAT(tou.message(), Catch::Contains("12 arrays of 24 integers"));
    const auto cents = error_from(replaced(base_scenario(), "price_per_kwh = 0.15",
                                           "tiers = [{ up_to_kwh = 300, price = 12 }, { price = 0.3 }]"));
    CHECK(cents.key_path() == "electricity.tiers[0].price");
    CHECK_THAT(cents.message(), Catch::Contains("cents?"));
}
