// The sourced catalogs under pricing/: GPUs, cloud instances, parts, electricity prices, rental
// markets, grid carbon, cloud regions and used-GPU prices, each a CSV file with as_of and source on
// every row (pricing/README.md), all read once here. Loading checks a whole file (required columns,
// sources and dates, plausible ranges, no duplicate keys) and throws InputError naming the file, line
// and column; lookups by name suggest the closest on a miss.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "payback/energy/psu.hpp"
#include "payback/market/carbon_tables.hpp"
#include "payback/market/pcie.hpp"
#include "payback/market/price_schedule.hpp"

namespace payback {

struct DatedPrice;  // price_history.hpp

/// Where a row came from: "pricing/gpus.csv:14, as of 2025-06-01"; a price history's row (line 0):
/// "prices.sqlite (price history), as of 2025-06-01".
struct RowOrigin {
    std::string file;
    int line = 0;
    std::string as_of;
    std::string source;
    std::string describe() const;
};

struct GpuSpec {
    std::string name;
    std::string vendor;
    std::string release_date;
    std::optional<double> launch_price_usd;
    std::optional<double> board_power_watts;
    std::optional<double> memory_gb;
    std::optional<double> memory_bandwidth_gb_s;
    std::optional<double> fp32_tflops;
    std::optional<double> fp16_tflops;
    std::optional<double> tensor_fp16_tflops;
    /// "half" where the tensor cores accumulate FP32 at half their FP16-accumulate rate (GeForce RTX), "full"
    /// where at the same rate, empty without tensor cores or where NVIDIA publishes neither
    std::string tensor_fp32_accumulate;
    std::optional<double> nvlink_gb_s;          ///< per direction; none without a bridge
    std::optional<double> resnet50_amp_img_s;   ///< Lambda's single-GPU training throughput
    std::string resnet50_source;
    std::string architecture;     ///< "ampere", "ada", "hopper", "cdna3", "apple": the predictor's family
    bool unified_memory = false;  ///< memory shared with the CPU (Apple silicon, Ryzen AI Max, GB10)
    RowOrigin origin;
};

struct CloudInstance {
    std::string provider;
    std::string instance;
    std::string region;
    std::string gpu;  ///< a gpus.csv name
    int gpu_count = 1;
    std::optional<double> gpu_memory_gb;
    std::optional<double> vcpus;
    std::optional<double> ram_gb;
    std::optional<double> on_demand_per_hour;
    std::optional<double> spot_per_hour;
    std::optional<double> reserved_1y_per_hour;
    std::optional<double> reserved_3y_per_hour;
    std::optional<double> billing_increment_seconds;
    std::optional<double> billing_minimum_seconds;
    std::string currency;
    RowOrigin origin;
    std::string key() const { return provider + ":" + instance; }
};

struct PartSpec {
    std::string kind;
    std::string name;
    std::optional<double> price_usd;
    std::string price_date;
    std::optional<double> idle_watts;
    std::optional<double> load_watts;
    std::optional<int> pcie_lanes;
    std::vector<PcieSlot> pcie_slots;
    std::optional<double> psu_capacity_watts;
    std::optional<PsuRating> psu_rating;
    RowOrigin origin;
};

struct ElectricityRate {
    std::string region;
    std::string name;
    double price_per_kwh = 0;
    std::string currency;
    int year = 0;
    RowOrigin origin;
};

struct RentalMarket {
    std::string market;
    std::string gpu;
    std::optional<double> host_price_per_hour;  ///< with the quantiles below, their median
    /// The 10th and 90th percentiles of the offers' prices (optional columns host_price_p10_per_hour
    /// and host_price_p90_per_hour, as `payback catalog import --format vast-offers` writes them).
    std::optional<double> host_price_p10_per_hour;
    std::optional<double> host_price_p90_per_hour;
    std::optional<double> platform_fee;
    std::optional<double> occupancy;
    bool occupancy_is_assumption = true;
    std::string currency;
    RowOrigin origin;
};

struct RentalDiscount {
    std::string market;
    int months = 0;
    double discount = 0;
    RowOrigin origin;
};

/// One row of api-prices.csv: a provider's list prices for one model, per million tokens.
struct ApiPriceRow {
    std::string provider;
    std::string model;
    double input_per_million = 0.0;
    double output_per_million = 0.0;
    std::optional<double> cached_input_per_million;
    std::optional<double> context_tokens;
    RowOrigin origin;
    std::string key() const { return provider + ":" + model; }
};

/// Every catalog of one pricing/ directory.
class Catalog {
public:
    /// Loads and checks every file; InputError on the first problem.
    static Catalog load(const std::string& directory);
    /// The same from texts in memory: `text_of("gpus.csv")` gives each file's contents, and errors
    /// name the files as if they were in `directory` (for tests and the fuzzer).
    static Catalog parse(const std::string& directory,
                         const std::function<std::string(const std::string& file_name)>& text_of);
    /// The shipped catalogs (find_data_directory: $PAYBACK_PRICING_DIR, the install, the package), loaded once.
    static const Catalog& shipped();

    const std::vector<GpuSpec>& gpus() const { return gpus_; }
    const std::vector<CloudInstance>& instances() const { return instances_; }
    const std::vector<PartSpec>& parts() const { return parts_; }
    const std::vector<ElectricityRate>& rates() const { return rates_; }
    const std::vector<RentalMarket>& rental_markets() const { return rental_markets_; }
    const std::vector<RentalDiscount>& rental_discounts() const { return rental_discounts_; }
    const GridCarbonTable& grid_carbon() const { return grid_carbon_; }      ///< grid-carbon.csv
    const CloudRegionTable& cloud_regions() const { return cloud_regions_; }  ///< cloud-regions.csv
    const UsedPriceTable& used_prices() const { return used_prices_; }      ///< used-gpu-prices.csv
    const std::vector<ApiPriceRow>& api_prices() const { return api_prices_; }  ///< api-prices.csv

    /// Lookups; InputError (source "pricing", the key "gpu"/"instance"/...) with a suggestion on a miss.
    const GpuSpec& gpu(const std::string& name) const;
    const PartSpec& part(const std::string& name) const;
    /// "aws:p3.2xlarge" in `region` (the first region listed when empty). An item may have rows of
    /// several as_of dates (its price over time): the one in effect `at` "YYYY-MM-DD" (the latest as_of
    /// on or before it; InputError naming the earliest date known when none is), else the newest.
    const CloudInstance& instance(const std::string& provider_and_instance, const std::string& region,
                                  const std::optional<std::string>& at = std::nullopt) const;
    /// A region's electricity price: the row in effect `at` as instance() picks it, else the latest year's.
    const ElectricityRate& rate(const std::string& region, const std::optional<std::string>& at = std::nullopt) const;
    /// As instance(): the row in effect `at`, else the newest.
    const RentalMarket& rental_market(const std::string& market, const std::string& gpu,
                                      const std::optional<std::string>& at = std::nullopt) const;
    /// "provider:model"; InputError (key "api") with the closest names on a miss. As instance(): the
    /// row in effect `at`, else the newest.
    const ApiPriceRow& api_price(const std::string& provider_and_model,
                                 const std::optional<std::string>& at = std::nullopt) const;

    /// These catalogs with the prices of a price history (PriceHistory::find) as rows of their own
    /// before them, so that on a date both hold the history's price is the one in effect: each date
    /// of an instance, API model or rental market in the history becomes a row with the prices in
    /// effect on that date (row_in_effect over each price's own series) and the rest of its catalog
    /// row (GPUs, billing, fees); an item the catalogs do not describe, and used prices (read by date
    /// from used-gpu-prices.csv), are left out. `history_file` names the rows' origin.
    Catalog with_history(const std::vector<DatedPrice>& history, const std::string& history_file) const;

private:
    std::vector<GpuSpec> gpus_;
    std::vector<CloudInstance> instances_;
    std::vector<PartSpec> parts_;
    std::vector<ElectricityRate> rates_;
    std::vector<RentalMarket> rental_markets_;
    std::vector<RentalDiscount> rental_discounts_;
    GridCarbonTable grid_carbon_;
    CloudRegionTable cloud_regions_;
    UsedPriceTable used_prices_;
    std::vector<ApiPriceRow> api_prices_;
};

}  // namespace payback
