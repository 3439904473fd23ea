// The CUDA trainer of a build without a CUDA compiler (or with PAYBACK_CUDA off): it says why, and
// cannot be made.
#include <stdexcept>
#include <string>

#include "payback/bench/cuda_gpt_trainer.hpp"
#include "payback/bench/cuda_llm.hpp"
#include "payback/bench/cuda_trainer.hpp"

namespace payback::bench {

namespace {
constexpr const char* kWhy =
    "built without CUDA support (no CUDA compiler found at configure time, or PAYBACK_CUDA=OFF)";
}

CudaStatus cuda_status() { return {false, kWhy, {}}; }

// By value as cuda_trainer.hpp declares it (the CUDA build's definition moves from it).
// NOLINTNEXTLINE(performance-unnecessary-value-param)
std::unique_ptr<Trainer> make_cuda_trainer(const Workload&, std::vector<Tensor>, int, Sgd) {
    throw std::runtime_error(std::string("the CUDA trainer is unavailable: ") + kWhy);
}

std::unique_ptr<GptTrainer> make_cuda_gpt_trainer(const GptConfig&, const std::vector<Tensor>&, int, GptPrecision, Sgd) {
    throw std::runtime_error(std::string("the CUDA trainer is unavailable: ") + kWhy);
}

std::vector<float> cuda_quant_matvec(Quant, const void*, int, int, const std::vector<BlockQ8_0>&) {
    throw std::runtime_error(std::string("the CUDA kernels are unavailable: ") + kWhy);
}

}  // namespace payback::bench
