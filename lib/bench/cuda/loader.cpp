// cuda_status() and make_cuda_trainer() of a build with CUDA: the trainer lives in libpayback_cuda.so,
// opened with dlopen on first use, so that a program linking payback_bench does not load the CUDA
// runtime and cuBLAS at start-up (tens of milliseconds of dynamic linking on every command).
// The module is looked for in $PAYBACK_CUDA_MODULE when set, else beside the program (or library)
// holding this code, else where the build put it.
#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "module_abi.hpp"

namespace payback::bench {
namespace {

struct Module {
    cuda_module::StatusFn status = nullptr;
    cuda_module::MakeTrainerFn make_trainer = nullptr;
    cuda_module::MakeGptTrainerFn make_gpt_trainer = nullptr;
    cuda_module::QuantMatvecFn quant_matvec = nullptr;
    std::string error;  ///< why it could not be used, when status is null
};

// An object of this file, for dladdr to name the file (program or library) holding this code.
const char anchor = 0;

/// dlsym into a function pointer; copying the address avoids the object-to-function pointer cast.
template <class Fn>
Fn bind(void* handle, const char* symbol) {
    void* address = dlsym(handle, symbol);
    Fn fn = nullptr;
    static_assert(sizeof(Fn) == sizeof(void*));
    if (address) std::memcpy(&fn, &address, sizeof fn);
    return fn;
}

std::vector<std::string> candidate_paths() {
    if (const char* given = std::getenv("PAYBACK_CUDA_MODULE"); given && *given) return {given};
    std::vector<std::string> paths;
    Dl_info self{};
    if (dladdr(&anchor, &self) != 0 && self.dli_fname) {
        const std::filesystem::path here(self.dli_fname);
        if (here.has_parent_path()) paths.push_back((here.parent_path() / PAYBACK_CUDA_MODULE_NAME).string());
    }
    paths.emplace_back(PAYBACK_CUDA_MODULE_BUILT);
    return paths;
}

Module open_module() {
    Module module;
    for (const std::string& path : candidate_paths()) {
        void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);  // kept open: trainers' code lives there
        if (!handle) {
            const char* why = dlerror();
            if (module.error.empty()) module.error = "the CUDA module could not be loaded: " + std::string(why ? why : path);
            continue;
        }
        module.status = bind<cuda_module::StatusFn>(handle, cuda_module::status_symbol);
        module.make_trainer = bind<cuda_module::MakeTrainerFn>(handle, cuda_module::make_trainer_symbol);
        module.make_gpt_trainer = bind<cuda_module::MakeGptTrainerFn>(handle, cuda_module::make_gpt_trainer_symbol);
        module.quant_matvec = bind<cuda_module::QuantMatvecFn>(handle, cuda_module::quant_matvec_symbol);
        if (module.status && module.make_trainer && module.make_gpt_trainer && module.quant_matvec) {
            module.error.clear();
            return module;
        }
        module = {nullptr, nullptr, nullptr, nullptr, "the CUDA module " + path + " lacks its entry points (built from another tree?)"};
    }
    return module;
}

const Module& module() {
    static const Module opened = open_module();
    return opened;
}

}  // namespace

CudaStatus cuda_status() {
    const Module& m = module();
    if (!m.status) return {false, m.error, {}};
    CudaStatus status;
    m.status(&status);
    return status;
}

std::unique_ptr<Trainer> make_cuda_trainer(const Workload& workload, std::vector<Tensor> parameters, int batch_size,
                                           Sgd sgd) {
    const Module& m = module();
    if (!m.make_trainer) throw std::runtime_error("the CUDA trainer is unavailable: " + m.error);
    return std::unique_ptr<Trainer>(m.make_trainer(&workload, &parameters, batch_size, sgd));
}

std::unique_ptr<GptTrainer> make_cuda_gpt_trainer(const GptConfig& config, const std::vector<Tensor>& parameters,
                                                  int batch_size, GptPrecision precision, Sgd sgd) {
    const Module& m = module();
    if (!m.make_gpt_trainer) throw std::runtime_error("the CUDA trainer is unavailable: " + m.error);
    return std::unique_ptr<GptTrainer>(m.make_gpt_trainer(&config, &parameters, batch_size, precision, sgd));
}

std::vector<float> cuda_quant_matvec(Quant quant, const void* weights, int rows, int cols, const std::vector<BlockQ8_0>& x) {
    const Module& m = module();
    if (!m.quant_matvec) throw std::runtime_error("the CUDA kernels are unavailable: " + m.error);
    std::vector<float> y;
    m.quant_matvec(quant, weights, rows, cols, &x, &y);
    return y;
}

}  // namespace payback::bench
