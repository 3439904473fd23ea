// Dispatch to the variant of a hot path that active_isa() names (payback/base/isa.hpp). A hot path's
// translation units are compiled once per variant (payback_isa_variants() in cmake/PaybackIsa.cmake);
// they gather its entry points in a table of function pointers, returned by a function defined inside
// `namespace payback::PAYBACK_ISA_NAMESPACE`:
//
//     namespace payback::PAYBACK_ISA_NAMESPACE {
//     const BatchKernels& batch_kernels() { static constexpr BatchKernels k{&lanes_block}; return k; }
//     }
//
// and one file of the library, inside namespace payback, writes PAYBACK_ISA_DISPATCH(BatchKernels,
// batch_kernels) to define payback::batch_kernels(), which returns the active variant's table.
#pragma once

#include "payback/base/isa.hpp"
#include "payback_isa_variants.hpp"

#define PAYBACK_ISA_DISPATCH(Kernels, function)                                                       \
    PAYBACK_FOR_EACH_ISA(PAYBACK_ISA_DECLARE_, Kernels, function)                                     \
    const Kernels& function() {                                                                       \
        static constexpr const Kernels& (*table[])() = {PAYBACK_FOR_EACH_ISA(PAYBACK_ISA_ENTRY_, function)}; \
        return table[active_isa_index()]();                                                           \
    }
#define PAYBACK_ISA_DECLARE_(ns, Kernels, function) \
    namespace ns {                                  \
    const Kernels& function();                      \
    }
#define PAYBACK_ISA_ENTRY_(ns, function) &ns::function,
