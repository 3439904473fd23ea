#include <catch2/catch.hpp>

#include <tuple>
#include <vector>

#include "payback/base/marked_members.hpp"

using namespace payback;

namespace {

struct Listed {
    int months = 0;
    double rate = 0.0;
    std::vector<double> flows;

    static constexpr auto members() {
        return std::tuple{fixed(&Listed::months), mark(&Listed::rate, Response::compounding, "the rate"),
                          mark(&Listed::flows, Response::linear, "the flows")};
    }
};

// A member added without a mark: `extra` is not in members().
struct Unlisted {
    double rate = 0.0;
    double extra = 0.0;

    static constexpr auto members() { return std::tuple{mark(&Unlisted::rate, Response::linear, "the rate")}; }
};

}  // namespace

TEST_CASE("every_member_listed tells a struct that marks every member from one that forgets one", "[marks]") {
    STATIC_REQUIRE(every_member_listed<Listed>());
    STATIC_REQUIRE_FALSE(every_member_listed<Unlisted>());
    constexpr auto members = Listed::members();
    STATIC_REQUIRE(std::get<1>(members).response == Response::compounding);
    STATIC_REQUIRE(std::get<2>(members).member == &Listed::flows);
}
