#include "cpu/group_claims.hpp"

#include <algorithm>

namespace payback::bench::cpu {
namespace {

std::uint32_t front(std::uint64_t bounds) { return static_cast<std::uint32_t>(bounds >> 32); }
std::uint32_t back(std::uint64_t bounds) { return static_cast<std::uint32_t>(bounds); }
std::uint64_t bounds_of(std::uint32_t front, std::uint32_t back) { return std::uint64_t(front) << 32 | back; }

}  // namespace

GroupClaims::GroupClaims(int threads, int least)
    : shares_(static_cast<std::size_t>(std::max(threads, 1))), least_(static_cast<std::uint32_t>(std::max(least, 1))) {}

void GroupClaims::reset(int groups) {
    const std::uint64_t n = static_cast<std::uint64_t>(std::max(groups, 0)), threads = shares_.size();
    for (std::uint64_t t = 0; t < threads; ++t)
        shares_[t].bounds.store(bounds_of(static_cast<std::uint32_t>(n * t / threads),
                                          static_cast<std::uint32_t>(n * (t + 1) / threads)),
                                std::memory_order_relaxed);
}

std::uint32_t GroupClaims::take(std::uint32_t left) const { return std::min(left, std::max(least_, left / 2)); }

// Relaxed: the claims only divide the groups; what the threads write is published by the barrier after the product.
bool GroupClaims::take_front(Share& share, int& begin, int& end) const {
    std::uint64_t bounds = share.bounds.load(std::memory_order_relaxed);
    while (front(bounds) < back(bounds)) {
        const std::uint32_t taken = take(back(bounds) - front(bounds));
        if (share.bounds.compare_exchange_weak(bounds, bounds_of(front(bounds) + taken, back(bounds)),
                                               std::memory_order_relaxed)) {
            begin = static_cast<int>(front(bounds));
            end = begin + static_cast<int>(taken);
            return true;
        }
    }
    return false;
}

bool GroupClaims::take_back(Share& share, int& begin, int& end) const {
    std::uint64_t bounds = share.bounds.load(std::memory_order_relaxed);
    while (front(bounds) < back(bounds)) {
        const std::uint32_t taken = take(back(bounds) - front(bounds));
        if (share.bounds.compare_exchange_weak(bounds, bounds_of(front(bounds), back(bounds) - taken),
                                               std::memory_order_relaxed)) {
            end = static_cast<int>(back(bounds));
            begin = end - static_cast<int>(taken);
            return true;
        }
    }
    return false;
}

bool GroupClaims::next(int t, int& begin, int& end) {
    if (take_front(shares_[static_cast<std::size_t>(t)], begin, end)) return true;
    for (;;) {
        Share* largest = nullptr;
        std::uint32_t most = 0;
        for (Share& share : shares_) {
            const std::uint64_t bounds = share.bounds.load(std::memory_order_relaxed);
            if (back(bounds) > front(bounds) && back(bounds) - front(bounds) > most) {
                most = back(bounds) - front(bounds);
                largest = &share;
            }
        }
        if (largest == nullptr) return false;
        if (take_back(*largest, begin, end)) return true;  // else its owner took the rest meanwhile: look again
    }
}

}  // namespace payback::bench::cpu
