// payback init [--gpu NAME] [--cloud PROVIDER:INSTANCE] [--rate PRICE | --region CODE] [--hours H] [-o FILE]
// A scenario to start from: one GPU from pricing/gpus.csv in a rig, one instance from
// pricing/cloud-instances.csv to rent instead, the electricity price of pricing/electricity-prices.csv
// (or --rate), every value commented with the catalog row it came from or marked as an assumption.
// The scenario names the catalog rows (gpu = ..., instance = ...), so `payback check` shows the
// values as resolved and a newer catalog updates them. On a terminal and without flags it asks for
// each choice instead (init_guide.hpp).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "command_common.hpp"
#include "commands.hpp"
#include "init_guide.hpp"
#include "payback/base/error.hpp"
#include "payback/market/catalog.hpp"
#include "payback/scenario/keys.hpp"

namespace payback::cli {

namespace {

struct InitArgs {
    InitChoices choices;
    std::string output;
};

// A TOML basic string.
std::string quoted(const std::string& text) {
    std::string out = "\"";
    for (char c : text) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out + "\"";
}

// "key = value" with its comment aligned at column 38, as in scenarios/*.toml.
std::string line(const std::string& assignment, const std::string& comment) {
    return fmt::format("{:<36} # {}\n", assignment, comment);
}

// A table's header after a comment with its help line from the key table (payback/scenario/keys.hpp):
// [path], or [[path]] for an array of tables.
std::string header(const std::string& path) {
    const ScenarioKey& key = *find_scenario_key(path);
    const bool array = key.type == KeyType::tables;
    return "# " + key.help + "\n" + (array ? "[[" : "[") + path + (array ? "]]" : "]") + "\n";
}

// Looks a name up in the catalog, the error naming the option (with the catalog's suggestion).
template <class Lookup>
auto find(const char* option, Lookup lookup) -> decltype(lookup()) {
    try {
        return lookup();
    } catch (const InputError& e) {
        throw InputError(option, 0, "", e.message());
    }
}

std::string scenario_text(const InitChoices& args) {
    const Catalog& catalog = Catalog::shipped();
    const GpuSpec& gpu = find("--gpu", [&]() -> const GpuSpec& { return catalog.gpu(args.gpu); });
    const CloudInstance& instance =
        find("--cloud", [&]() -> const CloudInstance& { return catalog.instance(args.cloud, ""); });
    if (!gpu.launch_price_usd)
        throw InputError("--gpu", 0, "", fmt::format("{} has no launch price in pricing/gpus.csv; choose another GPU "
                                                     "(payback catalog gpus)", gpu.name));
    if (!instance.on_demand_per_hour || instance.currency != "USD")
        throw InputError("--cloud", 0, "", fmt::format("{} has no on-demand price in USD in pricing/cloud-instances.csv; "
                                                       "choose another (payback catalog instances)", instance.key()));
    const ElectricityRate& rate = find("--region", [&]() -> const ElectricityRate& { return catalog.rate(args.region); });
    if (!args.rate && rate.currency != "USD")
        throw InputError("--region", 0, "", fmt::format("{}'s price in pricing/electricity-prices.csv is in {}, the "
                                                        "scenario in USD: give --rate in USD", rate.region, rate.currency));

    const std::string rig = gpu.name + " rig";
    std::string out = fmt::format(
        "# {} rig against renting {}: written by payback init from the catalogs in pricing/.\n"
        "# Values marked EDIT are assumptions to replace with your own; the others name the catalog row\n"
        "# they come from. Check it with `payback check FILE`, then run `payback compare FILE` and\n"
        "# `payback explain FILE`. `payback docs --keys` lists every key with its unit, range and default;\n"
        "# docs/model.md explains the model; scenarios/ has fuller examples.\n\n",
        gpu.name, instance.key());

    out += header("scenario");
    out += fmt::format("name = {}\n", quoted(fmt::format("{} against {}", rig, instance.key())));
    out += "currency = \"USD\"                     # the catalogs' prices are in USD\n";
    out += line("horizon_months = 36", "EDIT: how long you would keep the rig");
    out += line("discount_rate = 0.05", "EDIT: what your money earns elsewhere, a year") + "\n";

    out += header("workload");
    out += line(fmt::format("gpu_hours_per_month = {:g}", args.hours),
                "EDIT: hours of training a month (a month has 730)") + "\n";

    out += header("rig");
    out += fmt::format("name = {}\n", quoted(rig));
    out += line("when_not_training = \"off\"", "EDIT: or \"idle\" (then give idle_watts)");
    out += line("psu_efficiency = 0.9", "EDIT: an 80 PLUS Gold supply at mid load") + "\n";

    out += header("rig.parts");
    out += line(fmt::format("gpu = {}", quoted(gpu.name)), gpu.origin.describe());
    out += fmt::format("# From that row: price {} (launch, USD){}. Give price = ... for what you would pay.\n",
                       amount(*gpu.launch_price_usd),
                       gpu.board_power_watts ? fmt::format(", load_watts {}", amount(*gpu.board_power_watts)) : "");
    out += line("resale = { method = \"declining_balance\", annual_rate = 0.25 }",
                "EDIT: GPUs have lost 20-35 % a year") + "\n";

    out += "[[rig.parts]]\n";
    out += "kind = \"other\"\n";
    out += "name = \"Rest of the system: CPU, board, RAM, SSD, PSU, case\"\n";
    out += line("price = 1000", "EDIT: or list the parts (payback catalog parts)");
    out += line("load_watts = 150", "EDIT: CPU, board, fans and drives while training");
    out += line("resale = { method = \"straight_line\", life_years = 5, salvage_fraction = 0.1 }", "EDIT") + "\n";

    out += header("electricity");
    if (args.rate)
        out += line(fmt::format("price_per_kwh = {:g}", *args.rate), "from --rate");
    else
        out += line(fmt::format("price_per_kwh = {:g}", rate.price_per_kwh),
                    fmt::format("EDIT: {} {} average, {}", rate.region, rate.year, rate.origin.describe()));
    out += "\n";

    out += header("cloud");
    out += fmt::format("name = {}\n", quoted(instance.key() + " on-demand"));
    out += line(fmt::format("instance = {}", quoted(instance.key())), instance.origin.describe());
    std::string speed = "its speed against the rig from both GPUs' ResNet-50 throughput";
    if (!gpu.resnet50_amp_img_s || !catalog.gpu(instance.gpu).resnet50_amp_img_s)
        speed = "no measured throughput for both GPUs: give speedup = ... (1: as fast as the rig)";
    out += fmt::format("# From that row: {} x {} in {}, {} an hour on demand;\n# {}.\n", instance.gpu_count,
                       instance.gpu, instance.region, amount(*instance.on_demand_per_hour, 2), speed);
    return out;
}


// The guided start: the questions and the catalog's values on stderr, then the scenario written to
// the file named (or to stdout when it is not a terminal). A file that exists is not replaced.
void guided_init(const InitArgs& args) {
    const Catalog& catalog = Catalog::shipped();
    const InitChoices choices = ask_init_choices(std::cin, std::cerr, catalog, args.choices);
    const std::string text = scenario_text(choices);
    std::cerr << "\n" << filled_in(choices, catalog);
    if (isatty(STDOUT_FILENO) == 0) {
        emit(text);
        return;
    }
    std::string path;
    std::cerr << "\n";
    for (;;) {
        std::cerr << "Write the scenario to [my.toml]: " << std::flush;
        if (!std::getline(std::cin, path))
            throw InputError("payback init", 0, "", "the answers ended before the scenario was complete");
        if (path.empty()) path = "my.toml";
        if (!std::filesystem::exists(path)) break;
        std::cerr << "  " << path << " exists: give another name (payback init -o FILE replaces a file)\n";
    }
    write_file_atomically(path, text);
    std::cerr << "Wrote " << path << ". Next: payback check " << path << ", then payback compare " << path << "\n";
}

}  // namespace

void add_init_command(CLI::App& app) {
    auto args = std::make_shared<InitArgs>();
    CLI::App* command = app.add_subcommand(
        "init", "Write a commented scenario to start from: a GPU rig against a cloud instance, from the catalogs "
                "(on a terminal and without flags, it asks)");
    command->add_option("--gpu", args->choices.gpu, "The rig's GPU, a name in pricing/gpus.csv (default \"RTX 4090\")");
    command->add_option("--cloud", args->choices.cloud,
                        "The instance to rent, PROVIDER:INSTANCE in pricing/cloud-instances.csv (default aws:p5.4xlarge)");
    auto* rate = command->add_option("--rate", args->choices.rate, "Electricity price per kWh (default: --region's)")
                     ->check(CLI::Range(0.0, 10.0));
    command->add_option("--region", args->choices.region,
                        "Electricity region in pricing/electricity-prices.csv, its latest price (default US)")
        ->excludes(rate);
    command->add_option("--hours", args->choices.hours, "GPU-hours of training a month (default 200)")
        ->check(CLI::Range(0.0, 730.0));
    command->add_option("-o,--output", args->output, "Write the scenario to this file (atomically) instead of stdout");
    add_example(*command, {"payback init",
                           "payback init > my.toml",
                           "payback init --gpu \"RTX 3090\" --cloud aws:p3.2xlarge --rate 0.30 -o my.toml"});
    command->callback([args, command] {
        // Guided only when a person can answer: questions on a terminal, answers from one, no flags.
        const std::vector<CLI::Option*> options = command->get_options();
        const bool any_flag = std::any_of(options.begin(), options.end(), [](const CLI::Option* o) { return o->count() > 0; });
        if (!any_flag && isatty(STDIN_FILENO) != 0 && isatty(STDERR_FILENO) != 0) {
            guided_init(*args);
            return;
        }
        const std::string text = scenario_text(args->choices);
        if (args->output.empty()) emit(text);
        else write_file_atomically(args->output, text);
    });
}

}  // namespace payback::cli
