#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "payback/energy/circuit.hpp"

using namespace payback;

TEST_CASE("continuous limits of the usual circuits", "[circuit]") {
    // pricing-facts.md §6: 120 V x 15 A x 0.8 = 1,440 W; 120 V x 20 A x 0.8 = 1,920 W;
    // 230 V x 16 A x 0.8 = 2,944 W; 240 V x 20 A x 0.8 = 3,840 W.
    CHECK(continuous_limit_watts(Circuit{120, 15, 0.8}) == Approx(1440.0).epsilon(1e-14));
    CHECK(continuous_limit_watts(Circuit{120, 20, 0.8}) == Approx(1920.0).epsilon(1e-14));
    CHECK(continuous_limit_watts(Circuit{230, 16, 0.8}) == Approx(2944.0).epsilon(1e-14));
    CHECK(continuous_limit_watts(Circuit{240, 20, 0.8}) == Approx(3840.0).epsilon(1e-14));
    // The nameplate, with no derating: 120 x 15 = 1,800 W.
    CHECK(continuous_limit_watts(Circuit{120, 15, 1.0}) == Approx(1800.0).epsilon(1e-14));
    // The default Circuit is the US 120 V 15 A one.
    CHECK(continuous_limit_watts(Circuit{}) == Approx(1440.0).epsilon(1e-14));
}

TEST_CASE("default circuit by mains voltage", "[circuit]") {
    for (double volts : {100.0, 115.0, 120.0, 179.9}) {
        const Circuit c = default_circuit(volts);
        CHECK(c.volts == 120);
        CHECK(c.breaker_amps == 15);
        CHECK(c.continuous_fraction == 0.8);
    }
    for (double volts : {180.0, 220.0, 230.0, 240.0}) {
        const Circuit c = default_circuit(volts);
        CHECK(c.volts == 230);
        CHECK(c.breaker_amps == 16);
        CHECK(c.continuous_fraction == 0.8);
    }
    CHECK(continuous_limit_watts(default_circuit(230)) == Approx(2944.0).epsilon(1e-14));
}

TEST_CASE("a rig over a 120 V 15 A circuit", "[circuit]") {
    // 1,650 / 1,440 = 1.1458 (115 %), 210 W over. Room: (1,440 - 250) / 350 = 3.4 -> 3 GPUs.
    const CircuitCheck check = check_circuit(Circuit{}, 1650, 250, 350);
    CHECK(check.peak_wall_watts == 1650);
    CHECK(check.limit_watts == Approx(1440.0).epsilon(1e-14));
    CHECK(check.load_fraction == Approx(1650.0 / 1440.0).epsilon(1e-14));
    CHECK(check.gpus_that_fit == 3);
    CHECK(check.over);
    CHECK(check.message ==
          "1,650 W at the wall is 115 % of a 120 V 15 A circuit's 1,440 W continuous limit, 210 W over; "
          "it has room for 3 GPUs at 350 W each beside the other 250 W.");
}

TEST_CASE("a rig within a 230 V 16 A circuit", "[circuit]") {
    // 2,000 / 2,944 = 0.6793 (68 %). Room: (2,944 - 300) / 425 = 6.22 -> 6 GPUs.
    const CircuitCheck check = check_circuit(default_circuit(230), 2000, 300, 425);
    CHECK(check.limit_watts == Approx(2944.0).epsilon(1e-14));
    CHECK(check.load_fraction == Approx(2000.0 / 2944.0).epsilon(1e-14));
    CHECK(check.gpus_that_fit == 6);
    CHECK_FALSE(check.over);
    CHECK(check.message ==
          "2,000 W at the wall is 68 % of a 230 V 16 A circuit's 2,944 W continuous limit; "
          "it has room for 6 GPUs at 425 W each beside the other 300 W.");
}

TEST_CASE("exactly at the limit is not over, and an exact fit counts", "[circuit]") {
    // 1,440 W is 100 % of 1,440 W: not over. (1,440 - 240) / 400 = 3 exactly.
    const CircuitCheck at = check_circuit(Circuit{}, 1440, 240, 400);
    CHECK(at.load_fraction == 1.0);
    CHECK_FALSE(at.over);
    CHECK(at.gpus_that_fit == 3);
    // A fit exact on paper but not in binary: (1,920 - 0.3) / 479.925 = 4, though 0.3 and 479.925 are
    // not exact doubles.
    CHECK(check_circuit(Circuit{120, 20, 0.8}, 1000, 0.3, 479.925).gpus_that_fit == 4);
    // A fraction of a watt over reads "1 W over", not "0 W over".
    const CircuitCheck hair = check_circuit(Circuit{}, 1440.2, 240, 400);
    CHECK(hair.over);
    CHECK(hair.message.find(", 1 W over;") != std::string::npos);
}

TEST_CASE("no room when the rest of the rig already fills the circuit", "[circuit]") {
    // (1,440 - 1,500) / 300 < 0 -> 0 GPUs; (1,440 - 1,200) / 300 = 0.8 -> 0; 1 GPU is singular.
    CHECK(check_circuit(Circuit{}, 1800, 1500, 300).gpus_that_fit == 0);
    CHECK(check_circuit(Circuit{}, 1500, 1200, 300).gpus_that_fit == 0);
    const CircuitCheck one = check_circuit(Circuit{}, 1400, 1000, 300);
    CHECK(one.gpus_that_fit == 1);
    CHECK(one.message.find("room for 1 GPU at 300 W each") != std::string::npos);
}

TEST_CASE("a rig without GPUs: none fit and the sentence leaves them out", "[circuit]") {
    // 600 / 1,440 = 0.4167 (42 %).
    const CircuitCheck check = check_circuit(Circuit{}, 600, 600, 0);
    CHECK(check.gpus_that_fit == 0);
    CHECK_FALSE(check.over);
    CHECK(check.message == "600 W at the wall is 42 % of a 120 V 15 A circuit's 1,440 W continuous limit.");
}

TEST_CASE("a negative draw besides the GPUs (rounding in the caller) counts as none", "[circuit]") {
    // An all-GPU peak of 1,200 W less 4 x 300 W can come out at -1e-13: room is 1,440 / 300 = 4.8 -> 4.
    const CircuitCheck check = check_circuit(Circuit{}, 1200, -1e-13, 300);
    CHECK(check.gpus_that_fit == 4);
    CHECK(check.message ==
          "1,200 W at the wall is 83 % of a 120 V 15 A circuit's 1,440 W continuous limit; "
          "it has room for 4 GPUs at 300 W each beside the other 0 W.");
}

TEST_CASE("circuit inputs that make no sense are refused", "[circuit]") {
    CHECK_THROWS_AS(check_circuit(Circuit{}, 1000, 200, -300), std::invalid_argument);
    CHECK_THROWS_AS(check_circuit(Circuit{}, 1000, 200, INFINITY), std::invalid_argument);
    CHECK_THROWS_AS(check_circuit(Circuit{}, -1, 200, 300), std::invalid_argument);
    CHECK_THROWS_AS(check_circuit(Circuit{}, 1000, std::nan(""), 300), std::invalid_argument);
    CHECK_THROWS_AS(check_circuit(Circuit{}, std::nan(""), 200, 300), std::invalid_argument);
    CHECK_THROWS_AS(check_circuit(Circuit{0, 15, 0.8}, 1000, 200, 300), std::invalid_argument);
    CHECK_THROWS_AS(check_circuit(Circuit{120, 15, 0}, 1000, 200, 300), std::invalid_argument);
}

TEST_CASE("every wall watt becomes heat: BTU per hour", "[circuit]") {
    // 1 Btu_IT = 1,055.05585262 J (NIST SP 811), so 1 W = 3,600 / 1,055.05585262 = 3.412141633 BTU/h.
    CHECK(btu_per_hour(1000) == Approx(3412.141633).epsilon(1e-12));
    CHECK(btu_per_hour(1000) == Approx(3600.0 / 1.05505585262).epsilon(1e-9));
    CHECK(btu_per_hour(1440) == Approx(4913.48395152).epsilon(1e-12));
    CHECK(btu_per_hour(0) == 0.0);
}
