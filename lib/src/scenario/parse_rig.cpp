// The [rig] table: its parts, their power in each state and resale, the PSU, the usage
// schedule, cooling and the circuit it is plugged into.
#include <cstdlib>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "payback/base/calendar.hpp"
#include "payback/base/data_directory.hpp"
#include "payback/market/catalog.hpp"
#include "payback/market/price_schedule.hpp"
#include "payback/scenario/rig_energy.hpp"
#include "scenario/scenario_readers.hpp"

namespace payback::detail {

namespace {

const std::vector<std::pair<std::string, PartKind>> part_kinds = {
    {"cpu", PartKind::cpu},         {"gpu", PartKind::gpu},       {"ram", PartKind::ram},
    {"storage", PartKind::storage}, {"motherboard", PartKind::motherboard},
    {"psu", PartKind::psu},         {"case", PartKind::case_},    {"cooler", PartKind::cooler},
    {"network", PartKind::network}, {"other", PartKind::other}};

const std::vector<std::pair<std::string, ResaleMethod>> resale_methods = {
    {"none", ResaleMethod::none},
    {"declining_balance", ResaleMethod::declining_balance},
    {"straight_line", ResaleMethod::straight_line},
    {"price_performance", ResaleMethod::price_performance},
    {"observed", ResaleMethod::observed}};

const std::vector<std::pair<std::string, WhenNotTraining>> idle_modes = {
    {"idle", WhenNotTraining::idle}, {"off", WhenNotTraining::off}};

PsuSpec read_psu(const TomlReader& in) {
    static const std::vector<std::pair<std::string, PsuRating>> ratings = {
        {"white", PsuRating::white},   {"bronze", PsuRating::bronze},     {"silver", PsuRating::silver},
        {"gold", PsuRating::gold},     {"platinum", PsuRating::platinum}, {"titanium", PsuRating::titanium}};
    PsuSpec psu;
    psu.rating = in.choice("rating", ratings);
    psu.capacity_watts = in.number("capacity_watts");
    psu.mains_volts = in.number_or("mains_volts");
    in.finish();
    return psu;
}

Cooling read_cooling(const TomlReader& in) {
    Cooling cooling;
    cooling.overhead_fraction = in.number_or("overhead_fraction");
    if (in.contains("cop") && in.contains("cop_by_month"))
        throw in.error("cop_by_month", "give cop (all year) or cop_by_month, not both");
    if (in.contains("cop")) cooling.cop_by_month.fill(in.number("cop"));
    if (in.contains("cop_by_month")) {
        const auto cops = in.numbers("cop_by_month");
        if (cops.size() != 12)
            throw in.error("cop_by_month", fmt::format("expected 12 values, January first (0: no cooling that "
                                                       "month), got {}", cops.size()));
        std::copy(cops.begin(), cops.end(), cooling.cop_by_month.begin());
    }
    in.finish();
    return cooling;
}

Circuit read_circuit(const TomlReader& in) {
    Circuit circuit;
    circuit.volts = in.number("volts");
    circuit.breaker_amps = in.number("breaker_amps");
    circuit.continuous_fraction = in.number_or("continuous_fraction");
    in.finish();
    return circuit;
}

PcieSlot read_link(const TomlReader& in) {
    PcieSlot link;
    link.generation = static_cast<int>(in.integer_or("generation"));
    link.lanes = static_cast<int>(in.integer_or("lanes"));
    if (link.lanes != 1 && link.lanes != 2 && link.lanes != 4 && link.lanes != 8 && link.lanes != 16)
        throw in.error("lanes", fmt::format("must be 1, 2, 4, 8 or 16, got {}", link.lanes));
    in.finish();
    return link;
}

// A CPU's lanes, a board's slots, a card's link and bridge: optional, for the multi-GPU checks.
void read_wiring(const TomlReader& in, Part& part) {
    if (in.contains("pcie_lanes")) part.pcie_lanes = static_cast<int>(in.integer_or("pcie_lanes", 0));
    if (in.contains("pcie_slots")) part.pcie_slots.clear();
    for (const auto& slot : in.array_of_tables("pcie_slots", false)) part.pcie_slots.push_back(read_link(slot));
    if (const auto link = in.table("pcie", false)) {
        const PcieSlot read = read_link(*link);
        part.pcie = GpuLink{read.generation, read.lanes};
    }
    part.nvlink_gb_per_s = in.number_or("nvlink_gb_per_s", part.nvlink_gb_per_s);
}

// Whether `path` is the shipped catalogs' used-gpu-prices.csv; with no shipped catalogs found, it is not.
bool is_catalog_used_prices(const std::string& path) {
    std::filesystem::path catalog_dir;
    try {
        catalog_dir = find_data_directory(ShippedData::pricing).path;
    } catch (const InputError&) {
        return false;
    }
    std::error_code unreadable;
    return std::filesystem::equivalent(path, catalog_dir / "used-gpu-prices.csv", unreadable);
}

void read_observed(const TomlReader& resale, const ReadContext& context, Part& part) {
    part.observed_file = resale.string("file");
    const std::string item = resale.string("item");
    if (!context.start)
        throw resale.error("method", "the observed method needs scenario.start = \"YYYY-MM\", the calendar month "
                                     "that month 1 is");
    const std::filesystem::path file(part.observed_file);
    const std::string path = file.is_absolute() ? file.string() : (context.scenario_dir / file).lexically_normal().string();
    // The catalog's own file was read once with the others; any other file is the scenario's own.
    std::optional<UsedPriceTable> own_file;
    const bool from_catalog = is_catalog_used_prices(path);
    const UsedPriceTable& table = from_catalog ? Catalog::shipped().used_prices()
                                               : own_file.emplace(UsedPriceTable::load(path));
    PriceSchedule schedule;
    try {
        schedule = table.schedule(item);
    } catch (const InputError& e) {
        throw InputError(path, e.line(), e.key_path(), e.message());  // named as the scenario names it
    }
    if (schedule.currency != context.currency)
        throw resale.error("item", fmt::format("{} prices \"{}\" in {}, the scenario is in {}", path, item,
                                               schedule.currency, context.currency));
    if (from_catalog) {  // the observations resale reads at the month boundaries (model_inputs.cpp)
        const double start = *parse_calendar_date(*context.start);
        std::vector<double> boundaries;
        for (int k = 0; k <= context.horizon_months; ++k) boundaries.push_back(start + k);
        for (const std::string& date : dates_read(schedule, boundaries)) context.used_price_of(date);
    }
    part.observed_prices = std::move(schedule);
}

ResaleCurve<double> read_resale(const TomlReader& part_table, const ReadContext& context, Part& part) {
    ResaleCurve<double> curve;
    const auto resale = part_table.table("resale", false);
    if (!resale) return curve;
    curve.method = resale->choice("method", resale_methods);
    switch (curve.method) {
        case ResaleMethod::none: break;
        case ResaleMethod::declining_balance:
            curve.annual_rate = resale->number("annual_rate");
            break;
        case ResaleMethod::straight_line:
            curve.life_years = resale->number("life_years");
            curve.salvage_fraction = resale->number_or("salvage_fraction");
            break;
        case ResaleMethod::price_performance:
            curve.half_life_years = resale->number("half_life_years");
            break;
        case ResaleMethod::observed:
            read_observed(*resale, context, part);
            break;
    }
    resale->finish();
    return curve;
}

// What a catalog row gives a part: defaults the scenario's own keys override.
struct CatalogDefaults {
    std::optional<PartKind> kind;
    std::optional<std::string> name;
    std::optional<double> price, idle_watts, load_watts;
    std::string origin;
};

CatalogDefaults catalog_defaults(const TomlReader& in, const ReadContext& context, Part& part) {
    CatalogDefaults d;
    if (in.contains("gpu") && in.contains("part")) throw in.error("part", "give gpu (gpus.csv) or part (parts.csv), not both");
    try {
        if (in.contains("gpu")) {
            const GpuSpec& gpu = Catalog::shipped().gpu(in.string("gpu"));
            part.catalog_gpu = gpu.name;
            d = {PartKind::gpu, gpu.name, gpu.launch_price_usd, std::nullopt, gpu.board_power_watts, gpu.origin.describe()};
            if (gpu.nvlink_gb_s) part.nvlink_gb_per_s = *gpu.nvlink_gb_s;
        } else if (in.contains("part")) {
            const PartSpec& spec = Catalog::shipped().part(in.string("part"));
            part.catalog_part = spec.name;
            std::optional<PartKind> kind;
            for (const auto& [name, value] : part_kinds)
                if (name == spec.kind) kind = value;
            d = {kind, spec.name, spec.price_usd, spec.idle_watts, spec.load_watts, spec.origin.describe()};
            part.pcie_lanes = spec.pcie_lanes;
            part.pcie_slots = spec.pcie_slots;
        }
    } catch (const InputError& e) {
        throw in.error(in.contains("gpu") ? "gpu" : "part", e.message());
    }
    if (d.price && !in.contains("price") && context.currency != "USD")
        throw in.error(in.contains("gpu") ? "gpu" : "part",
                       "the catalog's prices are in USD and the scenario is in " + context.currency + ": give price");
    return d;
}

Part read_part(const TomlReader& in, const ReadContext& context) {
    Part part;
    const CatalogDefaults d = catalog_defaults(in, context, part);
    part.kind = in.choice("kind", part_kinds, d.kind);
    part.name = d.name ? in.string_or("name", *d.name) : in.string("name");
    part.price = units::money(number_or_catalog(in, "price", d.price, d.origin, part.from_catalog));
    part.count = static_cast<int>(in.integer_or("count"));
    part.off_power = units::watts(in.number_or("off_watts"));
    part.idle_power = units::watts(number_or_catalog(in, "idle_watts", d.idle_watts, d.origin, part.from_catalog, 0.0));
    part.load_power = units::watts(number_or_catalog(in, "load_watts", d.load_watts, d.origin, part.from_catalog, 0.0));
    if (in.contains("rented_watts"))
        part.rented_power = units::watts(in.number("rented_watts"));
    if (in.contains("power_limit_watts"))
        part.power_limit = units::watts(in.number("power_limit_watts"));
    read_wiring(in, part);
    part.purchase_month = static_cast<int>(in.integer_or("purchase_month", 1, 1, context.horizon_months));
    if (in.contains("retire_month"))
        part.retire_month = static_cast<int>(
            in.integer_or("retire_month", 0, part.purchase_month, conventions::max_horizon_months));
    part.resale = read_resale(in, context, part);
    in.finish();
    return part;
}



}  // namespace

Rig read_rig(const TomlReader& in, const ReadContext& context) {
    Rig rig;
    rig.name = in.string_or("name", rig.name);
    rig.when_not_training = in.choice("when_not_training", idle_modes, std::optional(WhenNotTraining::idle));
    if (in.contains("psu_efficiency") && in.contains("psu"))
        throw in.error("psu", "give psu (an 80 PLUS curve) or psu_efficiency (a fixed share), not both");
    rig.psu_efficiency = in.number_or("psu_efficiency");
    if (const auto psu = in.table("psu", false)) rig.psu = read_psu(*psu);
    if (in.contains("schedule")) {
        rig.schedule = in.strings("schedule");
        for (std::size_t i = 0; i < rig.schedule.size(); ++i) try {
                parse_schedule_rule(rig.schedule[i]);
            } catch (const std::invalid_argument& e) {
                throw in.error("schedule", fmt::format("rule {} (\"{}\"): {}", i, rig.schedule[i], e.what()));
            }
    }
    if (const auto cooling = in.table("cooling", false)) rig.cooling = read_cooling(*cooling);
    if (const auto circuit = in.table("circuit", false)) rig.circuit = read_circuit(*circuit);
    for (const auto& part : in.array_of_tables("parts", true)) rig.parts.push_back(read_part(part, context));
    if (rig.parts.empty()) throw in.error("parts", "expected at least one part, got an empty list");
    rig.tokens_per_second = read_token_rates(in);
    // A PSU from the catalog brings its 80 PLUS curve, unless the rig gives its own efficiency.
    if (!rig.psu && !in.contains("psu_efficiency"))
        for (const Part& part : rig.parts) {
            if (part.catalog_part.empty()) continue;
            const PartSpec& spec = Catalog::shipped().part(part.catalog_part);
            if (spec.psu_rating && spec.psu_capacity_watts) rig.psu = PsuSpec{*spec.psu_rating, *spec.psu_capacity_watts, 115.0};
        }
    in.finish();
    return rig;
}

namespace {

// "2 × RTX 3090 700 W, CPU 180 W": who draws what, for a message.
std::string draws(const Scenario& s, int month, PowerState state) {
    std::vector<std::string> items;
    for (const Part& part : s.rig.parts) {
        if (month < part.purchase_month || month > part.retire_month.value_or(s.horizon_months)) continue;
        Scenario one = s;
        one.rig.parts = {part};
        const double watts = state_watts(one, month).of(state);
        if (watts > 0) items.push_back(fmt::format("{}{} {:.0f} W", part.count > 1 ? fmt::format("{} x ", part.count) : "",
                                                   part.name, watts));
    }
    return fmt::format("{}", fmt::join(items, ", "));
}

void check_psu_capacity(const TomlReader& root, const Scenario& s) {
    if (!s.rig.psu) return;
    for (int m = 1; m <= s.horizon_months; ++m) {
        const StateWatts watts = state_watts(s, m);
        for (PowerState state : {PowerState::training, PowerState::rented, PowerState::idle, PowerState::off}) {
            if (watts.of(state) <= s.rig.psu->capacity_watts) continue;
            const auto rig = root.table("rig", true);
            // The PSU is a table of the rig, or a catalog part that brought its curve.
            const InputError where = rig->contains("psu") ? rig->table("psu", true)->error("capacity_watts", "")
                                                          : rig->error("parts", "");
            throw InputError(where.source(), where.line(), where.key_path(),
                fmt::format("the parts draw {:.0f} W DC when {} in month {} ({}), more than the PSU's {:.0f} W",
                            watts.of(state), to_string(state), m, draws(s, m, state), s.rig.psu->capacity_watts));
        }
    }
}

// The GPUs must fit the board's slots and the CPU's lanes, when the scenario says what those are.
void check_wiring(const TomlReader& root, const Scenario& s) {
    int gpus = 0, cpu_lanes = 0;
    GpuLink card;
    std::vector<PcieSlot> slots;
    for (const Part& part : s.rig.parts) {
        if (part.kind == PartKind::gpu) {
            gpus += part.count;
            if (part.pcie) card = *part.pcie;
        }
        if (part.pcie_lanes) cpu_lanes += *part.pcie_lanes * part.count;
        slots.insert(slots.end(), part.pcie_slots.begin(), part.pcie_slots.end());
    }
    if (gpus == 0 || slots.empty() || cpu_lanes == 0) return;  // not described: nothing to check
    const Wiring wiring = wire_gpus(gpus, card, slots, cpu_lanes);
    if (!wiring.problem.empty())
        throw root.table("rig", true)->error("parts", "the parts cannot be wired as listed: " + wiring.problem);
}

}  // namespace

// A power limit stretches the hours the work takes: they must still fit in a month.
void check_hours(const TomlReader& root, const Scenario& s) {
    const double hours = energy_model(s).usage.hours_per_month(PowerState::training);
    if (hours > 730.0 + 1e-9)
        throw root.table("workload", true)->error(
            "gpu_hours_per_month", fmt::format("takes {:.1f} h a month on the rig under its power limit, more than "
                                               "the month's 730 h",
                                               hours));
}

void check_rig(const TomlReader& root, const Scenario& s) {
    if (s.rig.schedule.empty()) check_hours(root, s);
    check_psu_capacity(root, s);
    check_wiring(root, s);
}

double number_or_catalog(const TomlReader& in, std::string_view key, const std::optional<double>& from_catalog,
                         const std::string& origin, std::vector<std::pair<std::string, std::string>>& sources,
                         std::optional<double> fallback) {
    if (in.contains(key) || !from_catalog) return fallback ? in.number_or(key, *fallback) : in.number(key);
    sources.emplace_back(std::string(key), origin);
    return *from_catalog;
}

}  // namespace payback::detail

namespace payback {

const char* to_string(PartKind kind) {
    for (const auto& [name, value] : detail::part_kinds)
        if (value == kind) return name.c_str();
    return "other";
}

const char* to_string(ResaleMethod method) {
    for (const auto& [name, value] : detail::resale_methods)
        if (value == method) return name.c_str();
    return "none";
}

const char* to_string(WhenNotTraining mode) { return mode == WhenNotTraining::idle ? "idle" : "off"; }

}  // namespace payback
