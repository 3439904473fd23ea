// The price history's schema as an ordered list of migrations: migration i takes a database from
// user_version i to i + 1, in one transaction. Append only: a shipped migration never changes, so a
// database written by any earlier program can be brought up to date.
#pragma once

#include <string_view>
#include <vector>

namespace payback::detail {

inline const std::vector<std::string_view>& price_history_migrations() {
    static const std::vector<std::string_view> migrations = {
        // 1: the imports and the prices, one row per (key, day the price held).
        R"sql(
CREATE TABLE imports (
    id INTEGER PRIMARY KEY,
    time TEXT NOT NULL,
    format TEXT NOT NULL,
    files TEXT NOT NULL,
    rows INTEGER NOT NULL
);
CREATE TABLE prices (
    kind TEXT NOT NULL CHECK (kind IN ('instance', 'api', 'rental', 'used')),
    provider TEXT NOT NULL,
    item TEXT NOT NULL,
    region TEXT NOT NULL,
    mode TEXT NOT NULL,
    as_of TEXT NOT NULL,
    price REAL NOT NULL,
    currency TEXT NOT NULL,
    source TEXT NOT NULL,
    import_id INTEGER NOT NULL REFERENCES imports (id),
    UNIQUE (kind, provider, item, region, mode, as_of)
);
)sql",
        // 2: how many of an import's prices were new or changed (a file read twice adds none).
        "ALTER TABLE imports ADD COLUMN added INTEGER NOT NULL DEFAULT 0;",
    };
    return migrations;
}

}  // namespace payback::detail
