#include "payback/market/catalog.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "base/csv_reader.hpp"
#include "payback/base/calendar.hpp"
#include "payback/base/data_directory.hpp"
#include "payback/base/error.hpp"
#include "payback/base/suggest.hpp"
#include "payback/base/text_file.hpp"
#include "payback/market/price_dates.hpp"

namespace payback {

namespace {

using detail::CsvTable;

// One row's cells, checked as they are read.
class Row {
public:
    Row(const CsvTable& table, std::size_t row) : table_(table), row_(row) {}

    std::string text(std::string_view column) const { return table_.text(row_, column); }
    bool has(std::string_view column) const { return table_.has_column(column); }
    std::string required(std::string_view column) const { return table_.required(row_, column); }
    std::optional<double> number(std::string_view column, double lo, double hi) const {
        if (text(column).empty()) return std::nullopt;
        const double value = table_.number(row_, column);
        if (value < lo || value > hi)
            throw table_.error(row_, column, fmt::format("must be between {} and {}, got {}", lo, hi, value));
        return value;
    }
    double required_number(std::string_view column, double lo, double hi) const {
        required(column);
        return *number(column, lo, hi);
    }
    // A count, a year or a number of seconds: "1.5" is refused rather than cut to 1.
    std::optional<double> whole_number(std::string_view column, double lo, double hi) const {
        const auto value = number(column, lo, hi);
        if (value && *value != std::floor(*value))
            throw table_.error(row_, column, fmt::format("expected a whole number, got {}", *value));
        return value;
    }
    double required_whole_number(std::string_view column, double lo, double hi) const {
        required(column);
        return *whole_number(column, lo, hi);
    }
    // A date cell that may be empty; when filled, YYYY-MM-DD or YYYY-MM.
    std::string date_or_month(std::string_view column) const {
        std::string value = text(column);
        if (!value.empty() && !parse_date(value))
            throw table_.error(row_, column, "expected a date YYYY-MM-DD or YYYY-MM, got \"" + value + "\"");
        return value;
    }
    // A cell that must be one of `allowed`.
    std::string one_of(std::string_view column, const std::vector<std::string>& allowed) const {
        std::string value = required(column);
        if (std::find(allowed.begin(), allowed.end(), value) == allowed.end())
            throw table_.error(row_, column, fmt::format("expected one of {}, got \"{}\"", fmt::join(allowed, ", "), value));
        return value;
    }
    // true, false, or empty for false.
    bool flag(std::string_view column) const {
        const std::string value = text(column);
        if (value != "" && value != "true" && value != "false")
            throw table_.error(row_, column, "expected true, false or nothing, got \"" + value + "\"");
        return value == "true";
    }
    RowOrigin origin() const {
        RowOrigin o{table_.path(), table_.line_of(row_), required("as_of"), required("source")};
        if (!parse_calendar_date(o.as_of)) throw table_.error(row_, "as_of", "expected a date YYYY-MM-DD, got \"" + o.as_of + "\"");
        return o;
    }
    // As origin(), for a file whose sources are dated by the month ("2025-11") where no day is given.
    RowOrigin origin_dated_by_month() const {
        RowOrigin o{table_.path(), table_.line_of(row_), required("as_of"), required("source")};
        if (!parse_date(o.as_of))
            throw table_.error(row_, "as_of", "expected a date YYYY-MM-DD or YYYY-MM, got \"" + o.as_of + "\"");
        return o;
    }

    InputError error(std::string_view column, const std::string& message) const {
        return table_.error(row_, column, message);
    }

private:
    const CsvTable& table_;
    std::size_t row_;
};

// No list price per million tokens reaches this; a larger one is per thousand, or a typo.
constexpr double max_price_per_million_tokens = 10'000.0;
// Longer than any model's context today (10^6 tokens): a larger one is a typo.
constexpr double max_context_tokens = 1e9;

// The families the predictor fits its achievable fractions for (workload/predictor.hpp).
const std::vector<std::string> gpu_architectures = {"pascal", "volta",  "turing",   "ampere",   "ampere-datacenter",
                                                    "ada",    "hopper", "blackwell", "blackwell-datacenter",
                                                    "cdna3",  "rdna3",  "rdna3.5",  "rdna4",    "apple"};

using TextOf = std::function<std::string(const std::string& file_name)>;

template <class Item, class Read, class Key>
std::vector<Item> load_file(const std::filesystem::path& dir, const TextOf& text_of, const std::string& name,
                            const std::vector<std::string>& columns, Read read, Key key) {
    const CsvTable table = CsvTable::parse(text_of(name), (dir / name).string());
    table.require_columns(columns);
    std::vector<Item> items;
    std::set<std::string> seen;
    for (std::size_t r = 0; r < table.rows(); ++r) {
        const Row row(table, r);
        items.push_back(read(row));
        if (!seen.insert(key(items.back())).second)
            throw table.error(r, columns.front(), "duplicate entry \"" + key(items.back()) + "\"");
    }
    return items;
}

std::vector<PcieSlot> parse_slots(const Row& row, const std::string& text) {
    std::vector<PcieSlot> slots;
    std::size_t start = 0;
    while (start < text.size()) {
        const std::size_t end = std::min(text.find(';', start), text.size());
        const std::string item = text.substr(start, end - start);
        const auto x = item.find('x');
        int generation = 0, lanes = 0;
        if (x == std::string::npos || std::sscanf(item.c_str(), "%dx%d", &generation, &lanes) != 2 || generation < 1 ||
            generation > 6 || lanes < 1 || lanes > 16)
            throw row.error("pcie_slots", "expected GENxLANES items separated by ';' such as 3x16;3x8, got \"" + text + "\"");
        slots.push_back({generation, lanes});
        start = end + 1;
    }
    return slots;
}

template <class Items, class Name>
[[noreturn]] void not_found(const std::string& what, const std::string& wanted, const Items& items, Name name) {
    std::vector<std::string> known;
    for (const auto& item : items) known.push_back(name(item));
    const std::string hint = detail::closest_match(wanted, known);
    throw InputError("pricing", 0, what,
                     fmt::format("no {} named \"{}\" in the catalog{}", what, wanted,
                                 hint.empty() ? std::string() : "; did you mean \"" + hint + "\"?"));
}

// Of one item's rows (its price over time), the one in effect `at`, else the newest; InputError under
// `key` naming the earliest date known when every row is later than `at`.
template <class Item>
const Item& dated_row(const std::vector<const Item*>& rows, const std::optional<std::string>& at, const std::string& key,
                      const std::string& item) {
    std::vector<std::string> dates;
    for (const Item* row : rows) dates.push_back(row->origin.as_of);
    if (!at) return *rows[*newest_row(dates)];
    if (const auto index = row_in_effect(dates, *at)) return *rows[*index];
    throw InputError("pricing", 0, key,
                     fmt::format("no price for {} in effect on {} (--as-of): the catalog's earliest is as of {}", item,
                                 *at, *std::min_element(dates.begin(), dates.end())));
}

}  // namespace

std::string RowOrigin::describe() const {
    const std::string name = std::filesystem::path(file).filename().string();
    if (line == 0) return fmt::format("{} (price history), as of {}", name, as_of);
    return fmt::format("pricing/{}:{}, as of {}", name, line, as_of);
}

Catalog Catalog::load(const std::string& directory) {
    const std::filesystem::path dir(directory);
    return parse(directory, [&](const std::string& name) {
        return detail::read_text_file((dir / name).string(), "catalog file");
    });
}

Catalog Catalog::parse(const std::string& directory, const TextOf& text_of) {
    const std::filesystem::path dir(directory);
    Catalog c;
    c.gpus_ = load_file<GpuSpec>(
        dir, text_of, "gpus.csv",
        {"name", "vendor", "release_date", "launch_price_usd", "board_power_watts", "memory_gb", "memory_bandwidth_gb_s",
         "fp32_tflops", "fp16_tflops", "tensor_fp16_tflops", "tensor_fp32_accumulate", "nvlink_gb_s",
         "resnet50_amp_img_s", "resnet50_source", "architecture", "unified_memory", "as_of", "source"},
        [](const Row& row) {
            GpuSpec g;
            g.name = row.required("name");
            g.vendor = row.text("vendor");
            g.release_date = row.date_or_month("release_date");
            g.launch_price_usd = row.number("launch_price_usd", 50, 100000);
            g.board_power_watts = row.number("board_power_watts", 30, 1500);
            g.memory_gb = row.number("memory_gb", 1, 512);
            g.memory_bandwidth_gb_s = row.number("memory_bandwidth_gb_s", 50, 20000);
            g.fp32_tflops = row.number("fp32_tflops", 0.1, 500);
            g.fp16_tflops = row.number("fp16_tflops", 0.01, 5000);
            g.tensor_fp16_tflops = row.number("tensor_fp16_tflops", 1, 10000);
            g.tensor_fp32_accumulate = row.text("tensor_fp32_accumulate");
            if (!g.tensor_fp32_accumulate.empty() && g.tensor_fp32_accumulate != "full" &&
                g.tensor_fp32_accumulate != "half")
                throw row.error("tensor_fp32_accumulate",
                                "expected full, half or nothing, got \"" + g.tensor_fp32_accumulate + "\"");
            g.nvlink_gb_s = row.number("nvlink_gb_s", 1, 2000);
            g.resnet50_amp_img_s = row.number("resnet50_amp_img_s", 10, 20000);
            g.resnet50_source = row.text("resnet50_source");
            if (g.resnet50_amp_img_s && g.resnet50_source.empty())
                throw row.error("resnet50_source", "must name the measurement of resnet50_amp_img_s");
            g.architecture = row.one_of("architecture", gpu_architectures);
            g.unified_memory = row.flag("unified_memory");
            g.origin = row.origin();
            return g;
        },
        [](const GpuSpec& g) { return g.name; });
    c.instances_ = load_file<CloudInstance>(
        dir, text_of, "cloud-instances.csv",
        {"provider", "instance", "region", "gpu", "gpu_count", "gpu_memory_gb", "vcpus", "ram_gb", "on_demand_per_hour",
         "spot_per_hour", "reserved_1y_per_hour", "reserved_3y_per_hour", "billing_increment_seconds",
         "billing_minimum_seconds", "currency", "as_of", "source"},
        [](const Row& row) {
            CloudInstance i;
            i.provider = row.required("provider");
            i.instance = row.required("instance");
            i.region = row.required("region");
            i.gpu = row.required("gpu");
            i.gpu_count = static_cast<int>(row.required_whole_number("gpu_count", 1, 64));
            i.gpu_memory_gb = row.number("gpu_memory_gb", 1, 512);
            i.vcpus = row.number("vcpus", 1, 1024);
            i.ram_gb = row.number("ram_gb", 1, 8192);
            i.on_demand_per_hour = row.number("on_demand_per_hour", 0.005, 500);
            i.spot_per_hour = row.number("spot_per_hour", 0.005, 500);
            i.reserved_1y_per_hour = row.number("reserved_1y_per_hour", 0.005, 500);
            i.reserved_3y_per_hour = row.number("reserved_3y_per_hour", 0.005, 500);
            i.billing_increment_seconds = row.whole_number("billing_increment_seconds", 1, 86400);
            i.billing_minimum_seconds = row.whole_number("billing_minimum_seconds", 0, 86400);
            i.currency = row.required("currency");
            if (!i.on_demand_per_hour && !i.spot_per_hour && !i.reserved_1y_per_hour && !i.reserved_3y_per_hour)
                throw row.error("on_demand_per_hour", "a row needs at least one price");
            i.origin = row.origin();
            return i;
        },
        [](const CloudInstance& i) { return i.provider + ":" + i.instance + "@" + i.region + " as of " + i.origin.as_of; });
    c.parts_ = load_file<PartSpec>(
        dir, text_of, "parts.csv",
        {"kind", "name", "price_usd", "price_date", "idle_watts", "load_watts", "pcie_lanes", "pcie_slots",
         "psu_capacity_watts", "psu_rating", "as_of", "source"},
        [](const Row& row) {
            PartSpec p;
            p.kind = row.required("kind");
            p.name = row.required("name");
            p.price_usd = row.number("price_usd", 1, 20000);
            p.price_date = row.date_or_month("price_date");
            p.idle_watts = row.number("idle_watts", 0, 1000);
            p.load_watts = row.number("load_watts", 0, 2000);
            if (const auto lanes = row.whole_number("pcie_lanes", 1, 256)) p.pcie_lanes = static_cast<int>(*lanes);
            if (!row.text("pcie_slots").empty()) p.pcie_slots = parse_slots(row, row.text("pcie_slots"));
            p.psu_capacity_watts = row.number("psu_capacity_watts", 100, 5000);
            if (!row.text("psu_rating").empty()) {
                p.psu_rating = psu_rating_from(row.text("psu_rating"));
                if (!p.psu_rating) throw row.error("psu_rating", "expected white, bronze, silver, gold, platinum or titanium");
            }
            p.origin = row.origin();
            return p;
        },
        [](const PartSpec& p) { return p.name; });
    c.rates_ = load_file<ElectricityRate>(
        dir, text_of, "electricity-prices.csv", {"region", "name", "price_per_kwh", "currency", "year", "as_of", "source"},
        [](const Row& row) {
            ElectricityRate r;
            r.region = row.required("region");
            r.name = row.text("name");
            r.price_per_kwh = row.required_number("price_per_kwh", 0.005, 2.0);
            r.currency = row.required("currency");
            r.year = static_cast<int>(row.required_whole_number("year", 1990, 2100));
            r.origin = row.origin();
            return r;
        },
        [](const ElectricityRate& r) { return r.region + "@" + std::to_string(r.year); });
    c.rental_markets_ = load_file<RentalMarket>(
        dir, text_of, "rental-markets.csv",
        {"market", "gpu", "host_price_per_hour", "platform_fee", "occupancy", "occupancy_is_assumption", "currency",
         "as_of", "source"},
        [](const Row& row) {
            RentalMarket m;
            m.market = row.required("market");
            m.gpu = row.required("gpu");
            m.host_price_per_hour = row.number("host_price_per_hour", 0.005, 50);
            // Optional columns: the offers' spread around the median, both or neither.
            for (const auto& [column, value] : {std::pair{"host_price_p10_per_hour", &m.host_price_p10_per_hour},
                                                std::pair{"host_price_p90_per_hour", &m.host_price_p90_per_hour}})
                if (row.has(column)) *value = row.number(column, 0.005, 50);
            if (m.host_price_p10_per_hour.has_value() != m.host_price_p90_per_hour.has_value())
                throw row.error(m.host_price_p10_per_hour ? "host_price_p90_per_hour" : "host_price_p10_per_hour",
                                "give both quantiles, P10 and P90, or neither");
            if (m.host_price_p10_per_hour &&
                (!m.host_price_per_hour || *m.host_price_p10_per_hour > *m.host_price_per_hour ||
                 *m.host_price_per_hour > *m.host_price_p90_per_hour))
                throw row.error("host_price_per_hour", "expected P10 <= host_price_per_hour (the median) <= P90");
            m.platform_fee = row.number("platform_fee", 0, 0.9);
            m.occupancy = row.number("occupancy", 0, 1);
            const std::string assumed = row.text("occupancy_is_assumption");
            if (!assumed.empty() && assumed != "true" && assumed != "false")
                throw row.error("occupancy_is_assumption", "expected true or false, got \"" + assumed + "\"");
            m.occupancy_is_assumption = assumed != "false";
            m.currency = row.required("currency");
            m.origin = row.origin();
            return m;
        },
        [](const RentalMarket& m) { return m.market + ":" + m.gpu + " as of " + m.origin.as_of; });
    c.rental_discounts_ = load_file<RentalDiscount>(
        dir, text_of, "rental-discounts.csv", {"market", "months", "discount", "as_of", "source"},
        [](const Row& row) {
            RentalDiscount d;
            d.market = row.required("market");
            d.months = static_cast<int>(row.required_whole_number("months", 1, 60));
            d.discount = row.required_number("discount", 0, 0.9);
            d.origin = row.origin();
            return d;
        },
        [](const RentalDiscount& d) { return d.market + ":" + std::to_string(d.months); });
    c.api_prices_ = load_file<ApiPriceRow>(
        dir, text_of, "api-prices.csv",
        {"provider", "model", "input", "output", "cached_input", "context", "as_of", "source"},
        [](const Row& row) {
            ApiPriceRow a;
            a.provider = row.required("provider");
            a.model = row.required("model");
            a.input_per_million = row.required_number("input", 0, max_price_per_million_tokens);
            a.output_per_million = row.required_number("output", 0, max_price_per_million_tokens);
            a.cached_input_per_million = row.number("cached_input", 0, max_price_per_million_tokens);
            a.context_tokens = row.whole_number("context", 1, max_context_tokens);
            a.origin = row.origin_dated_by_month();
            return a;
        },
        [](const ApiPriceRow& a) { return a.key() + " as of " + a.origin.as_of; });
    const auto path_of = [&](const std::string& name) { return (dir / name).string(); };
    c.grid_carbon_ = GridCarbonTable::parse(text_of("grid-carbon.csv"), path_of("grid-carbon.csv"));
    c.cloud_regions_ = CloudRegionTable::parse(text_of("cloud-regions.csv"), path_of("cloud-regions.csv"));
    c.used_prices_ = UsedPriceTable::parse(text_of("used-gpu-prices.csv"), path_of("used-gpu-prices.csv"));
    // Every instance's GPU must be in the GPU catalog: speed ratios are read from there.
    for (const auto& i : c.instances_)
        if (std::none_of(c.gpus_.begin(), c.gpus_.end(), [&](const GpuSpec& g) { return g.name == i.gpu; }))
            throw InputError(i.origin.file, i.origin.line, "gpu", "\"" + i.gpu + "\" is not in gpus.csv");
    return c;
}

const Catalog& Catalog::shipped() {
    static const Catalog catalog = load(find_data_directory(ShippedData::pricing).path.string());
    return catalog;
}

const ApiPriceRow& Catalog::api_price(const std::string& provider_and_model, const std::optional<std::string>& at) const {
    std::vector<const ApiPriceRow*> rows;
    std::vector<std::string> keys;
    for (const ApiPriceRow& row : api_prices_) {
        if (row.key() == provider_and_model) rows.push_back(&row);
        keys.push_back(row.key());
    }
    if (!rows.empty()) return dated_row(rows, at, "api", provider_and_model);
    const std::string hint = detail::closest_match(provider_and_model, keys);
    throw InputError("pricing", 0, "api",
                     fmt::format("no API row \"{}\" in pricing/api-prices.csv{}", provider_and_model,
                                 hint.empty() ? "; rows are written PROVIDER:MODEL, as in the file"
                                              : "; did you mean \"" + hint + "\"?"));
}

const GpuSpec& Catalog::gpu(const std::string& name) const {
    for (const auto& g : gpus_)
        if (g.name == name) return g;
    not_found("gpu", name, gpus_, [](const GpuSpec& g) { return g.name; });
}

const PartSpec& Catalog::part(const std::string& name) const {
    for (const auto& p : parts_)
        if (p.name == name) return p;
    not_found("part", name, parts_, [](const PartSpec& p) { return p.name; });
}

const CloudInstance& Catalog::instance(const std::string& provider_and_instance, const std::string& region,
                                      const std::optional<std::string>& at) const {
    std::vector<const CloudInstance*> rows;
    std::vector<const CloudInstance*> anywhere;  // marketplaces price "any" region alike
    std::vector<std::string> regions;
    for (const auto& i : instances_) {
        if (i.key() != provider_and_instance) continue;
        if (std::find(regions.begin(), regions.end(), i.region) == regions.end()) regions.push_back(i.region);
        if (i.region == (region.empty() ? regions.front() : region)) rows.push_back(&i);
        if (i.region == "any") anywhere.push_back(&i);
    }
    if (rows.empty()) rows = anywhere;
    if (!rows.empty()) return dated_row(rows, at, "instance", provider_and_instance);
    if (!regions.empty())
        throw InputError("pricing", 0, "region",
                         fmt::format("{} has no price row for region \"{}\"; the catalog has {}", provider_and_instance,
                                     region, fmt::join(regions, ", ")));
    not_found("instance", provider_and_instance, instances_, [](const CloudInstance& i) { return i.key(); });
}

const ElectricityRate& Catalog::rate(const std::string& region, const std::optional<std::string>& at) const {
    std::vector<const ElectricityRate*> rows;
    const ElectricityRate* latest = nullptr;
    for (const auto& r : rates_) {
        if (r.region != region) continue;
        rows.push_back(&r);
        if (!latest || r.year > latest->year) latest = &r;
    }
    if (at && !rows.empty()) return dated_row(rows, at, "region", region);
    if (latest) return *latest;
    not_found("region", region, rates_, [](const ElectricityRate& r) { return r.region; });
}

const RentalMarket& Catalog::rental_market(const std::string& market, const std::string& gpu,
                                           const std::optional<std::string>& at) const {
    std::vector<const RentalMarket*> rows;
    for (const auto& m : rental_markets_)
        if (m.market == market && m.gpu == gpu) rows.push_back(&m);
    if (!rows.empty()) return dated_row(rows, at, "market", market + ":" + gpu);
    not_found("rental market", market + ":" + gpu, rental_markets_,
              [](const RentalMarket& m) { return m.market + ":" + m.gpu; });
}

}  // namespace payback
