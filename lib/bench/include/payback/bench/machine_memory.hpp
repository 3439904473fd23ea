// This machine's memory, so that `payback bench` can refuse a run that would not fit before allocating
// it (an allocation past memory is std::bad_alloc at best, the kernel's out-of-memory killer at worst).
#pragma once

#include <cstdint>

namespace payback::bench {

/// Physical memory in bytes (sysconf's pages × page size); 0 where the system does not say.
std::int64_t machine_memory_bytes();

}  // namespace payback::bench
