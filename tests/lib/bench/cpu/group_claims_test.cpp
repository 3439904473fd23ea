#include <catch2/catch.hpp>

#include <algorithm>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "cpu/group_claims.hpp"

using payback::bench::cpu::GroupClaims;

// How threads share a product's row groups (cpu/group_claims.hpp): the claims one thread sees, by hand,
// and every group handed out exactly once when real threads race for them.

namespace {

using Claims = std::vector<std::pair<int, int>>;

Claims claims_of(GroupClaims& claims, int t) {
    Claims out;
    int begin = 0, end = 0;
    while (claims.next(t, begin, end)) out.emplace_back(begin, end);
    return out;
}

}  // namespace

TEST_CASE("a thread claims half of what is left of its share, at least `least` groups", "[bench][llm]") {
    GroupClaims claims(1, 4);
    claims.reset(100);
    // 100 left: half, 50 → [0, 50); 50: 25; 25: 12; 13: 6; 7: 3, raised to 4; 3: all 3.
    CHECK(claims_of(claims, 0) == Claims{{0, 50}, {50, 75}, {75, 87}, {87, 93}, {93, 97}, {97, 100}});
    int begin = -1, end = -1;
    CHECK_FALSE(claims.next(0, begin, end));
    claims.reset(0);
    CHECK_FALSE(claims.next(0, begin, end));
    claims.reset(3);  // a reset gives back every group
    CHECK(claims_of(claims, 0) == Claims{{0, 3}});
}

TEST_CASE("a thread done with its share takes the far end of the largest one left", "[bench][llm]") {
    GroupClaims claims(3, 1);
    claims.reset(30);  // shares [0, 10), [10, 20), [20, 30)
    int begin = 0, end = 0;
    REQUIRE(claims.next(0, begin, end));  // thread 0 takes [0, 5) and is still at work on it
    CHECK(std::pair(begin, end) == std::pair(0, 5));
    REQUIRE(claims.next(2, begin, end));
    CHECK(std::pair(begin, end) == std::pair(20, 25));
    // Thread 1 drains its own share first: 10 left → 5, 5 → 2, 3 → 1, 2 → 1, 1 → 1.
    CHECK(claims_of(claims, 1) == Claims{{10, 15}, {15, 17}, {17, 18}, {18, 19}, {19, 20},
                                         // then the back halves of the largest shares left: [5, 10) and
                                         // [25, 30) hold 5 each, and the first of equals is taken.
                                         {8, 10}, {28, 30}, {7, 8}, {27, 28}, {6, 7}, {26, 27}, {5, 6}, {25, 26}});
    CHECK_FALSE(claims.next(0, begin, end));
    CHECK_FALSE(claims.next(2, begin, end));
}

TEST_CASE("racing threads are handed every group exactly once", "[bench][llm]") {
    for (const auto& [threads, groups, least] : {std::tuple{4, 10007, 4}, {2, 352, 4}, {8, 3, 1}, {3, 1000, 64}}) {
        GroupClaims claims(threads, least);
        for (int round = 0; round < 20; ++round) {
            claims.reset(groups);
            std::vector<Claims> seen(static_cast<std::size_t>(threads));
            std::vector<std::thread> pool;
            for (int t = 0; t < threads; ++t)
                pool.emplace_back([&, t] { seen[std::size_t(t)] = claims_of(claims, t); });
            for (std::thread& thread : pool) thread.join();
            std::vector<int> times(static_cast<std::size_t>(groups), 0);
            for (const Claims& mine : seen)
                for (const auto& [begin, end] : mine) {
                    CHECK((0 <= begin && begin < end && end <= groups));
                    for (int g = begin; g < end; ++g) ++times[std::size_t(g)];
                }
            INFO(threads << " threads, " << groups << " groups, round " << round);
            CHECK(std::count(times.begin(), times.end(), 1) == groups);
        }
    }
}
