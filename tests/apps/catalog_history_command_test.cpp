// catalog import appending to the price history and catalog history reading it back; two imports
// at once into one new database; the files and names it refuses (one line, exit 2).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include "payback/market/price_history.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace payback;
using payback::test::check_bad_input;
using payback::test::quote;
using payback::test::run;

namespace {

const std::string fixtures = PAYBACK_SOURCE_DIR "/tests/fixtures/market/import/";
const std::filesystem::path pricing = PAYBACK_SOURCE_DIR "/pricing";

std::string integrity_check(const std::filesystem::path& path) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(path.string().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_stmt* statement = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &statement, nullptr) == SQLITE_OK);
    std::string result;
    if (sqlite3_step(statement) == SQLITE_ROW) result = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return result;
}

}  // namespace

TEST_CASE("catalog import appends to the history; catalog history shows the dated series", "[cli][history]") {
    const test::TempDir dir;
    const std::string db = " --db " + quote((dir.path() / "prices.sqlite").string());
    const auto imported = run("catalog import --format llm-prices --as-of 2026-08-05 " +
                              quote(fixtures + "llm-prices_simonw_deepseek.json") + " -o " +
                              quote((dir.path() / "api.csv").string()) + db + " --json");
    INFO(imported.err);
    REQUIRE(imported.code == 0);
    const auto summary = nlohmann::json::parse(imported.out);
    CHECK(summary["history"]["import"] == 2);  // the snapshot is import 1
    CHECK(summary["history"]["prices"] == 12);  // 5 rows: 3 + 3 + 2 + 2 + 2 price cells
    CHECK(summary["history"]["added"] == 12);

    const auto shown = run("catalog history --api deepseek:deepseek-chat --mode input --json" + db);
    REQUIRE(shown.code == 0);
    const auto series = nlohmann::json::parse(shown.out);
    REQUIRE(series.size() == 3);  // the two of deepseek.json, then api-prices.csv's of 2026-12-01
    CHECK(series[0]["as_of"] == "2025-02-07");  // the day before to_date 2025-02-08
    CHECK(series[0]["price"] == 0.14);
    CHECK(series[1]["as_of"] == "2025-02-08");
    CHECK(series[1]["price"] == 0.27);
    CHECK(series[1]["import"] == "llm-prices");
    CHECK(series[2]["import"] == "snapshot");

    // The snapshot's p5.48xlarge: on-demand in four regions, spot in us-east-1 only.
    const auto csv = run("catalog history --instance aws:p5.48xlarge --mode spot --csv" + db);
    REQUIRE(csv.code == 0);
    const auto lines = test::lines_of(csv.out);
    REQUIRE(lines.size() == 2);
    CHECK(lines[0] == "kind,provider,item,region,mode,as_of,price,currency,import,source");
    CHECK_THAT(lines[1], Catch::StartsWith("instance,aws,p5.48xlarge,us-east-1,spot,2026-11-29,17.63,USD,snapshot,"));
    const auto all = run("catalog history --instance aws:p5.48xlarge --json" + db);
    CHECK(nlohmann::json::parse(all.out).size() == 5);

    // The same file again: nothing new.
    const auto again = run("catalog import --format llm-prices --as-of 2026-08-05 " +
                           quote(fixtures + "llm-prices_simonw_deepseek.json") + " -o " +
                           quote((dir.path() / "api.csv").string()) + db + " --json");
    REQUIRE(again.code == 0);
    CHECK(nlohmann::json::parse(again.out)["history"]["added"] == 0);

    const auto used = run("catalog history --gpu \"RTX 2080 Ti\" --mode used --json" + db);
    REQUIRE(used.code == 0);
    CHECK(nlohmann::json::parse(used.out)[0]["price"] == 1097);  // used-gpu-prices.csv, 2021-10-15
}

TEST_CASE("two imports at once into one new history both land, and the file stays whole", "[cli][history]") {
    const test::TempDir dir;
    const auto db = dir.path() / "shared.sqlite";
    const std::string program = quote(PAYBACK_BINARY);
    const auto import = [&](const std::string& args, const std::string& name) {
        return "(cd " + quote(PAYBACK_SOURCE_DIR) + " && " + program + " catalog import " + args + " -o " +
               quote((dir.path() / (name + ".csv")).string()) + " --db " + quote(db.string()) + " >/dev/null 2>" +
               quote((dir.path() / (name + ".err")).string()) + "; echo $? >" + quote((dir.path() / (name + ".rc")).string()) +
               ")";
    };
    const std::string both =
        import("--format skypilot --provider aws --as-of 2025-06-01 " + quote(fixtures + "skypilot_v7_aws_vms_gpu_excerpt.csv"), "aws") +
        " & " +
        import("--format llm-prices --as-of 2026-08-05 " + quote(fixtures + "llm-prices_simonw_deepseek.json"), "api") +
        " & wait";
    REQUIRE(std::system(both.c_str()) == 0);
    for (const std::string name : {"aws", "api"}) {
        INFO(name << ": " << test::read_file(dir.path() / (name + ".err")));
        CHECK(test::read_file(dir.path() / (name + ".rc")) == "0\n");
    }
    CHECK(integrity_check(db) == "ok");
    const PriceHistory history = PriceHistory::open(db, pricing);
    const auto imports = history.imports();
    REQUIRE(imports.size() == 3);  // the snapshot once, then the two in either order
    CHECK(imports[0].format == "snapshot");
    CHECK(((imports[1].format == "skypilot" && imports[2].format == "llm-prices") ||
           (imports[1].format == "llm-prices" && imports[2].format == "skypilot")));
    CHECK(history.series({"api", "deepseek", "deepseek-chat", "", "output"}).size() == 3);  // 2 imported + snapshot
    CHECK(!history.find({"instance", "aws", "", "", ""}).empty());
    std::size_t from_skypilot = 0;
    for (const DatedPrice& p : history.find({"instance", "aws", "", "", ""})) from_skypilot += p.import_format == "skypilot";
    CHECK(from_skypilot > 0);
}

TEST_CASE("catalog history refuses an unknown name with the closest ones, and a file that is no database", "[cli][history]") {
    const test::TempDir dir;
    const std::string db = " --db " + quote((dir.path() / "prices.sqlite").string());
    const auto typo = run("catalog history --instance aws:p5.48xlarg" + db);
    check_bad_input(typo);
    CHECK_THAT(typo.err, Catch::Contains("--instance: no prices for \"aws:p5.48xlarg\" in the history; closest: aws:p5.48xlarge"));
    const auto mode = run("catalog history --instance aws:p5.48xlarge --mode reserved_3y" + db);
    check_bad_input(mode);
    CHECK_THAT(mode.err, Catch::Contains("aws:p5.48xlarge has no prices with --mode reserved_3y; it has on_demand in "));
    check_bad_input(run("catalog history --instance p5.48xlarge" + db));
    check_bad_input(run("catalog history" + db));
    const auto bad_mode = run("catalog history --instance aws:p5.48xlarge --mode hourly" + db);
    check_bad_input(bad_mode);
    CHECK_THAT(bad_mode.err, Catch::Contains("--mode: expected one of on_demand, spot, "));

    const std::string text = dir.write("notes.txt", "not a database, just some words long enough to have a header\n");
    const auto not_sqlite = run("catalog history --gpu \"RTX 3090\" --db " + quote(text));
    check_bad_input(not_sqlite);
    CHECK_THAT(not_sqlite.err, Catch::Contains("notes.txt: price history: not a SQLite database"));
    const auto unwritable = run("catalog import --format llm-prices --as-of 2026-08-05 " +
                                quote(fixtures + "llm-prices_simonw_deepseek.json") + " -o " +
                                quote((dir.path() / "api.csv").string()) + " --db " + quote(text + "/prices.sqlite"));
    check_bad_input(unwritable);
    CHECK_THAT(unwritable.err, Catch::Contains("price history: cannot create its directory"));
    CHECK(!std::filesystem::exists(dir.path() / "api.csv"));

    // An OUT.csv that cannot be written: the history keeps only its snapshot.
    const auto no_out = run("catalog import --format llm-prices --as-of 2026-08-05 " +
                            quote(fixtures + "llm-prices_simonw_deepseek.json") + " -o " +
                            quote((dir.path() / "missing" / "api.csv").string()) + db);
    check_bad_input(no_out);
    CHECK(PriceHistory::open(dir.path() / "prices.sqlite", pricing).imports().size() == 1);
}
