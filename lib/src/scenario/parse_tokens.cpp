// [workload] tokens = { model, quant, input_tokens_per_month, ... }: a model served on the rig, on
// rented instances (their tokens_per_second, given or predicted, billed by the hour) and on per-token
// APIs ([[api]], typed in or `api = "provider:model"` from pricing/api-prices.csv). docs/inference.md
// describes them.
#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "payback/base/conventions.hpp"
#include "payback/energy/usage.hpp"
#include "payback/market/api_price.hpp"
#include "payback/workload/measured_serving.hpp"
#include "payback/workload/memory_fit.hpp"
#include "payback/workload/predictor.hpp"
#include "payback/workload/serving_prediction.hpp"
#include "scenario/scenario_readers.hpp"

namespace payback::detail {

namespace {

// The share of a week's hours that `schedule` ("daily 16-24") covers: tokens spread evenly over the
// week are sent then in that share.
double share_of_week(const TomlReader& in, const std::string& schedule) {
    try {
        const ScheduleRule rule = parse_schedule_rule(schedule + " training");
        return static_cast<double>(std::count(rule.hours.begin(), rule.hours.end(), true)) / hours_per_week;
    } catch (const std::invalid_argument& e) {
        throw in.error("schedule", fmt::format("\"{}\": {}", schedule, e.what()));
    }
}

ApiPricing read_pricing(const TomlReader& in, const ApiPriceRow* row) {
    ApiPricing p;
    if (row) {
        p.input_per_million = row->input_per_million;
        p.output_per_million = row->output_per_million;
        p.cached_input_per_million = row->cached_input_per_million;
    } else {
        p.input_per_million = in.number("price_per_million_input");
        p.output_per_million = in.number("price_per_million_output");
        if (in.contains("price_per_million_cached_input"))
            p.cached_input_per_million = in.number("price_per_million_cached_input");
    }
    if (const auto off_peak = in.table("off_peak", false)) {
        p.off_peak_schedule = off_peak->string("schedule");
        p.off_peak_share = share_of_week(*off_peak, p.off_peak_schedule);
        p.off_peak_discount = off_peak->number("discount");
        off_peak->finish();
    }
    return p;
}

// The model at its quant, context and concurrency on `devices` ("one RTX 4090", "2 x RTX 3090") that
// let it use `has_gb`: an error at `key` naming them, the GB needed and the GB they have when it does
// not fit. Over several cards the model is split by layers, so their memory adds up (the links between
// them cost time, serving_prediction.hpp).
void check_memory_fit(const TomlReader& in, std::string_view key, const TokenWorkload& t, const std::string& devices,
                      double has_gb) {
    const ModelCatalog& models = ModelCatalog::shipped();
    const double needed = llm_memory(models.model(t.model), models.quant(t.quant), t.context, t.concurrency).total_gb();
    if (needed > has_gb)
        throw in.error(key, fmt::format("does not fit: {} at {} with a {}-token context and {} sequence(s) at once "
                                        "needs {:.1f} GB, and {} {} {:.1f} GB",
                                        t.model, t.quant, t.context, t.concurrency, needed, devices,
                                        devices.starts_with("one ") ? "has" : "have", has_gb));
}

// "one RTX 4090", "2 x RTX 3090".
std::string devices_named(const std::string& gpu, int count) {
    return count == 1 ? "one " + gpu : std::to_string(count) + " x " + gpu;
}

// The predictor's rates for the workload on `cards` (serving_prediction.hpp); its errors at `key`.
TokenRates predicted_rates(const TomlReader& in, std::string_view key, const TokenWorkload& t,
                           const std::vector<ServingCards>& cards, double link_gb_per_s) {
    try {
        return predict_serving(cards, {t.model, t.quant, t.context, t.concurrency}, SplitLink{.gb_per_s = link_gb_per_s},
                               Catalog::shipped(), ModelCatalog::shipped())
            .rates;
    } catch (const InputError& e) {
        throw in.error(key, "cannot predict tokens_per_second: " + e.message());
    }
}

}  // namespace

std::optional<TokenRates> read_token_rates(const TomlReader& in) {
    const auto rates = in.table("tokens_per_second", false);
    if (!rates) return std::nullopt;
    TokenRates r{rates->number("prefill"), rates->number("decode"), "measured (given by hand)", false};
    rates->finish();
    return r;
}

TokenWorkload read_tokens(const TomlReader& workload) {
    const auto in = *workload.table("tokens", true);
    TokenWorkload t;
    t.model = in.string("model");
    t.quant = in.string("quant");
    // Names of pricing/models.csv and quants.csv (memory_fit.hpp sizes the model from them).
    const ModelCatalog& models = ModelCatalog::shipped();
    const ModelSpec* model = nullptr;
    try {
        model = &models.model(t.model);
    } catch (const InputError& e) {
        throw in.error("model", e.message());
    }
    if (model->kind != ModelKind::llm)
        throw in.error("model", "\"" + t.model + "\" is a training workload in pricing/models.csv, not a language "
                                "model served token by token");
    try {
        (void)models.quant(t.quant);
    } catch (const InputError& e) {
        throw in.error("quant", e.message());
    }
    t.volume.input_per_month = in.number("input_tokens_per_month");
    t.volume.output_per_month = in.number("output_tokens_per_month");
    t.volume.cached_input_share = in.number_or("cached_input_share");
    t.concurrency = static_cast<int>(in.integer_or("concurrency"));
    t.context = static_cast<int>(in.integer_or("context"));
    if (in.contains("profile")) t.profile = in.string("profile");
    in.finish();
    return t;
}

void predict_rig_rates(const TomlReader& root, const ReadContext& context, Scenario& s, double link_gb_per_s) {
    const TokenWorkload& t = *s.tokens;
    if (!t.profile.empty()) {
        const auto tokens = *root.table("workload", true)->table("tokens", true);
        if (s.rig.tokens_per_second)
            throw tokens.error("profile", "the rig's rates are given by hand too (rig.tokens_per_second): give "
                                          "the measured profile or the rates, not both");
        try {
            const CalibrationProfile profile = read_profile((context.scenario_dir / t.profile).string());
            s.rig.tokens_per_second =
                serving_from_profile(profile, {t.model, t.quant, t.context, t.concurrency}, ModelCatalog::shipped()).rates;
        } catch (const InputError& e) {
            throw tokens.error("profile", e.what());
        }
        return;
    }
    if (s.rig.tokens_per_second) return;
    const auto rig = *root.table("rig", true);
    std::vector<ServingCards> cards;
    for (const Part& part : s.rig.parts) {
        if (part.kind != PartKind::gpu) continue;
        if (part.catalog_gpu.empty()) {  // a card typed in: its speed is unknown
            cards.clear();
            break;
        }
        cards.push_back({part.catalog_gpu, part.count});
    }
    if (cards.empty())
        throw rig.error("tokens_per_second", "missing: workload.tokens needs the rig's rates, tokens_per_second = "
                                             "{ prefill = P, decode = D } (tokens a second at the workload's "
                                             "concurrency), or its GPUs from the catalog (gpu = \"...\") to "
                                             "predict them");
    s.rig.tokens_per_second = predicted_rates(rig, "tokens_per_second", *s.tokens, cards, link_gb_per_s);
}

double rig_serving_hours(const TomlReader& root, const Scenario& s) {
    const auto workload = *root.table("workload", true);
    const auto rig = *root.table("rig", true);
    if (!s.rig.schedule.empty())
        throw rig.error("schedule", "fixes the rig's hours; workload.tokens adds serving hours to them: leave out "
                                    "rig.schedule and give workload.gpu_hours_per_month");
    const TokenRates& rates = *s.rig.tokens_per_second;
    const double serving = serving_hours_per_month(s.tokens->volume, rates);
    const double training = units::in_hours(s.training_per_month);
    if (training + serving > conventions::hours_per_month) {
        // What the rig can serve beside its training: the output the hours left write after the input.
        const double input_hours = s.tokens->volume.input_per_month / rates.prefill / 3600.0;
        const double left = std::max(0.0, conventions::hours_per_month - training - input_hours);
        throw workload.error("tokens",
                             fmt::format("the rig serves them in {:.1f} h a month (at {} prefill and {} decode tokens "
                                         "a second) and trains {:.1f} h: more than the month's 730 h; it can serve "
                                         "at most {:.4g} output tokens a month beside this input and training",
                                         serving, rates.prefill, rates.decode, training, left * 3600.0 * rates.decode));
    }
    // The rig's GPUs from the catalog (gpu = "RTX 4090") say their memory; typed-in cards do not.
    double has_gb = 0.0;
    std::vector<std::string> names;
    for (const Part& part : s.rig.parts) {
        if (part.kind != PartKind::gpu) continue;
        if (part.catalog_gpu.empty()) return serving;
        has_gb += usable_memory_gb(Catalog::shipped().gpu(part.catalog_gpu)) * part.count;
        names.push_back(devices_named(part.catalog_gpu, part.count));
    }
    if (has_gb > 0) check_memory_fit(workload, "tokens", *s.tokens, fmt::format("{}", fmt::join(names, " and ")), has_gb);
    return serving;
}

void read_cloud_serving(const TomlReader& in, const TokenWorkload* tokens, CloudOption& cloud) {
    cloud.tokens_per_second = read_token_rates(in);
    cloud.always_on = in.boolean_or("always_on");
    if (!tokens) {
        for (const char* key : {"tokens_per_second", "always_on"})
            if (in.contains(key)) throw in.error(key, "needs workload.tokens: the tokens to serve");
        return;
    }
    if (!cloud.tokens_per_second && cloud.gpu.empty())
        throw in.error("tokens_per_second", "missing: workload.tokens needs this instance's rates, tokens_per_second "
                                            "= { prefill = P, decode = D }, or its GPU (instance = \"...\" from the "
                                            "catalog) to predict them");
    if (!cloud.tokens_per_second)
        cloud.tokens_per_second =
            predicted_rates(in, "instance", *tokens, {{cloud.gpu, cloud.gpus}}, cloud.interconnect_gb_per_s);
    cloud.tokens = tokens->volume;
    if (!cloud.gpu.empty()) {
        const double has_gb = usable_memory_gb(Catalog::shipped().gpu(cloud.gpu)) * cloud.gpus;
        if (has_gb > 0)
            check_memory_fit(in, in.contains("instance") ? "instance" : "gpu", *tokens,
                             devices_named(cloud.gpu, cloud.gpus), has_gb);
    }
    const double serving = serving_hours_per_month(cloud.tokens, *cloud.tokens_per_second);
    if (serving > conventions::hours_per_month)
        throw in.error("tokens_per_second",
                       fmt::format("serving workload.tokens takes {:.1f} h a month at these rates, more than the "
                                   "month's 730 h: one instance cannot serve them",
                                   serving));
}

std::vector<CloudOption> read_apis(const TomlReader& root, const ReadContext& context, const Scenario& s) {
    std::vector<CloudOption> apis;
    for (const auto& in : root.array_of_tables("api", false)) {
        if (!s.tokens) throw in.error("name", "an [[api]] option needs workload.tokens: the tokens it is to serve");
        if (units::in_hours(s.training_per_month) > 0)
            throw in.error("name", fmt::format("an API serves tokens, not the {:.4g} h a month of training "
                                               "(workload.gpu_hours_per_month): compare training against [[cloud]] "
                                               "options in a scenario of its own",
                                               units::in_hours(s.training_per_month)));
        CloudOption api;
        const ApiPriceRow* row = nullptr;
        if (in.contains("api")) {
            for (const char* key : {"price_per_million_input", "price_per_million_output", "price_per_million_cached_input"})
                if (in.contains(key))
                    throw in.error(key, "give api = \"provider:model\" (its prices from pricing/api-prices.csv) or the "
                                        "prices, not both");
            api.api_row = in.string("api");
            try {
                row = &context.catalog().api_price(api.api_row, context.prices_at);
            } catch (const InputError& e) {
                throw in.error("api", e.message());
            }
            api.from_catalog.emplace_back("price_per_million_input", row->origin.describe() + ", " + row->origin.source);
            context.used_price_of(row->origin.as_of);
        }
        api.name = in.contains("name") || !row ? in.string("name") : row->key();
        for (const CloudOption& other : s.clouds)
            if (other.name == api.name) throw in.error("name", "\"" + api.name + "\" names another option too");
        for (const CloudOption& other : apis)
            if (other.name == api.name) throw in.error("name", "duplicate API option \"" + api.name + "\"");
        if (api.name == s.rig.name) throw in.error("name", "\"" + api.name + "\" is the rig's name too");
        api.api = read_pricing(in, row);
        api.escalation = in.number_or("escalation");
        api.tokens = s.tokens->volume;
        in.finish();
        apis.push_back(std::move(api));
    }
    return apis;
}

}  // namespace payback::detail
