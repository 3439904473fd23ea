#include "payback/market/price_history.hpp"

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <utility>

#include <fmt/format.h>
#include <sqlite3.h>

#include "base/csv_reader.hpp"
#include "market/price_history_schema.hpp"
#include "payback/base/error.hpp"
#include "payback/market/price_dates.hpp"

namespace payback {

namespace {

// Another process importing holds the write lock for well under a second; wait for it this long.
constexpr int busy_timeout_ms = 30'000;

// The snapshot's catalogs, as loaded into a new history.
struct SnapshotCatalog {
    const char* file;
    PriceCatalog catalog;
};
constexpr SnapshotCatalog snapshot_catalogs[] = {{"cloud-instances.csv", PriceCatalog::instances},
                                                 {"api-prices.csv", PriceCatalog::api_prices},
                                                 {"rental-markets.csv", PriceCatalog::rental_markets},
                                                 {"used-gpu-prices.csv", PriceCatalog::price_series}};

std::string utc_now() {
    const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
    std::tm utc{};
    gmtime_r(&now, &utc);
    return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", utc.tm_year + 1900, utc.tm_mon + 1, utc.tm_mday,
                       utc.tm_hour, utc.tm_min, utc.tm_sec);
}

double price_cell(const std::string& text, std::size_t row, const std::string& column) {
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value) || value < 0)
        throw InputError("price rows", static_cast<int>(row) + 1, column,
                         "expected a price of zero or more, got \"" + text + "\"");
    return value;
}

}  // namespace

std::filesystem::path default_price_history_path() {
    if (const char* variable = std::getenv("PAYBACK_DB"); variable && *variable) return variable;
    const char* data_home = std::getenv("XDG_DATA_HOME");
    const char* home = std::getenv("HOME");
    const std::filesystem::path base = data_home && *data_home ? std::filesystem::path(data_home)
                                       : home && *home          ? std::filesystem::path(home) / ".local" / "share"
                                                                : std::filesystem::path(".");
    return base / "payback" / "prices.sqlite";
}

std::vector<DatedPrice> price_points(PriceCatalog catalog, const std::vector<std::vector<std::string>>& rows,
                                     const std::string& series_mode) {
    const auto& columns = catalog_columns(catalog);
    const auto at = [&](const std::vector<std::string>& row, const std::string& column) -> const std::string& {
        for (std::size_t i = 0; i < columns.size(); ++i)
            if (columns[i] == column) return row.at(i);
        throw std::logic_error("no column " + column);
    };
    struct Priced {
        const char* mode;
        const char* column;
    };
    static const std::vector<Priced> instance_prices = {{"on_demand", "on_demand_per_hour"},
                                                        {"spot", "spot_per_hour"},
                                                        {"reserved_1y", "reserved_1y_per_hour"},
                                                        {"reserved_3y", "reserved_3y_per_hour"}};
    static const std::vector<Priced> api_prices = {{"input", "input"}, {"output", "output"}, {"cached_input", "cached_input"}};
    static const std::vector<Priced> rental_prices = {{"host", "host_price_per_hour"},
                                                      {"host_p10", "host_price_p10_per_hour"},
                                                      {"host_p90", "host_price_p90_per_hour"}};
    static const std::vector<Priced> series_prices = {{"", "price"}};
    const auto& priced = catalog == PriceCatalog::instances    ? instance_prices
                         : catalog == PriceCatalog::api_prices ? api_prices
                         : catalog == PriceCatalog::rental_markets ? rental_prices
                                                                   : series_prices;
    std::vector<DatedPrice> points;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const auto& row = rows[r];
        DatedPrice base;
        switch (catalog) {
            case PriceCatalog::instances:
                base.key = {"instance", at(row, "provider"), at(row, "instance"), at(row, "region"), ""};
                base.currency = at(row, "currency");
                base.as_of = at(row, "as_of");
                break;
            case PriceCatalog::api_prices:
                base.key = {"api", at(row, "provider"), at(row, "model"), "", ""};
                base.currency = "USD";  // api-prices.csv: USD per million tokens
                base.as_of = at(row, "as_of");
                break;
            case PriceCatalog::rental_markets:
                base.key = {"rental", at(row, "market"), at(row, "gpu"), "", ""};
                base.currency = at(row, "currency");
                base.as_of = at(row, "as_of");
                break;
            case PriceCatalog::price_series:
                base.key = {"used", "", at(row, "item"), "", series_mode};
                base.currency = at(row, "currency");
                base.as_of = at(row, "date");  // the row's as_of is when it was written
                break;
        }
        base.source = at(row, "source");
        for (const Priced& p : priced) {
            const std::string& cell = at(row, p.column);
            if (detail::is_blank(cell)) continue;
            DatedPrice point = base;
            if (*p.mode) point.key.mode = p.mode;
            point.price = price_cell(cell, r, p.column);
            points.push_back(std::move(point));
        }
    }
    return points;
}

struct PriceHistory::Connection {
    std::string path;
    sqlite3* db = nullptr;

    explicit Connection(std::string p) : path(std::move(p)) {}
    Connection(const Connection&) = delete;
    Connection& operator=(const Connection&) = delete;
    ~Connection() { sqlite3_close_v2(db); }

    [[noreturn]] void fail(const std::string& doing) const {
        const int code = sqlite3_errcode(db);
        const std::string why = code == SQLITE_NOTADB ? "not a SQLite database"
                                : code == SQLITE_READONLY || code == SQLITE_CANTOPEN || code == SQLITE_PERM
                                    ? "cannot be written (" + std::string(sqlite3_errmsg(db)) + ")"
                                    : std::string(sqlite3_errmsg(db));
        throw InputError(path, 0, "", fmt::format("price history: {} while {}", why, doing));
    }
    void exec(const std::string& sql, const std::string& doing) const {
        if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) != SQLITE_OK) fail(doing);
    }
    long long integer(const std::string& sql, const std::string& doing) const;
};

namespace {

// A prepared statement, finalized on scope exit.
class Statement {
public:
    Statement(const PriceHistory::Connection& c, const std::string& sql, std::string doing)
        : connection_(c), doing_(std::move(doing)) {
        if (sqlite3_prepare_v2(c.db, sql.c_str(), -1, &statement_, nullptr) != SQLITE_OK) c.fail(doing_);
    }
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;
    ~Statement() { sqlite3_finalize(statement_); }

    Statement& bind(int index, const std::string& text) {
        sqlite3_bind_text(statement_, index, text.c_str(), static_cast<int>(text.size()), SQLITE_TRANSIENT);
        return *this;
    }
    Statement& bind(int index, double value) {
        sqlite3_bind_double(statement_, index, value);
        return *this;
    }
    Statement& bind(int index, long long value) {
        sqlite3_bind_int64(statement_, index, value);
        return *this;
    }
    /// true while a row is ready.
    bool step() {
        const int code = sqlite3_step(statement_);
        if (code != SQLITE_ROW && code != SQLITE_DONE) connection_.fail(doing_);
        return code == SQLITE_ROW;
    }
    void reset() {
        sqlite3_reset(statement_);
        sqlite3_clear_bindings(statement_);
    }
    std::string text(int column) const {
        const auto* chars = sqlite3_column_text(statement_, column);
        return chars ? std::string(reinterpret_cast<const char*>(chars)) : std::string();
    }
    double number(int column) const { return sqlite3_column_double(statement_, column); }
    long long integer(int column) const { return sqlite3_column_int64(statement_, column); }

private:
    const PriceHistory::Connection& connection_;
    std::string doing_;
    sqlite3_stmt* statement_ = nullptr;
};

// BEGIN IMMEDIATE takes the write lock at once (waiting out busy_timeout for another writer), so two
// processes never both read a state and then both write from it. Rolled back unless committed.
class WriteTransaction {
public:
    WriteTransaction(const PriceHistory::Connection& c, std::string doing) : connection_(c), doing_(std::move(doing)) {
        connection_.exec("BEGIN IMMEDIATE", doing_);
    }
    WriteTransaction(const WriteTransaction&) = delete;
    WriteTransaction& operator=(const WriteTransaction&) = delete;
    ~WriteTransaction() {
        if (!committed_) sqlite3_exec(connection_.db, "ROLLBACK", nullptr, nullptr, nullptr);
    }
    void commit() {
        connection_.exec("COMMIT", doing_);
        committed_ = true;
    }

private:
    const PriceHistory::Connection& connection_;
    std::string doing_;
    bool committed_ = false;
};

constexpr const char* point_columns =
    "p.kind, p.provider, p.item, p.region, p.mode, p.as_of, p.price, p.currency, p.source, i.format "
    "FROM prices p JOIN imports i ON i.id = p.import_id ";
constexpr const char* key_match = "p.kind = ?1 AND p.provider = ?2 AND p.item = ?3 AND p.region = ?4 AND p.mode = ?5 ";

DatedPrice point_of(const Statement& s) {
    return {{s.text(0), s.text(1), s.text(2), s.text(3), s.text(4)}, s.text(5), s.number(6), s.text(7), s.text(8), s.text(9)};
}

void bind_key(Statement& s, const PriceKey& key) {
    s.bind(1, key.kind).bind(2, key.provider).bind(3, key.item).bind(4, key.region).bind(5, key.mode);
}

std::string joined(const std::vector<std::string>& parts) {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
    return out;
}

// Inside a write transaction: one import's record and its prices.
ImportRecord insert_import(const PriceHistory::Connection& c, const std::string& format,
                           const std::vector<std::string>& files, const std::vector<DatedPrice>& points) {
    ImportRecord record{0, utc_now(), format, joined(files), static_cast<long long>(points.size()), 0};
    Statement add_import(c, "INSERT INTO imports (time, format, files, rows) VALUES (?1, ?2, ?3, ?4)", "recording the import");
    add_import.bind(1, record.time).bind(2, record.format).bind(3, record.files).bind(4, record.rows).step();
    record.id = sqlite3_last_insert_rowid(c.db);
    // The same price again changes nothing; another price for the same key and day replaces it.
    Statement add_price(c,
                        "INSERT INTO prices (kind, provider, item, region, mode, as_of, price, currency, source, import_id) "
                        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10) "
                        "ON CONFLICT (kind, provider, item, region, mode, as_of) DO UPDATE SET price = excluded.price, "
                        "currency = excluded.currency, source = excluded.source, import_id = excluded.import_id "
                        "WHERE price <> excluded.price OR currency <> excluded.currency",
                        "adding prices");
    for (const DatedPrice& p : points) {
        bind_key(add_price, p.key);
        add_price.bind(6, p.as_of).bind(7, p.price).bind(8, p.currency).bind(9, p.source).bind(10, record.id);
        add_price.step();
        record.added += sqlite3_changes(c.db);
        add_price.reset();
    }
    Statement counted(c, "UPDATE imports SET added = ?1 WHERE id = ?2", "recording the import");
    counted.bind(1, record.added).bind(2, record.id).step();
    return record;
}

std::vector<DatedPrice> snapshot_points(const std::filesystem::path& pricing_dir) {
    std::vector<DatedPrice> points;
    for (const SnapshotCatalog& s : snapshot_catalogs) {
        const detail::CsvTable table = detail::CsvTable::load((pricing_dir / s.file).string());
        const auto& columns = catalog_columns(s.catalog);
        std::vector<std::vector<std::string>> rows;
        for (std::size_t row = 0; row < table.rows(); ++row) {
            std::vector<std::string> cells;
            for (const std::string& column : columns) {
                cells.push_back(table.has_column(column) ? table.text(row, column) : "");
                // Checked here so that a bad cell is named by its file and line.
                if (!cells.back().empty() && (column.ends_with("per_hour") || column == "price" ||
                                              (s.catalog == PriceCatalog::api_prices &&
                                               (column == "input" || column == "output" || column == "cached_input"))))
                    table.number(row, column);
            }
            rows.push_back(std::move(cells));
        }
        auto more = price_points(s.catalog, rows, "used");
        points.insert(points.end(), more.begin(), more.end());
    }
    return points;
}

}  // namespace

long long PriceHistory::Connection::integer(const std::string& sql, const std::string& doing) const {
    Statement s(*this, sql, doing);
    return s.step() ? s.integer(0) : 0;
}

PriceHistory::PriceHistory(std::unique_ptr<Connection> connection) : connection_(std::move(connection)) {}
PriceHistory::PriceHistory(PriceHistory&&) noexcept = default;
PriceHistory& PriceHistory::operator=(PriceHistory&&) noexcept = default;
PriceHistory::~PriceHistory() = default;

PriceHistory PriceHistory::open(const std::filesystem::path& path, const std::filesystem::path& pricing_dir) {
    auto c = std::make_unique<Connection>(path.string());
    std::error_code error;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), error);
    if (error)
        throw InputError(c->path, 0, "", "price history: cannot create its directory (" + error.message() + ")");
    if (sqlite3_open_v2(c->path.c_str(), &c->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) != SQLITE_OK)
        c->fail("opening it");
    if (sqlite3_db_readonly(c->db, "main") == 1)
        throw InputError(c->path, 0, "", "price history: cannot be written (a read-only file)");
    sqlite3_busy_timeout(c->db, busy_timeout_ms);
    c->exec("PRAGMA foreign_keys = ON", "opening it");
    const auto& migrations = detail::price_history_migrations();
    const auto known = static_cast<long long>(migrations.size());
    for (;;) {
        WriteTransaction transaction(*c, "reading its schema");
        const long long version = c->integer("PRAGMA user_version", "reading its schema");
        if (version > known)
            throw InputError(c->path, 0, "",
                             fmt::format("price history: schema version {} is newer than this program's ({}); "
                                         "use a newer payback or another --db",
                                         version, known));
        if (version == known) {
            transaction.commit();
            break;
        }
        c->exec(std::string(migrations[static_cast<std::size_t>(version)]), fmt::format("migrating to version {}", version + 1));
        c->exec(fmt::format("PRAGMA user_version = {}", version + 1), fmt::format("migrating to version {}", version + 1));
        transaction.commit();
    }
    WriteTransaction transaction(*c, "loading the catalogs' snapshot");
    if (c->integer("SELECT count(*) FROM imports", "loading the catalogs' snapshot") == 0) {
        std::vector<std::string> files;
        for (const SnapshotCatalog& s : snapshot_catalogs) files.emplace_back(s.file);
        insert_import(*c, "snapshot", files, snapshot_points(pricing_dir));
    }
    transaction.commit();
    return PriceHistory(std::move(c));
}

ImportRecord PriceHistory::append(const std::string& format, const std::vector<std::string>& files,
                                  const std::vector<DatedPrice>& points) {
    WriteTransaction transaction(*connection_, "appending the import");
    ImportRecord record = insert_import(*connection_, format, files, points);
    transaction.commit();
    return record;
}

std::vector<DatedPrice> PriceHistory::series(const PriceKey& key) const {
    Statement s(*connection_, std::string("SELECT ") + point_columns + "WHERE " + key_match + "ORDER BY p.as_of",
                "reading a price series");
    bind_key(s, key);
    std::vector<DatedPrice> points;
    while (s.step()) points.push_back(point_of(s));
    return points;
}

std::optional<DatedPrice> PriceHistory::at(const PriceKey& key, const std::string& date) const {
    std::vector<DatedPrice> points = series(key);
    std::vector<std::string> dates;
    for (const DatedPrice& p : points) dates.push_back(p.as_of);
    const auto index = row_in_effect(dates, date);  // the catalogs' rule, so both answer alike
    if (!index) return std::nullopt;
    return std::move(points[*index]);
}

std::vector<DatedPrice> PriceHistory::find(const PriceQuery& query) const {
    Statement s(*connection_,
                std::string("SELECT ") + point_columns +
                    "WHERE (?1 = '' OR p.kind = ?1) AND (?2 = '' OR p.provider = ?2) AND (?3 = '' OR p.item = ?3) "
                    "AND (?4 = '' OR p.region = ?4) AND (?5 = '' OR p.mode = ?5) "
                    "ORDER BY p.kind, p.provider, p.item, p.region, p.mode, p.as_of",
                "reading prices");
    bind_key(s, {query.kind, query.provider, query.item, query.region, query.mode});
    std::vector<DatedPrice> points;
    while (s.step()) points.push_back(point_of(s));
    return points;
}

std::vector<PriceKey> PriceHistory::keys(const std::string& kind) const {
    Statement s(*connection_,
                "SELECT DISTINCT kind, provider, item, region, mode FROM prices WHERE kind = ?1 "
                "ORDER BY provider, item, region, mode",
                "reading the keys");
    s.bind(1, kind);
    std::vector<PriceKey> keys;
    while (s.step()) keys.push_back({s.text(0), s.text(1), s.text(2), s.text(3), s.text(4)});
    return keys;
}

std::vector<ImportRecord> PriceHistory::imports() const {
    Statement s(*connection_, "SELECT id, time, format, files, rows, added FROM imports ORDER BY id", "reading the imports");
    std::vector<ImportRecord> records;
    while (s.step()) records.push_back({s.integer(0), s.text(1), s.text(2), s.text(3), s.integer(4), s.integer(5)});
    return records;
}

int PriceHistory::schema_version() const {
    return static_cast<int>(connection_->integer("PRAGMA user_version", "reading its schema"));
}

}  // namespace payback
