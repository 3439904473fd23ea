// The [[cloud]] tables: an option typed in by hand, or filled from pricing/cloud-instances.csv
// (`instance = "aws:p3.2xlarge"`, `mode`, `region`), with its billing, spot terms, reservation,
// storage, egress and emissions. Whatever the scenario writes overrides the catalog.
#include <fmt/format.h>

#include "payback/market/catalog.hpp"
#include "scenario/scenario_readers.hpp"

namespace payback::detail {

namespace {

const std::vector<std::pair<std::string, CloudMode>> modes = {{"on_demand", CloudMode::on_demand},
                                                              {"spot", CloudMode::spot},
                                                              {"reserved_1y", CloudMode::reserved_1y},
                                                              {"reserved_3y", CloudMode::reserved_3y}};

// What renting emits: the instance's draw, its data centre's PUE and its grid, given or looked up
// by region in pricing/cloud-regions.csv ("aws:us-east-1", or the catalog instance's region).
void read_cloud_carbon(const TomlReader& in, CloudOption& cloud) {
    cloud.power = units::watts(in.number_or("power_watts", units::in_watts(cloud.power)));
    std::string provider_region;
    if (in.contains("region") && in.string("region").find(':') != std::string::npos) {
        if (in.contains("pue") || in.contains("co2_kg_per_kwh"))
            throw in.error("region", "give region (looked up in pricing/cloud-regions.csv) or pue and co2_kg_per_kwh, "
                                     "not both");
        provider_region = in.string("region");
        cloud.region = provider_region;
    } else if (!cloud.instance.empty()) {
        provider_region = cloud.instance.substr(0, cloud.instance.find(':')) + ":" + cloud.price_region;
    }
    if (!provider_region.empty()) {
        const auto colon = provider_region.find(':');
        const CloudRegionTable& regions = Catalog::shipped().cloud_regions();  // a bad catalog names its own file
        try {
            const CloudRegion& r = regions.find(provider_region.substr(0, colon), provider_region.substr(colon + 1));
            cloud.pue = r.pue;
            cloud.co2_kg_per_kwh = r.kg_co2_per_kwh;
        } catch (const InputError& e) {
            if (!cloud.region.empty()) throw in.error("region", e.message());  // asked for by name: must exist
        }
    }
    cloud.pue = in.number_or("pue", cloud.pue);
    cloud.co2_kg_per_kwh = in.number_or("co2_kg_per_kwh", cloud.co2_kg_per_kwh);
}

// The name of an option the scenario does not name: provider, instance and mode, and the region when
// the scenario picked one, so that one instance in two modes or two regions gives two options.
std::string catalog_option_name(const CloudInstance& row, CloudMode mode, const std::string& chosen_region) {
    static const std::vector<std::pair<std::string, std::string>> providers = {
        {"aws", "AWS"},       {"gcp", "GCP"},       {"azure", "Azure"},
        {"lambda", "Lambda"}, {"runpod", "RunPod"}, {"vast", "Vast.ai"}};
    std::string provider = row.provider;
    for (const auto& [id, title] : providers)
        if (id == row.provider) provider = title;
    static const char* const mode_words[] = {"on-demand", "spot", "reserved 1y", "reserved 3y"};
    std::string name = fmt::format("{} {} {}", provider, row.instance, mode_words[static_cast<std::size_t>(mode)]);
    return chosen_region.empty() ? name : name + " " + chosen_region;
}

// Fills name, price, billing, GPUs and speed from the catalog row of `instance` in `mode` and `region`.
void fill_from_catalog(const TomlReader& in, const ReadContext& context, const GpuSpec* rig_gpu, CloudOption& cloud) {
    cloud.instance = in.string("instance");
    if (cloud.instance.find(':') == std::string::npos)
        throw in.error("instance", "expected PROVIDER:INSTANCE such as \"aws:p3.2xlarge\", got \"" + cloud.instance + "\"");
    const std::string region =
        in.contains("region") && in.string("region").find(':') == std::string::npos ? in.string("region") : "";
    const Catalog& catalog = context.catalog();
    const CloudInstance* row = nullptr;
    try {
        row = &catalog.instance(cloud.instance, region, context.prices_at);
    } catch (const InputError& e) {
        throw in.error(e.key_path() == "region" ? "region" : "instance", e.message());
    }
    cloud.price_region = row->region;
    const std::string origin = row->origin.describe();
    if (!in.contains("name")) {
        cloud.name = catalog_option_name(*row, cloud.mode, region);
        cloud.from_catalog.emplace_back("name", origin);
    }
    if (row->currency != context.currency && !in.contains("price_per_hour"))
        throw in.error("instance", fmt::format("the catalog prices {} in {}, the scenario is in {}: give price_per_hour",
                                               cloud.instance, row->currency, context.currency));
    const std::optional<double> prices[] = {row->on_demand_per_hour, row->spot_per_hour, row->reserved_1y_per_hour,
                                            row->reserved_3y_per_hour};
    const auto price = prices[static_cast<std::size_t>(cloud.mode)];
    if (price && !in.contains("price_per_hour")) context.used_price_of(row->origin.as_of);
    if (price) {
        cloud.price = units::money_per_hour(*price);
        cloud.from_catalog.emplace_back("price_per_hour", origin);
    } else if (!in.contains("price_per_hour")) {
        throw in.error("mode", fmt::format("the catalog has no {} price for {} in {}: give price_per_hour",
                                           to_string(cloud.mode), cloud.instance, row->region));
    }
    if (row->on_demand_per_hour) cloud.on_demand_price = units::money_per_hour(*row->on_demand_per_hour);
    if (row->billing_increment_seconds) cloud.billing.increment_seconds = *row->billing_increment_seconds;
    if (row->billing_minimum_seconds) cloud.billing.minimum_seconds = *row->billing_minimum_seconds;
    cloud.gpus = row->gpu_count;
    cloud.gpu = row->gpu;
    const GpuSpec& gpu = catalog.gpu(row->gpu);
    if (gpu.board_power_watts) {
        cloud.power = units::watts(*gpu.board_power_watts * row->gpu_count);
        cloud.from_catalog.emplace_back("power_watts", gpu.origin.describe());
    }
    // Speed against the rig: Lambda's ResNet-50 throughput of the two GPUs, when both are measured.
    if (rig_gpu && rig_gpu->resnet50_amp_img_s && gpu.resnet50_amp_img_s) {
        cloud.per_gpu_speedup = *gpu.resnet50_amp_img_s / *rig_gpu->resnet50_amp_img_s;
        cloud.interconnect_gb_per_s = gpu.nvlink_gb_s.value_or(pcie_gb_per_s(4, 16));
        cloud.from_catalog.emplace_back("per_gpu_speedup", fmt::format("{} / {} ResNet-50 img/s ({}; {})", gpu.name,
                                                                        rig_gpu->name, gpu.origin.describe(),
                                                                        rig_gpu->origin.describe()));
    }
}

}  // namespace

std::vector<CloudOption> read_clouds(const TomlReader& root, const ReadContext& context, const Rig& rig,
                                     const TrainingJob* job, const TokenWorkload* tokens) {
    const GpuSpec* rig_gpu = nullptr;
    for (const Part& part : rig.parts)
        if (!part.catalog_gpu.empty() && !rig_gpu) rig_gpu = &Catalog::shipped().gpu(part.catalog_gpu);
    std::vector<CloudOption> clouds;
    for (const auto& in : root.array_of_tables("cloud", false)) {
        CloudOption cloud;
        cloud.mode = in.choice("mode", modes, std::optional(CloudMode::on_demand));
        if (in.contains("region") && !in.contains("instance") && in.string("region").find(':') == std::string::npos)
            throw in.error("region", "expected PROVIDER:REGION such as \"aws:us-east-1\" (a bare region picks the "
                                     "price row of an instance = \"...\")");
        if (in.contains("instance")) fill_from_catalog(in, context, rig_gpu, cloud);
        // An option from the catalog is named after its row unless the scenario names it.
        if (in.contains("name") || cloud.instance.empty()) cloud.name = in.string("name");
        const char* name_key = in.contains("name") ? "name" : "instance";
        const std::string named = in.contains("name") ? "" : " (its name from the catalog; give name = \"...\")";
        if (cloud.name == rig.name) throw in.error(name_key, "\"" + cloud.name + "\" is the rig's name too" + named);
        for (const auto& other : clouds)
            if (other.name == cloud.name)
                throw in.error(name_key, "duplicate cloud option \"" + cloud.name + "\"" + named);
        if (in.contains("price_per_hour") || cloud.instance.empty())
            cloud.price = units::money_per_hour(in.number("price_per_hour"));
        // speedup against the whole rig, or computed from the instance's GPUs (rig_scaling.hpp).
        if (in.contains("per_gpu_speedup") || in.contains("speedup")) {
            if (in.contains("per_gpu_speedup") && in.contains("speedup"))
                throw in.error("per_gpu_speedup", "give speedup (against the whole rig) or per_gpu_speedup, not both");
            cloud.per_gpu_speedup.reset();
            std::erase_if(cloud.from_catalog, [](const auto& entry) { return entry.first == "per_gpu_speedup"; });
            if (in.contains("per_gpu_speedup")) cloud.per_gpu_speedup = in.number("per_gpu_speedup");
        }
        calibrate_cloud(in, job, cloud);
        if (!cloud.instance.empty() && !cloud.per_gpu_speedup && !in.contains("speedup"))
            throw in.error("speedup", "missing required key: the GPU catalog has no throughput ratio between the rig's "
                                      "GPU and this instance's (give the rig's GPU as gpu = \"...\", or speedup)");
        cloud.gpus = static_cast<int>(in.integer_or("gpus", cloud.gpus));
        cloud.interconnect_gb_per_s =
            in.number_or("interconnect_gb_per_s",
                         cloud.interconnect_gb_per_s > 0 ? cloud.interconnect_gb_per_s : pcie_gb_per_s(4, 16));
        read_cloud_serving(in, tokens, cloud);  // after gpus and interconnect_gb_per_s: a prediction uses them
        cloud.speedup = in.number_or("speedup");
        cloud.escalation = in.number_or("escalation");
        cloud.storage_per_month = units::money(in.number_or("storage_per_month"));
        if (in.contains("storage_gb")) {
            if (in.contains("storage_per_month"))
                throw in.error("storage_gb", "give storage_per_month, or storage_gb with storage_price_per_gb_month");
            cloud.storage_per_month = units::money(storage_cost_per_month(
                in.number("storage_gb"),
                in.number("storage_price_per_gb_month")));
        }
        cloud.egress_gb_per_month = in.number_or("egress_gb_per_month");
        cloud.egress_price_per_gb = in.number_or("egress_price_per_gb");
        if (const auto billing = in.table("billing", false)) {
            cloud.billing.increment_seconds =
                billing->number_or("increment_seconds", cloud.billing.increment_seconds);
            cloud.billing.minimum_seconds =
                billing->number_or("minimum_seconds", cloud.billing.minimum_seconds);
            billing->finish();
        }
        if (cloud.mode == CloudMode::spot) {
            SpotTerms spot{};
            if (in.contains("interruptions_per_hour") && in.contains("interruption_bucket"))
                throw in.error("interruption_bucket", "give interruptions_per_hour or interruption_bucket, not both");
            if (in.contains("interruption_bucket")) {
                const auto rate = interruptions_per_hour_from_aws_bucket(in.string("interruption_bucket"));
                if (!rate)
                    throw in.error("interruption_bucket", "expected one of AWS's buckets \"<5%\", \"5-10%\", "
                                                          "\"10-15%\", \"15-20%\", \">20%\"");
                spot.interruptions_per_hour = *rate;
            }
            spot.interruptions_per_hour =
                in.number_or("interruptions_per_hour", spot.interruptions_per_hour);
            spot.checkpoint_interval_hours =
                in.number_or("checkpoint_interval_hours");
            spot.restart_hours = in.number_or("restart_hours");
            spot.checkpoint_cost_hours =
                in.number_or("checkpoint_cost_hours");
            cloud.spot = spot;
        }
        if (cloud.mode == CloudMode::reserved_1y || cloud.mode == CloudMode::reserved_3y) {
            cloud.committed_hours_per_month =
                in.number_or("committed_hours_per_month");
            if (in.contains("on_demand_price_per_hour") || units::in_money_per_hour(cloud.on_demand_price) == 0)
                cloud.on_demand_price = units::money_per_hour(
                    in.number("on_demand_price_per_hour"));  // hours beyond the commitment
        }
        read_cloud_carbon(in, cloud);
        // What the scenario wrote is not from the catalog.
        std::erase_if(cloud.from_catalog, [&](const auto& entry) { return in.contains(entry.first); });
        in.finish();
        clouds.push_back(cloud);
    }
    return clouds;
}

}  // namespace payback::detail
