// The heap's bytes in use (glibc's mallinfo2: the arenas' allocated blocks plus the mmap'd ones), to
// check a size estimate against what a constructor really allocates. 0 where the allocator does not
// say (another C library; a sanitizer's allocator, which glibc's counters do not see).
#pragma once

#include <cstddef>
#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace payback::test {

inline std::size_t heap_in_use() {
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
    const struct mallinfo2 m = mallinfo2();
    return m.uordblks + m.hblkhd;
#else
    return 0;
#endif
}

/// Whether heap_in_use() sees this program's allocations: a 64 MiB block must move it by as much (under
/// a sanitizer's allocator glibc's counters stand still).
inline bool heap_counted() {
    constexpr std::size_t probe = std::size_t(64) << 20;
    const std::size_t before = heap_in_use();
    void* block = std::malloc(probe);
    if (block == nullptr) return false;
    std::memset(block, 1, probe);
    const std::size_t during = heap_in_use();
    std::free(block);
    return during >= before + probe;
}

}  // namespace payback::test
