#include "payback/scenario/keys.hpp"

#include <cmath>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "payback/base/conventions.hpp"

namespace payback {

namespace {

// The ranges the schema uses, named as the reader's messages describe them.
KeyRange non_negative() { return {0.0, HUGE_VAL}; }
KeyRange positive() { return {0.0, HUGE_VAL, true}; }
KeyRange between(double lo, double hi) { return {lo, hi}; }
KeyRange fraction() { return {0.0, 1.0, false, false, true}; }
KeyRange positive_fraction() { return {0.0, 1.0, true, false, true}; }
/// A rate per year (discount, inflation, escalation): above -100 %, at most +100 %.
KeyRange rate() { return {-1.0, 1.0, true, false, true}; }
/// Any finite number ([uncertainty]'s parameters: the key they describe has its own range).
KeyRange any_number() { return {-1e300, 1e300}; }

// Plausible magnitudes: beyond them a value is a typo or a unit mix-up, and would be printed as a
// 300-digit number. Money: no part, instance-hour or year of running costs reaches 10^9 in the major
// currencies (major_currency; 10^14 in the others, whose units are worth up to ~25,000 times less).
// Power: no part or instance of a home rig or a cloud option draws a megawatt.
KeyRange money() {
    KeyRange r = non_negative();
    r.limit = 1e9;
    r.limit_reason = "more money than any part, price or bill in the model";
    return r;
}
KeyRange tokens_a_month() {
    KeyRange r = non_negative();
    r.limit = 1e15;
    r.limit_reason = "more tokens a month than any service in the model sends";
    return r;
}
KeyRange watts(KeyRange r = non_negative()) {
    r.limit = 1e6;
    r.limit_reason = "a megawatt: kW or mW typed as W?";
    return r;
}

using K = KeyType;

std::vector<ScenarioKey> table() {
    const double horizon = conventions::max_horizon_months;
    return {
        // [scenario]
        {"scenario", K::table, "", {}, {}, "", "all", "The scenario's name, currency, horizon and discounting."},
        {"scenario.name", K::text, "", {}, {}, "the file's name without .toml", "all", "Shown in every output."},
        {"scenario.currency", K::text, "", {}, {}, "USD", "all",
         "ISO 4217 code (three capitals). Every amount in the file is in it; the catalogs' prices are in USD."},
        {"scenario.horizon_months", K::integer, "months", between(1, horizon), 36, "", "all",
         "How long the comparison runs; the rig is sold (resale) at its end."},
        {"scenario.inflation", K::number, "/yr", rate(), 0.0, "", "all",
         "General inflation: running costs grow with it; real_discount_rate is turned nominal with it."},
        {"scenario.discount_rate", K::number, "/yr", rate(), 0.0, "", "all",
         "Nominal discount rate for present values (give this or real_discount_rate)."},
        {"scenario.real_discount_rate", K::number, "/yr", rate(), {}, "", "all",
         "Discount rate above inflation; the nominal rate is (1 + real)(1 + inflation) - 1."},
        {"scenario.start", K::text, "", {}, {}, "", "all",
         "Calendar month \"YYYY-MM\" of the first month: seasons of tariffs and cooling, observed resale prices."},
        {"scenario.perspective", K::choice, "", {}, {}, "hobbyist", "all",
         "hobbyist or business (business: income tax and tax depreciation from [tax])."},

        // [workload]
        {"workload", K::table, "", {}, {}, "", "all", "How much the owner trains (left out when rig.schedule says)."},
        {"workload.gpu_hours_per_month", K::number, "h", between(0.0, conventions::hours_per_month), {},
         "required unless rig.schedule or workload.job sets it", "all",
         "Hours of training a month on the rig (one job on all its GPUs)."},
        {"workload.deferrable", K::boolean, "", {}, 0.0, "false", "rig",
         "Training may move to the tariff's cheapest hours."},
        {"workload.job_hours", K::number, "h", positive(), {}, "", "cloud",
         "Length of one job on the rig: cloud billing rounds each job up to its increment and minimum."},
        {"workload.calibration", K::text, "", {}, {}, "", "all",
         "A profile JSON written by `payback bench`: the throughput of workload.job's model."},
        {"workload.job", K::table, "", {}, {}, "", "all", "Training runs, from which the hours follow."},
        {"workload.job.model", K::text, "", {}, {}, "", "all",
         "A network `payback bench` trains, or a training model of pricing/models.csv (\"bert-large\")."},
        {"workload.job.samples_per_epoch", K::number, "samples", positive(), {}, "", "all", "Samples in one epoch."},
        {"workload.job.epochs", K::number, "", positive(), 1.0, "", "all", "Epochs in one run."},
        {"workload.job.runs_per_month", K::number, "", non_negative(), {}, "", "all", "Runs a month."},
        {"workload.job.batch", K::integer, "samples", between(1, 1 << 20), {},
         "the calibration's largest measured batch; 32 when predicted", "all",
         "Batch size, for the calibration and the scaling model."},
        {"workload.job.samples_per_second", K::number, "samples/s", positive(), {},
         "from workload.calibration, else predicted (a models.csv model)", "rig",
         "One of the rig's GPUs on the model, measured."},
        {"workload.tokens", K::table, "", {}, {}, "", "all",
         "A model served: the tokens a month it reads and writes (docs/inference.md)."},
        {"workload.tokens.model", K::text, "", {}, {}, "", "all", "The model served (\"llama-3.1-8b\")."},
        {"workload.tokens.quant", K::text, "", {}, {}, "", "all", "Its quantization on the rig (\"q4_0\")."},
        {"workload.tokens.input_tokens_per_month", K::number, "tokens", tokens_a_month(), {}, "", "all",
         "Input (prompt) tokens a month."},
        {"workload.tokens.output_tokens_per_month", K::number, "tokens", tokens_a_month(), {}, "", "all",
         "Output (generated) tokens a month."},
        {"workload.tokens.cached_input_share", K::number, "fraction", fraction(), 0.0, "", "api",
         "The share of the input an API serves from its prompt cache (at its cached-input price)."},
        {"workload.tokens.concurrency", K::integer, "", between(1, 4096), 1.0, "", "all",
         "Requests served at once; tokens_per_second are the rates at this concurrency."},
        {"workload.tokens.context", K::integer, "tokens", between(1, 1 << 24), 4096.0, "", "all",
         "The context each request holds."},
        {"workload.tokens.profile", K::text, "", {}, {}, "", "rig",
         "A profile JSON written by `payback bench --workload llm-decode` on the rig's device: the rig's rates, "
         "scaled from the benchmark's model to this one."},

        // [rig]
        {"rig", K::table, "", {}, {}, "", "rig", "The machine to build: its parts, PSU, usage, cooling and circuit."},
        {"rig.name", K::text, "", {}, {}, "rig", "rig", "The rig's name in outputs."},
        {"rig.when_not_training", K::choice, "", {}, {}, "idle", "rig",
         "idle or off: the parts' state outside training (and renting)."},
        {"rig.psu_efficiency", K::number, "fraction", positive_fraction(), 1.0, "", "rig",
         "A fixed PSU efficiency (DC out / AC in); or give rig.psu for an 80 PLUS curve."},
        {"rig.psu", K::table, "", {}, {}, "", "rig", "The PSU's 80 PLUS curve."},
        {"rig.psu.rating", K::choice, "", {}, {}, "", "rig",
         "white, bronze, silver, gold, platinum or titanium."},
        {"rig.psu.capacity_watts", K::number, "W", watts(positive()), {}, "", "rig", "The PSU's rated DC output."},
        {"rig.psu.mains_volts", K::number, "V", between(90.0, 260.0), 115.0, "", "rig",
         "115 (the 80 PLUS curves of North America) or 230."},
        {"rig.schedule", K::texts, "", {}, {}, "", "rig",
         "The week's usage as rules (\"weekdays 09-17 training\"): see docs/hardware.md."},
        {"rig.tokens_per_second", K::table, "", {}, {}, "predicted", "rig",
         "Serving workload.tokens: the rig's aggregate rates at the workload's concurrency; by default "
         "scaled from workload.tokens.profile, else predicted for its catalog GPUs (docs/inference.md)."},
        {"rig.tokens_per_second.prefill", K::number, "tokens/s", positive(), {}, "", "rig", "Input tokens read a second."},
        {"rig.tokens_per_second.decode", K::number, "tokens/s", positive(), {}, "", "rig",
         "Output tokens written a second."},
        {"rig.cooling", K::table, "", {}, {}, "", "rig", "What removing the rig's heat costs."},
        {"rig.cooling.overhead_fraction", K::number, "fraction", non_negative(), 0.0, "", "rig",
         "Extra energy as a share of the rig's (fans, a share of the room's AC)."},
        {"rig.cooling.cop", K::number, "", positive(), {}, "", "rig",
         "The air conditioner's coefficient of performance, all year."},
        {"rig.cooling.cop_by_month", K::numbers, "", non_negative(), {}, "", "rig",
         "12 COPs, January first; 0: no cooling that month."},
        {"rig.circuit", K::table, "", {}, {}, "", "rig", "The circuit the rig is plugged into."},
        {"rig.circuit.volts", K::number, "V", between(90.0, 260.0), {}, "", "rig", "Mains voltage."},
        {"rig.circuit.breaker_amps", K::number, "A", positive(), {}, "", "rig", "The breaker's rating."},
        {"rig.circuit.continuous_fraction", K::number, "fraction", positive_fraction(), 0.8, "", "rig",
         "The share of the rating a continuous load may draw (NEC: 80 %)."},
        {"rig.parts", K::tables, "", {}, {}, "", "rig", "The parts, one table each."},
        {"rig.parts[].gpu", K::text, "", {}, {}, "", "rig",
         "A pricing/gpus.csv name: price, board power and NVLink from the catalog."},
        {"rig.parts[].part", K::text, "", {}, {}, "", "rig",
         "A pricing/parts.csv name: kind, price, power and PCIe from the catalog."},
        {"rig.parts[].kind", K::choice, "", {}, {}, "the catalog row's", "rig",
         "cpu, gpu, ram, storage, motherboard, psu, case, cooler, network or other."},
        {"rig.parts[].name", K::text, "", {}, {}, "the catalog row's", "rig", "The part's name."},
        {"rig.parts[].price", K::number, "currency", money(), {}, "the catalog row's (USD scenarios)", "rig",
         "Price of one."},
        {"rig.parts[].count", K::integer, "", between(1, 1000), 1.0, "", "rig", "How many."},
        {"rig.parts[].off_watts", K::number, "W", watts(), 0.0, "", "rig", "Draw of one when off (standby)."},
        {"rig.parts[].idle_watts", K::number, "W", watts(), 0.0, "the catalog row's, else 0", "rig",
         "Draw of one when idle."},
        {"rig.parts[].load_watts", K::number, "W", watts(), 0.0, "the catalog row's, else 0", "rig",
         "Draw of one when training."},
        {"rig.parts[].rented_watts", K::number, "W", watts(), {}, "load_watts", "rental",
         "Draw of one when rented out."},
        {"rig.parts[].power_limit_watts", K::number, "W", watts(positive()), {}, "", "rig",
         "A GPU's power limit: less energy, less throughput (docs/hardware.md)."},
        {"rig.parts[].purchase_month", K::integer, "month", between(1, horizon), 1.0, "", "rig",
         "Horizon month it is bought in (at most the horizon)."},
        {"rig.parts[].retire_month", K::integer, "month", between(1, horizon), {}, "", "rig",
         "Horizon month at whose end it is sold (from purchase_month on)."},
        {"rig.parts[].pcie_lanes", K::integer, "", between(1, 256), {}, "the catalog row's", "rig",
         "A CPU's PCIe lanes."},
        {"rig.parts[].pcie_slots", K::tables, "", {}, {}, "the catalog row's", "rig",
         "A motherboard's PCIe slots as wired with the GPUs in them."},
        {"rig.parts[].pcie_slots[].generation", K::integer, "", between(1, 5), 3.0, "", "rig", "PCIe generation."},
        {"rig.parts[].pcie_slots[].lanes", K::integer, "", between(1, 16), 16.0, "", "rig", "Electrical lanes."},
        {"rig.parts[].pcie", K::table, "", {}, {}, "", "rig", "The link a GPU can use."},
        {"rig.parts[].pcie.generation", K::integer, "", between(1, 5), 3.0, "", "rig", "PCIe generation."},
        {"rig.parts[].pcie.lanes", K::integer, "", between(1, 16), 16.0, "", "rig",
         "Lanes the card can use (x8 on some mid-range cards)."},
        {"rig.parts[].nvlink_gb_per_s", K::number, "GB/s", non_negative(), 0.0, "the catalog row's, else 0", "rig",
         "An NVLink bridge's bandwidth per direction."},
        {"rig.parts[].resale", K::table, "", {}, {}, "no resale", "rig", "What the part sells for, by age."},
        {"rig.parts[].resale.method", K::choice, "", {}, {}, "", "rig",
         "none, declining_balance, straight_line, price_performance or observed."},
        {"rig.parts[].resale.annual_rate", K::number, "/yr", fraction(), {}, "", "rig",
         "declining_balance: the share lost each year."},
        {"rig.parts[].resale.life_years", K::number, "years", positive(), {}, "", "rig",
         "straight_line: years to fall to salvage_fraction."},
        {"rig.parts[].resale.salvage_fraction", K::number, "fraction", fraction(), 0.0, "", "rig",
         "straight_line: the share left at the end of life_years."},
        {"rig.parts[].resale.half_life_years", K::number, "years", positive(), {}, "", "rig",
         "price_performance: years for the price to halve."},
        {"rig.parts[].resale.file", K::text, "", {}, {}, "", "rig",
         "observed: a used-price CSV (pricing/used-gpu-prices.csv and the like)."},
        {"rig.parts[].resale.item", K::text, "", {}, {}, "", "rig", "observed: the row name in that file."},

        // [electricity]
        {"electricity", K::table, "", {}, {}, "", "rig",
         "One tariff: price_per_kwh, region, tiers, urdb or periods; escalation and the grid's carbon."},
        {"electricity.price_per_kwh", K::number, "currency/kWh", money(), {}, "", "rig",
         "A flat price (in major currencies below 2: 30 is taken for cents and refused)."},
        {"electricity.region", K::text, "", {}, {}, "", "rig",
         "A region of pricing/electricity-prices.csv: its latest average price."},
        {"electricity.tiers", K::tables, "", {}, {}, "", "rig", "Block tiers over the household's base load."},
        {"electricity.tiers[].price", K::number, "currency/kWh", money(), {}, "", "rig", "The tier's price."},
        {"electricity.tiers[].up_to_kwh", K::number, "kWh", positive(), {}, "", "rig",
         "The tier's end in kWh a month (every tier but the last)."},
        {"electricity.urdb", K::text, "", {}, {}, "", "rig", "An OpenEI URDB tariff record (JSON file)."},
        {"electricity.periods", K::tables, "", {}, {}, "", "rig", "Time-of-use periods."},
        {"electricity.periods[].name", K::text, "", {}, {}, "", "rig", "The period's name."},
        {"electricity.periods[].price", K::number, "currency/kWh", money(), {}, "", "rig",
         "The period's price (or tiers)."},
        {"electricity.periods[].tiers", K::tables, "", {}, {}, "", "rig", "The period's block tiers."},
        {"electricity.periods[].tiers[].price", K::number, "currency/kWh", money(), {}, "", "rig",
         "The tier's price."},
        {"electricity.periods[].tiers[].up_to_kwh", K::number, "kWh", positive(), {}, "", "rig",
         "The tier's end in kWh a month."},
        {"electricity.weekday_schedule", K::matrix, "", {}, {}, "", "rig",
         "12 × 24 period numbers (month × hour, from 0) for weekdays."},
        {"electricity.weekend_schedule", K::matrix, "", {}, {}, "weekday_schedule", "rig",
         "The same for weekends."},
        {"electricity.base_load_kwh_per_month", K::number, "kWh", non_negative(), 0.0, "", "rig",
         "The household's own use, which fills the first tiers before the rig's."},
        {"electricity.escalation", K::number, "/yr", rate(), 0.0, "", "rig", "Price change a year, nominal."},
        {"electricity.grid_region", K::text, "", {}, {}, "the price region's, when the carbon file has it", "rig",
         "A region of pricing/grid-carbon.csv: the grid's carbon intensity."},
        {"electricity.co2_kg_per_kwh", K::number, "kg/kWh", between(0.0, 2.0), {}, "grid_region's, else 0", "rig",
         "The grid's carbon intensity."},

        // [rental]
        {"rental", K::table, "", {}, {}, "", "rental", "Renting the rig's idle GPU hours out on a marketplace."},
        {"rental.market", K::text, "", {}, {}, "", "rental",
         "A pricing/rental-markets.csv market: price, fee and occupancy for the rig's GPU."},
        {"rental.price_per_gpu_hour", K::number, "currency/GPU-h", money(), {}, "the market's", "rental",
         "What a renter pays the host."},
        {"rental.occupancy", K::number, "fraction", fraction(), {}, "the market's", "rental",
         "Share of the offered hours rented."},
        {"rental.platform_fee", K::number, "fraction", fraction(), {}, "the market's", "rental",
         "The marketplace's share of the price."},
        {"rental.halving_years", K::number, "years", non_negative(), 0.0, "", "rental",
         "Years for rental prices to halve (0: they hold)."},
        {"rental.extra_income_per_month", K::number, "currency", money(), 0.0, "", "rental",
         "Storage and bandwidth income a month."},
        {"rental.wear_per_1000_hours", K::number, "fraction", fraction(), 0.0, "", "rental",
         "Resale value lost per 1,000 rented hours."},
        {"rental.reserved", K::tables, "", {}, {}, "", "rental", "Reserved bookings at a discount."},
        {"rental.reserved[].share", K::number, "fraction", fraction(), {}, "", "rental",
         "Share of the rented hours booked this way."},
        {"rental.reserved[].discount", K::number, "fraction", fraction(), {}, "the market's for months", "rental",
         "Discount on the price."},
        {"rental.reserved[].months", K::integer, "months", between(1, 60), {}, "", "rental",
         "Length of the booking: its discount from pricing/rental-discounts.csv."},

        // [[cloud]]
        {"cloud", K::tables, "", {}, {}, "", "cloud", "The cloud options to compare the rig with, one table each."},
        {"cloud[].name", K::text, "", {}, {}, "with instance: the row's provider, instance and mode", "cloud",
         "The option's name (not the rig's), as in \"AWS p3.2xlarge spot\"; required without instance."},
        {"cloud[].mode", K::choice, "", {}, {}, "on_demand", "cloud", "on_demand, spot, reserved_1y or reserved_3y."},
        {"cloud[].instance", K::text, "", {}, {}, "", "cloud",
         "PROVIDER:INSTANCE of pricing/cloud-instances.csv: price, billing, GPUs and speed from the catalog."},
        {"cloud[].region", K::text, "", {}, {}, "", "cloud",
         "With instance: the price row's region; else PROVIDER:REGION of pricing/cloud-regions.csv (PUE, carbon)."},
        {"cloud[].price_per_hour", K::number, "currency/h", money(), {}, "the catalog row's", "cloud",
         "Price of an instance-hour in the option's mode."},
        {"cloud[].per_gpu_speedup", K::number, "", positive(), {}, "the GPU catalog's ratio", "cloud",
         "One of the instance's GPUs against one of the rig's; the instance's speed follows from its GPUs."},
        {"cloud[].speedup", K::number, "", positive(), 1.0, "", "cloud",
         "The instance's throughput against the whole rig's."},
        {"cloud[].samples_per_second", K::number, "samples/s", positive(), {}, "", "cloud",
         "One of the instance's GPUs on workload.job's model, measured."},
        {"cloud[].gpus", K::integer, "", between(1, 64), 1.0, "the catalog row's, else 1", "cloud",
         "GPUs in the instance."},
        {"cloud[].interconnect_gb_per_s", K::number, "GB/s", positive(), {}, "the catalog row's, else PCIe 4 x16",
         "cloud", "Bandwidth between the instance's GPUs, per direction."},
        {"cloud[].escalation", K::number, "/yr", rate(), 0.0, "", "cloud", "Price change a year, nominal."},
        {"cloud[].storage_per_month", K::number, "currency", money(), 0.0, "", "cloud",
         "Persistent storage a month (or storage_gb with storage_price_per_gb_month)."},
        {"cloud[].storage_gb", K::number, "GB", non_negative(), {}, "", "cloud", "Persistent storage kept."},
        {"cloud[].storage_price_per_gb_month", K::number, "currency/GB-month", money(), {}, "", "cloud",
         "Its price."},
        {"cloud[].egress_gb_per_month", K::number, "GB", non_negative(), 0.0, "", "cloud", "Data out a month."},
        {"cloud[].egress_price_per_gb", K::number, "currency/GB", money(), 0.0, "", "cloud", "Its price."},
        {"cloud[].billing", K::table, "", {}, {}, "", "cloud", "How the provider rounds an instance's time."},
        {"cloud[].billing.increment_seconds", K::number, "s", positive(), {}, "the catalog row's, else 1", "cloud",
         "Billing increment."},
        {"cloud[].billing.minimum_seconds", K::number, "s", non_negative(), {}, "the catalog row's, else 0", "cloud",
         "Minimum charge per start."},
        {"cloud[].interruption_bucket", K::text, "", {}, {}, "", "cloud",
         "spot: AWS's interruption-frequency bucket (\"<5%\", \"5-10%\", ...)."},
        {"cloud[].interruptions_per_hour", K::number, "/h", between(0.0, 10.0), {}, "the bucket's, else 0", "cloud",
         "spot: interruptions per hour of work."},
        {"cloud[].checkpoint_interval_hours", K::number, "h", positive(), 1.0, "", "cloud",
         "spot: hours of work between checkpoints."},
        {"cloud[].restart_hours", K::number, "h", non_negative(), 0.1, "", "cloud",
         "spot: hours to get a new instance and reload after an interruption."},
        {"cloud[].checkpoint_cost_hours", K::number, "h", non_negative(), 0.0, "", "cloud",
         "spot: hours to write one checkpoint."},
        {"cloud[].committed_hours_per_month", K::number, "h", between(0.0, conventions::hours_per_month * 64), 730.0,
         "", "cloud", "reserved: hours a month paid whether used or not."},
        {"cloud[].on_demand_price_per_hour", K::number, "currency/h", money(), {}, "the catalog row's", "cloud",
         "reserved: the price of hours beyond the commitment; spot: the break-even's reference."},
        {"cloud[].power_watts", K::number, "W", watts(), {}, "the catalog row's, else 0 (no emissions)", "cloud",
         "The instance's IT draw."},
        {"cloud[].pue", K::number, "", between(1.0, 3.0), {}, "the region's, else 1", "cloud",
         "The data centre's power usage effectiveness."},
        {"cloud[].co2_kg_per_kwh", K::number, "kg/kWh", between(0.0, 2.0), {}, "the region's, else 0", "cloud",
         "The data centre's grid."},
        {"cloud[].tokens_per_second", K::table, "", {}, {}, "predicted", "cloud",
         "Serving workload.tokens: the instance's aggregate rates; its serving hours are billed. By default "
         "predicted for a catalog instance's GPUs."},
        {"cloud[].tokens_per_second.prefill", K::number, "tokens/s", positive(), {}, "", "cloud",
         "Input tokens read a second."},
        {"cloud[].tokens_per_second.decode", K::number, "tokens/s", positive(), {}, "", "cloud",
         "Output tokens written a second."},
        {"cloud[].always_on", K::boolean, "", {}, 0.0, "false", "cloud",
         "Serving: the instance runs (and bills) all 730 h of the month, not only the hours it serves."},

        // [[api]]
        {"api", K::tables, "", {}, {}, "", "api", "Per-token APIs serving workload.tokens, one table each."},
        {"api[].name", K::text, "", {}, {}, "with api: its PROVIDER:MODEL", "api", "The option's name in outputs."},
        {"api[].api", K::text, "", {}, {}, "", "api",
         "A pricing/api-prices.csv row, PROVIDER:MODEL: its prices per million tokens."},
        {"api[].price_per_million_input", K::number, "currency/Mtok", money(), {}, "the api row's", "api",
         "Per million input tokens."},
        {"api[].price_per_million_output", K::number, "currency/Mtok", money(), {}, "the api row's", "api",
         "Per million output tokens."},
        {"api[].price_per_million_cached_input", K::number, "currency/Mtok", money(), {},
         "the input price", "api", "Per million input tokens served from the prompt cache."},
        {"api[].escalation", K::number, "/yr", rate(), 0.0, "", "api",
         "Price change a year, nominal (-0.3: API prices fall 30 % a year)."},
        {"api[].off_peak", K::table, "", {}, {}, "", "api", "Cheaper hours: the tokens sent then get the discount."},
        {"api[].off_peak.schedule", K::text, "", {}, {}, "", "api",
         "Its hours as a schedule rule without a state (\"daily 16-24\"); tokens are spread evenly over the week."},
        {"api[].off_peak.discount", K::number, "fraction", fraction(), {}, "", "api", "Off the price then."},

        // [running_costs], [financing], [tax]
        {"running_costs", K::table, "", {}, {}, "", "rig", "Owning the rig beyond parts and power."},
        {"running_costs.maintenance_per_year", K::number, "currency", money(), 0.0, "", "rig",
         "In today's money; grows with inflation."},
        {"running_costs.repair_reserve", K::number, "fraction", fraction(), 0.0, "", "rig",
         "A year's reserve for repairs as a share of the parts' price."},
        {"financing", K::table, "", {}, {}, "", "rig", "A loan for the parts."},
        {"financing.down_payment", K::number, "currency", money(), 0.0, "", "rig", "Paid at the start."},
        {"financing.apr", K::number, "/yr", fraction(), {}, "", "rig", "The loan's annual percentage rate."},
        {"financing.term_months", K::integer, "months", between(1, horizon), 12.0, "", "rig", "The loan's term."},
        {"tax", K::table, "", {}, {}, "", "all", "The business perspective's income tax."},
        {"tax.income_tax_rate", K::number, "fraction", KeyRange{0.0, 1.0, false, true, true}, {}, "", "all",
         "The marginal rate."},
        {"tax.depreciation", K::choice, "", {}, {}, "macrs_5", "rig",
         "straight_line, declining_balance, sum_of_years_digits, macrs_5 or custom."},
        {"tax.life_years", K::integer, "years", between(1, 50), 5.0, "", "rig",
         "Tax life for straight_line, declining_balance and sum_of_years_digits."},
        {"tax.custom_schedule", K::numbers, "fraction", fraction(), {}, "", "rig",
         "custom: the share deducted each year, adding up to at most 1."},
        {"tax.deduct_running_costs", K::boolean, "", {}, 1.0, "true", "all",
         "Energy, maintenance and cloud bills are deductible."},

        // [uncertainty]
        {"uncertainty", K::table, "", {}, {}, "", "all",
         "A distribution for any numeric key, written as its --set path: \"electricity.price_per_kwh\" = {...}."},
        {"uncertainty.<key>", K::table, "", {}, {}, "", "all", "One distribution (docs/whatif.md)."},
        {"uncertainty.<key>.dist", K::choice, "", {}, {}, "", "all",
         "uniform, normal, lognormal, triangular, pert or discrete."},
        {"uncertainty.<key>.low", K::number, "the key's", any_number(), {}, "", "all",
         "uniform, triangular, pert: the lowest value; normal, lognormal: truncation."},
        {"uncertainty.<key>.high", K::number, "the key's", any_number(), {}, "", "all",
         "uniform, triangular, pert: the highest value; normal, lognormal: truncation."},
        {"uncertainty.<key>.mode", K::number, "the key's", any_number(), {}, "", "all",
         "triangular, pert: the most likely value."},
        {"uncertainty.<key>.mean", K::number, "the key's", any_number(), {}, "", "all", "normal, lognormal."},
        {"uncertainty.<key>.sd", K::number, "the key's", any_number(), {}, "", "all", "normal, lognormal."},
        {"uncertainty.<key>.median", K::number, "the key's", any_number(), {}, "", "all", "lognormal (with sigma)."},
        {"uncertainty.<key>.sigma", K::number, "", any_number(), {}, "", "all", "lognormal: the sd of ln X."},
        {"uncertainty.<key>.lambda", K::number, "", any_number(), 4.0, "", "all", "pert: weight of the mode."},
        {"uncertainty.<key>.values", K::numbers, "the key's", any_number(), {}, "", "all", "discrete: the values."},
        {"uncertainty.<key>.weights", K::numbers, "", non_negative(), {}, "equal", "all", "discrete: their weights."},
        {"uncertainty.correlations", K::tables, "", {}, {}, "", "all", "Rank correlations between uncertain keys."},
        {"uncertainty.correlations[].between", K::texts, "", {}, {}, "", "all", "Two uncertain keys."},
        {"uncertainty.correlations[].rank", K::number, "", between(-1.0, 1.0), {}, "", "all",
         "Spearman's rank correlation."},
    };
}

std::string number_text(double v) {
    if (std::isinf(v)) return v > 0 ? "∞" : "-∞";
    if (v != 0 && (std::fabs(v) >= 1e6 || std::fabs(v) < 1e-3)) {
        const int exponent = static_cast<int>(std::lround(std::log10(std::fabs(v))));
        if (std::fabs(v - std::pow(10.0, exponent)) < 1e-9 * std::fabs(v)) return fmt::format("10^{}", exponent);
    }
    return fmt::format("{}", v);
}

}  // namespace

const char* to_string(KeyType type) {
    switch (type) {
        case KeyType::number: return "number";
        case KeyType::integer: return "integer";
        case KeyType::boolean: return "boolean";
        case KeyType::text: return "string";
        case KeyType::choice: return "choice";
        case KeyType::table: return "table";
        case KeyType::tables: return "array of tables";
        case KeyType::numbers: return "array of numbers";
        case KeyType::texts: return "array of strings";
        case KeyType::matrix: return "12 × 24 integers";
    }
    return "number";
}

const std::vector<ScenarioKey>& scenario_keys() {
    static const std::vector<ScenarioKey> keys = table();
    return keys;
}

const ScenarioKey* find_scenario_key(std::string_view path) {
    // Every key read looks itself up here: an index built once instead of a scan of the table. Its
    // views point into scenario_keys(), which lives as long as the program; the first row of a path wins.
    static const std::unordered_map<std::string_view, const ScenarioKey*> index = [] {
        std::unordered_map<std::string_view, const ScenarioKey*> by_path;
        for (const ScenarioKey& key : scenario_keys()) by_path.try_emplace(key.path, &key);
        return by_path;
    }();
    const auto found = index.find(path);
    return found == index.end() ? nullptr : found->second;
}

std::string key_pattern(std::string_view key_path) {
    std::string out;
    for (std::size_t i = 0; i < key_path.size(); ++i) {
        out += key_path[i];
        if (key_path[i] != '[') continue;
        while (i + 1 < key_path.size() && key_path[i + 1] != ']') ++i;  // the index goes
    }
    return out;
}

std::string unit_of(std::string_view key_path, std::string_view currency) {
    const ScenarioKey* key = find_scenario_key(key_pattern(key_path));
    if (!key) return "";
    std::string unit = key->unit;
    if (unit.rfind("currency", 0) == 0) unit.replace(0, 8, currency);
    return unit;
}

std::string default_in_words(const ScenarioKey& key) {
    if (!key.default_text.empty()) return key.default_text;
    if (key.default_number) return number_text(*key.default_number);
    return "";
}

std::string range_in_words(const ScenarioKey& key) {
    if (!key.range) return "";
    const KeyRange& r = *key.range;
    std::string out;
    if (r.lo <= -1e300 && r.hi >= 1e300) out = "any";
    else if (std::isinf(r.hi)) out = fmt::format("{} {}", r.lo_open ? ">" : "≥", number_text(r.lo));
    else
        out = fmt::format("{}{}, {}{}", r.lo_open ? "(" : "[", number_text(r.lo), number_text(r.hi),
                          r.hi_open ? ")" : "]");
    if (r.limit) out += fmt::format(", at most {} ({})", number_text(*r.limit), r.limit_reason);
    return out;
}

bool major_currency(std::string_view currency) {
    for (const char* c : {"USD", "EUR", "GBP", "CHF", "CAD", "AUD", "NZD", "SGD"})
        if (currency == c) return true;
    return false;
}

std::string keys_markdown() {
    std::string out =
        "# Scenario keys\n\n"
        "<!-- Written by `payback docs --keys > docs/keys.md` from the key table (lib/src/scenario/keys.cpp);\n"
        "     tests/apps/docs_command_test.cpp fails when this page and the table disagree. Edit the table. -->\n\n"
        "Every key a scenario file may hold, in the order of a file. `[]` marks an array of tables\n"
        "(`rig.parts[0].price` in `--set` and `[uncertainty]`); `<key>` in `[uncertainty]` is any numeric\n"
        "key path. Ranges: `[a, b]` includes both ends, `(a, b]` not `a`; money limits are for USD, EUR,\n"
        "GBP, CHF, CAD, AUD, NZD and SGD, and 10^5 times larger in other currencies. Applies to: the options\n"
        "the key bears on (rig, rental, cloud, api, all).\n\n"
        "| key | type | unit | range | default | applies to | help |\n|---|---|---|---|---|---|---|\n";
    const auto cell = [](const std::string& text) {
        std::string escaped;
        for (char c : text) escaped += c == '|' ? std::string("\\|") : std::string(1, c);
        return escaped;
    };
    for (const ScenarioKey& k : scenario_keys())
        out += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} |\n", k.path, to_string(k.type), cell(k.unit),
                           cell(range_in_words(k)), cell(default_in_words(k)), k.options, cell(k.help));
    return out;
}

}  // namespace payback
