#include "payback/scenario/price_choice.hpp"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <system_error>

#include "payback/base/data_directory.hpp"
#include "payback/base/error.hpp"
#include "payback/market/catalog.hpp"
#include "payback/market/price_dates.hpp"
#include "payback/market/price_history.hpp"

namespace payback {
namespace {

std::optional<std::filesystem::path> history_to_read(const std::string& as_of, const std::string& db) {
    std::error_code unreadable;
    if (!db.empty()) {
        if (!std::filesystem::is_regular_file(db, unreadable))
            throw InputError(db, 0, "--db", "no price history here; payback catalog import --db " + db + " makes one");
        return std::filesystem::path(db);
    }
    const char* from_environment = std::getenv("PAYBACK_DB");
    if ((from_environment == nullptr || *from_environment == '\0') && as_of.empty()) return std::nullopt;
    std::filesystem::path path = default_price_history_path();
    if (!std::filesystem::is_regular_file(path, unreadable)) return std::nullopt;
    return path;
}

}  // namespace

PriceChoice choose_prices(const std::string& as_of, const std::string& db) {
    PriceChoice choice;
    if (!as_of.empty()) {
        try {
            days_between(as_of, as_of);  // a real date YYYY-MM-DD
        } catch (const std::invalid_argument& e) {
            throw InputError("--as-of", 0, "", e.what());
        }
        choice.at = as_of;
    }
    if (const auto path = history_to_read(as_of, db)) {
        const PriceHistory history =
            PriceHistory::open(*path, find_data_directory(ShippedData::pricing).path);
        choice.catalog = std::make_shared<const Catalog>(Catalog::shipped().with_history(history.find({}), path->string()));
    }
    return choice;
}

PriceAge price_age_of(const Scenario& scenario, int max_age_days) {
    // With --as-of the question is whether the prices were current then, not now.
    return price_age(scenario.price_dates, scenario.prices.at.value_or(today()), max_age_days);
}

}  // namespace payback
