// A linear layer's three matrix products, written for cuBLAS (column-major) over our row-major
// tensors. Plain C++: the trainer hands a Gemm to cublasSgemm, a test can hand it to a reference.
//
// The one fact used throughout: a row-major matrix M of r rows and c columns, stored densely, is the
// same memory as the column-major matrix Mᵀ (c rows, r columns, leading dimension c).
//
// Shapes (row-major, as in PyTorch): X [B, I] the layer input, W [O, I] the weight, Y [B, O] the
// output, dY [B, O], dW [O, I], dX [B, I]; b [O], db [O]; `ones` is B ones.
//
//   forward        Y  = X · Wᵀ       column-major: Yᵀ [O,B]  = W [O,I]   · Xᵀ [I,B]
//                                    W  = op_T(memory of W  as col-major [I,O], ld I)
//                                    Xᵀ = op_N(memory of X  as col-major [I,B], ld I)
//                                    Yᵀ =      memory of Y  as col-major [O,B], ld O
//                                    → sgemm(T, N, m=O, n=B, k=I, W, I, X, I, Y, O)
//   weight grad    dW = dYᵀ · X      column-major: dWᵀ [I,O] = Xᵀ [I,B]  · dY [B,O]
//                                    Xᵀ = op_N(memory of X  as col-major [I,B], ld I)
//                                    dY = op_T(memory of dY as col-major [O,B], ld O)
//                                    dWᵀ =     memory of dW as col-major [I,O], ld I
//                                    → sgemm(N, T, m=I, n=O, k=B, X, I, dY, O, dW, I)
//   input grad     dX = dY · W       column-major: dXᵀ [I,B] = Wᵀ [I,O]  · dYᵀ [O,B]
//                                    Wᵀ  = op_N(memory of W  as col-major [I,O], ld I)
//                                    dYᵀ = op_N(memory of dY as col-major [O,B], ld O)
//                                    dXᵀ =     memory of dX as col-major [I,B], ld I
//                                    → sgemm(N, N, m=I, n=B, k=O, W, I, dY, O, dX, I)
//   bias grad      db = dYᵀ · 1      column-major: db [O,1]  = dYᵀ [O,B] · ones [B,1]
//                                    → sgemm(N, N, m=O, n=1, k=B, dY, O, ones, B, db, O)
//
// cuBLAS's leading-dimension rules hold in each: op N needs ld ≥ rows of the stored matrix (m for
// A, k for B), op T needs ld ≥ its stored rows (k for A, n for B), and ldc ≥ m.
#pragma once

namespace payback::bench::gpu {

/// C = op(A) · op(B) in column-major BLAS terms (alpha 1, beta 0): C is m × n, op(A) m × k, op(B) k × n.
struct Gemm {
    bool transpose_a = false;
    bool transpose_b = false;
    int m = 0, n = 0, k = 0;
    const float* a = nullptr;
    int lda = 0;
    const float* b = nullptr;
    int ldb = 0;
    float* c = nullptr;
    int ldc = 0;
};

inline Gemm linear_forward_gemm(const float* x, const float* w, float* y, int batch, int in, int out) {
    return {true, false, out, batch, in, w, in, x, in, y, out};
}

inline Gemm linear_weight_grad_gemm(const float* x, const float* dy, float* dw, int batch, int in, int out) {
    return {false, true, in, out, batch, x, in, dy, out, dw, in};
}

inline Gemm linear_input_grad_gemm(const float* dy, const float* w, float* dx, int batch, int in, int out) {
    return {false, false, in, batch, out, w, in, dy, out, dx, in};
}

inline Gemm linear_bias_grad_gemm(const float* dy, const float* ones, float* db, int batch, int out) {
    return {false, false, out, 1, batch, dy, out, ones, batch, db, out};
}

}  // namespace payback::bench::gpu
