// gpt-small's matrix products through cuBLASLt: C = alpha·op(A)·op(B), batched and strided, FP32
// output and FP32 accumulation (CUBLAS_COMPUTE_32F: no TF32), A and B in FP32, BF16 or FP16. BF16 and
// FP16 run on tensor cores. Each distinct product (layouts, operand type, alignments) gets its
// descriptors and cuBLASLt's first heuristic choice once, on its first call (the trainer's warm-up
// step), and keeps them. Host code only.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include <cublasLt.h>
#include <cuda_runtime.h>

#include "gpt_gemm.hpp"

namespace payback::bench::gpu {

class LtMatmul {
public:
    /// `workspace`: device memory cuBLASLt's kernels may use (split-K partial sums), 256-byte aligned.
    LtMatmul(void* workspace, std::size_t workspace_bytes);
    LtMatmul(const LtMatmul&) = delete;
    LtMatmul& operator=(const LtMatmul&) = delete;
    ~LtMatmul();

    /// `g`'s product with A and B read at `a` and `b` (stored as g's layouts say, of `operand_type`)
    /// and C written at g.gemm.c, on `stream`.
    void run(const GptGemm& g, cudaDataType_t operand_type, const void* a, const void* b, cudaStream_t stream);

private:
    struct Plan;
    const Plan& plan_for(const GptGemm& g, cudaDataType_t operand_type, const void* a, const void* b);

    cublasLtHandle_t handle_ = nullptr;
    void* workspace_;
    std::size_t workspace_bytes_;
    std::vector<std::unique_ptr<Plan>> plans_;
};

}  // namespace payback::bench::gpu
