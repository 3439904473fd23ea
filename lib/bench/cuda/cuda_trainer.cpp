// The CUDA trainer: the schedule of step.hpp run with our kernels (ReLU, pooling, loss, the SGD update),
// cuBLAS (the linear layers) and, for each convolution, our kernels or cuDNN's, whichever was faster
// when the trainer was made (convolutions.hpp), on one stream of GPU 0. Every buffer is allocated
// in the constructor for the batch size; a step allocates nothing and, inside timed_steps(), does
// not synchronize with the host. Host code only (the kernels are in kernels.cu): the C++ compiler
// builds it against the CUDA runtime and cuBLAS headers.
#include "payback/bench/cuda_trainer.hpp"

#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include "check.cuh"
#include "convolutions.hpp"
#include "device_buffer.cuh"
#include "handles.cuh"
#include "kernels.cuh"
#include "plan.hpp"
#include "step.hpp"

namespace payback::bench {
namespace {

using gpu::Buffers;
using gpu::ConvShape;
using gpu::DeviceBuffer;
using gpu::Plan;
using gpu::PoolShape;

/// step.hpp's operations on the GPU: kernels on `stream`, cuBLAS on `blas` and the convolutions' cuDNN
/// (both bound to `stream`).
struct CudaOps {
    cudaStream_t stream;
    cublasHandle_t blas;
    gpu::Convolutions& convolutions;

    void conv2d_forward(const float* x, const float* w, const float* b, float* y, const ConvShape& s) {
        convolutions.forward(x, w, b, y, s);
    }
    void conv2d_backward_data(const float* dy, const float* w, float* dx, const ConvShape& s) {
        convolutions.backward_data(dy, w, dx, s);
    }
    void conv2d_backward_params(const float* x, const float* dy, float* dw, float* db, const ConvShape& s) {
        convolutions.backward_params(x, dy, dw, db, s);
    }
    void relu_forward(const float* x, float* y, int count) { gpu::relu_forward(x, y, count, stream); }
    void relu_backward(const float* y, const float* dy, float* dx, int count) {
        gpu::relu_backward(y, dy, dx, count, stream);
    }
    void max_pool_forward(const float* x, float* y, int* argmax, const PoolShape& s) {
        gpu::max_pool_forward(x, y, argmax, s, stream);
    }
    void max_pool_backward(const float* dy, const int* argmax, float* dx, const PoolShape& s) {
        gpu::max_pool_backward(dy, argmax, dx, s, stream);
    }
    /// gemm_mapping.hpp's column-major product: C = op(A)·op(B), alpha 1, beta 0 (C is overwritten).
    void gemm(const gpu::Gemm& g) {
        const float one = 1.0f, zero = 0.0f;
        PAYBACK_CUBLAS_CHECK(cublasSgemm(blas, g.transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N,
                                         g.transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N, g.m, g.n, g.k, &one, g.a, g.lda,
                                         g.b, g.ldb, &zero, g.c, g.ldc));
    }
    void add_bias(float* y, const float* b, int rows, int cols) { gpu::add_bias(y, b, rows, cols, stream); }
    void cross_entropy(const float* z, const int* labels, float* dz, float* loss, int rows, int classes) {
        gpu::cross_entropy(z, labels, dz, loss, rows, classes, stream);
    }
    void sgd(float* p, const float* g, float* v, long long count, float learning_rate, float momentum,
             bool first_step) {
        gpu::sgd_momentum(p, g, v, count, learning_rate, momentum, first_step, stream);
    }
};

/// cuBLAS's recommended workspace on Hopper (4 MiB suffices elsewhere); ours, so that cuBLAS does
/// not allocate one when first used inside a step.
constexpr std::size_t kBlasWorkspaceBytes = std::size_t{32} << 20;
/// Each parameter tensor starts on a 256-byte boundary of the flat buffers (cuBLAS likes aligned
/// matrices; the padding stays zero through every update: zero gradient, zero velocity).
constexpr std::size_t kAlignFloats = 64;

/// The check before anything touches the GPU: throws std::runtime_error with cuda_status()'s reason.
int select_device() {
    const CudaStatus status = cuda_status();
    if (!status.available) throw std::runtime_error("the CUDA trainer is unavailable: " + status.reason);
    PAYBACK_CUDA_CHECK(cudaSetDevice(0));
    return 0;
}

std::string shape_text(const std::vector<int>& shape) {
    std::string text = "[";
    for (std::size_t i = 0; i < shape.size(); ++i) text += (i ? ", " : "") + std::to_string(shape[i]);
    return text + "]";
}

class CudaTrainer final : public Trainer {
public:
    CudaTrainer(const Workload& workload, const std::vector<Tensor>& parameters, int batch_size, Sgd sgd)
        : device_(select_device()), plan_(gpu::make_plan(workload)), batch_(batch_size), sgd_(sgd) {
        gpu::check_batch_fits(plan_, batch_);
        check_parameters(parameters);
        cudaDeviceProp properties{};
        PAYBACK_CUDA_CHECK(cudaGetDeviceProperties(&properties, device_));
        device_name_ = properties.name;

        // cublasSetStream resets the workspace to cuBLAS's own pool, so the workspace comes after it.
        // Default math: full FP32 (no TF32), as PyTorch's matmul by default and the CPU trainer.
        blas_workspace_ = DeviceBuffer<unsigned char>(kBlasWorkspaceBytes);
        PAYBACK_CUBLAS_CHECK(cublasSetStream(blas_.get(), stream_.get()));
        PAYBACK_CUBLAS_CHECK(cublasSetWorkspace(blas_.get(), blas_workspace_.get(), blas_workspace_.bytes()));
        PAYBACK_CUBLAS_CHECK(cublasSetMathMode(blas_.get(), CUBLAS_DEFAULT_MATH));

        allocate();
        upload_parameters(parameters);
        choose_convolutions();
        warm_up(parameters);
    }

    ~CudaTrainer() override { cudaStreamSynchronize(stream_.get()); }  // before the buffers go

    std::string device_name() const override { return device_name_; }
    int batch_size() const override { return batch_; }

    float compute_gradients(const Batch& batch) override {
        upload_batch(batch);
        run_forward_backward(images_.get(), labels_.get());
        return download_loss();
    }

    float train_step(const Batch& batch) override {
        upload_batch(batch);
        run_forward_backward(images_.get(), labels_.get());
        run_update();
        return download_loss();  // written by the loss kernel, before the update
    }

    std::vector<Tensor> parameters() const override { return download(buffers_.parameter); }
    std::vector<Tensor> gradients() const override { return download(buffers_.gradient); }

    double timed_steps(const std::vector<Batch>& pool, int steps) override {
        if (steps <= 0) return 0.0;
        if (pool.empty()) throw std::invalid_argument("timed_steps: the pool of batches is empty");
        for (const Batch& batch : pool) check_batch(batch);

        // The pool goes to the GPU once, outside the timed region.
        const std::size_t image_floats = images_.size(), label_ints = labels_.size();
        DeviceBuffer<float> pool_images(image_floats * pool.size());
        DeviceBuffer<int> pool_labels(label_ints * pool.size());
        for (std::size_t k = 0; k < pool.size(); ++k) {
            PAYBACK_CUDA_CHECK(cudaMemcpyAsync(pool_images.get() + k * image_floats, pool[k].images.data(),
                                               image_floats * sizeof(float), cudaMemcpyHostToDevice, stream_.get()));
            PAYBACK_CUDA_CHECK(cudaMemcpyAsync(pool_labels.get() + k * label_ints, pool[k].labels.data(),
                                               label_ints * sizeof(int), cudaMemcpyHostToDevice, stream_.get()));
        }
        PAYBACK_CUDA_CHECK(cudaDeviceSynchronize());

        // Only launches between the events: the loss stays on the GPU, nothing waits for the host.
        PAYBACK_CUDA_CHECK(cudaEventRecord(start_.get(), stream_.get()));
        for (int step = 0; step < steps; ++step) {
            const std::size_t k = static_cast<std::size_t>(step) % pool.size();
            run_forward_backward(pool_images.get() + k * image_floats, pool_labels.get() + k * label_ints);
            run_update();
        }
        PAYBACK_CUDA_CHECK(cudaEventRecord(stop_.get(), stream_.get()));
        PAYBACK_CUDA_CHECK(cudaEventSynchronize(stop_.get()));
        PAYBACK_CUDA_CHECK(cudaDeviceSynchronize());  // surfaces any error of the steps themselves
        float milliseconds = 0.0f;
        PAYBACK_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start_.get(), stop_.get()));
        return static_cast<double>(milliseconds) / 1000.0;
    }

private:
    void check_parameters(const std::vector<Tensor>& parameters) const {
        if (parameters.size() != plan_.parameter_shapes.size())
            throw std::invalid_argument("CUDA trainer: " + std::to_string(parameters.size()) +
                                        " parameter tensors given, the workload has " +
                                        std::to_string(plan_.parameter_shapes.size()));
        for (std::size_t k = 0; k < parameters.size(); ++k) {
            const auto& expected = plan_.parameter_shapes[k];
            if (parameters[k].shape != expected || parameters[k].data.size() != Tensor::element_count(expected))
                throw std::invalid_argument("CUDA trainer: parameter " + std::to_string(k) + " has shape " +
                                            shape_text(parameters[k].shape) + " and " +
                                            std::to_string(parameters[k].data.size()) + " values, expected " +
                                            shape_text(expected));
        }
    }

    void check_batch(const Batch& batch) const {
        const std::size_t images = static_cast<std::size_t>(batch_) * plan_.input.size();
        if (batch.size != batch_ || batch.channels != plan_.input.channels || batch.height != plan_.input.height ||
            batch.width != plan_.input.width || batch.images.size() != images ||
            batch.labels.size() != static_cast<std::size_t>(batch_))
            throw std::invalid_argument("CUDA trainer: a batch of " + std::to_string(batch.size) + " × " +
                                        std::to_string(batch.channels) + "×" + std::to_string(batch.height) + "×" +
                                        std::to_string(batch.width) + " (" + std::to_string(batch.images.size()) +
                                        " values, " + std::to_string(batch.labels.size()) +
                                        " labels) where the trainer takes " + std::to_string(batch_) + " × " +
                                        std::to_string(plan_.input.channels) + "×" +
                                        std::to_string(plan_.input.height) + "×" + std::to_string(plan_.input.width));
        for (int label : batch.labels)
            if (label < 0 || label >= plan_.classes)
                throw std::invalid_argument("CUDA trainer: label " + std::to_string(label) + " outside 0.." +
                                            std::to_string(plan_.classes - 1));
    }

    /// Every buffer of a step, once.
    void allocate() {
        const cudaStream_t stream = stream_.get();
        std::size_t flat = 0;
        std::vector<std::size_t> offsets;
        for (const auto& shape : plan_.parameter_shapes) {
            offsets.push_back(flat);
            flat += (Tensor::element_count(shape) + kAlignFloats - 1) / kAlignFloats * kAlignFloats;
        }
        parameters_ = DeviceBuffer<float>(flat);
        gradients_ = DeviceBuffer<float>(flat);
        velocities_ = DeviceBuffer<float>(flat);
        parameters_.zero(stream);
        gradients_.zero(stream);
        velocities_.zero(stream);
        buffers_.parameters = parameters_.get();
        buffers_.gradients = gradients_.get();
        buffers_.velocities = velocities_.get();
        buffers_.flat_size = static_cast<long long>(flat);
        for (std::size_t offset : offsets) {
            buffers_.parameter.push_back(parameters_.get() + offset);
            buffers_.gradient.push_back(gradients_.get() + offset);
        }

        const std::size_t batch = static_cast<std::size_t>(batch_);
        for (const auto& lp : plan_.layers) {
            const bool owns = lp.layer.kind != LayerKind::flatten;
            const std::size_t count = owns ? batch * lp.out.size() : 0;
            outputs_.emplace_back(count);
            output_grads_.emplace_back(count);
            argmax_.emplace_back(lp.layer.kind == LayerKind::max_pool2d ? count : 0);
            buffers_.output.push_back(outputs_.back().get());
            buffers_.output_grad.push_back(output_grads_.back().get());
            buffers_.argmax.push_back(argmax_.back().get());
        }

        images_ = DeviceBuffer<float>(batch * plan_.input.size());
        labels_ = DeviceBuffer<int>(batch);
        images_.zero(stream);
        labels_.zero(stream);
        ones_ = DeviceBuffer<float>(batch);
        gpu::fill(ones_.get(), 1.0f, static_cast<long long>(batch), stream);
        loss_ = DeviceBuffer<float>(1);
        loss_.zero(stream);
        buffers_.ones = ones_.get();
        buffers_.loss = loss_.get();
    }

    /// Times our kernels against cuDNN's for each convolution layer, on its own buffers (whatever they
    /// hold: warm_up resets what matters afterwards).
    void choose_convolutions() {
        for (std::size_t i = 0; i < plan_.layers.size(); ++i) {
            const gpu::LayerPlan& lp = plan_.layers[i];
            if (lp.layer.kind != LayerKind::conv2d) continue;
            float* in_grad = lp.input_from < 0 ? nullptr : buffers_.output_grad[static_cast<std::size_t>(lp.input_from)];
            convolutions_.choose(gpu::conv_shape(lp, batch_),
                                 {gpu::layer_input(buffers_, lp, images_.get()), buffers_.parameter[lp.weight],
                                  buffers_.parameter[lp.bias], buffers_.output[i], buffers_.output_grad[i], in_grad,
                                  buffers_.gradient[lp.weight], buffers_.gradient[lp.bias]});
        }
        PAYBACK_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    }

    void upload_parameters(const std::vector<Tensor>& parameters) {
        for (std::size_t k = 0; k < parameters.size(); ++k)
            PAYBACK_CUDA_CHECK(cudaMemcpyAsync(buffers_.parameter[k], parameters[k].data.data(),
                                               parameters[k].data.size() * sizeof(float), cudaMemcpyHostToDevice,
                                               stream_.get()));
    }

    /// One whole step on the zero batch, so that the first timed step pays for no lazy module
    /// loading or cuBLAS kernel choice, and a GPU this build cannot serve fails here, clearly. Then the
    /// parameters go back to the given ones and the gradients and momentum to zero.
    void warm_up(const std::vector<Tensor>& parameters) {
        run_forward_backward(images_.get(), labels_.get());
        run_update();
        upload_parameters(parameters);
        gradients_.zero(stream_.get());
        velocities_.zero(stream_.get());
        loss_.zero(stream_.get());
        first_step_ = true;
        PAYBACK_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
    }

    void upload_batch(const Batch& batch) {
        check_batch(batch);
        PAYBACK_CUDA_CHECK(cudaMemcpyAsync(images_.get(), batch.images.data(), images_.bytes(), cudaMemcpyHostToDevice,
                                           stream_.get()));
        PAYBACK_CUDA_CHECK(cudaMemcpyAsync(labels_.get(), batch.labels.data(), labels_.bytes(), cudaMemcpyHostToDevice,
                                           stream_.get()));
    }

    void run_forward_backward(const float* images, const int* labels) {
        CudaOps ops{stream_.get(), blas_.get(), convolutions_};
        gpu::forward(plan_, buffers_, ops, images, batch_);
        gpu::loss(plan_, buffers_, ops, labels, batch_);
        gpu::backward(plan_, buffers_, ops, images, batch_);
    }

    void run_update() {
        CudaOps ops{stream_.get(), blas_.get(), convolutions_};
        gpu::update(buffers_, ops, sgd_, first_step_);
        first_step_ = false;
    }

    float download_loss() {
        float loss = 0.0f;
        PAYBACK_CUDA_CHECK(cudaMemcpyAsync(&loss, loss_.get(), sizeof(float), cudaMemcpyDeviceToHost, stream_.get()));
        PAYBACK_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
        return loss;
    }

    std::vector<Tensor> download(const std::vector<float*>& views) const {
        std::vector<Tensor> tensors;
        for (std::size_t k = 0; k < views.size(); ++k) {
            Tensor t(plan_.parameter_shapes[k]);
            PAYBACK_CUDA_CHECK(cudaMemcpyAsync(t.data.data(), views[k], t.data.size() * sizeof(float),
                                               cudaMemcpyDeviceToHost, stream_.get()));
            tensors.push_back(std::move(t));
        }
        PAYBACK_CUDA_CHECK(cudaStreamSynchronize(stream_.get()));
        return tensors;
    }

    // Declaration order is construction order, destruction the reverse: the device is chosen before
    // any CUDA object exists; the cuBLAS handle and cuDNN's go before their workspaces, the stream goes last.
    int device_;
    Plan plan_;
    int batch_;
    Sgd sgd_;
    std::string device_name_;
    bool first_step_ = true;  ///< the next update starts the momentum (v = g)
    gpu::Stream stream_;
    DeviceBuffer<unsigned char> blas_workspace_;
    gpu::BlasHandle blas_;
    gpu::Convolutions convolutions_{stream_.get()};
    gpu::Event start_, stop_;
    DeviceBuffer<float> parameters_, gradients_, velocities_;
    std::vector<DeviceBuffer<float>> outputs_, output_grads_;
    std::vector<DeviceBuffer<int>> argmax_;
    DeviceBuffer<float> images_, ones_, loss_;
    DeviceBuffer<int> labels_;
    Buffers buffers_;
};

}  // namespace

// By value: the signature is cuda_trainer.hpp's, which module.cpp calls with the parameters moved in.
std::unique_ptr<Trainer> make_cuda_trainer(const Workload& workload, std::vector<Tensor> parameters,  // NOLINT(performance-unnecessary-value-param)
                                           int batch_size, Sgd sgd) {
    return std::make_unique<CudaTrainer>(workload, parameters, batch_size, sgd);
}

}  // namespace payback::bench
