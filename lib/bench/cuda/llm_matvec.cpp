// cuda_quant_matvec() inside the CUDA module: host code against the CUDA runtime, which uploads the
// weights and the activation, runs quant_kernels.cu's product and brings the result back.
#include <stdexcept>
#include <string>
#include <vector>

#include "device_buffer.cuh"
#include "payback/bench/cuda_llm.hpp"
#include "quant_elements.cuh"
#include "quant_kernels.cuh"

namespace payback::bench {

std::vector<float> cuda_quant_matvec(Quant quant, const void* weights, int rows, int cols, const std::vector<BlockQ8_0>& x) {
    if (quant == Quant::f16) throw std::invalid_argument("cuda_quant_matvec: F16 has no CUDA kernel here");
    if (rows < 1 || cols < quant_block || cols % quant_block != 0 || x.size() != std::size_t(cols / quant_block))
        throw std::invalid_argument("cuda_quant_matvec: " + std::to_string(rows) + " × " + std::to_string(cols) +
                                    " weights and " + std::to_string(x.size()) + " activation blocks do not fit");
    const int format = quant == Quant::q8_0 ? gpu::quant_q8_0 : gpu::quant_q4_0;
    const int blocks = cols / quant_block;
    const std::size_t weight_bytes = quant_bytes(quant, std::size_t(rows) * cols);
    std::vector<signed char> values(std::size_t(blocks) * quant_block);
    std::vector<float> scales(static_cast<std::size_t>(blocks));
    for (int b = 0; b < blocks; ++b) {
        scales[b] = half_to_float(x[b].d);
        for (int j = 0; j < quant_block; ++j) values[std::size_t(b) * quant_block + j] = x[b].qs[j];
    }
    PAYBACK_CUDA_CHECK(cudaSetDevice(0));
    gpu::DeviceBuffer<unsigned char> w(weight_bytes);
    gpu::DeviceBuffer<signed char> xv(values.size());
    gpu::DeviceBuffer<float> xs(scales.size()), y(static_cast<std::size_t>(rows));
    PAYBACK_CUDA_CHECK(cudaMemcpy(w.get(), weights, weight_bytes, cudaMemcpyHostToDevice));
    PAYBACK_CUDA_CHECK(cudaMemcpy(xv.get(), values.data(), values.size(), cudaMemcpyHostToDevice));
    PAYBACK_CUDA_CHECK(cudaMemcpy(xs.get(), scales.data(), xs.bytes(), cudaMemcpyHostToDevice));
    gpu::quant_matvec(w.get(), format, rows, blocks, xv.get(), xs.get(), y.get(), nullptr);
    std::vector<float> out(static_cast<std::size_t>(rows));
    PAYBACK_CUDA_CHECK(cudaMemcpy(out.data(), y.get(), y.bytes(), cudaMemcpyDeviceToHost));
    return out;
}

}  // namespace payback::bench
