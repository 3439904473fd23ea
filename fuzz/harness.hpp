// The fuzzed entry points: each takes arbitrary bytes, feeds them to one parser and, when the input
// is accepted, checks what must then hold. Bad input may only end in payback::InputError; anything
// else escaping (another exception, a failed check as HarnessFailure, a sanitizer report) is a
// finding. Shared by the libFuzzer programs (fuzz_main.cpp) and the replay test
// (tests/fuzz/harness_test.cpp), which runs every saved crash and seed in the normal test suite.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace payback::fuzz {

/// A property an accepted input broke.
struct HarnessFailure : std::logic_error {
    using std::logic_error::logic_error;
};

/// A scenario's TOML, optionally followed by a line "--set" and one key.path=value override per
/// line: parse_scenario with the overrides, then compare() and a to_toml round trip.
void scenario(std::string_view data);

/// The first byte picks a catalog file (gpus.csv, ...) whose text is the rest; the other files are
/// the shipped ones: Catalog::parse. Past the catalog files it picks a bare CSV table.
void catalog(std::string_view data);

/// A URDB tariff record (JSON): parse_urdb_tariff, then a month's bill.
void urdb(std::string_view data);

/// A calibration profile (JSON): parse_profile, then a to_json round trip.
void calibration(std::string_view data);

/// A price file of one format (payback/market/price_import.hpp), imported with the shipped alias
/// table, --provider aws and --as-of 2026-01-01: every row has the catalog's columns and a real
/// as_of date, and the CSV written reads back as as many rows.
void import_skypilot(std::string_view data);
void import_aws_ec2(std::string_view data);
void import_azure_retail(std::string_view data);
void import_vast_offers(std::string_view data);
void import_litellm(std::string_view data);
void import_llm_prices(std::string_view data);
void import_silybench(std::string_view data);
void import_epoch(std::string_view data);

/// The price files an import target starts from: tests/fixtures/market/import/ files whose names
/// start with this ("" for the other targets).
std::string import_seed_prefix(const std::string& target);

struct Target {
    const char* name;
    void (*run)(std::string_view data);
};

/// Every target by name: scenario, catalog, urdb, calibration, then the import_* ones.
const std::vector<Target>& targets();

}  // namespace payback::fuzz
