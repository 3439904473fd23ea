// One way to rent the work in the cloud, as a scenario's [[cloud]] table or a catalog row gives it: the
// instance, its price in its mode, how it bills, and what its data centre draws.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "payback/base/units.hpp"
#include "payback/market/api_price.hpp"
#include "payback/market/cloud_billing.hpp"
#include "payback/market/token_serving.hpp"

namespace payback {

/// How a cloud option is bought.
enum class CloudMode { on_demand, spot, reserved_1y, reserved_3y };
const char* to_string(CloudMode mode);

struct CloudOption {
    std::string name;
    units::MoneyPerTime price;  ///< per instance-hour, in the option's mode
    std::string instance;       ///< "aws:p3.2xlarge" when read from pricing/cloud-instances.csv
    std::string price_region;   ///< the catalog row's region
    CloudMode mode = CloudMode::on_demand;
    Billing billing;            ///< increment and minimum; per second with no minimum by default
    /// Spot: interruptions and how much work each costs (cloud_billing.hpp).
    std::optional<SpotTerms> spot;
    /// Reserved: hours a month paid whether used or not (one instance full time by default), and the
    /// on-demand price of hours beyond them.
    double committed_hours_per_month = 730.0;
    units::MoneyPerTime on_demand_price;
    double egress_gb_per_month = 0.0;
    double egress_price_per_gb = 0.0;
    /// Where catalog values came from, per key ("price_per_hour" -> "pricing/cloud-instances.csv:12, as of ...").
    std::vector<std::pair<std::string, std::string>> from_catalog;
    std::string gpu;            ///< the instance's GPU, a pricing/gpus.csv name; empty when typed in
    /// With a [workload] job: one of the instance's GPUs on the job's model, and where that came from.
    std::optional<double> gpu_samples_per_second;
    std::string throughput_origin;
    double speedup = 1.0;       ///< throughput relative to the rig
    /// When given: speedup is computed from the instance's GPUs (rig_scaling.hpp), each this fast
    /// against one of the rig's GPUs.
    std::optional<double> per_gpu_speedup;
    int gpus = 1;
    double interconnect_gb_per_s = 0.0;  ///< per direction, between the instance's GPUs
    double escalation = 0.0;    ///< price change per year, nominal (-0.44: a 44 % cut a year)
    units::Money storage_per_month;  ///< persistent storage, in today's money
    // Carbon: the instance's draw, its data centre's PUE and its grid's intensity.
    units::Power power;              ///< per instance, IT load; 0: unknown (no emissions reported)
    double pue = 1.0;
    double co2_kg_per_kwh = 0.0;
    std::string region;              ///< "aws:us-east-1" when read from pricing/cloud-regions.csv
    // Serving the [workload] tokens: the month's volume (the workload's, so that the bill needs no
    // scenario), the instance's rates, and whether it runs all month whatever it serves.
    TokenVolume tokens;
    std::optional<TokenRates> tokens_per_second;
    bool always_on = false;
    /// An [[api]] option: billed per token, not per hour (api_price.hpp).
    std::optional<ApiPricing> api;
    std::string api_row;  ///< "provider:model" when its prices came from pricing/api-prices.csv
};

}  // namespace payback
