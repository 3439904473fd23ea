#include "init_guide.hpp"

#include <algorithm>
#include <charconv>
#include <istream>
#include <ostream>
#include <vector>

#include <fmt/format.h>

#include "payback/base/error.hpp"
#include "payback/base/format.hpp"

namespace payback::cli {

namespace {

constexpr std::size_t suggestions_most = 8;

// The next answer, trimmed; `fallback` when empty.
std::string answer(std::istream& in, std::ostream& out, const std::string& question, const std::string& fallback) {
    out << question << " [" << fallback << "]: " << std::flush;
    std::string line;
    if (!std::getline(in, line))
        throw InputError("payback init", 0, "", "the answers ended before the scenario was complete");
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos) return fallback;
    return line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
}

std::optional<double> number(const std::string& text) {
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// Asks until `accept` takes the answer; it returns "" when it does, else why not.
template <class Accept>
void ask_until(std::istream& in, std::ostream& out, const std::string& question, const std::string& fallback,
               Accept accept) {
    for (;;) {
        const std::string problem = accept(answer(in, out, question, fallback));
        if (problem.empty()) return;
        out << "  " << problem << "\n";
    }
}

// The newest GPUs that the model can price and time (a launch price and a measured throughput).
std::string gpu_suggestions(const Catalog& catalog) {
    std::vector<const GpuSpec*> usable;
    for (const GpuSpec& g : catalog.gpus())
        if (g.launch_price_usd && g.resnet50_amp_img_s) usable.push_back(&g);
    std::stable_sort(usable.begin(), usable.end(),
                     [](const GpuSpec* a, const GpuSpec* b) { return a->release_date > b->release_date; });
    std::string out;
    for (std::size_t i = 0; i < usable.size() && i < suggestions_most; ++i)
        out += (i == 0 ? "" : ", ") + usable[i]->name;
    return out;
}

// The cheapest on-demand instance (in USD) of each GPU with a measured throughput, cheapest first.
std::string instance_suggestions(const Catalog& catalog) {
    std::vector<const CloudInstance*> cheapest;
    for (const CloudInstance& i : catalog.instances()) {
        if (!i.on_demand_per_hour || i.currency != "USD" || !catalog.gpu(i.gpu).resnet50_amp_img_s) continue;
        const auto same = std::find_if(cheapest.begin(), cheapest.end(),
                                       [&](const CloudInstance* c) { return c->gpu == i.gpu; });
        if (same == cheapest.end()) cheapest.push_back(&i);
        else if (*i.on_demand_per_hour < *(*same)->on_demand_per_hour) *same = &i;
    }
    std::stable_sort(cheapest.begin(), cheapest.end(), [](const CloudInstance* a, const CloudInstance* b) {
        return *a->on_demand_per_hour < *b->on_demand_per_hour;
    });
    std::string out;
    for (std::size_t i = 0; i < cheapest.size() && i < suggestions_most; ++i)
        out += fmt::format("{}{} ({}, {}/h)", i == 0 ? "" : ", ", cheapest[i]->key(), cheapest[i]->gpu,
                           format_amount(*cheapest[i]->on_demand_per_hour, 2));
    return out;
}

}  // namespace

InitChoices ask_init_choices(std::istream& in, std::ostream& out, const Catalog& catalog, const InitChoices& defaults) {
    InitChoices c = defaults;
    out << "A scenario in four answers; Enter takes the value in brackets.\n\n"
        << "The rig's GPU, a name in pricing/gpus.csv (`payback catalog gpus` lists them all).\n"
        << "  Recent ones: " << gpu_suggestions(catalog) << "\n";
    ask_until(in, out, "GPU", c.gpu, [&](const std::string& name) -> std::string {
        try {
            c.gpu = catalog.gpu(name).name;
        } catch (const InputError& e) {
            return e.message();
        }
        if (!catalog.gpu(c.gpu).launch_price_usd) return c.gpu + " has no launch price in pricing/gpus.csv";
        return "";
    });

    out << "\nElectricity: a price per kWh in USD (0.30), or a region of pricing/electricity-prices.csv\n"
        << "  (US, US-CA, US-TX, ...; `payback catalog rates` lists them).\n";
    ask_until(in, out, "Price or region", c.rate ? fmt::format("{:g}", *c.rate) : c.region,
              [&](const std::string& text) -> std::string {
                  if (const auto rate = number(text)) {
                      if (*rate < 0 || *rate > 10) return "a price per kWh between 0 and 10 USD";
                      c.rate = rate;
                      return "";
                  }
                  try {
                      const ElectricityRate& r = catalog.rate(text);
                      if (r.currency != "USD")
                          return fmt::format("{}'s price is in {}, the scenario in USD: give a price in USD", r.region,
                                             r.currency);
                      c.region = r.region;
                      c.rate.reset();
                  } catch (const InputError& e) {
                      return e.message();
                  }
                  return "";
              });

    out << "\nHow many hours a month would the rig train? A month has 730.\n";
    ask_until(in, out, "GPU-hours a month", fmt::format("{:g}", c.hours), [&](const std::string& text) -> std::string {
        const auto hours = number(text);
        if (!hours || *hours < 0 || *hours > 730) return "a number of hours between 0 and 730";
        c.hours = *hours;
        return "";
    });

    out << "\nThe cloud instance to compare with, PROVIDER:INSTANCE in pricing/cloud-instances.csv\n"
        << "  (`payback catalog instances`). The cheapest of each GPU: " << instance_suggestions(catalog) << "\n";
    ask_until(in, out, "Instance", c.cloud, [&](const std::string& key) -> std::string {
        try {
            const CloudInstance& i = catalog.instance(key, "");
            if (!i.on_demand_per_hour || i.currency != "USD")
                return i.key() + " has no on-demand price in USD in pricing/cloud-instances.csv";
            c.cloud = i.key();
        } catch (const InputError& e) {
            return e.message();
        }
        return "";
    });
    return c;
}

std::string filled_in(const InitChoices& c, const Catalog& catalog) {
    const GpuSpec& gpu = catalog.gpu(c.gpu);
    const CloudInstance& instance = catalog.instance(c.cloud, "");
    std::string out = "From the catalogs:\n";
    out += fmt::format("  {}: {} USD at launch", gpu.name, format_amount(*gpu.launch_price_usd));
    if (gpu.board_power_watts) out += fmt::format(", {} W", format_amount(*gpu.board_power_watts));
    out += fmt::format(" ({})\n", gpu.origin.describe());
    out += fmt::format("  {}: {} x {} in {}, {} USD an hour on demand ({})\n", instance.key(), instance.gpu_count,
                       instance.gpu, instance.region, format_amount(*instance.on_demand_per_hour, 2),
                       instance.origin.describe());
    if (c.rate) {
        out += fmt::format("  electricity: {:g} USD/kWh, as you gave it\n", *c.rate);
    } else {
        const ElectricityRate& r = catalog.rate(c.region);
        out += fmt::format("  electricity: {:g} USD/kWh, {} {} ({})\n", r.price_per_kwh, r.name, r.year,
                           r.origin.describe());
    }
    return out;
}

}  // namespace payback::cli
