#include <catch2/catch.hpp>

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "payback/base/text_file.hpp"
#include "payback/scenario/rig_energy.hpp"
#include "payback/scenario/rig_links.hpp"
#include "payback/scenario/scenario.hpp"
#include "payback/workload/predictor.hpp"
#include "support/input_errors.hpp"
#include "support/scenario_text.hpp"
#include "support/temp_dir.hpp"

using namespace payback;
using payback::test::check_error;
using payback::test::input_error;
using payback::test::replaced;

namespace {

// The 1-based line of `text` on which `fragment` first appears.
int line_of(const std::string& text, const std::string& fragment) {
    const auto at = text.find(fragment);
    REQUIRE(at != std::string::npos);
    return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

const std::string tokens_line = "tokens = { model";

// `text` with the whole line holding `fragment` replaced by `line`.
std::string with_line(std::string text, const std::string& fragment, const std::string& line) {
    const auto at = text.find(fragment);
    REQUIRE(at != std::string::npos);
    const auto start = text.rfind('\n', at) + 1;
    return text.replace(start, text.find('\n', at) - start, line);
}

}  // namespace

TEST_CASE("a token workload: the rig's serving hours, and the cloud's", "[tokens][parse]") {
    const Scenario s = parse_scenario(test::token_scenario(), "tokens.toml");
    REQUIRE(s.tokens);
    CHECK(s.tokens->model == "llama-3.1-8b");
    CHECK(s.tokens->quant == "q4_0");
    CHECK(s.tokens->volume.cached_input_share == 0.5);
    CHECK(s.tokens->concurrency == 1);  // the key table's defaults
    CHECK(s.tokens->context == 4096);
    CHECK(units::in_hours(s.training_per_month) == 0.0);  // serving only
    // 36e6 / 2000 / 3600 + 7.2e6 / 100 / 3600 = 5 + 20 = 25 h.
    CHECK(s.serving_hours_per_month == Approx(25.0));
    REQUIRE(s.clouds.size() == 2);
    CHECK(s.clouds[0].tokens_per_second->decode == 200.0);
    CHECK_FALSE(s.clouds[0].api);
    REQUIRE(s.clouds[1].api);
    CHECK(s.clouds[1].name == "api");
    CHECK(s.clouds[1].api->off_peak_share == Approx(1.0 / 3.0));  // 8 h of every 24
}

TEST_CASE("the rig draws its load watts for the serving hours and idles the rest", "[tokens][energy]") {
    const RigEnergy e = rig_energy(parse_scenario(test::token_scenario(), "tokens.toml"));
    // 25 h × 400 W / 0.8 + 705 h × 50 W / 0.8 = 12.5 + 44.0625 = 56.5625 kWh, × $0.2 = $11.3125.
    CHECK(e.wall_kwh.front() == Approx(56.5625));
    CHECK(e.cost.front() == Approx(11.3125));
}

TEST_CASE("training and tokens together: the hours add up on the rig and on the cloud", "[tokens][energy]") {
    const std::string text = replaced(test::token_scenario(), tokens_line, "gpu_hours_per_month = 100\n" + tokens_line);
    // An API serves tokens only: with training it is refused, so this scenario leaves it out.
    const std::string without_api = text.substr(0, text.find("[[api]]"));
    const Scenario s = parse_scenario(without_api, "both.toml");
    CHECK(units::in_hours(s.training_per_month) == 100.0);
    CHECK(s.serving_hours_per_month == Approx(25.0));
    // 125 h × 500 W + 605 h × 62.5 W = 62.5 + 37.8125 = 100.3125 kWh at the wall.
    CHECK(rig_energy(s).wall_kwh.front() == Approx(100.3125));
    const InputError e = input_error([&] { (void)parse_scenario(text, "both.toml"); });
    check_error(e, "both.toml", line_of(text, "name = \"api\""), "api[0].name", "not the 100 h a month of training");
}

TEST_CASE("training and serving beyond the month say what the rig can serve", "[tokens][parse]") {
    std::string text = test::token_scenario();
    text = replaced(text.substr(0, text.find("[[api]]")), tokens_line, "gpu_hours_per_month = 710\n" + tokens_line);
    // 710 h training + 25 h serving = 735 h > 730; the 15 h left after 710 + 5 h of input write
    // 15 × 3600 × 100 = 5.4e6 output tokens.
    const InputError e = input_error([&] { (void)parse_scenario(text, "full.toml"); });
    check_error(e, "full.toml", line_of(text, tokens_line), "workload.tokens", "at most 5.4e+06 output tokens");
}

TEST_CASE("bad token input exits with file, line and key", "[tokens][parse][errors]") {
    const std::string base = test::token_scenario();
    SECTION("negative tokens") {
        const std::string text = replaced(base, "input_tokens_per_month = 36e6", "input_tokens_per_month = -1");
        const InputError e = input_error([&] { (void)parse_scenario(text, "bad.toml"); });
        check_error(e, "bad.toml", line_of(text, tokens_line), "workload.tokens.input_tokens_per_month", "-1");
    }
    SECTION("a cached share above 1") {
        const std::string text = replaced(base, "cached_input_share = 0.5", "cached_input_share = 1.5");
        const InputError e = input_error([&] { (void)parse_scenario(text, "bad.toml"); });
        check_error(e, "bad.toml", line_of(text, tokens_line), "workload.tokens.cached_input_share", "1.5");
    }
    SECTION("both api and prices") {
        const std::string text = replaced(base, "name = \"api\"", "name = \"api\"\napi = \"together:llama-3.1-8b\"");
        const InputError e = input_error([&] { (void)parse_scenario(text, "bad.toml"); });
        check_error(e, "bad.toml", line_of(text, "price_per_million_input"), "api[0].price_per_million_input",
                    "not both");
    }
    SECTION("an unknown API row, with the closest") {
        std::string text = base.substr(0, base.find("[[api]]")) + "[[api]]\napi = \"togther:llama-3.1-8b\"\n";
        const InputError e = input_error([&] { (void)parse_scenario(text, "bad.toml"); });
        check_error(e, "bad.toml", line_of(text, "api = \"togther"), "api[0].api", "did you mean \"together:llama-3.1-8b\"");
    }
    SECTION("a rig without rates") {
        const std::string text = replaced(base, "tokens_per_second = { prefill = 2000, decode = 100 }", "");
        const InputError e = input_error([&] { (void)parse_scenario(text, "bad.toml"); });
        check_error(e, "bad.toml", line_of(text, "[rig]"), "rig.tokens_per_second", "missing");
    }
    SECTION("a cloud without rates") {
        const std::string text = replaced(base, "tokens_per_second = { prefill = 4000, decode = 200 }", "");
        const InputError e = input_error([&] { (void)parse_scenario(text, "bad.toml"); });
        check_error(e, "bad.toml", line_of(text, "[[cloud]]"), "cloud[0].tokens_per_second", "missing");
    }
    SECTION("rates without tokens") {
        const std::string text = with_line(base.substr(0, base.find("[[api]]")), tokens_line, "gpu_hours_per_month = 10");
        const InputError e = input_error([&] { (void)parse_scenario(text, "bad.toml"); });
        check_error(e, "bad.toml", line_of(text, "tokens_per_second = { prefill = 2000"), "rig.tokens_per_second",
                    "needs workload.tokens");
    }
}

TEST_CASE("an API row from the catalog, and the round trip through to_toml", "[tokens][api][parse]") {
    const std::string base = test::token_scenario();
    const std::string text = base.substr(0, base.find("[[api]]")) +
                             "[[api]]\napi = \"together:llama-3.1-8b\"\nescalation = -0.3\n";
    const Scenario s = parse_scenario(text, "catalog.toml");
    const CloudOption& api = s.clouds.back();
    CHECK(api.name == "together:llama-3.1-8b");
    CHECK(api.api->input_per_million == Approx(0.18));
    CHECK(api.escalation == -0.3);
    // Written back with the row's prices (the row noted beside them), which read back the same.
    CHECK_THAT(to_toml(s), Catch::Contains("price_per_million_input = 0.18  # pricing/api-prices.csv:"));
    const Scenario again = parse_scenario(to_toml(s), "again.toml");
    CHECK(to_toml(parse_scenario(to_toml(again), "third.toml")) == to_toml(again));
    CHECK(again.clouds.back().name == api.name);
    CHECK(again.clouds.back().escalation == -0.3);
    CHECK(again.clouds.back().api->output_per_million == Approx(0.18));
    CHECK(again.serving_hours_per_month == Approx(25.0));
}

namespace {

std::string shipped_scenario(const std::string& name) {
    return payback::detail::read_text_file(std::string(PAYBACK_SOURCE_DIR) + "/scenarios/" + name, "scenario");
}

}  // namespace

TEST_CASE("the model and quant name rows of pricing/models.csv and quants.csv, with suggestions", "[tokens][parse]") {
    const std::string text = shipped_scenario("llm-4090-vs-api.toml");
    const int line = line_of(text, tokens_line);
    const std::string typo = replaced(text, "model = \"llama-3.1-8b\"", "model = \"llama-3.1-9b\"");
    check_error(input_error([&] { (void)parse_scenario(typo, "llm.toml"); }), "llm.toml", line,
                "workload.tokens.model", "did you mean \"llama-3.1-8b\"?");
    const std::string trainer = replaced(text, "model = \"llama-3.1-8b\"", "model = \"resnet50\"");
    check_error(input_error([&] { (void)parse_scenario(trainer, "llm.toml"); }), "llm.toml", line,
                "workload.tokens.model", "is a training workload");
    const std::string quant = replaced(text, "quant = \"q4_k_m\"", "quant = \"q4_1\"");
    check_error(input_error([&] { (void)parse_scenario(quant, "llm.toml"); }), "llm.toml", line,
                "workload.tokens.quant", "no quantization");
}

TEST_CASE("a model that does not fit the rig's or an instance's GPU memory names the device and both sizes",
          "[tokens][parse][memory]") {
    // Llama 3.1 70B at Q4_K_M, 4,096 tokens of context, one sequence (memory_fit.hpp, GB of 2^30 bytes):
    // weights 70,553,706,496 × 4.84 / 8 = 42,684,992,430 B = 39.75 GB; KV cache 2 × 80 layers × 8 KV
    // heads × 128 × 4,096 × 2 B = 1.25 GB; activations 4 × (128,256 + 64 × 4,096 + 4 × 8,192 + 2 × 28,672)
    // B = 0.002 GB: 41.0 GB against the RTX 4090's 24.
    const std::string text = replaced(shipped_scenario("llm-4090-vs-api.toml"), "model = \"llama-3.1-8b\"",
                                      "model = \"llama-3.1-70b\"");
    check_error(input_error([&] { (void)parse_scenario(text, "llm.toml"); }), "llm.toml", line_of(text, tokens_line),
                "workload.tokens", "needs 41.0 GB, and one RTX 4090 has 24.0 GB");
    // Two used RTX 3090s, 24 GB each, split the same 41.0 GB by layers: 48 GB hold it.
    const Scenario two = parse_scenario(shipped_scenario("llm-2x3090-70b.toml"), "two.toml");
    CHECK(two.tokens->model == "llama-3.1-70b");
}

TEST_CASE("without tokens_per_second the rig and a catalog instance get the predictor's rates", "[tokens][parse][predict]") {
    std::string text = shipped_scenario("llm-4090-vs-api.toml");
    text = with_line(text, "tokens_per_second = { prefill = 5265.68", "");  // the L4's are left out already
    const Scenario s = parse_scenario(text, "predicted.toml");
    // The workload: Llama 3.1 8B at Q4_K_M, 4,096 tokens of context, one sequence at a time.
    const auto direct = [](const std::string& device, const std::string& phase) {
        return predict({.device = device, .workload = "llama-3.1-8b", .quant = "q4_k_m", .phase = phase, .batch = 1,
                        .context = 4096},
                       Catalog::shipped(), ModelCatalog::shipped());
    };
    const Prediction rig_decode = direct("RTX 4090", "decode");
    REQUIRE(s.rig.tokens_per_second);
    CHECK(s.rig.tokens_per_second->decode == rig_decode.per_second);
    CHECK(s.rig.tokens_per_second->prefill == direct("RTX 4090", "prefill").per_second);
    CHECK(s.rig.tokens_per_second->predicted);
    // predictor_fit.cpp's held-out decode error, -8 % to +48 % today.
    const std::string error = fmt::format("expected error {:+.0f} %/{:+.0f} %", rig_decode.error_low * 100,
                                          rig_decode.error_high * 100);
    CHECK(s.rig.tokens_per_second->origin == "predicted for RTX 4090 from its specs (roofline), " + error);
    // 300e6 input and 60e6 output tokens a month at the predicted rates.
    CHECK(s.serving_hours_per_month ==
          Approx(300e6 / s.rig.tokens_per_second->prefill / 3600 + 60e6 / rig_decode.per_second / 3600));
    // aws:g6.xlarge is one L4.
    const CloudOption& l4 = s.clouds.front();
    REQUIRE(l4.tokens_per_second);
    CHECK(l4.tokens_per_second->decode == direct("L4", "decode").per_second);
    CHECK(l4.tokens_per_second->prefill == direct("L4", "prefill").per_second);
    CHECK(l4.tokens_per_second->origin == "predicted for L4 from its specs (roofline), " + error);
    // Written back without the rates, so that a changed workload (--set, a sweep) is predicted anew.
    const std::string written = to_toml(s);
    CHECK(written.find("tokens_per_second") == std::string::npos);
    const Scenario again = parse_scenario(written, "again.toml");
    CHECK(again.rig.tokens_per_second->decode == rig_decode.per_second);
    const Scenario longer = parse_scenario(text, "longer.toml", {{"workload.tokens.context", "16384"}});
    CHECK(longer.rig.tokens_per_second->decode < rig_decode.per_second);  // a longer KV cache to read each step
}

TEST_CASE("rates given by hand stay measured and win over the predictor", "[tokens][parse][predict]") {
    const Scenario s = parse_scenario(shipped_scenario("llm-4090-vs-api.toml"), "given.toml");
    CHECK(s.rig.tokens_per_second->decode == 119.44);
    CHECK(s.rig.tokens_per_second->origin == "measured (given by hand)");
    CHECK_FALSE(s.rig.tokens_per_second->predicted);
    CHECK_THAT(to_toml(s), Catch::Contains("tokens_per_second = { prefill = 5265.68, decode = 119.44 }"));
}

TEST_CASE("two RTX 3090s split a 70B model by layers: one card's time on the whole model plus the link",
          "[tokens][parse][predict]") {
    std::string text = shipped_scenario("llm-2x3090-70b.toml");
    text = with_line(text, "tokens_per_second = { prefill = 379.52", "");
    const Scenario s = parse_scenario(text, "split.toml");
    const auto one_card = [&](const std::string& phase) {
        return predict({.device = "RTX 3090", .workload = "llama-3.1-70b", .quant = s.tokens->quant, .phase = phase,
                        .batch = 1, .context = s.tokens->context},
                       Catalog::shipped(), ModelCatalog::shipped());
    };
    const Prediction decode = one_card("decode");
    CHECK_FALSE(decode.fits_memory);  // 41 GB on a 24 GB card: split
    // The rig's link (rig_links.hpp) between its two cards; one boundary, d_model 8,192: a step hands
    // 8,192 × 4 B = 32,768 B over it, + the fitted hop of 183.4 µs (predictor.hpp).
    const double link = rig_scaling(s).link_gb_per_s;
    const double link_seconds = 32768.0 / (link * 1e9) + 183.4e-6;
    CHECK(s.rig.tokens_per_second->decode == Approx(1 / (1 / decode.per_second + link_seconds)).epsilon(1e-12));
    // A prompt token: the same 32,768 B, and the latency shared by a micro-batch of 512 tokens.
    const double prefill_link = 32768.0 / (link * 1e9) + 183.4e-6 / 512;
    CHECK(s.rig.tokens_per_second->prefill ==
          Approx(1 / (1 / one_card("prefill").per_second + prefill_link)).epsilon(1e-12));
    CHECK_THAT(s.rig.tokens_per_second->origin,
               Catch::StartsWith("predicted for 2 x RTX 3090 split by layers from their specs (roofline, + 0.184 ms"));
}

namespace {

const std::string llm_profile = PAYBACK_SOURCE_DIR "/tests/fixtures/profiles/llm-decode-cpu.json";

// The token scenario with the rig's rates left to workload.tokens.profile = "profile.json" (in `dir`,
// a copy of `profile_text`), 1 M input and 0.2 M output tokens a month.
std::string profiled_scenario() {
    std::string text = test::token_scenario();
    text = replaced(text, "tokens_per_second = { prefill = 2000, decode = 100 }\n", "");
    text = replaced(text, "input_tokens_per_month = 36e6, output_tokens_per_month = 7.2e6",
                    "input_tokens_per_month = 1e6, output_tokens_per_month = 2e5, profile = \"profile.json\"");
    return text;
}

}  // namespace

TEST_CASE("workload.tokens.profile gives the rig the measured rates scaled to the served model",
          "[tokens][parse][profile]") {
    test::TempDir dir;
    dir.write("profile.json", payback::detail::read_text_file(llm_profile, "fixture"));
    const std::string path = (dir.path() / "s.toml").string();
    const Scenario s = parse_scenario(profiled_scenario(), path);
    REQUIRE(s.rig.tokens_per_second);
    // tests/lib/workload/measured_serving_test.cpp works these by hand: Llama 3.1 8B at Q4_0, context
    // 4,096, one sequence: 13.774848 GB/s ÷ 4,758,391,040 B = 2.89485 decode and 419.168256 GFLOP/s ÷
    // 16,083,591,168 FLOPs = 26.0619 prefill tokens a second.
    CHECK(s.rig.tokens_per_second->decode == Approx(2.89485).epsilon(1e-5));
    CHECK(s.rig.tokens_per_second->prefill == Approx(26.0619).epsilon(1e-5));
    CHECK_THAT(s.rig.tokens_per_second->origin,
               Catch::StartsWith("measured on Test CPU (profile " + (dir.path() / "profile.json").string()));
    // 1e6 / 26.0619 / 3600 = 10.6584 h reading and 2e5 / 2.89485 / 3600 = 19.1911 h writing.
    CHECK(s.serving_hours_per_month == Approx(10.6584 + 19.1911).epsilon(1e-5));
    // Written back with the profile and without the rates it gives, so that they are derived anew.
    const std::string written = to_toml(s);
    CHECK_THAT(written, Catch::Contains("profile = 'profile.json'"));
    CHECK_THAT(written, !Catch::Contains("decode = 2.8"));
    dir.write("again.toml", written);
    CHECK(parse_scenario(written, (dir.path() / "again.toml").string()).rig.tokens_per_second->decode ==
          s.rig.tokens_per_second->decode);
}

TEST_CASE("a profile that cannot give the rig's rates is one line naming the scenario, the profile and the key",
          "[tokens][parse][profile][errors]") {
    test::TempDir dir;
    const std::string path = (dir.path() / "s.toml").string();
    const std::string text = profiled_scenario();
    const int line = line_of(text, tokens_line);
    const std::string profile = (dir.path() / "profile.json").string();
    const auto error_with = [&](const std::string& profile_text) {
        dir.write("profile.json", profile_text);
        return input_error([&] { parse_scenario(text, path); });
    };
    // No file.
    const InputError missing = input_error([&] { parse_scenario(text, path); });
    check_error(missing, path, line, "workload.tokens.profile", profile);
    // A training profile.
    const std::string fixture = payback::detail::read_text_file(llm_profile, "fixture");
    const std::string training = R"({"results": [{"device": "cpu", "device_name": "Test CPU", "workload": "mlp",
        "batch": 64, "threads": 2, "samples_per_second": 900}]})";
    check_error(error_with(training), path, line, "workload.tokens.profile",
                profile + ": results: holds no llm-decode result (it measured mlp)");
    // An llm-decode run without its decode rate.
    check_error(error_with(replaced(fixture, "\"tokens_per_second\": 200,", "")), path, line, "workload.tokens.profile",
                profile + ": results[1].tokens_per_second: missing");
    // Rates by hand beside a profile: which one is meant?
    dir.write("profile.json", fixture);
    const std::string both = replaced(text, "psu_efficiency = 0.8", "psu_efficiency = 0.8\ntokens_per_second = { prefill = 2000, decode = 100 }");
    check_error(input_error([&] { parse_scenario(both, path); }), path, line_of(both, tokens_line),
                "workload.tokens.profile", "given by hand too");
}
