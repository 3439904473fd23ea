// The kernels of the instruction set chosen at run time (payback/base/isa.hpp): the CPU trainer's, the
// llm-decode workload's and the gpt-small workload's.
#include "cpu/kernels.hpp"
#include "cpu/quant_kernels.hpp"
#include "cpu/transformer_kernels.hpp"
#include "payback/base/isa_dispatch.hpp"

namespace payback {

PAYBACK_ISA_DISPATCH(bench::cpu::Kernels, cpu_kernels)
PAYBACK_ISA_DISPATCH(bench::cpu::QuantKernelChoices, llm_quant_kernels)
PAYBACK_ISA_DISPATCH(bench::cpu::TransformerKernels, gpt_transformer_kernels)

}  // namespace payback

namespace payback::bench::cpu {

const Kernels& kernels() { return cpu_kernels(); }
const QuantKernels& quant_kernels() { return *llm_quant_kernels().best; }
const QuantKernelChoices& quant_kernel_choices() { return llm_quant_kernels(); }
const TransformerKernels& transformer_kernels() { return gpt_transformer_kernels(); }

}  // namespace payback::bench::cpu
