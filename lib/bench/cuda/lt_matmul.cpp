#include "lt_matmul.hpp"

#include <cstdint>
#include <stdexcept>
#include <tuple>

#include <fmt/format.h>

#include "check.cuh"

namespace payback::bench::gpu {
namespace {

std::size_t bytes_of(cudaDataType_t type) { return type == CUDA_R_32F ? 4 : 2; }

auto as_tuple(const MatrixLayout& l) { return std::tie(l.rows, l.cols, l.ld, l.count, l.stride); }

/// What makes two products the same to cuBLASLt.
struct PlanKey {
    bool transpose_a, transpose_b;
    MatrixLayout a, b, c;
    cudaDataType_t operand_type;
    unsigned alignment_a, alignment_b, alignment_c;

    friend bool operator==(const PlanKey& x, const PlanKey& y) {
        return std::tie(x.transpose_a, x.transpose_b, x.operand_type, x.alignment_a, x.alignment_b, x.alignment_c) ==
                   std::tie(y.transpose_a, y.transpose_b, y.operand_type, y.alignment_a, y.alignment_b,
                            y.alignment_c) &&
               as_tuple(x.a) == as_tuple(y.a) && as_tuple(x.b) == as_tuple(y.b) && as_tuple(x.c) == as_tuple(y.c);
    }
};

PlanKey key_of(const GptGemm& g, cudaDataType_t operand_type, const void* a, const void* b) {
    PlanKey key{g.gemm.transpose_a, g.gemm.transpose_b, layout_of_a(g), layout_of_b(g), layout_of_c(g), operand_type,
                0, 0, 0};
    key.alignment_a = alignment(reinterpret_cast<std::uintptr_t>(a), key.a, bytes_of(operand_type));
    key.alignment_b = alignment(reinterpret_cast<std::uintptr_t>(b), key.b, bytes_of(operand_type));
    key.alignment_c = alignment(reinterpret_cast<std::uintptr_t>(g.gemm.c), key.c, sizeof(float));
    return key;
}

template <class T>
void set_operation(cublasLtMatmulDesc_t desc, cublasLtMatmulDescAttributes_t attribute, T value) {
    PAYBACK_CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(desc, attribute, &value, sizeof value));
}
template <class T>
void set_layout(cublasLtMatrixLayout_t layout, cublasLtMatrixLayoutAttribute_t attribute, T value) {
    PAYBACK_CUBLAS_CHECK(cublasLtMatrixLayoutSetAttribute(layout, attribute, &value, sizeof value));
}
cublasLtMatrixLayout_t make_layout(const MatrixLayout& l, cudaDataType_t type) {
    cublasLtMatrixLayout_t layout = nullptr;
    PAYBACK_CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&layout, type, static_cast<std::uint64_t>(l.rows),
                                                    static_cast<std::uint64_t>(l.cols), l.ld));
    if (l.count > 1) {
        set_layout(layout, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, static_cast<std::int32_t>(l.count));
        set_layout(layout, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, static_cast<std::int64_t>(l.stride));
    }
    return layout;
}

/// The heuristic's preferences live only while it is asked.
class Preference {
public:
    Preference() { PAYBACK_CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&preference_)); }
    Preference(const Preference&) = delete;
    Preference& operator=(const Preference&) = delete;
    ~Preference() { cublasLtMatmulPreferenceDestroy(preference_); }
    cublasLtMatmulPreference_t get() const { return preference_; }

private:
    cublasLtMatmulPreference_t preference_ = nullptr;
};

}  // namespace

/// One product's descriptors and algorithm; C and D (the output) share one layout.
struct LtMatmul::Plan {
    PlanKey key;
    cublasLtMatmulDesc_t operation = nullptr;
    cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr;
    cublasLtMatmulHeuristicResult_t choice{};

    explicit Plan(const PlanKey& k) : key(k) {}
    Plan(const Plan&) = delete;
    Plan& operator=(const Plan&) = delete;
    ~Plan() {
        if (c) cublasLtMatrixLayoutDestroy(c);
        if (b) cublasLtMatrixLayoutDestroy(b);
        if (a) cublasLtMatrixLayoutDestroy(a);
        if (operation) cublasLtMatmulDescDestroy(operation);
    }
};

LtMatmul::LtMatmul(void* workspace, std::size_t workspace_bytes)
    : workspace_(workspace), workspace_bytes_(workspace_bytes) {
    PAYBACK_CUBLAS_CHECK(cublasLtCreate(&handle_));
}

LtMatmul::~LtMatmul() {
    plans_.clear();  // descriptors before the handle
    cublasLtDestroy(handle_);
}

const LtMatmul::Plan& LtMatmul::plan_for(const GptGemm& g, cudaDataType_t operand_type, const void* a,
                                         const void* b) {
    const PlanKey key = key_of(g, operand_type, a, b);
    for (const auto& plan : plans_)
        if (plan->key == key) return *plan;

    auto plan = std::make_unique<Plan>(key);
    PAYBACK_CUBLAS_CHECK(cublasLtMatmulDescCreate(&plan->operation, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    set_operation(plan->operation, CUBLASLT_MATMUL_DESC_TRANSA,
                  static_cast<std::int32_t>(key.transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N));
    set_operation(plan->operation, CUBLASLT_MATMUL_DESC_TRANSB,
                  static_cast<std::int32_t>(key.transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N));
    plan->a = make_layout(key.a, operand_type);
    plan->b = make_layout(key.b, operand_type);
    plan->c = make_layout(key.c, CUDA_R_32F);

    Preference preference;
    const auto prefer = [&](cublasLtMatmulPreferenceAttributes_t attribute, auto value) {
        PAYBACK_CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(preference.get(), attribute, &value, sizeof value));
    };
    prefer(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, static_cast<std::uint64_t>(workspace_bytes_));
    prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, static_cast<std::uint32_t>(key.alignment_a));
    prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, static_cast<std::uint32_t>(key.alignment_b));
    prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, static_cast<std::uint32_t>(key.alignment_c));
    prefer(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, static_cast<std::uint32_t>(key.alignment_c));
    int returned = 0;
    PAYBACK_CUBLAS_CHECK(cublasLtMatmulAlgoGetHeuristic(handle_, plan->operation, plan->a, plan->b, plan->c, plan->c,
                                                        preference.get(), 1, &plan->choice, &returned));
    if (returned == 0)
        throw std::runtime_error(fmt::format(
            "cuBLASLt has no algorithm for a {}×{}×{} product (batch {}, operand type {})", key.c.rows, key.c.cols,
            key.transpose_a ? key.a.rows : key.a.cols, key.c.count, static_cast<int>(operand_type)));
    plans_.push_back(std::move(plan));
    return *plans_.back();
}

void LtMatmul::run(const GptGemm& g, cudaDataType_t operand_type, const void* a, const void* b, cudaStream_t stream) {
    const Plan& plan = plan_for(g, operand_type, a, b);
    const float zero = 0.0f;
    PAYBACK_CUBLAS_CHECK(cublasLtMatmul(handle_, plan.operation, &g.alpha, a, plan.a, b, plan.b, &zero, g.gemm.c,
                                        plan.c, g.gemm.c, plan.c, &plan.choice.algo, workspace_,
                                        plan.choice.workspaceSize, stream));
}

}  // namespace payback::bench::gpu
