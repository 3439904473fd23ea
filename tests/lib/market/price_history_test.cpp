// The price history: the shipped catalogs as its first entries, an import read back, the same
// import again changing nothing, a v1 database migrated and a newer one refused, and the files it
// cannot use.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <sqlite3.h>

#include "base/csv_reader.hpp"
#include "market/price_history_schema.hpp"
#include "payback/market/catalog.hpp"
#include "payback/market/price_history.hpp"
#include "payback/market/price_import.hpp"
#include "support/input_errors.hpp"
#include "support/run_cli.hpp"
#include "support/temp_dir.hpp"

using namespace payback;
using payback::test::check_error;

namespace {

const std::filesystem::path pricing = PAYBACK_SOURCE_DIR "/pricing";
const std::string fixtures = PAYBACK_SOURCE_DIR "/tests/fixtures/market/import/";

// Runs SQL on a database file directly, as another program (or an older payback) would.
void run_sql(const std::filesystem::path& path, const std::string& sql) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.string().c_str(), &db) == SQLITE_OK);
    char* error = nullptr;
    const int code = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    INFO((error ? error : ""));
    sqlite3_free(error);
    sqlite3_close(db);
    REQUIRE(code == SQLITE_OK);
}

// The non-blank cells of `columns` in one shipped catalog: the prices the snapshot must hold.
std::size_t price_cells(const std::string& file, const std::vector<std::string>& columns) {
    const auto table = detail::CsvTable::load((pricing / file).string());
    std::size_t cells = 0;
    for (std::size_t row = 0; row < table.rows(); ++row)
        for (const std::string& column : columns)
            if (table.has_column(column) && !detail::is_blank(table.text(row, column))) ++cells;
    return cells;
}

ImportResult deepseek_import() {
    std::vector<std::string> names;
    const Catalog catalog = Catalog::load(pricing.string());  // kept: the loop walks its rows
    for (const GpuSpec& gpu : catalog.gpus()) names.push_back(gpu.name);
    const GpuAliases aliases = GpuAliases::load((pricing / "gpu-aliases.csv").string(), names);
    const std::string file = fixtures + "llm-prices_simonw_deepseek.json";
    return import_prices("llm-prices", {{file, test::read_file(file)}}, {"", "2026-08-05", ""}, aliases);
}

// The price in effect on `date`, -1 before the first.
double price_at(const PriceHistory& history, const PriceKey& key, const std::string& date) {
    const auto found = history.at(key, date);
    return found ? found->price : -1;
}

}  // namespace

TEST_CASE("the schema version is the number of migrations", "[history]") {
    CHECK(detail::price_history_migrations().size() == static_cast<std::size_t>(price_history_schema_version));
}

TEST_CASE("a new history holds the shipped catalogs' every price, as import \"snapshot\"", "[history]") {
    const test::TempDir dir;
    const PriceHistory history = PriceHistory::open(dir.path() / "new" / "prices.sqlite", pricing);
    CHECK(history.schema_version() == price_history_schema_version);
    const std::size_t expected =
        price_cells("cloud-instances.csv",
                    {"on_demand_per_hour", "spot_per_hour", "reserved_1y_per_hour", "reserved_3y_per_hour"}) +
        price_cells("api-prices.csv", {"input", "output", "cached_input"}) +
        price_cells("rental-markets.csv", {"host_price_per_hour"}) + price_cells("used-gpu-prices.csv", {"price"});
    // Counted when written: 181 instance prices (152 rows) + 119 API + 7 rental + 109 used = 416; the
    // catalogs grow, so the count above is what is compared, this only that it counted something.
    CHECK(expected >= 416);
    const auto imports = history.imports();
    REQUIRE(imports.size() == 1);
    CHECK(imports[0].format == "snapshot");
    CHECK(imports[0].rows == static_cast<long long>(expected));
    CHECK(imports[0].added == static_cast<long long>(expected));  // no key and day twice in the catalogs
    CHECK(history.find({}).size() == expected);

    // cloud-instances.csv: aws,p3.2xlarge,us-east-1,...,3.06,0.371,...,USD,2026-11-29
    const PriceKey spot{"instance", "aws", "p3.2xlarge", "us-east-1", "spot"};
    const auto series = history.series(spot);
    REQUIRE(series.size() == 1);
    CHECK(series[0].price == 0.371);
    CHECK(series[0].as_of == "2026-11-29");
    CHECK(series[0].currency == "USD");
    CHECK(series[0].import_format == "snapshot");
    CHECK(price_at(history, spot, "2026-11-28") == -1);
    CHECK(price_at(history, spot, "2027-01-01") == 0.371);
    // used-gpu-prices.csv: 2021-10-15,RTX 2080 Ti,1097,USD,...: dated by the sale month, not the row's as_of
    const auto used = history.series({"used", "", "RTX 2080 Ti", "", "used"});
    REQUIRE(!used.empty());
    CHECK(used.front().as_of == "2021-10-15");
    CHECK(used.front().price == 1097);
    CHECK(price_at(history, {"used", "", "RTX 2080 Ti", "", "used"}, "2021-11-30") == 1137);  // 2021-11-15's
    // rental-markets.csv: vast,RTX 3090,0.1681 per hour
    CHECK(history.series({"rental", "vast", "RTX 3090", "", "host"}).at(0).price == 0.1681);
}

TEST_CASE("an import appended and read back, the same import again changing nothing", "[history]") {
    const test::TempDir dir;
    const auto path = dir.path() / "prices.sqlite";
    PriceHistory history = PriceHistory::open(path, pricing);
    const ImportResult result = deepseek_import();
    const auto points = price_points(result.catalog, result.rows, "purchase");
    // 4 models: v4-flash and v4-pro with input, output and cached input (3 each), deepseek-chat's two
    // dated prices with input and output (4), deepseek-reasoner's input and output (2): 12 prices.
    REQUIRE(points.size() == 12);
    const ImportRecord first = history.append("llm-prices", {"deepseek.json"}, points);
    CHECK(first.id == 2);  // after the snapshot
    CHECK(first.rows == 12);
    CHECK(first.added == 12);

    // deepseek-chat: $0.14 in until to_date 2025-02-08 (so dated the day before), $0.27 from 2025-02-08;
    // then the snapshot's api-prices.csv row, $0.28 as of 2026-12-01
    const PriceKey chat{"api", "deepseek", "deepseek-chat", "", "input"};
    const auto series = history.series(chat);
    REQUIRE(series.size() == 3);
    CHECK(series[0].as_of == "2025-02-07");
    CHECK(series[0].price == 0.14);
    CHECK(series[1].as_of == "2025-02-08");
    CHECK(series[1].price == 0.27);
    CHECK(series[1].import_format == "llm-prices");
    CHECK(series[2].as_of == "2026-12-01");
    CHECK(series[2].price == 0.28);
    CHECK(series[2].import_format == "snapshot");
    CHECK(price_at(history, chat, "2025-02-07") == 0.14);
    CHECK(price_at(history, chat, "2025-06-01") == 0.27);
    CHECK(price_at(history, chat, "2025-02-06") == -1);
    // undated current prices take --as-of (after api-prices.csv's row of 2026-04-23)
    const auto flash = history.series({"api", "deepseek", "deepseek-v4-flash", "", "cached_input"});
    REQUIRE(flash.size() == 2);
    CHECK(flash[1].as_of == "2026-08-05");
    CHECK(flash[1].price == 0.028);
    CHECK(flash[1].import_format == "llm-prices");

    const std::size_t before = history.find({}).size();
    const ImportRecord again = history.append("llm-prices", {"deepseek.json"}, points);
    CHECK(again.rows == 12);
    CHECK(again.added == 0);
    CHECK(history.find({}).size() == before);
    CHECK(history.series(chat)[1].import_format == "llm-prices");

    // A corrected price for the same key and day replaces the old one; the other prices stay.
    std::vector<DatedPrice> corrected = {series[1]};
    corrected[0].price = 0.25;
    CHECK(history.append("llm-prices", {"fixed.json"}, corrected).added == 1);
    CHECK(history.series(chat).size() == 3);
    CHECK(history.series(chat)[1].price == 0.25);
    CHECK(history.find({}).size() == before);
    REQUIRE(history.imports().size() == 4);
    CHECK(history.imports()[3].files == "fixed.json");

    // Reopened, nothing is loaded again.
    const PriceHistory reopened = PriceHistory::open(path, pricing);
    CHECK(reopened.imports().size() == 4);
    CHECK(reopened.find({}).size() == before);
}

TEST_CASE("an import is all or nothing", "[history]") {
    const test::TempDir dir;
    PriceHistory history = PriceHistory::open(dir.path() / "prices.sqlite", pricing);
    const std::size_t before = history.find({}).size();
    std::vector<DatedPrice> points = {{{"api", "x", "m", "", "input"}, "2026-01-01", 1, "USD", "s", ""},
                                      {{"cloud", "x", "m", "", "input"}, "2026-01-01", 1, "USD", "s", ""}};  // no such kind
    CHECK_THROWS_AS(history.append("litellm", {"a.json"}, points), InputError);
    CHECK(history.find({}).size() == before);
    CHECK(history.imports().size() == 1);
}

TEST_CASE("a version 1 history is migrated; a newer one is refused", "[history]") {
    const test::TempDir dir;
    const auto path = dir.path() / "v1.sqlite";
    run_sql(path, std::string(detail::price_history_migrations()[0]) +
                      "PRAGMA user_version = 1;"
                      "INSERT INTO imports (time, format, files, rows) VALUES ('2026-01-02T03:04:05Z', 'litellm', 'a.json', 1);"
                      "INSERT INTO prices VALUES ('api', 'openai', 'gpt-4o', '', 'input', '2026-01-01', 2.5, 'USD', 'a.json', 1);");
    const PriceHistory history = PriceHistory::open(path, pricing);
    CHECK(history.schema_version() == 2);
    const auto imports = history.imports();
    REQUIRE(imports.size() == 1);  // not empty, so no snapshot is added
    CHECK(imports[0].format == "litellm");
    CHECK(imports[0].added == 0);  // the column migration 2 added
    const auto kept = history.series({"api", "openai", "gpt-4o", "", "input"});
    REQUIRE(kept.size() == 1);
    CHECK(kept[0].price == 2.5);

    const auto future = dir.path() / "future.sqlite";
    run_sql(future, "CREATE TABLE t (x); PRAGMA user_version = 3;");
    check_error(test::input_error([&] { PriceHistory::open(future, pricing); }), future.string(), 0, "",
                "price history: schema version 3 is newer than this program's (2)");
}

TEST_CASE("a file that is not a SQLite database, or a place that cannot be written, is refused", "[history]") {
    const test::TempDir dir;
    const std::string text = dir.write("notes.txt", "these are not prices, and this is not a database file at all\n");
    check_error(test::input_error([&] { PriceHistory::open(text, pricing); }), text, 0, "",
                "price history: not a SQLite database");
    CHECK(test::read_file(text) == "these are not prices, and this is not a database file at all\n");
    const std::string under_a_file = (std::filesystem::path(text) / "prices.sqlite").string();
    check_error(test::input_error([&] { PriceHistory::open(under_a_file, pricing); }), under_a_file, 0, "",
                "price history: cannot create its directory");
}

TEST_CASE("the default place follows $PAYBACK_DB, then $XDG_DATA_HOME, then ~/.local/share", "[history]") {
    const auto restore = [](const char* name, const char* value) {
        if (value) setenv(name, value, 1);
        else unsetenv(name);
    };
    const char* db = std::getenv("PAYBACK_DB");
    const char* xdg = std::getenv("XDG_DATA_HOME");
    const char* home = std::getenv("HOME");
    const std::string saved_db = db ? db : "", saved_xdg = xdg ? xdg : "", saved_home = home ? home : "";
    unsetenv("PAYBACK_DB");
    setenv("XDG_DATA_HOME", "/data", 1);
    CHECK(default_price_history_path() == "/data/payback/prices.sqlite");
    unsetenv("XDG_DATA_HOME");
    setenv("HOME", "/home/someone", 1);
    CHECK(default_price_history_path() == "/home/someone/.local/share/payback/prices.sqlite");
    setenv("PAYBACK_DB", "/elsewhere/p.sqlite", 1);
    CHECK(default_price_history_path() == "/elsewhere/p.sqlite");
    restore("PAYBACK_DB", db ? saved_db.c_str() : nullptr);
    restore("XDG_DATA_HOME", xdg ? saved_xdg.c_str() : nullptr);
    restore("HOME", home ? saved_home.c_str() : nullptr);
}
