// One validated, unit-typed scenario: the rig, the owner's workload, the tariff and the cloud
// alternatives. Produced only by load_scenario(), which rejects bad input with an InputError
// naming the file, line and key; nothing downstream re-validates.
#pragma once

#include <string>
#include <vector>

#include "payback/depreciation.hpp"
#include "payback/units.hpp"

namespace payback {

enum class PartKind { cpu, gpu, ram, storage, motherboard, psu, case_, cooler, network, other };

/// When the owner is not training, the rig either idles (drawing its idle watts) or is switched off.
enum class WhenNotTraining { idle, off };

struct Part {
    PartKind kind = PartKind::other;
    std::string name;
    units::Money price;  ///< per unit
    int count = 1;
    units::Power idle_power;  ///< DC draw per unit when idle
    units::Power load_power;  ///< DC draw per unit when training
    ResaleCurve<double> resale;
};

struct Rig {
    std::string name = "rig";
    WhenNotTraining when_not_training = WhenNotTraining::idle;
    double psu_efficiency = 1.0;  ///< wall energy = DC energy / psu_efficiency
    std::vector<Part> parts;
};

struct CloudOption {
    std::string name;
    units::MoneyPerTime price;  ///< per instance-hour
    double speedup = 1.0;       ///< throughput relative to the rig
};

struct Scenario {
    std::string source;  ///< the file it came from, for messages
    std::string name;
    std::string currency = "USD";
    int horizon_months = 36;
    double discount_rate = 0.0;  ///< annual, nominal, as a fraction
    units::Duration training_per_month;  ///< the owner's training, in hours on the rig
    Rig rig;
    units::MoneyPerEnergy electricity_price;
    std::vector<CloudOption> clouds;
};

/// A `--set key.path=value` override; `value` is TOML (a number, "string", true, { inline = 1 }).
struct Override {
    std::string key_path;
    std::string value;
};

/// Parses and validates a scenario file, applying overrides first. Throws InputError.
Scenario load_scenario(const std::string& path, const std::vector<Override>& overrides = {});

/// Parses and validates scenario text; `source` names it in messages.
Scenario parse_scenario(const std::string& toml_text, const std::string& source,
                        const std::vector<Override>& overrides = {});

/// Parses "key.path=value" as given on the command line. Throws InputError.
Override parse_override(const std::string& assignment);

/// The scenario as TOML text, every default filled in (what `payback check` prints).
std::string to_toml(const Scenario& scenario);

const char* to_string(PartKind kind);
const char* to_string(ResaleMethod method);
const char* to_string(WhenNotTraining mode);

}  // namespace payback
