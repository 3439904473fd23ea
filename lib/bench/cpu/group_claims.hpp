// How the threads of a pool share one matrix product's row groups. Each thread starts on its own
// contiguous share, which it reads as a few long streams; one that finishes early takes the far end of the
// largest share left, so that no thread waits at the barrier after the product while another still reads.
// Fixed halves left the llm-decode step 13 % in such waits: the two cores do not get equal bandwidth.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

namespace payback::bench::cpu {

class GroupClaims {
public:
    /// Shares for `threads` threads; every claim is at least `least` groups where that many are left.
    GroupClaims(int threads, int least);

    /// Before the threads claim (on one thread, followed by a barrier): thread t's share of `groups`
    /// is [groups·t/threads, groups·(t+1)/threads).
    void reset(int groups);

    /// The next groups [begin, end) for thread t: half of what is left of its own share (at least `least`),
    /// from its front; once that is gone, half of what is left of the largest other share, from its back.
    /// False when no group is left. Every group is handed out exactly once between two resets.
    bool next(int t, int& begin, int& end);

private:
    // A share's unclaimed groups [front, back), in one word so that its owner and a thief claim by one
    // compare-and-swap; each on its own cache line.
    struct alignas(64) Share {
        std::atomic<std::uint64_t> bounds{0};
    };
    bool take_front(Share& share, int& begin, int& end) const;
    bool take_back(Share& share, int& begin, int& end) const;
    std::uint32_t take(std::uint32_t left) const;

    std::vector<Share> shares_;
    std::uint32_t least_;
};

}  // namespace payback::bench::cpu
