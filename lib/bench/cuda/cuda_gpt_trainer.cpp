// gpt-small's CUDA trainer: gpt_step.hpp's schedule run with gpt_kernels.cu and cuBLASLt on one stream
// of GPU 0. Every matrix product goes to cublasLtMatmul (lt_matmul.hpp) with FP32 accumulation and FP32
// output: FP32 ones with FP32 operands (full FP32, no TF32, as the CPU trainer and PyTorch's default);
// BF16 and FP16 ones round both operands into scratch copies first and run on tensor cores, so that
// everything outside the products (LayerNorm, softmax, the loss, the optimizer, the master weights)
// stays FP32. FP16 adds dynamic loss scaling (loss_scaler.hpp): each step reads back whether its
// gradients are finite. Every buffer is allocated in the constructor; FP32 and BF16 timed steps do not
// synchronize with the host. Host code only.
#include "payback/bench/cuda_gpt_trainer.hpp"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime.h>
#include <fmt/format.h>

#include "check.cuh"
#include "device_buffer.cuh"
#include "gpt_kernels.cuh"
#include "gpt_step.hpp"
#include "handles.cuh"
#include "kernels.cuh"
#include "lt_matmul.hpp"
#include "payback/bench/cuda_trainer.hpp"

namespace payback::bench {
namespace {

using gpu::DeviceBuffer;

/// gpt_step.hpp's operations on the GPU.
struct CudaGptOps {
    cudaStream_t stream;
    gpu::LtMatmul* matmul;
    GptPrecision precision;
    std::uint16_t* scratch_a;  // BF16 or FP16 copies of cuBLAS's A' and B' (not fp32)
    std::uint16_t* scratch_b;
    int* nonfinite;  // one int of device memory (fp16's finite check)

    void gemm(const gpu::GptGemm& g) {
        const gpu::Gemm& m = g.gemm;
        if (precision == GptPrecision::fp32) return matmul->run(g, CUDA_R_32F, m.a, m.b, stream);
        const bool bf16 = precision == GptPrecision::bf16;
        const auto to_copy = bf16 ? gpu::gpt_to_bf16 : gpu::gpt_to_fp16;
        to_copy(m.a, scratch_a, gpu::span(gpu::layout_of_a(g)), stream);
        to_copy(m.b, scratch_b, gpu::span(gpu::layout_of_b(g)), stream);
        matmul->run(g, bf16 ? CUDA_R_16BF : CUDA_R_16F, scratch_a, scratch_b, stream);
    }
    void embedding(const int* tokens, const float* wte, const float* wpe, float* x, int count, int sequence, int d) {
        gpu::gpt_embedding(tokens, wte, wpe, x, count, sequence, d, stream);
    }
    void embedding_backward(const float* dx, const int* tokens, float* dwte, float* dwpe, int count, int sequence,
                            int d) {
        gpu::gpt_embedding_backward(dx, tokens, dwte, dwpe, count, sequence, d, stream);
    }
    void layer_norm_forward(const float* x, const float* gamma, const float* beta, float* y, float* mean, float* rstd,
                            int rows, int d) {
        gpu::gpt_layer_norm_forward(x, gamma, beta, y, mean, rstd, rows, d, stream);
    }
    void layer_norm_backward(const float* dy, const float* x, const float* mean, const float* rstd, const float* gamma,
                             float* dx, int rows, int d, bool accumulate) {
        gpu::gpt_layer_norm_backward(dy, x, mean, rstd, gamma, dx, rows, d, accumulate, stream);
    }
    void layer_norm_param_grads(const float* dy, const float* x, const float* mean, const float* rstd, float* dgamma,
                                float* dbeta, int rows, int d) {
        gpu::gpt_layer_norm_param_grads(dy, x, mean, rstd, dgamma, dbeta, rows, d, stream);
    }
    void add_bias(float* y, const float* bias, int rows, int cols) { gpu::add_bias(y, bias, rows, cols, stream); }
    void add(float* y, const float* x, int count) { gpu::gpt_add(y, x, count, stream); }
    void copy(float* y, const float* x, int count) {
        PAYBACK_CUDA_CHECK(cudaMemcpyAsync(y, x, std::size_t(count) * sizeof(float), cudaMemcpyDeviceToDevice, stream));
    }
    void gelu_forward(const float* x, float* y, int count) { gpu::gpt_gelu_forward(x, y, count, stream); }
    void gelu_backward(const float* x, const float* dy, float* dx, int count) {
        gpu::gpt_gelu_backward(x, dy, dx, count, stream);
    }
    void rows_to_heads(const float* rows, float* heads, const gpu::HeadShape& s, int parts) {
        gpu::gpt_rows_to_heads(rows, heads, s, parts, stream);
    }
    void heads_to_rows(const float* heads, float* rows, const gpu::HeadShape& s, int parts) {
        gpu::gpt_heads_to_rows(heads, rows, s, parts, stream);
    }
    void causal_softmax(float* scores, int rows, int sequence) { gpu::gpt_causal_softmax(scores, rows, sequence, stream); }
    void causal_softmax_backward(const float* probs, float* dprobs, int rows, int sequence) {
        gpu::gpt_causal_softmax_backward(probs, dprobs, rows, sequence, stream);
    }
    void cross_entropy(float* logits, const int* targets, float* row_loss, float* loss, int rows, int vocab,
                       float gradient_scale) {
        gpu::gpt_cross_entropy(logits, targets, row_loss, loss, rows, vocab, gradient_scale, stream);
    }
    void scale(float* x, long long count, float factor) { gpu::gpt_scale(x, count, factor, stream); }
    /// Synchronizes with the host, which decides whether to skip the step.
    bool all_finite(const float* x, long long count) {
        gpu::gpt_flag_nonfinite(x, count, nonfinite, stream);
        int flag = 0;
        PAYBACK_CUDA_CHECK(cudaMemcpyAsync(&flag, nonfinite, sizeof flag, cudaMemcpyDeviceToHost, stream));
        PAYBACK_CUDA_CHECK(cudaStreamSynchronize(stream));
        return flag == 0;
    }
    void sgd(float* p, const float* g, float* v, long long count, float lr, float momentum, bool first) {
        gpu::sgd_momentum(p, g, v, count, lr, momentum, first, stream);
    }
};

constexpr std::size_t kMatmulWorkspaceBytes = std::size_t{32} << 20;  // as cuda_trainer.cpp's cuBLAS workspace

class CudaGptTrainer final : public GptTrainer {
public:
    CudaGptTrainer(const GptConfig& config, const std::vector<Tensor>& parameters, int batch_size,
                   GptPrecision precision, Sgd sgd)
        : config_(config), batch_(batch_size), sgd_(sgd), precision_(precision) {
        validate_gpt_config(config);
        const CudaStatus status = cuda_status();
        if (!status.available) throw std::runtime_error("the CUDA trainer is unavailable: " + status.reason);
        PAYBACK_CUDA_CHECK(cudaSetDevice(0));
        device_name_ = status.device_name;
        const auto shapes = gpt_parameter_shapes(config);
        if (parameters.size() != shapes.size())
            throw std::invalid_argument(
                fmt::format("gpt: {} parameter tensors given, {} expected", parameters.size(), shapes.size()));
        for (std::size_t p = 0; p < shapes.size(); ++p)
            if (parameters[p].shape != shapes[p] || parameters[p].size() != Tensor::element_count(shapes[p]))
                throw std::invalid_argument(fmt::format("gpt: parameter {} has the wrong shape", p));
        layout_ = gpu::gpt_layout(config);

        stream_ = std::make_unique<gpu::Stream>();
        start_ = std::make_unique<gpu::Event>();
        stop_ = std::make_unique<gpu::Event>();
        matmul_workspace_ = DeviceBuffer<unsigned char>(kMatmulWorkspaceBytes);
        matmul_ = std::make_unique<gpu::LtMatmul>(matmul_workspace_.get(), matmul_workspace_.bytes());

        const cudaStream_t stream = stream_->get();
        buffers_ = gpu::make_gpt_buffers(
            config, batch_size, layout_,
            [&](std::size_t n) {
                DeviceBuffer<float>& buffer = floats_.emplace_back(n);
                buffer.zero(stream);
                return buffer.get();
            },
            [&](std::size_t n) {
                DeviceBuffer<int>& buffer = ints_.emplace_back(n);
                buffer.zero(stream);
                return buffer.get();
            });
        gpu::fill(buffers_.ones, 1.0f, static_cast<long long>(tokens()), stream);
        if (precision_ != GptPrecision::fp32) {
            scratch_a_ = DeviceBuffer<std::uint16_t>(gpu::gpt_largest_operand(config, batch_size));
            scratch_b_ = DeviceBuffer<std::uint16_t>(gpu::gpt_largest_operand(config, batch_size));
        }
        if (precision_ == GptPrecision::fp16) nonfinite_ = DeviceBuffer<int>(1);
        upload_parameters(parameters);
        // One step on the zero batch: lazy module loading and cuBLASLt's kernel choice happen here, not in
        // the first timed step; then the parameters and the momentum go back.
        run_step(true);
        upload_parameters(parameters);
        floats_zero(buffers_.velocities, buffers_.flat_size);
        first_update_ = true;
        scaler_ = {};
        PAYBACK_CUDA_CHECK(cudaStreamSynchronize(stream));
    }

    ~CudaGptTrainer() override {
        if (stream_) cudaStreamSynchronize(stream_->get());
    }

    std::string device_name() const override { return device_name_; }

    float train_step(const TokenBatch& batch, bool update) override {
        check(batch);
        const cudaStream_t stream = stream_->get();
        PAYBACK_CUDA_CHECK(cudaMemcpyAsync(buffers_.tokens, batch.tokens.data(), tokens() * sizeof(int),
                                           cudaMemcpyHostToDevice, stream));
        PAYBACK_CUDA_CHECK(cudaMemcpyAsync(buffers_.targets, batch.targets.data(), tokens() * sizeof(int),
                                           cudaMemcpyHostToDevice, stream));
        run_step(update);
        float loss = 0.0f;
        PAYBACK_CUDA_CHECK(cudaMemcpyAsync(&loss, buffers_.loss, sizeof loss, cudaMemcpyDeviceToHost, stream));
        PAYBACK_CUDA_CHECK(cudaStreamSynchronize(stream));
        return loss;
    }

    std::vector<Tensor> parameters() const override { return download(buffers_.parameter); }
    std::vector<Tensor> gradients() const override { return download(buffers_.gradient); }

    double timed_steps(const std::vector<TokenBatch>& pool, int steps) override {
        if (pool.empty()) throw std::invalid_argument("timed_steps: empty batch pool");
        for (const TokenBatch& batch : pool) check(batch);
        const cudaStream_t stream = stream_->get();
        // The pool goes to the GPU once, outside the timed region.
        const std::size_t n = tokens();
        DeviceBuffer<int> pool_tokens(n * pool.size()), pool_targets(n * pool.size());
        for (std::size_t k = 0; k < pool.size(); ++k) {
            PAYBACK_CUDA_CHECK(cudaMemcpyAsync(pool_tokens.get() + k * n, pool[k].tokens.data(), n * sizeof(int),
                                               cudaMemcpyHostToDevice, stream));
            PAYBACK_CUDA_CHECK(cudaMemcpyAsync(pool_targets.get() + k * n, pool[k].targets.data(), n * sizeof(int),
                                               cudaMemcpyHostToDevice, stream));
        }
        PAYBACK_CUDA_CHECK(cudaStreamSynchronize(stream));
        int* const own_tokens = buffers_.tokens;
        int* const own_targets = buffers_.targets;
        PAYBACK_CUDA_CHECK(cudaEventRecord(start_->get(), stream));
        for (int step = 0; step < steps; ++step) {
            const std::size_t k = static_cast<std::size_t>(step) % pool.size();
            buffers_.tokens = pool_tokens.get() + k * n;
            buffers_.targets = pool_targets.get() + k * n;
            run_step(true);
        }
        PAYBACK_CUDA_CHECK(cudaEventRecord(stop_->get(), stream));
        buffers_.tokens = own_tokens;
        buffers_.targets = own_targets;
        PAYBACK_CUDA_CHECK(cudaEventSynchronize(stop_->get()));
        PAYBACK_CUDA_CHECK(cudaStreamSynchronize(stream));  // surfaces any error of the steps themselves
        float milliseconds = 0.0f;
        PAYBACK_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start_->get(), stop_->get()));
        return static_cast<double>(milliseconds) / 1000.0;
    }

private:
    std::size_t tokens() const { return std::size_t(batch_) * config_.sequence; }

    void check(const TokenBatch& batch) const { check_token_batch(config_, batch_, batch); }

    void run_step(bool update) {
        CudaGptOps ops{stream_->get(), matmul_.get(), precision_, scratch_a_.get(), scratch_b_.get(), nonfinite_.get()};
        const bool scaled = precision_ == GptPrecision::fp16;
        gpu::gpt_forward(config_, buffers_, ops, batch_);
        gpu::gpt_loss(config_, buffers_, ops, batch_, scaled ? scaler_.scale : 1.0f);
        gpu::gpt_backward(config_, buffers_, ops, batch_);
        if (!update) return;
        if (!scaled) gpu::gpt_update(buffers_, ops, sgd_, first_update_);
        else if (!gpu::gpt_update_scaled(buffers_, ops, sgd_, first_update_, scaler_)) return;  // skipped
        first_update_ = false;
    }

    void upload_parameters(const std::vector<Tensor>& parameters) {
        for (std::size_t p = 0; p < parameters.size(); ++p)
            PAYBACK_CUDA_CHECK(cudaMemcpyAsync(buffers_.parameter[p], parameters[p].data.data(),
                                               parameters[p].size() * sizeof(float), cudaMemcpyHostToDevice,
                                               stream_->get()));
    }

    void floats_zero(float* data, long long count) {
        PAYBACK_CUDA_CHECK(cudaMemsetAsync(data, 0, std::size_t(count) * sizeof(float), stream_->get()));
    }

    std::vector<Tensor> download(const std::vector<float*>& views) const {
        PAYBACK_CUDA_CHECK(cudaStreamSynchronize(stream_->get()));
        std::vector<Tensor> out;
        const auto shapes = gpt_parameter_shapes(config_);
        for (std::size_t p = 0; p < shapes.size(); ++p) {
            Tensor t(shapes[p]);
            PAYBACK_CUDA_CHECK(cudaMemcpy(t.data.data(), views[p], t.size() * sizeof(float), cudaMemcpyDeviceToHost));
            out.push_back(std::move(t));
        }
        return out;
    }

    GptConfig config_;
    int batch_;
    Sgd sgd_;
    GptPrecision precision_;
    bool first_update_ = true;
    gpu::LossScaler scaler_;  // fp16 only
    std::string device_name_;
    gpu::GptLayout layout_;
    // Declared before the buffers, destroyed after them: the destructor synchronizes the stream first.
    std::unique_ptr<gpu::Stream> stream_;
    std::unique_ptr<gpu::Event> start_, stop_;
    DeviceBuffer<unsigned char> matmul_workspace_;
    std::unique_ptr<gpu::LtMatmul> matmul_;  // after its workspace: destroyed before it
    std::vector<DeviceBuffer<float>> floats_;
    std::vector<DeviceBuffer<int>> ints_;
    DeviceBuffer<std::uint16_t> scratch_a_, scratch_b_;
    DeviceBuffer<int> nonfinite_;
    gpu::GptBuffers buffers_;
};

}  // namespace

std::unique_ptr<GptTrainer> make_cuda_gpt_trainer(const GptConfig& config, const std::vector<Tensor>& parameters,
                                                  int batch_size, GptPrecision precision, Sgd sgd) {
    return std::make_unique<CudaGptTrainer>(config, parameters, batch_size, precision, sgd);
}

}  // namespace payback::bench
