#include <catch2/catch.hpp>

#include <dlfcn.h>
#include <sys/stat.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "payback/bench/energy.hpp"
#include "support/temp_dir.hpp"

namespace fs = std::filesystem;
using payback::bench::make_nvml_meter;
using payback::bench::make_rapl_meter;
using payback::test::TempDir;
using Catch::Matchers::Contains;

namespace {

constexpr std::uint64_t kMaxRangeUj = 262'143'328'850;  // a real package's max_energy_range_uj

/// A powercap zone directory `zone` under the fake root, as the kernel lays it out.
void add_zone(const TempDir& root, const std::string& zone, const std::string& name, std::uint64_t energy_uj,
              std::uint64_t max_range_uj = kMaxRangeUj) {
    fs::create_directories(root.path() / zone);
    root.write(zone + "/name", name + "\n");
    root.write(zone + "/energy_uj", std::to_string(energy_uj) + "\n");
    root.write(zone + "/max_energy_range_uj", std::to_string(max_range_uj) + "\n");
}

void set_energy(const TempDir& root, const std::string& zone, std::uint64_t energy_uj) {
    root.write(zone + "/energy_uj", std::to_string(energy_uj) + "\n");
}

}  // namespace

TEST_CASE("rapl: package domains are summed, the MMIO twin preferred, subzones and psys ignored", "[energy]") {
    TempDir root;
    fs::create_directories(root.path() / "intel-rapl");  // the control type, not a zone
    add_zone(root, "intel-rapl:0", "package-0", 1'000'000);
    add_zone(root, "intel-rapl-mmio:0", "package-0", 7'000'000);  // same domain through MMIO: this one is read
    add_zone(root, "intel-rapl:1", "package-1", 5'000'000);
    add_zone(root, "intel-rapl:1:0", "package-9", 0);  // a subzone; named like a package so only its path excludes it
    add_zone(root, "intel-rapl:2", "psys", 0);         // contains the packages: never added to them

    const auto meter = make_rapl_meter(root.path().string());
    REQUIRE(meter->available());
    CHECK(meter->unavailable_reason().empty());
    CHECK(meter->describe() == "RAPL package-0, package-1");

    meter->start();
    set_energy(root, "intel-rapl-mmio:0", 9'500'000);   // +2.5 J
    set_energy(root, "intel-rapl:1", 6'250'000);        // +1.25 J
    set_energy(root, "intel-rapl:0", 900'000'000);      // ignored twin: would add 899 J
    set_energy(root, "intel-rapl:1:0", 50'000'000);     // ignored subzone: would add 50 J
    set_energy(root, "intel-rapl:2", 70'000'000);       // ignored psys: would add 70 J
    const auto joules = meter->stop();
    REQUIRE(joules);
    CHECK(*joules == Approx(3.75));  // 2.5 J + 1.25 J
}

TEST_CASE("rapl: zones reached through symbolic links, as /sys/class/powercap lays them out", "[energy]") {
    TempDir devices;  // stands for /sys/devices/virtual/powercap/intel-rapl
    add_zone(devices, "intel-rapl:0", "package-0", 1'000'000);
    TempDir root;
    fs::create_directory_symlink(devices.path() / "intel-rapl:0", root.path() / "intel-rapl:0");

    const auto meter = make_rapl_meter(root.path().string());
    REQUIRE(meter->available());
    meter->start();
    set_energy(devices, "intel-rapl:0", 3'000'000);
    const auto joules = meter->stop();
    REQUIRE(joules);
    CHECK(*joules == Approx(2.0));
}

TEST_CASE("rapl: one wrap-around per domain is corrected with max_energy_range_uj", "[energy]") {
    TempDir root;
    add_zone(root, "intel-rapl:0", "package-0", 262'143'000'000);
    const auto meter = make_rapl_meter(root.path().string());
    REQUIRE(meter->available());
    meter->start();
    set_energy(root, "intel-rapl:0", 1'000'000);
    const auto joules = meter->stop();
    REQUIRE(joules);
    // (262,143,328,850 − 262,143,000,000 + 1,000,000) µJ = 1,328,850 µJ = 1.32885 J
    CHECK(*joules == Approx(1.32885));
}

TEST_CASE("rapl: a counter that did not move gives no reading, not zero", "[energy]") {
    TempDir root;
    add_zone(root, "intel-rapl:0", "package-0", 1'000'000);
    add_zone(root, "intel-rapl:1", "package-1", 2'000'000);
    const auto meter = make_rapl_meter(root.path().string());
    REQUIRE(meter->available());

    SECTION("no domain moved") {
        meter->start();
        CHECK_FALSE(meter->stop());
    }
    SECTION("one domain moved, the other did not: the sum would be short") {
        meter->start();
        set_energy(root, "intel-rapl:0", 3'000'000);
        CHECK_FALSE(meter->stop());
    }
}

TEST_CASE("rapl: stop() without a matching start() gives no reading", "[energy]") {
    TempDir root;
    add_zone(root, "intel-rapl:0", "package-0", 1'000'000);
    const auto meter = make_rapl_meter(root.path().string());
    REQUIRE(meter->available());
    CHECK_FALSE(meter->stop());

    meter->start();
    set_energy(root, "intel-rapl:0", 2'000'000);
    const auto joules = meter->stop();
    REQUIRE(joules);
    CHECK(*joules == Approx(1.0));
    CHECK_FALSE(meter->stop());  // the window was consumed by the first stop()
}

TEST_CASE("rapl: a missing powercap root says so", "[energy]") {
    TempDir dir;
    const std::string root = (dir.path() / "powercap").string();
    const auto meter = make_rapl_meter(root);
    CHECK_FALSE(meter->available());
    CHECK(meter->unavailable_reason() ==
          "no powercap interface at " + root + " (virtual machine or kernel without RAPL)");
    meter->start();
    CHECK_FALSE(meter->stop());
}

TEST_CASE("rapl: without a package domain the meter is unavailable; psys is not used instead", "[energy]") {
    TempDir root;
    add_zone(root, "intel-rapl:0", "psys", 1'000'000);
    add_zone(root, "intel-rapl:0:0", "package-0", 1'000'000);  // a subzone never counts as a package
    const auto meter = make_rapl_meter(root.path().string());
    CHECK_FALSE(meter->available());
    CHECK_THAT(meter->unavailable_reason(), Contains("no intel-rapl package domain") && Contains("psys"));
    CHECK_THAT(meter->describe(), Contains("no package domain") && Contains("psys"));

    TempDir empty;
    const auto none = make_rapl_meter(empty.path().string());
    CHECK_FALSE(none->available());
    CHECK_THAT(none->unavailable_reason(), Contains("no intel-rapl package domain"));
}

TEST_CASE("rapl: an unreadable or malformed counter makes the meter unavailable with the reason", "[energy]") {
    TempDir root;
    add_zone(root, "intel-rapl:0", "package-0", 1'000'000);
    const fs::path energy = root.path() / "intel-rapl:0" / "energy_uj";

    SECTION("permission denied: root-only since CVE-2020-8694") {
        REQUIRE(::chmod(energy.c_str(), 0) == 0);
        if (std::ifstream(energy).good()) {
            WARN("running with permission to read a mode-000 file (root?): the permission check is skipped");
            return;
        }
        const auto meter = make_rapl_meter(root.path().string());
        CHECK_FALSE(meter->available());
        CHECK_THAT(meter->unavailable_reason(),
                   Contains("permission denied") && Contains("CVE-2020-8694") && Contains("chmod a+r") &&
                       Contains(energy.string()));
    }
    SECTION("missing") {
        fs::remove(energy);
        const auto meter = make_rapl_meter(root.path().string());
        CHECK_FALSE(meter->available());
        CHECK_THAT(meter->unavailable_reason(), Contains("cannot read " + energy.string()));
    }
    SECTION("not a number") {
        root.write("intel-rapl:0/energy_uj", "n/a\n");
        const auto meter = make_rapl_meter(root.path().string());
        CHECK_FALSE(meter->available());
        CHECK_THAT(meter->unavailable_reason(), Contains("not a count of µJ"));
    }
    SECTION("max_energy_range_uj missing: wrap-around could not be corrected") {
        fs::remove(root.path() / "intel-rapl:0" / "max_energy_range_uj");
        const auto meter = make_rapl_meter(root.path().string());
        CHECK_FALSE(meter->available());
        CHECK_THAT(meter->unavailable_reason(), Contains("max_energy_range_uj") && Contains("wrap-around"));
    }
}

TEST_CASE("rapl: the machine's own powercap tree gives a consistent answer", "[energy]") {
    const auto meter = make_rapl_meter();
    INFO(meter->describe() << ": " << meter->unavailable_reason());
    CHECK(meter->available() == meter->unavailable_reason().empty());
    CHECK_THAT(meter->describe(), Contains("RAPL"));
    meter->start();
    const auto joules = meter->stop();
    if (!meter->available()) CHECK_FALSE(joules);
    if (joules) CHECK(*joules >= 0.0);
}

TEST_CASE("nvml: without the driver the meter says NVML is missing; with one it reads or declines", "[energy]") {
    const auto meter = make_nvml_meter(0);
    INFO(meter->describe() << ": " << meter->unavailable_reason());
    CHECK(meter->available() == meter->unavailable_reason().empty());
    CHECK_THAT(meter->describe(), Contains("NVML GPU 0"));

    if (void* library = ::dlopen("libnvidia-ml.so.1", RTLD_LAZY | RTLD_LOCAL)) {
        ::dlclose(library);
    } else {
        CHECK_FALSE(meter->available());
        CHECK(meter->unavailable_reason() == "NVML not found (libnvidia-ml.so.1): no NVIDIA driver");
    }

    meter->start();
    const auto joules = meter->stop();
    if (meter->available()) {
        if (joules) CHECK(*joules >= 0.0);  // nullopt is fine: the window was shorter than the update period
    } else {
        CHECK_THAT(meter->unavailable_reason(), Contains("NVML"));
        CHECK_FALSE(joules);
    }
}

TEST_CASE("nvml: a negative GPU index is never available", "[energy]") {
    const auto meter = make_nvml_meter(-1);
    CHECK_FALSE(meter->available());
    CHECK_THAT(meter->unavailable_reason(), Contains("NVML"));
}
