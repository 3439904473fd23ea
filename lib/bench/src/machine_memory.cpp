#include "payback/bench/machine_memory.hpp"

#include <unistd.h>

namespace payback::bench {

std::int64_t machine_memory_bytes() {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? std::int64_t(pages) * page : 0;
}

}  // namespace payback::bench
