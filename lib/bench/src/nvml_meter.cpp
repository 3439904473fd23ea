// A GPU's energy counter through NVML, loaded at run time with dlopen so that neither building nor
// running needs the NVIDIA driver. nvmlDeviceGetTotalEnergyConsumption counts millijoules since the
// driver was last loaded, on Volta or newer; older GPUs answer NVML_ERROR_NOT_SUPPORTED.
#include <dlfcn.h>

#include <array>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "payback/bench/energy.hpp"

namespace payback::bench {
namespace {

// The few NVML declarations used here, matching nvml.h (which this file must not need).
struct nvmlDevice_st;
using nvmlDevice_t = nvmlDevice_st*;  // opaque handle
using nvmlReturn_t = int;             // a C enum
constexpr nvmlReturn_t NVML_SUCCESS = 0;
constexpr nvmlReturn_t NVML_ERROR_NOT_SUPPORTED = 3;
constexpr unsigned NVML_DEVICE_NAME_V2_BUFFER_SIZE = 96;

using InitFn = nvmlReturn_t (*)();
using ShutdownFn = nvmlReturn_t (*)();
using HandleByIndexFn = nvmlReturn_t (*)(unsigned index, nvmlDevice_t* device);
using TotalEnergyFn = nvmlReturn_t (*)(nvmlDevice_t device, unsigned long long* energy_mj);
using NameFn = nvmlReturn_t (*)(nvmlDevice_t device, char* name, unsigned length);
using ErrorStringFn = const char* (*)(nvmlReturn_t result);

constexpr const char* kLibrary = "libnvidia-ml.so.1";

/// dlsym into a function pointer; copying the address avoids the object-to-function pointer cast.
template <class Fn>
bool bind(void* library, const char* symbol, Fn& fn) {
    void* address = ::dlsym(library, symbol);
    if (address == nullptr) return false;
    static_assert(sizeof(Fn) == sizeof(void*));
    std::memcpy(&fn, &address, sizeof fn);
    return true;
}

/// The dlopen'ed library and, once nvmlInit_v2 has succeeded, the nvmlShutdown owed before dlclose.
class NvmlLibrary {
public:
    NvmlLibrary() : handle_(::dlopen(kLibrary, RTLD_LAZY | RTLD_LOCAL)) {}
    ~NvmlLibrary() {
        if (shutdown_ != nullptr) shutdown_();
        if (handle_ != nullptr) ::dlclose(handle_);
    }
    NvmlLibrary(const NvmlLibrary&) = delete;
    NvmlLibrary& operator=(const NvmlLibrary&) = delete;

    void* handle() const { return handle_; }
    void owe_shutdown(ShutdownFn shutdown) { shutdown_ = shutdown; }

private:
    void* handle_;
    ShutdownFn shutdown_ = nullptr;
};

class NvmlMeter final : public EnergyMeter {
public:
    explicit NvmlMeter(int index) : index_(index) { open(); }

    bool available() const override { return reason_.empty(); }
    std::string unavailable_reason() const override { return reason_; }

    std::string describe() const override {
        return gpu_name_.empty() ? fmt::format("NVML GPU {}", index_)
                                 : fmt::format("NVML GPU {} ({})", index_, gpu_name_);
    }

    void start() override { start_mj_ = available() ? read() : std::nullopt; }

    std::optional<double> stop() override {
        const auto start = std::exchange(start_mj_, std::nullopt);
        if (!start) return std::nullopt;
        const auto end = read();
        // Unchanged: the window was shorter than the counter's update period (about 20–100 ms).
        // Lower: the driver was reloaded and the counter restarted from zero.
        if (!end || *end <= *start) return std::nullopt;
        return static_cast<double>(*end - *start) * 1e-3;
    }

private:
    /// Loads the library, initialises NVML and probes GPU index_'s counter; sets reason_ on failure.
    void open() {
        if (library_.handle() == nullptr) {
            reason_ = fmt::format("NVML not found ({}): no NVIDIA driver", kLibrary);
            return;
        }
        const auto bind_or_explain = [this](const char* symbol, auto& fn) {
            if (bind(library_.handle(), symbol, fn)) return true;
            reason_ = fmt::format("NVML library {} lacks {} (NVIDIA driver too old)", kLibrary, symbol);
            return false;
        };
        InitFn init = nullptr;
        ShutdownFn shutdown = nullptr;
        HandleByIndexFn handle_by_index = nullptr;
        NameFn name = nullptr;
        if (!bind_or_explain("nvmlErrorString", error_string_) || !bind_or_explain("nvmlInit_v2", init) ||
            !bind_or_explain("nvmlShutdown", shutdown) ||
            !bind_or_explain("nvmlDeviceGetHandleByIndex_v2", handle_by_index) ||
            !bind_or_explain("nvmlDeviceGetName", name) ||
            !bind_or_explain("nvmlDeviceGetTotalEnergyConsumption", total_energy_))
            return;

        if (const nvmlReturn_t rc = init(); rc != NVML_SUCCESS) {
            reason_ = fmt::format("NVML initialisation failed: {}", error_text(rc));
            return;
        }
        library_.owe_shutdown(shutdown);
        if (index_ < 0) {
            reason_ = fmt::format("no GPU {}: NVML device indices start at 0", index_);
            return;
        }
        if (const nvmlReturn_t rc = handle_by_index(static_cast<unsigned>(index_), &device_); rc != NVML_SUCCESS) {
            reason_ = fmt::format("no GPU {}: {}", index_, error_text(rc));
            return;
        }
        std::array<char, NVML_DEVICE_NAME_V2_BUFFER_SIZE> buffer{};
        if (name(device_, buffer.data(), static_cast<unsigned>(buffer.size())) == NVML_SUCCESS)
            gpu_name_ = buffer.data();
        unsigned long long energy_mj = 0;
        if (const nvmlReturn_t rc = total_energy_(device_, &energy_mj); rc != NVML_SUCCESS) {
            const std::string gpu = gpu_name_.empty() ? fmt::format("{}", index_) : gpu_name_;
            reason_ = rc == NVML_ERROR_NOT_SUPPORTED
                          ? fmt::format("GPU {} has no energy counter (NVML needs Volta or newer)", gpu)
                          : fmt::format("GPU {}: cannot read its energy counter: {}", gpu, error_text(rc));
        }
    }

    std::string error_text(nvmlReturn_t rc) const {
        const char* text = error_string_ != nullptr ? error_string_(rc) : nullptr;
        return text != nullptr ? fmt::format("{} (NVML error {})", text, rc) : fmt::format("NVML error {}", rc);
    }

    /// The counter in mJ, or nullopt when unavailable or the read fails.
    std::optional<unsigned long long> read() const {
        unsigned long long energy_mj = 0;
        if (!available() || total_energy_(device_, &energy_mj) != NVML_SUCCESS) return std::nullopt;
        return energy_mj;
    }

    int index_;
    NvmlLibrary library_;
    TotalEnergyFn total_energy_ = nullptr;
    ErrorStringFn error_string_ = nullptr;
    nvmlDevice_t device_ = nullptr;
    std::string gpu_name_;
    std::string reason_;  ///< empty when available
    std::optional<unsigned long long> start_mj_;
};

}  // namespace

std::unique_ptr<EnergyMeter> make_nvml_meter(int index) { return std::make_unique<NvmlMeter>(index); }

}  // namespace payback::bench
