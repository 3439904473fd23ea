// The CPU trainer's kernels of the instruction set chosen at run time (payback/base/isa.hpp).
#include "cpu/kernels.hpp"
#include "payback/base/isa_dispatch.hpp"

namespace payback {

PAYBACK_ISA_DISPATCH(bench::cpu::Kernels, cpu_kernels)

}  // namespace payback

namespace payback::bench::cpu {

const Kernels& kernels() { return cpu_kernels(); }

}  // namespace payback::bench::cpu
