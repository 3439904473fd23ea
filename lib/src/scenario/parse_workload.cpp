// [workload] job = { model, samples_per_epoch, epochs, runs_per_month, batch, samples_per_second }
// and calibration = "profile.json": the owner's training as jobs, timed on the rig's GPUs and on each
// cloud GPU by measured (or mapped) throughput, or, for a model of pricing/models.csv that neither
// gives, by the predictor's (predictor.hpp). docs/benchmark.md describes the keys.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "payback/base/error.hpp"
#include "payback/market/catalog.hpp"
#include "payback/workload/model_catalog.hpp"
#include "payback/workload/network.hpp"
#include "payback/workload/predictor.hpp"
#include "scenario/scenario_readers.hpp"

namespace payback::detail {
namespace {

// The rig's GPU as the catalog names it (or as the part is named), and how many it has.
// A predicted job's batch when workload.job.batch is not given. The roofline's weight traffic per
// sample shrinks with the batch, and at 32 it is far below the compute of every training model in
// the catalog (bert-large: 3 x 335 M x 2 B / 32 = 63 MB a sample against 739 GFLOP), so the figure
// barely depends on it; the multi-GPU scaling model reads it as the step's size.
constexpr int default_predicted_batch = 32;

// The rig's first catalog GPU (gpus.csv name), or "" when its GPUs are typed in.
std::string rig_catalog_gpu(const Rig& rig) {
    for (const Part& part : rig.parts)
        if (part.kind == PartKind::gpu) return part.catalog_gpu;
    return "";
}

std::pair<std::string, int> rig_gpu(const Rig& rig) {
    std::string name;
    int count = 0;
    for (const Part& part : rig.parts)
        if (part.kind == PartKind::gpu) {
            if (name.empty()) name = part.catalog_gpu.empty() ? part.name : part.catalog_gpu;
            count += part.count;
        }
    return {name, count};
}

std::string list(const std::vector<int>& batches) {
    return batches.empty() ? std::string("none") : fmt::format("{}", fmt::join(batches, ", "));
}

bool is_benchmark_network(const std::string& model) {
    const auto names = workload_names();
    return std::find(names.begin(), names.end(), model) != names.end();
}

// A job's model: a network `payback bench` trains, or a training model of pricing/models.csv; the
// catalog's message (with its suggestion) when it is neither.
void check_job_model(const TomlReader& in, const std::string& model) {
    if (is_benchmark_network(model)) return;
    ModelKind kind{};
    try {
        kind = ModelCatalog::shipped().model(model).kind;
    } catch (const InputError& e) {
        throw in.error("model", e.message());
    }
    if (kind != ModelKind::train)
        throw in.error("model", fmt::format("\"{}\" is a language model in pricing/models.csv: give it as "
                                            "[workload.tokens], served token by token, not as a training job",
                                            model));
}

// One `gpu` (a gpus.csv name) training the job's model at its batch, by the predictor; InputError at
// `key` of `in` when it cannot (a GPU the catalog lacks a spec of) or the model does not fit the card.
GpuThroughput predicted_throughput(const TomlReader& in, std::string_view key, const std::string& gpu,
                                   const std::string& model, int batch) {
    Prediction p;
    try {
        p = predict({.device = gpu, .workload = model, .phase = "train", .batch = batch}, Catalog::shipped(),
                    ModelCatalog::shipped());
    } catch (const InputError& e) {
        throw in.error(key, "cannot predict the samples per second of " + model + ": " + e.message());
    }
    if (!p.fits_memory)
        throw in.error(key, fmt::format("does not fit: training {} needs {:.1f} GB (weights, gradients and Adam's "
                                        "moments), and one {} has {:.1f} GB",
                                        model, p.memory_gb_needed, gpu, p.memory_gb));
    return GpuThroughput{p.per_second,
                         fmt::format("predicted for {} from its specs ({}, {}, batch {}), {}", gpu, roofline_basis(p),
                                     p.precision, p.batch, expected_error_text(p.error_low, p.error_high)),
                         false, p.error_low, p.error_high};
}

}  // namespace

ScalingWorkload job_scaling_workload(const TrainingJob& job) {
    const double parameters = is_benchmark_network(job.model)
                                  ? static_cast<double>(parameter_count(find_workload(job.model)))
                                  : ModelCatalog::shipped().model(job.model).parameters;
    return ScalingWorkload{4.0 * parameters, job.batch / job.gpu_samples_per_second};
}

TrainingJob read_job(const TomlReader& workload, const ReadContext& context, const Rig& rig,
                     const RigScaling& scaling) {
    const auto in = *workload.table("job", true);
    TrainingJob job;
    job.model = in.string("model");
    check_job_model(in, job.model);
    job.samples_per_epoch = in.number("samples_per_epoch");
    job.epochs = in.number_or("epochs");
    job.runs_per_month = in.number("runs_per_month");
    const auto [gpu, gpus] = rig_gpu(rig);
    if (gpus == 0) throw in.error("model", "the rig has no GPU part to train on");
    job.gpus = gpus;

    if (workload.contains("calibration")) {
        job.calibration_file = workload.string("calibration");
        const auto path = context.scenario_dir / job.calibration_file;
        try {
            job.profile = read_profile(path.string());
        } catch (const InputError& e) {
            throw workload.error("calibration", e.what());
        }
    }
    const std::vector<int> batches =
        job.profile ? measured_gpu_batches(*job.profile, job.model) : std::vector<int>{};
    // The largest batch measured is the default: what a run after throughput would use.
    job.batch = static_cast<int>(in.integer_or("batch", batches.empty() ? 0 : batches.back()));

    if (in.contains("samples_per_second")) {
        job.gpu_samples_per_second = in.number("samples_per_second");
        job.gpu_origin = fmt::format("given in the scenario (workload.job.samples_per_second) for one {}", gpu);
    } else if (batches.empty() && !is_benchmark_network(job.model)) {
        // A catalog model no profile measured: the predictor times the rig's catalog GPU on it.
        if (job.batch == 0) job.batch = default_predicted_batch;
        const std::string catalog_gpu = rig_catalog_gpu(rig);
        if (catalog_gpu.empty())
            throw in.error("samples_per_second",
                           fmt::format("missing: the rig's GPU is not a pricing/gpus.csv GPU (rig.parts[].gpu), so "
                                       "its samples per second of {} cannot be predicted; give them",
                                       job.model));
        const GpuThroughput predicted = predicted_throughput(in, "model", catalog_gpu, job.model, job.batch);
        job.gpu_samples_per_second = predicted.samples_per_second;
        job.gpu_origin = predicted.origin;
    } else if (!job.profile) {
        throw in.error("samples_per_second", "missing: give the rig's measured samples per second per GPU, or "
                                             "workload.calibration = \"profile.json\" from `payback bench`");
    } else {
        if (job.batch == 0)
            throw workload.error("calibration", fmt::format("{} has no GPU measurement of \"{}\": run `payback bench "
                                                            "--device cuda --workload {}` on a GPU, or give "
                                                            "workload.job.samples_per_second",
                                                            job.calibration_file, job.model, job.model));
        const auto measured = gpu_throughput(*job.profile, gpu, job.model, job.batch);
        if (!measured)
            throw in.error("batch", fmt::format("{} has no GPU measurement of \"{}\" at batch {} to time the {} with "
                                                "(measured batches: {})",
                                                job.calibration_file, job.model, job.batch, gpu, list(batches)));
        job.gpu_samples_per_second = measured->samples_per_second;
        job.gpu_origin = measured->origin;
    }
    if (job.batch == 0) job.batch = 256;  // only the scaling model reads it when the figure was given
    if (gpus > 1)
        job.scaling_efficiency = fitted_efficiency(gpus, job_scaling_workload(job), scaling.link_gb_per_s * 1e9,
                                                   published_fit());
    in.finish();
    return job;
}

void calibrate_cloud(const TomlReader& in, const TrainingJob* job, CloudOption& cloud) {
    if (!job) {
        if (in.contains("samples_per_second"))
            throw in.error("samples_per_second", "needs [workload] job: the samples of which model?");
        return;
    }
    if (in.contains("speedup") || in.contains("per_gpu_speedup")) return;  // the user's own ratio stands
    std::optional<GpuThroughput> throughput;
    if (in.contains("samples_per_second")) {
        throughput = GpuThroughput{in.number("samples_per_second"),
                                   "given in the scenario (samples_per_second)"};
    } else if (!cloud.gpu.empty() && !is_benchmark_network(job->model) &&
               (!job->profile || measured_gpu_batches(*job->profile, job->model).empty())) {
        throughput = predicted_throughput(in, "instance", cloud.gpu, job->model, job->batch);
    } else if (!cloud.gpu.empty()) {
        if (!job->profile)
            throw in.error("samples_per_second",
                           fmt::format("missing: no calibration profile to time the {} with: give samples_per_second "
                                       "(per GPU) or workload.calibration",
                                       cloud.gpu));
        throughput = gpu_throughput(*job->profile, cloud.gpu, job->model, job->batch);
        if (!throughput)
            throw in.error("samples_per_second",
                           fmt::format("missing: {} has no GPU measurement of \"{}\" at batch {} to map the {} from "
                                       "(the catalog needs both GPUs' memory bandwidth); give samples_per_second",
                                       job->calibration_file, job->model, job->batch, cloud.gpu));
    } else {
        return;  // a typed-in option: its speedup (1 by default) stands
    }
    cloud.gpu_samples_per_second = throughput->samples_per_second;
    cloud.throughput_origin = throughput->origin;
    cloud.per_gpu_speedup = throughput->samples_per_second / job->gpu_samples_per_second;
    std::erase_if(cloud.from_catalog, [](const auto& entry) { return entry.first == "per_gpu_speedup"; });
    cloud.from_catalog.emplace_back("per_gpu_speedup", fmt::format("{:.0f} / {:.0f} samples/s of {} ({}; rig: {})",
                                                                   throughput->samples_per_second,
                                                                   job->gpu_samples_per_second, job->model,
                                                                   throughput->origin, job->gpu_origin));
}

}  // namespace payback::detail
