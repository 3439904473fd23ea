#include "convolutions.hpp"

#include <memory>
#include <string>
#include <vector>

#if PAYBACK_HAVE_CUDNN
#include <cudnn.h>
#endif

#include "check.cuh"
#include "device_buffer.cuh"
#include "handles.cuh"
#include "kernels.cuh"

namespace payback::bench::gpu {
namespace {

#if PAYBACK_HAVE_CUDNN

bool same_shape(const ConvShape& a, const ConvShape& b) {
    return a.batch == b.batch && a.in_channels == b.in_channels && a.in_height == b.in_height &&
           a.in_width == b.in_width && a.out_channels == b.out_channels && a.kernel == b.kernel &&
           a.out_height == b.out_height && a.out_width == b.out_width;
}

void check_cudnn(cudnnStatus_t status, const char* call, const char* file, int line) {
    if (status == CUDNN_STATUS_SUCCESS) return;
    char detail[512] = "";
    cudnnGetLastErrorString(detail, sizeof detail);
    throw_cuda_error("cuDNN", call, cudnnGetErrorString(status), detail, file, line);
}
#define PAYBACK_CUDNN_CHECK(call) check_cudnn((call), #call, __FILE__, __LINE__)

/// The workspace cuDNN's algorithms may use, allocated once (a step allocates nothing); algorithms that
/// need more are not considered.
constexpr std::size_t kWorkspaceBytes = std::size_t{64} << 20;
/// Timed runs of each candidate, after one untimed run.
constexpr int kTimedRuns = 5;

/// One shape's cuDNN descriptors: NCHW float32 tensors, a valid (unpadded) stride-1 cross-correlation,
/// as kernels.cu computes; FMA math, so no TF32 on Ampere and later (the CPU trainer's FP32 numerics).
class Descriptors {
public:
    explicit Descriptors(const ConvShape& s) {
        PAYBACK_CUDNN_CHECK(cudnnCreateTensorDescriptor(&x));
        PAYBACK_CUDNN_CHECK(cudnnCreateTensorDescriptor(&y));
        PAYBACK_CUDNN_CHECK(cudnnCreateTensorDescriptor(&bias));
        PAYBACK_CUDNN_CHECK(cudnnCreateFilterDescriptor(&w));
        PAYBACK_CUDNN_CHECK(cudnnCreateConvolutionDescriptor(&conv));
        PAYBACK_CUDNN_CHECK(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, s.batch, s.in_channels,
                                                       s.in_height, s.in_width));
        PAYBACK_CUDNN_CHECK(cudnnSetTensor4dDescriptor(y, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, s.batch, s.out_channels,
                                                       s.out_height, s.out_width));
        PAYBACK_CUDNN_CHECK(cudnnSetTensor4dDescriptor(bias, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, s.out_channels, 1, 1));
        PAYBACK_CUDNN_CHECK(cudnnSetFilter4dDescriptor(w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, s.out_channels,
                                                       s.in_channels, s.kernel, s.kernel));
        PAYBACK_CUDNN_CHECK(
            cudnnSetConvolution2dDescriptor(conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
        PAYBACK_CUDNN_CHECK(cudnnSetConvolutionMathType(conv, CUDNN_FMA_MATH));
    }
    ~Descriptors() {
        cudnnDestroyConvolutionDescriptor(conv);
        cudnnDestroyFilterDescriptor(w);
        cudnnDestroyTensorDescriptor(bias);
        cudnnDestroyTensorDescriptor(y);
        cudnnDestroyTensorDescriptor(x);
    }
    Descriptors(const Descriptors&) = delete;
    Descriptors& operator=(const Descriptors&) = delete;

    cudnnTensorDescriptor_t x = nullptr, y = nullptr, bias = nullptr;
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
};

/// The fastest deterministic algorithm cuDNN found within the workspace (its results come sorted by
/// time), or false. Deterministic, so that two runs of the benchmark train identically, as ours do.
template <class Perf, class Algo>
bool fastest(const std::vector<Perf>& results, int returned, Algo& algo) {
    for (int i = 0; i < returned; ++i)
        if (results[i].status == CUDNN_STATUS_SUCCESS && results[i].determinism == CUDNN_DETERMINISTIC &&
            results[i].memory <= kWorkspaceBytes) {
            algo = results[i].algo;
            return true;
        }
    return false;
}

#endif

}  // namespace

#if PAYBACK_HAVE_CUDNN

struct Convolutions::Impl {
    /// One shape and what runs each of its products.
    struct Entry {
        ConvShape shape;
        std::unique_ptr<Descriptors> d;
        bool cudnn_forward = false, cudnn_data = false, cudnn_params = false;
        cudnnConvolutionFwdAlgo_t forward_algo{};
        cudnnConvolutionBwdDataAlgo_t data_algo{};
        cudnnConvolutionBwdFilterAlgo_t filter_algo{};
    };

    explicit Impl(cudaStream_t s) : stream(s), workspace(kWorkspaceBytes) {
        PAYBACK_CUDNN_CHECK(cudnnCreate(&handle));
        PAYBACK_CUDNN_CHECK(cudnnSetStream(handle, stream));
    }
    ~Impl() { cudnnDestroy(handle); }
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    const Entry* find(const ConvShape& s) const {
        for (const Entry& e : entries)
            if (same_shape(e.shape, s)) return &e;
        return nullptr;
    }

    /// Milliseconds per run of `run` on the stream, over kTimedRuns after one untimed run.
    template <class Run>
    float time(Run run) {
        run();
        PAYBACK_CUDA_CHECK(cudaEventRecord(start.get(), stream));
        for (int i = 0; i < kTimedRuns; ++i) run();
        PAYBACK_CUDA_CHECK(cudaEventRecord(stop.get(), stream));
        PAYBACK_CUDA_CHECK(cudaEventSynchronize(stop.get()));
        float milliseconds = 0.0f;
        PAYBACK_CUDA_CHECK(cudaEventElapsedTime(&milliseconds, start.get(), stop.get()));
        return milliseconds / kTimedRuns;
    }

    void cudnn_forward(const Entry& e, const float* x, const float* w, const float* b, float* y) {
        const float one = 1.0f, zero = 0.0f;
        PAYBACK_CUDNN_CHECK(cudnnConvolutionForward(handle, &one, e.d->x, x, e.d->w, w, e.d->conv, e.forward_algo,
                                                    workspace.get(), workspace.bytes(), &zero, e.d->y, y));
        PAYBACK_CUDNN_CHECK(cudnnAddTensor(handle, &one, e.d->bias, b, &one, e.d->y, y));
    }
    void cudnn_backward_data(const Entry& e, const float* dy, const float* w, float* dx) {
        const float one = 1.0f, zero = 0.0f;
        PAYBACK_CUDNN_CHECK(cudnnConvolutionBackwardData(handle, &one, e.d->w, w, e.d->y, dy, e.d->conv, e.data_algo,
                                                         workspace.get(), workspace.bytes(), &zero, e.d->x, dx));
    }
    void cudnn_backward_params(const Entry& e, const float* x, const float* dy, float* dw, float* db) {
        const float one = 1.0f, zero = 0.0f;
        PAYBACK_CUDNN_CHECK(cudnnConvolutionBackwardFilter(handle, &one, e.d->x, x, e.d->y, dy, e.d->conv,
                                                           e.filter_algo, workspace.get(), workspace.bytes(), &zero,
                                                           e.d->w, dw));
        PAYBACK_CUDNN_CHECK(cudnnConvolutionBackwardBias(handle, &one, e.d->y, dy, &zero, e.d->bias, db));
    }

    void choose(const ConvShape& s, const ConvBuffers& b) {
        Entry e{s, std::make_unique<Descriptors>(s)};
        const Descriptors& d = *e.d;
        int count = 0, returned = 0;

        PAYBACK_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithmMaxCount(handle, &count));
        std::vector<cudnnConvolutionFwdAlgoPerf_t> forward(static_cast<std::size_t>(count));
        PAYBACK_CUDNN_CHECK(cudnnFindConvolutionForwardAlgorithmEx(handle, d.x, b.x, d.w, b.w, d.conv, d.y, b.y, count,
                                                                   &returned, forward.data(), workspace.get(),
                                                                   workspace.bytes()));
        if (fastest(forward, returned, e.forward_algo)) {
            const float ours = time([&] { conv2d_forward(b.x, b.w, b.b, b.y, s, stream); });
            e.cudnn_forward = time([&] { cudnn_forward(e, b.x, b.w, b.b, b.y); }) < ours;
        }

        if (b.dx != nullptr) {
            PAYBACK_CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(handle, &count));
            std::vector<cudnnConvolutionBwdDataAlgoPerf_t> data(static_cast<std::size_t>(count));
            PAYBACK_CUDNN_CHECK(cudnnFindConvolutionBackwardDataAlgorithmEx(handle, d.w, b.w, d.y, b.dy, d.conv, d.x,
                                                                            b.dx, count, &returned, data.data(),
                                                                            workspace.get(), workspace.bytes()));
            if (fastest(data, returned, e.data_algo)) {
                const float ours = time([&] { conv2d_backward_data(b.dy, b.w, b.dx, s, stream); });
                e.cudnn_data = time([&] { cudnn_backward_data(e, b.dy, b.w, b.dx); }) < ours;
            }
        }

        PAYBACK_CUDNN_CHECK(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(handle, &count));
        std::vector<cudnnConvolutionBwdFilterAlgoPerf_t> filter(static_cast<std::size_t>(count));
        PAYBACK_CUDNN_CHECK(cudnnFindConvolutionBackwardFilterAlgorithmEx(handle, d.x, b.x, d.y, b.dy, d.conv, d.w,
                                                                          b.dw, count, &returned, filter.data(),
                                                                          workspace.get(), workspace.bytes()));
        if (fastest(filter, returned, e.filter_algo)) {
            const float ours = time([&] { conv2d_backward_params(b.x, b.dy, b.dw, b.db, s, stream); });
            e.cudnn_params = time([&] { cudnn_backward_params(e, b.x, b.dy, b.dw, b.db); }) < ours;
        }
        entries.push_back(std::move(e));
    }

    cudaStream_t stream;
    cudnnHandle_t handle = nullptr;
    DeviceBuffer<unsigned char> workspace;
    Event start, stop;
    std::vector<Entry> entries;
};

Convolutions::Convolutions(cudaStream_t stream) : impl_(std::make_unique<Impl>(stream)) {}
Convolutions::~Convolutions() = default;

void Convolutions::choose(const ConvShape& s, const ConvBuffers& buffers) {
    if (impl_->find(s) == nullptr) impl_->choose(s, buffers);
}

void Convolutions::forward(const float* x, const float* w, const float* b, float* y, const ConvShape& s) {
    const Impl::Entry* e = impl_->find(s);
    if (e != nullptr && e->cudnn_forward) impl_->cudnn_forward(*e, x, w, b, y);
    else conv2d_forward(x, w, b, y, s, impl_->stream);
}

void Convolutions::backward_data(const float* dy, const float* w, float* dx, const ConvShape& s) {
    const Impl::Entry* e = impl_->find(s);
    if (e != nullptr && e->cudnn_data) impl_->cudnn_backward_data(*e, dy, w, dx);
    else conv2d_backward_data(dy, w, dx, s, impl_->stream);
}

void Convolutions::backward_params(const float* x, const float* dy, float* dw, float* db, const ConvShape& s) {
    const Impl::Entry* e = impl_->find(s);
    if (e != nullptr && e->cudnn_params) impl_->cudnn_backward_params(*e, x, dy, dw, db);
    else conv2d_backward_params(x, dy, dw, db, s, impl_->stream);
}

#else  // built without cuDNN: our kernels only

struct Convolutions::Impl {
    cudaStream_t stream;
};

Convolutions::Convolutions(cudaStream_t stream) : impl_(std::make_unique<Impl>(Impl{stream})) {}
Convolutions::~Convolutions() = default;
void Convolutions::choose(const ConvShape&, const ConvBuffers&) {}
void Convolutions::forward(const float* x, const float* w, const float* b, float* y, const ConvShape& s) {
    conv2d_forward(x, w, b, y, s, impl_->stream);
}
void Convolutions::backward_data(const float* dy, const float* w, float* dx, const ConvShape& s) {
    conv2d_backward_data(dy, w, dx, s, impl_->stream);
}
void Convolutions::backward_params(const float* x, const float* dy, float* dw, float* db, const ConvShape& s) {
    conv2d_backward_params(x, dy, dw, db, s, impl_->stream);
}

#endif

}  // namespace payback::bench::gpu
