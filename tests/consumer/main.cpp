// Loads the scenario named on the command line, compares its options and prints the NPV savings of
// building against each cloud option, one line each: "<rig>\t<cloud>\t<savings>" at full precision.
#include <cstdio>
#include <exception>

#include <payback/model/comparison.hpp>
#include <payback/scenario/scenario.hpp>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: npv_savings SCENARIO.toml\n");
        return 2;
    }
    try {
        const payback::Comparison comparison = payback::compare(payback::load_scenario(argv[1]));
        for (const payback::VersusResult& v : comparison.versus)
            std::printf("%s\t%s\t%.17g\n", v.rig.c_str(), v.cloud.c_str(), v.npv_savings);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "npv_savings: %s\n", e.what());
        return 2;
    }
    return 0;
}
