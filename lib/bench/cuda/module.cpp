// The entry points of libpayback_cuda.so (module_abi.hpp); everything else in the module is hidden.
#include <type_traits>
#include <utility>

#include "module_abi.hpp"

extern "C" {

__attribute__((visibility("default"))) void payback_cuda_status(payback::bench::CudaStatus* out) {
    *out = payback::bench::cuda_status();
}

__attribute__((visibility("default"))) payback::bench::Trainer* payback_cuda_make_trainer(
    const payback::Workload* workload, std::vector<payback::Tensor>* parameters, int batch_size,
    payback::bench::Sgd sgd) {
    return payback::bench::make_cuda_trainer(*workload, std::move(*parameters), batch_size, sgd).release();
}

__attribute__((visibility("default"))) payback::bench::GptTrainer* payback_cuda_make_gpt_trainer(
    const payback::bench::GptConfig* config, const std::vector<payback::Tensor>* parameters, int batch_size,
    payback::bench::GptPrecision precision, payback::bench::Sgd sgd) {
    return payback::bench::make_cuda_gpt_trainer(*config, *parameters, batch_size, precision, sgd).release();
}

__attribute__((visibility("default"))) void payback_cuda_quant_matvec(payback::bench::Quant quant, const void* weights,
                                                                     int rows, int cols,
                                                                     const std::vector<payback::bench::BlockQ8_0>* x,
                                                                     std::vector<float>* y) {
    *y = payback::bench::cuda_quant_matvec(quant, weights, rows, cols, *x);
}

}  // extern "C"

// The addresses the loader checks against the names in module_abi.hpp, at compile time.
static_assert(std::is_same_v<decltype(&payback_cuda_status), payback::bench::cuda_module::StatusFn>);
static_assert(std::is_same_v<decltype(&payback_cuda_make_trainer), payback::bench::cuda_module::MakeTrainerFn>);
static_assert(
    std::is_same_v<decltype(&payback_cuda_make_gpt_trainer), payback::bench::cuda_module::MakeGptTrainerFn>);
static_assert(std::is_same_v<decltype(&payback_cuda_quant_matvec), payback::bench::cuda_module::QuantMatvecFn>);
