#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "payback/base/error.hpp"
#include "payback/market/price_schedule.hpp"
#include "support/input_errors.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using namespace payback;

namespace {

const std::string used_gpu_prices = PAYBACK_SOURCE_DIR "/pricing/used-gpu-prices.csv";

using payback::test::TempDir;
using payback::test::check_error;
using payback::test::replaced;

// A small valid file: header on line 1, rows on lines 2-4.
const std::string base_csv =
    "date,item,price,currency,units_sold,as_of,source\n"
    "2022-02-15,Card A,80,USD,,2024-12-04,https://example.com/a\n"
    "2022-01-15,Card A,100,USD,10,2024-12-04,https://example.com/a\n"
    "2022-01-15,Card B,300,USD,5,2024-12,https://example.com/b\n";

// One item's schedule from a file, read and checked whole.
PriceSchedule load_price_schedule(const std::string& path, const std::string& item) {
    return UsedPriceTable::load(path).schedule(item);
}

// The InputError that loading `item` from `path` throws.
InputError load_error(const std::string& path, const std::string& item) {
    return payback::test::input_error([&] { load_price_schedule(path, item); });
}

}  // namespace

TEST_CASE("price_at interpolates between points and holds the ends", "[prices]") {
    const PriceSchedule s{"card", "USD", {{10.0, 100.0, ""}, {12.0, 200.0, ""}, {13.0, 50.0, ""}}};
    // Midway between 10 and 12: (100 + 200) / 2 = 150. A quarter of the way from 12 to 13:
    // 200 + 0.25 x (50 - 200) = 162.5.
    CHECK(price_at(s, 11.0) == Approx(150.0).epsilon(1e-15));
    CHECK(price_at(s, 12.25) == Approx(162.5).epsilon(1e-15));
    CHECK(price_at(s, 12.0) == 200.0);
    CHECK(price_at(s, 10.0) == 100.0);
    CHECK(price_at(s, 9.0) == 100.0);  // before the first: held at the first
    CHECK(price_at(s, 13.0) == 50.0);
    CHECK(price_at(s, 400.0) == 50.0);  // after the last: held at the last
    const PriceSchedule one{"card", "USD", {{10.0, 7.0, ""}}};
    CHECK(price_at(one, 0.0) == 7.0);
    CHECK(price_at(one, 20.0) == 7.0);
    CHECK_THROWS_AS(price_at(PriceSchedule{"none", "USD", {}}, 10.0), std::invalid_argument);
}

TEST_CASE("the used-GPU price file: published values", "[prices][data]") {
    const PriceSchedule ti = load_price_schedule(used_gpu_prices, "RTX 2080 Ti");
    CHECK(ti.item == "RTX 2080 Ti");
    CHECK(ti.currency == "USD");
    // October 2021 to October 2023 is 25 months.
    REQUIRE(ti.points.size() == 25);
    CHECK(ti.points.front().when == calendar_month(2021, 10, 15));
    CHECK(ti.points.back().when == calendar_month(2023, 10, 15));
    for (std::size_t i = 1; i < ti.points.size(); ++i) CHECK(ti.points[i - 1].when < ti.points[i].when);
    CHECK(price_at(ti, calendar_month(2021, 10, 15)) == 1097.0);
    CHECK(price_at(ti, calendar_month(2023, 10, 15)) == 309.0);
    // 2022-01-01 lies 17/31 of the way from 2021-12-15 ($1,186) to 2022-01-15 ($1,127), a gap of exactly
    // one month (both months have 31 days): 1186 - 59 x 17/31 = 1153.645161.
    CHECK(price_at(ti, calendar_month(2022, 1, 1)) == Approx(1186.0 - 59.0 * 17.0 / 31.0).epsilon(1e-12));
    CHECK(price_at(ti, calendar_month(2019, 6, 1)) == 1097.0);  // before the series: its first value

    const PriceSchedule rtx3090 = load_price_schedule(used_gpu_prices, "RTX 3090");
    CHECK(rtx3090.points.size() == 25);
    CHECK(price_at(rtx3090, calendar_month(2021, 11, 15)) == 2936.0);  // the series peak
    CHECK(price_at(rtx3090, calendar_month(2023, 10, 15)) == 704.0);

    // The 3080 12 GB starts in February 2022 (21 months); the 4090 in October 2022 (13 months).
    const PriceSchedule rtx3080_12 = load_price_schedule(used_gpu_prices, "RTX 3080 12GB");
    CHECK(rtx3080_12.points.size() == 21);
    CHECK(rtx3080_12.points.front().when == calendar_month(2022, 2, 15));
    CHECK(rtx3080_12.points.front().price == 1547.0);
    const PriceSchedule rtx4090 = load_price_schedule(used_gpu_prices, "RTX 4090");
    CHECK(rtx4090.points.size() == 13);
    CHECK(price_at(rtx4090, calendar_month(2022, 1, 15)) == 2333.0);
    CHECK(price_at(rtx4090, calendar_month(2023, 6, 15)) == 1490.0);
    const PriceSchedule rtx3080_10 = load_price_schedule(used_gpu_prices, "RTX 3080 10GB");
    CHECK(price_at(rtx3080_10, calendar_month(2021, 12, 15)) == 1783.0);
    CHECK(price_at(rtx3080_10, calendar_month(2023, 10, 15)) == 401.0);
}

TEST_CASE("dates_read: the observations price_at reads, for prices_as_of", "[prices][data]") {
    const PriceSchedule ti = load_price_schedule(used_gpu_prices, "RTX 2080 Ti");
    CHECK(ti.points.front().date == "2021-10-15");
    // Before the series: its first value alone; after it: its last alone.
    CHECK(dates_read(ti, {calendar_month(2019, 6, 1)}) == std::vector<std::string>{"2021-10-15"});
    CHECK(dates_read(ti, {calendar_month(2025, 1, 1)}) == std::vector<std::string>{"2023-10-15"});
    // 2022-01-01 interpolates 2021-12-15 and 2022-01-15; on an observation's own day only it weighs.
    CHECK(dates_read(ti, {calendar_month(2022, 1, 1)}) == std::vector<std::string>{"2021-12-15", "2022-01-15"});
    CHECK(dates_read(ti, {calendar_month(2022, 1, 15)}) == std::vector<std::string>{"2022-01-15"});
    // Several dates: each observation once, oldest first.
    CHECK(dates_read(ti, {calendar_month(2023, 10, 15), calendar_month(2022, 1, 15), calendar_month(2022, 1, 15)}) ==
          std::vector<std::string>{"2022-01-15", "2023-10-15"});
}

TEST_CASE("a small price file: rows sorted by date, empty units_sold allowed", "[prices]") {
    TempDir dir;
    const std::string path = dir.write("prices.csv", base_csv);
    const PriceSchedule a = load_price_schedule(path, "Card A");
    REQUIRE(a.points.size() == 2);
    // Written February first; read back January first.
    CHECK(a.points[0].when == calendar_month(2022, 1, 15));
    CHECK(a.points[0].price == 100.0);
    CHECK(a.points[1].price == 80.0);
    const PriceSchedule b = load_price_schedule(path, "Card B");
    CHECK(b.points.size() == 1);
    CHECK(b.points[0].price == 300.0);
}

TEST_CASE("price file errors name the file, line and column", "[prices][errors]") {
    TempDir dir;
    const std::string path = dir.write("bad.csv", "");
    // The error from loading `item` out of `text`, written to `path`.
    const auto error_for = [&](const std::string& text, const std::string& item = "Card A") {
        dir.write("bad.csv", text);
        return load_error(path, item);
    };
    SECTION("an unknown item, with a hint") {
        check_error(load_error(used_gpu_prices, "RTX 2080Ti"), used_gpu_prices, 0, "item",
                    "no rows for item \"RTX 2080Ti\"; did you mean \"RTX 2080 Ti\"?");
        check_error(error_for(base_csv, "Card C"), path, 0, "item", "did you mean \"Card A\"?");
    }
    SECTION("an unknown item, far from any: the list of items") {
        check_error(load_error(used_gpu_prices, "A100"), used_gpu_prices, 0, "item",
                    "no rows for item \"A100\"; the file has: RTX 2080 Ti, RTX 3080 10GB, RTX 3080 12GB, "
                    "RTX 3090, RTX 4090");
        const std::string header_only = base_csv.substr(0, base_csv.find('\n') + 1);
        check_error(error_for(header_only), path, 0, "item", "the file has no data rows");
    }
    SECTION("a missing column") {
        check_error(error_for(replaced(base_csv, ",source\n", ",origin\n")), path, 0, "source",
                    "missing column");
    }
    SECTION("a malformed CSV row") {
        check_error(error_for(replaced(base_csv, ",Card B,300,", ",Card B,")), path, 4, "",
                    "expected 7 fields");
    }
    SECTION("a bad date") {
        check_error(error_for(replaced(base_csv, "2022-01-15,Card A", "2022-13-15,Card A")), path, 3, "date",
                    "expected a date YYYY-MM-DD or YYYY-MM, got \"2022-13-15\"");
        check_error(error_for(replaced(base_csv, "2022-02-15,Card A", "2023-02-29,Card A")), path, 2, "date",
                    "got \"2023-02-29\"");
    }
    SECTION("a negative, non-finite or non-numeric price") {
        check_error(error_for(replaced(base_csv, ",80,", ",-80,")), path, 2, "price",
                    "expected a price >= 0, got -80");
        check_error(error_for(replaced(base_csv, ",300,", ",inf,")), path, 4, "price",
                    "expected a finite number");
        check_error(error_for(replaced(base_csv, ",100,", ",$100,")), path, 3, "price",
                    "expected a number, got \"$100\"");
    }
    SECTION("an item priced twice on one date") {
        const std::string text = base_csv + "2022-01-15,Card A,90,USD,3,2024-12-04,https://example.com/a\n";
        check_error(error_for(text), path, 5, "date",
                    "\"Card A\" already has a price for 2022-01-15 on line 3");
        // The same day written as "YYYY-MM" for the 1st is the same date.
        const std::string month_only = replaced(replaced(base_csv, "2022-02-15,Card A", "2022-02-01,Card A"),
                                                "2022-01-15,Card A", "2022-02,Card A");
        check_error(error_for(month_only), path, 3, "date", "already has a price for 2022-02 on line 2");
    }
    SECTION("an item priced in two currencies") {
        check_error(error_for(replaced(base_csv, ",100,USD,", ",100,EUR,")), path, 3, "currency",
                    "\"Card A\" is priced in USD on line 2; all its rows must use one currency");
        check_error(error_for(replaced(base_csv, ",100,USD,", ",100,usd,")), path, 3, "currency",
                    "three-letter currency code");
    }
    SECTION("an empty or malformed as_of, an empty source") {
        check_error(error_for(replaced(base_csv, ",10,2024-12-04,", ",10,,")), path, 3, "as_of",
                    "empty: every row must say when its price was read");
        check_error(error_for(replaced(base_csv, ",10,2024-12-04,", ",10,last week,")), path, 3, "as_of",
                    "expected a date YYYY-MM-DD or YYYY-MM, got \"last week\"");
        check_error(error_for(replaced(base_csv, "https://example.com/b", "")), path, 4, "source",
                    "empty: every row must say where its price came from");
        check_error(error_for(replaced(base_csv, "https://example.com/b", "  ")), path, 4, "source", "empty");
    }
    SECTION("an empty item, a fractional or negative units_sold") {
        check_error(error_for(replaced(base_csv, ",Card B,", ",,")), path, 4, "item", "empty");
        check_error(error_for(replaced(base_csv, ",USD,10,", ",USD,10.5,")), path, 3, "units_sold",
                    "expected a whole number of units >= 0 or nothing, got 10.5");
        check_error(error_for(replaced(base_csv, ",USD,10,", ",USD,-1,")), path, 3, "units_sold", "got -1");
    }
    SECTION("a missing file") {
        const std::string missing = path + ".missing";
        check_error(load_error(missing, "Card A"), missing, 0, "", "no such file");
    }
}
