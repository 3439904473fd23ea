// The CPU trainer. One training step is one run of the thread pool: every thread takes its share of
// the batch through all layers, except that large linear layers are split by output features (and
// their backward pass by input features), so that their weight gradients need no per-thread copies.
// Barriers stand only where a layer needs data another thread produced. Per-thread gradients of the
// sample-split layers are summed into the shared ones in the same pass that applies SGD.
#include "payback/bench/cpu_trainer.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <stdexcept>

#include <fmt/format.h>

#include "cpu/layers.hpp"
#include "cpu/thread_pool.hpp"

namespace payback::bench {
namespace {

using cpu::ImageShape;
using cpu::Range;

// Linear layers with at least this many weights are split by features: at small batches a per-thread
// copy of their gradient would double the memory traffic, which is what bounds them there.
constexpr std::size_t feature_split_weights = std::size_t(1) << 18;

using cpu::feature_align;
using cpu::share;

enum class Split { samples, features };

struct Step {
    Layer layer;
    ImageShape in, out;
    int weight = -1;  // index of the weight in the parameters, the bias next; -1 without parameters
    bool by_features = false;
    const float* x = nullptr;  // input activations; null for the first step, which reads the batch
    float* y = nullptr;
    float* dy = nullptr;  // gradient of y
    float* dx = nullptr;  // gradient of x; null where nothing before needs it
    bool backward = false;  // whether anything before this step has parameters (or this step has)
    bool forward_barrier = false, backward_barrier = false;
    Split forward_split = Split::samples, backward_split = Split::samples;
    // Runs of these go sample by sample (conv, pool, relu, flatten split by samples), so that one
    // sample's activations stay in cache from layer to layer; linear layers take all samples at once.
    bool forward_per_sample = false, backward_per_sample = false;
    // A relu followed by a max-pool runs inside the pool (relu(max) = max(relu)): the relu is skipped
    // and the pool applies it, forward and backward.
    bool relu_in_next_pool = false, after_relu = false;
    std::vector<std::int32_t> argmax;
};

class CpuTrainer final : public Trainer {
public:
    CpuTrainer(const Workload& workload, std::vector<Tensor> parameters, int batch_size, int threads, Sgd sgd)
        : workload_(workload), params_(std::move(parameters)), batch_(batch_size), sgd_(sgd), pool_(threads),
          losses_(pool_.size()) {
        plan();
        for (const auto& p : params_) {
            grads_.emplace_back(p.shape);
            momentum_.emplace_back(p.shape);
        }
        // Threads other than 0 keep their own gradients of sample-split layers; thread 0 writes the shared ones.
        private_grads_.resize(pool_.size());
        for (int t = 1; t < pool_.size(); ++t) {
            private_grads_[t].resize(params_.size());
            for (const auto& step : steps_)
                if (step.weight >= 0 && !step.by_features)
                    for (int p : {step.weight, step.weight + 1}) private_grads_[t][p].assign(params_[p].size(), 0.0f);
        }
    }

    std::string device_name() const override {
        return fmt::format("{} ({} thread{})", cpu_model_name(), pool_.size(), pool_.size() == 1 ? "" : "s");
    }
    int batch_size() const override { return batch_; }

    float compute_gradients(const Batch& batch) override {
        check(batch);
        return run(batch, false);
    }

    float train_step(const Batch& batch) override {
        check(batch);
        return run(batch, true);
    }

    std::vector<Tensor> parameters() const override { return params_; }
    std::vector<Tensor> gradients() const override { return grads_; }

    double timed_steps(const std::vector<Batch>& pool, int steps) override {
        if (pool.empty()) throw std::invalid_argument("timed_steps: empty batch pool");
        for (const auto& b : pool) check(b);
        const auto start = std::chrono::steady_clock::now();
        for (int i = 0; i < steps; ++i) run(pool[i % pool.size()], true);
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    }

private:
    void plan();
    void check(const Batch& batch) const;
    float run(const Batch& batch, bool update);
    void forward(int t);
    void backward(int t);
    void forward_step(Step& step, int t, Range samples);
    void backward_step(const Step& step, int t, Range samples, bool accumulate);
    void reduce_and_update(int t, bool update);

    const float* input_of(const Step& step) const { return step.x ? step.x : images_; }
    float* grad_buffer(int t, int param) {
        return t == 0 ? grads_[param].data.data() : private_grads_[t][param].data();
    }

    Workload workload_;
    std::vector<Tensor> params_, grads_, momentum_;
    int batch_;
    Sgd sgd_;
    cpu::ThreadPool pool_;
    std::vector<Step> steps_;
    std::vector<std::vector<float>> buffers_;  // activations and their gradients, batch-sized
    std::vector<float> logits_grad_;
    bool loss_barrier_ = false;
    std::vector<std::vector<std::vector<float>>> private_grads_;  // [thread][parameter]
    struct alignas(64) Loss {  // one cache line per thread
        double sum = 0.0;
    };
    std::vector<Loss> losses_;
    const float* images_ = nullptr;  // the batch of the current run
    const int* labels_ = nullptr;
    bool first_update_ = true;
};

void CpuTrainer::plan() {
    const auto fail = [&](const std::string& why) {
        throw std::invalid_argument(fmt::format("workload \"{}\": {}", workload_.name, why));
    };
    if (batch_ < 1) throw std::invalid_argument("batch size must be at least 1");
    ImageShape shape{workload_.channels, workload_.height, workload_.width};
    bool flat = false;
    int param = 0;
    for (const auto& layer : workload_.layers) {
        Step step;
        step.layer = layer;
        step.in = shape;
        switch (layer.kind) {
        case LayerKind::conv2d:
            if (flat || layer.in_channels != shape.channels || layer.kernel < 1 || layer.kernel > shape.height ||
                layer.kernel > shape.width || layer.out_channels < 1)
                fail("a conv2d layer does not fit its input");
            step.out = cpu::conv2d_output(shape, layer.out_channels, layer.kernel);
            step.weight = param, param += 2;
            break;
        case LayerKind::max_pool2d:
            if (flat || layer.kernel < 1 || layer.kernel > shape.height || layer.kernel > shape.width)
                fail("a max_pool2d layer does not fit its input");
            step.out = cpu::max_pool2d_output(shape, layer.kernel);
            step.argmax.resize(std::size_t(batch_) * step.out.size());
            break;
        case LayerKind::linear:
            if (!flat || std::size_t(layer.in_channels) != shape.size() || layer.out_channels < 1)
                fail("a linear layer does not fit its (flattened) input");
            step.out = {layer.out_channels, 1, 1};
            step.weight = param, param += 2;
            step.by_features = std::size_t(layer.in_channels) * layer.out_channels >= feature_split_weights;
            break;
        case LayerKind::flatten:
            step.out = {int(shape.size()), 1, 1};
            flat = true;
            break;
        case LayerKind::relu: step.out = shape; break;
        }
        shape = step.out;
        steps_.push_back(std::move(step));
    }
    if (!flat || shape.size() != std::size_t(workload_.classes)) fail("the last layer must give one output per class");

    const auto expected = parameter_shapes(workload_);
    if (params_.size() != expected.size())
        fail(fmt::format("{} parameter tensors given, {} expected", params_.size(), expected.size()));
    for (std::size_t p = 0; p < expected.size(); ++p)
        if (params_[p].shape != expected[p] || params_[p].size() != Tensor::element_count(expected[p]))
            fail(fmt::format("parameter {} has the wrong shape", p));

    // Activations: relu works in place (except on the batch itself), flatten is a view.
    const auto buffer = [&](std::size_t per_sample) {
        buffers_.emplace_back(std::size_t(batch_) * per_sample);
        return buffers_.back().data();
    };
    buffers_.reserve(2 * steps_.size());
    float* previous = nullptr;
    for (auto& step : steps_) {
        step.x = previous;
        const bool view =
            step.layer.kind == LayerKind::flatten || (step.layer.kind == LayerKind::relu && previous != nullptr);
        step.y = view ? previous : buffer(step.out.size());
        previous = step.y;
    }
    // Gradients, back to the first layer with parameters: nothing needs the gradient of the batch.
    std::vector<bool> parameters_before(steps_.size(), false);
    for (std::size_t i = 1; i < steps_.size(); ++i)
        parameters_before[i] = parameters_before[i - 1] || steps_[i - 1].weight >= 0;
    logits_grad_.resize(std::size_t(batch_) * workload_.classes);
    float* gradient = logits_grad_.data();
    for (std::size_t i = steps_.size(); i-- > 0;) {
        Step& step = steps_[i];
        step.backward = parameters_before[i] || step.weight >= 0;
        step.dy = gradient;
        const bool in_place = step.layer.kind == LayerKind::flatten || step.layer.kind == LayerKind::relu;
        step.dx = !parameters_before[i] ? nullptr : in_place ? gradient : buffer(step.in.size());
        gradient = step.dx;
    }

    // Barriers: a sample-split layer needs whole samples, a feature-split one the whole input; relu
    // and flatten work on whatever part their thread already has.
    enum class State { complete, samples, features } state = State::complete;
    for (auto& step : steps_) {
        const bool elementwise = step.layer.kind == LayerKind::relu || step.layer.kind == LayerKind::flatten;
        if (step.by_features) {
            step.forward_barrier = state != State::complete;
            state = State::features;
        } else if (!elementwise || state == State::complete) {
            step.forward_barrier = state == State::features;
            state = State::samples;
        }
        step.forward_split = state == State::features ? Split::features : Split::samples;
    }
    loss_barrier_ = state == State::features;
    state = State::samples;  // the loss gradient
    for (auto it = steps_.rbegin(); it != steps_.rend(); ++it) {
        if (!it->backward) continue;
        const bool elementwise = it->layer.kind == LayerKind::relu || it->layer.kind == LayerKind::flatten;
        if (it->by_features) {
            it->backward_barrier = true;
            state = State::features;  // the input gradient, by input features
        } else if (!elementwise) {
            it->backward_barrier = state == State::features;
            state = State::samples;
        }
        it->backward_split = state == State::features ? Split::features : Split::samples;
    }
    for (std::size_t i = 0; i + 1 < steps_.size(); ++i) {
        Step& relu = steps_[i];
        Step& pool = steps_[i + 1];
        if (relu.layer.kind == LayerKind::relu && relu.y == relu.x && relu.forward_split == Split::samples &&
            pool.layer.kind == LayerKind::max_pool2d)
            relu.relu_in_next_pool = pool.after_relu = true;
    }
    for (auto& step : steps_) {
        const bool local = step.layer.kind != LayerKind::linear;
        step.forward_per_sample = local && step.forward_split == Split::samples;
        step.backward_per_sample = local && step.backward && step.backward_split == Split::samples;
    }
}

void CpuTrainer::check(const Batch& batch) const {
    if (batch.size != batch_ || batch.channels != workload_.channels || batch.height != workload_.height ||
        batch.width != workload_.width ||
        batch.images.size() != std::size_t(batch_) * workload_.channels * workload_.height * workload_.width ||
        batch.labels.size() != std::size_t(batch_))
        throw std::invalid_argument(fmt::format("a batch of {} {}×{}×{} does not fit the trainer's {} {}×{}×{}",
                                                batch.size, batch.channels, batch.height, batch.width, batch_,
                                                workload_.channels, workload_.height, workload_.width));
    for (int label : batch.labels)
        if (label < 0 || label >= workload_.classes)
            throw std::invalid_argument(fmt::format("label {} outside 0..{}", label, workload_.classes - 1));
}

float CpuTrainer::run(const Batch& batch, bool update) {
    images_ = batch.images.data();
    labels_ = batch.labels.data();
    auto task = [&](int t) {
        forward(t);
        backward(t);
        pool_.barrier();
        reduce_and_update(t, update);
    };
    pool_.run(task);
    if (update) first_update_ = false;
    double loss = 0.0;
    for (const auto& l : losses_) loss += l.sum;
    return float(loss / batch_);
}

void CpuTrainer::forward(int t) {
    const Range mine = share(batch_, pool_.size(), t);
    for (std::size_t i = 0; i < steps_.size();) {
        if (steps_[i].forward_barrier) pool_.barrier();
        std::size_t end = i + 1;
        if (steps_[i].forward_per_sample)
            while (end < steps_.size() && steps_[end].forward_per_sample && !steps_[end].forward_barrier) ++end;
        if (end - i > 1) {
            for (int s = mine.begin; s < mine.end; ++s)
                for (std::size_t j = i; j < end; ++j) forward_step(steps_[j], t, {s, s + 1});
        } else {
            forward_step(steps_[i], t, mine);
        }
        i = end;
    }
    if (loss_barrier_) pool_.barrier();
    const int classes = workload_.classes;
    losses_[t].sum = cpu::cross_entropy(steps_.back().y + mine.begin * classes, labels_ + mine.begin, mine.size(),
                                        classes, 1.0f / float(batch_), logits_grad_.data() + mine.begin * classes);
}

/// One layer forward on `samples` (its features instead where it is split by features).
void CpuTrainer::forward_step(Step& step, int t, Range samples) {
    if (step.relu_in_next_pool) return;
    const int threads = pool_.size();
    const float* x = input_of(step);
    const int in = int(step.in.size()), out = int(step.out.size());
    const float* weight = step.weight >= 0 ? params_[step.weight].data.data() : nullptr;
    const float* bias = step.weight >= 0 ? params_[step.weight + 1].data.data() : nullptr;
    switch (step.layer.kind) {
    case LayerKind::conv2d:
        cpu::conv2d_forward(x + samples.begin * in, step.in, weight, bias, step.layer.out_channels, step.layer.kernel,
                            samples.size(), step.y + samples.begin * out);
        break;
    case LayerKind::max_pool2d:
        cpu::max_pool2d_forward(x + samples.begin * in, step.in, step.layer.kernel, samples.size(),
                                step.y + samples.begin * out, step.argmax.data() + samples.begin * out, step.after_relu);
        break;
    case LayerKind::relu:
        if (step.forward_split == Split::features) {
            const Range f = share(out, threads, t, feature_align);
            cpu::relu_forward(x + f.begin, step.y + f.begin, batch_, f.size(), out);
        } else {
            cpu::relu_forward(x + samples.begin * out, step.y + samples.begin * out, samples.size(), out, out);
        }
        break;
    case LayerKind::linear:
        if (step.by_features)
            cpu::linear_forward(x, batch_, in, weight, bias, out, step.y, share(out, threads, t, feature_align));
        else
            cpu::linear_forward(x + samples.begin * in, samples.size(), in, weight, bias, out,
                                step.y + samples.begin * out, {0, out});
        break;
    case LayerKind::flatten: break;
    }
}

void CpuTrainer::backward(int t) {
    const Range mine = share(batch_, pool_.size(), t);
    for (std::size_t i = steps_.size(); i-- > 0;) {
        if (!steps_[i].backward) continue;
        if (steps_[i].backward_barrier) pool_.barrier();
        std::size_t first = i;  // a run of per-sample steps: [first, i]
        if (steps_[i].backward_per_sample)
            while (first > 0 && steps_[first - 1].backward_per_sample && !steps_[first - 1].backward_barrier) --first;
        if (first < i && !mine.empty()) {
            for (int s = mine.begin; s < mine.end; ++s)
                for (std::size_t j = i + 1; j-- > first;) backward_step(steps_[j], t, {s, s + 1}, s > mine.begin);
        } else {
            for (std::size_t j = i + 1; j-- > first;) backward_step(steps_[j], t, mine, false);
        }
        i = first;
    }
}

/// One layer backward on `samples` (its features instead where it is split by features); weight
/// gradients are added to what earlier samples left when `accumulate`.
void CpuTrainer::backward_step(const Step& step, int t, Range samples, bool accumulate) {
    if (step.relu_in_next_pool) return;
    const int threads = pool_.size();
    const float* x = input_of(step);
    const int in = int(step.in.size()), out = int(step.out.size());
    const float* weight = step.weight >= 0 ? params_[step.weight].data.data() : nullptr;
    switch (step.layer.kind) {
    case LayerKind::conv2d:
        cpu::conv2d_backward(x + samples.begin * in, step.in, weight, step.layer.out_channels, step.layer.kernel,
                             samples.size(), step.dy + samples.begin * out, grad_buffer(t, step.weight),
                             grad_buffer(t, step.weight + 1), step.dx ? step.dx + samples.begin * in : nullptr,
                             accumulate);
        break;
    case LayerKind::max_pool2d:
        cpu::max_pool2d_backward(step.dy + samples.begin * out, step.argmax.data() + samples.begin * out, step.in,
                                 step.layer.kernel, samples.size(), step.dx + samples.begin * in,
                                 step.after_relu ? step.y + samples.begin * out : nullptr);
        break;
    case LayerKind::relu:
        if (step.backward_split == Split::features) {
            const Range f = share(out, threads, t, feature_align);
            cpu::relu_backward(step.y + f.begin, step.dy + f.begin, batch_, f.size(), out);
        } else {
            cpu::relu_backward(step.y + samples.begin * out, step.dy + samples.begin * out, samples.size(), out, out);
        }
        break;
    case LayerKind::linear:
        if (step.by_features) {
            cpu::linear_weight_grad(x, step.dy, batch_, in, out, grads_[step.weight].data.data(),
                                    grads_[step.weight + 1].data.data(), share(out, threads, t, feature_align));
            if (step.dx)
                cpu::linear_input_grad(step.dy, weight, batch_, in, out, step.dx, share(in, threads, t, feature_align));
        } else {
            cpu::linear_weight_grad(x + samples.begin * in, step.dy + samples.begin * out, samples.size(), in, out,
                                    grad_buffer(t, step.weight), grad_buffer(t, step.weight + 1), {0, out});
            if (step.dx)
                cpu::linear_input_grad(step.dy + samples.begin * out, weight, samples.size(), in, out,
                                       step.dx + samples.begin * in, {0, in});
        }
        break;
    case LayerKind::flatten: break;
    }
}

void CpuTrainer::reduce_and_update(int t, bool update) {
    const int threads = pool_.size();
    const float lr = sgd_.learning_rate, mu = sgd_.momentum;
    for (std::size_t p = 0; p < params_.size(); ++p) {
        const Range r = share(int(params_[p].size()), threads, t, feature_align);
        float* g = grads_[p].data.data();
        for (int u = 1; u < threads; ++u) {
            const auto& other = private_grads_[u][p];
            if (other.empty()) break;  // a feature-split layer: already whole
            for (int i = r.begin; i < r.end; ++i) g[i] += other[i];
        }
        if (!update) continue;
        // PyTorch's SGD: v ← g on the first step, then v ← μ·v + g; p ← p − lr·v.
        float* v = momentum_[p].data.data();
        float* w = params_[p].data.data();
        for (int i = r.begin; i < r.end; ++i) {
            v[i] = first_update_ ? g[i] : mu * v[i] + g[i];
            w[i] -= lr * v[i];
        }
    }
}

}  // namespace

std::unique_ptr<Trainer> make_cpu_trainer(const Workload& workload, std::vector<Tensor> parameters, int batch_size,
                                          int threads, Sgd sgd) {
    if (threads < 1) throw std::invalid_argument("threads must be at least 1");
    return std::make_unique<CpuTrainer>(workload, std::move(parameters), batch_size, threads, sgd);
}

std::string cpu_model_name() {
    std::ifstream cpuinfo("/proc/cpuinfo");
    std::string line;
    while (std::getline(cpuinfo, line)) {
        if (line.rfind("model name", 0) != 0) continue;
        const auto colon = line.find(':');
        if (colon == std::string::npos) continue;
        const auto first = line.find_first_not_of(" \t", colon + 1);
        if (first == std::string::npos) continue;
        return line.substr(first, line.find_last_not_of(" \t") + 1 - first);
    }
    return "unknown CPU";
}

}  // namespace payback::bench
