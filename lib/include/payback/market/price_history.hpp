// The price history: every price the program has seen, dated by the day it held, in one SQLite file
// (docs/markets.md, "Price history"). The shipped catalogs are its first entries; each `catalog
// import` appends to it in one transaction. Keyed by (kind, provider, item, region, mode, as_of):
// the same key and date again with the same price is ignored, with another price the later import
// replaces it (a corrected file wins; the imports table keeps which import set each price).
// sqlite3.h stays in price_history.cpp.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "payback/market/price_import.hpp"

namespace payback {

/// What one price is of. Fields that do not apply are "" (an API price has no region, a used GPU
/// price no provider).
struct PriceKey {
    std::string kind;      ///< instance, api, rental or used
    std::string provider;  ///< cloud, API provider or market (aws, openai, vast); "" for used prices
    std::string item;      ///< instance type, model, or gpus.csv name
    std::string region;    ///< instance prices only
    std::string mode;      ///< on_demand, spot, reserved_1y, reserved_3y | input, output, cached_input |
                           ///< host, host_p10, host_p90 | used, purchase
    bool operator==(const PriceKey&) const = default;
};

struct DatedPrice {
    PriceKey key;
    std::string as_of;  ///< YYYY-MM-DD: the day the price held
    double price = 0;   ///< per hour (instance, rental), per million tokens (api), each (used)
    std::string currency;
    std::string source;
    std::string import_format;  ///< the import it came from: "snapshot" or a catalog import --format
};

/// A filter over the history: a field left empty matches every value.
struct PriceQuery {
    std::string kind, provider, item, region, mode;
};

/// One catalog import, as the imports table records it.
struct ImportRecord {
    long long id = 0;
    std::string time;    ///< UTC, YYYY-MM-DDTHH:MM:SSZ
    std::string format;  ///< "snapshot" or the --format
    std::string files;   ///< the files read, ", " between them
    long long rows = 0;  ///< the prices the import held
    long long added = 0;  ///< of those, the ones new to the history or with a changed price
};

/// The price history database's schema version this program writes (PRAGMA user_version).
inline constexpr int price_history_schema_version = 2;

/// $PAYBACK_DB when set, else $XDG_DATA_HOME/payback/prices.sqlite, else
/// ~/.local/share/payback/prices.sqlite.
std::filesystem::path default_price_history_path();

/// The prices in rows of a catalog (cells in catalog_columns(catalog) order), one point per price
/// cell: an instance row gives up to four (on-demand, spot, reserved 1 and 3 years), an API row up
/// to three. A series row's date is its as_of (the row's own as_of says when it was written).
std::vector<DatedPrice> price_points(PriceCatalog catalog, const std::vector<std::vector<std::string>>& rows,
                                     const std::string& series_mode);

class PriceHistory {
public:
    /// Opens `path`, creating it (and its directory) when absent: the schema's migrations are
    /// applied in order, one transaction each, and an empty history gets the catalogs in
    /// `pricing_dir` as its first entries (import "snapshot"). InputError (naming `path`) when it
    /// cannot be created or written, is not a SQLite database, or has a schema newer than this
    /// program's. Safe against other processes opening the same file at once.
    static PriceHistory open(const std::filesystem::path& path, const std::filesystem::path& pricing_dir);
    PriceHistory(PriceHistory&&) noexcept;
    PriceHistory& operator=(PriceHistory&&) noexcept;
    ~PriceHistory();

    /// Appends `points` as one import, all or nothing; returns its record.
    ImportRecord append(const std::string& format, const std::vector<std::string>& files,
                        const std::vector<DatedPrice>& points);

    /// The dated prices of one key, oldest first.
    std::vector<DatedPrice> series(const PriceKey& key) const;
    /// The price in effect on `date` (YYYY-MM-DD): the latest with as_of <= date; nullopt before the
    /// first.
    std::optional<DatedPrice> at(const PriceKey& key, const std::string& date) const;
    /// Every price matching `query`, by key then date.
    std::vector<DatedPrice> find(const PriceQuery& query) const;
    /// The distinct keys of one kind (for "did you mean").
    std::vector<PriceKey> keys(const std::string& kind) const;
    std::vector<ImportRecord> imports() const;
    int schema_version() const;

    struct Connection;  ///< the open sqlite3 handle (price_history.cpp)

private:
    explicit PriceHistory(std::unique_ptr<Connection> connection);
    std::unique_ptr<Connection> connection_;
};

}  // namespace payback
