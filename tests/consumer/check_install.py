#!/usr/bin/env python3
"""The installed tree and the C++ package, used from a project of its own (docs/install.md).

Installs the build into BUILD_DIR/install-check/prefix (`cmake --install`) and checks that the tree
holds exactly the program, the two archives, the public headers (no header of lib/src), the CMake
package with the project's version, the pricing catalogs, the example scenarios and the docs. Then
configures tests/consumer against that prefix alone, builds it (every installed header compiled on
its own, and the archives linked whole, ISA variants included) and runs it on a scenario that names
catalogs, reading the installed ones: each NPV savings must equal `payback compare --json`'s within
1e-12 relative.

Usage: check_install.py BUILD_DIR SOURCE_DIR   (./dev test runs it after ctest)
"""
import json
import math
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

# A scenario that names catalogs: grid_region = "US" and instance = "lambda:gpu_1x_a100".
SCENARIO = "rtx3080-rental.toml"
# Its macros expand the build's list of ISA variants; only the library's own objects use it.
NOT_INSTALLED_HEADERS = {"payback/base/isa_dispatch.hpp"}


def run(command, env=None):
    done = subprocess.run([str(c) for c in command], capture_output=True, text=True, env=env, timeout=600)
    if done.returncode != 0:
        sys.exit(f"{' '.join(map(str, command))}: exit {done.returncode}\n{done.stdout}{done.stderr}")
    return done.stdout


def files_under(root, pattern="*"):
    return {p.relative_to(root).as_posix() for p in root.rglob(pattern) if p.is_file()}


def cache_value(build, name):
    match = re.search(rf"^{name}:\w+=(.*)$", (build / "CMakeCache.txt").read_text(), re.MULTILINE)
    if not match:
        sys.exit(f"{build}/CMakeCache.txt: no {name}")
    return match.group(1)


def expected_tree(source, build):
    """Every file the install must write, by its path under the prefix."""
    libdir = cache_value(build, "CMAKE_INSTALL_LIBDIR")
    expected = {"bin/payback", f"{libdir}/libpayback_core.a", f"{libdir}/libpayback_report.a"}
    if (build / "bin/libpayback_cuda.so").exists():
        expected.add("bin/libpayback_cuda.so")
    for public in (source / "lib/include", source / "lib/report/include"):
        expected |= {f"include/{h}" for h in files_under(public, "*.hpp") - NOT_INSTALLED_HEADERS}
    package = f"{libdir}/cmake/payback"
    configuration = cache_value(build, "CMAKE_BUILD_TYPE").lower() or "noconfig"
    expected |= {f"{package}/paybackConfig.cmake", f"{package}/paybackConfigVersion.cmake",
                 f"{package}/paybackTargets.cmake", f"{package}/paybackTargets-{configuration}.cmake"}
    pricing = {f for f in files_under(source / "pricing") if f.endswith((".csv", ".json", ".md"))}
    expected |= {f"share/payback/pricing/{f}" for f in pricing}
    expected |= {f"share/payback/scenarios/{f}" for f in files_under(source / "scenarios", "*.toml")}
    expected |= {f"share/doc/payback/{f}" for f in files_under(source / "docs", "*.md") | {"README.md"}}
    return expected, package


def check_tree(source, build, prefix):
    expected, package = expected_tree(source, build)
    installed = files_under(prefix)
    failures = [f"missing: {f}" for f in sorted(expected - installed)]
    failures += [f"not expected: {f}" for f in sorted(installed - expected)]
    # lib/src/<layer>/x.hpp would land at include/payback/<layer>/x.hpp (no public header shares a name).
    private = {f"include/payback/{h}" for h in files_under(source / "lib/src", "*.hpp")} & installed
    failures += [f"private header installed: {f}" for f in sorted(private)]
    for installed_copy, original in (("share/payback/pricing/gpus.csv", "pricing/gpus.csv"),
                                     (f"share/payback/scenarios/{SCENARIO}", f"scenarios/{SCENARIO}"),
                                     ("share/doc/payback/README.md", "README.md")):
        copy = prefix / installed_copy
        if copy.exists() and copy.read_bytes() != (source / original).read_bytes():
            failures.append(f"{installed_copy} differs from {original}")
    project = re.search(r"project\(payback VERSION ([\d.]+)", (source / "CMakeLists.txt").read_text()).group(1)
    version_file = prefix / package / "paybackConfigVersion.cmake"
    if version_file.exists():
        version = re.search(r'set\(PACKAGE_VERSION "([^"]*)"\)', version_file.read_text()).group(1)
        if version != project:
            failures.append(f"{version_file.name}: version {version}, the project's is {project}")
    return failures, len(installed)


def build_consumer(source, build, work, prefix):
    consumer = work / "consumer"
    configure = ["cmake", "-S", source / "tests/consumer", "-B", consumer,
                 f"-DCMAKE_PREFIX_PATH={prefix}", "-DCMAKE_BUILD_TYPE=Release"]
    if shutil.which("ccache"):
        configure.append("-DCMAKE_CXX_COMPILER_LAUNCHER=ccache")
    run(configure)
    run(["cmake", "--build", consumer, "-j2"])
    # It saw the installed package only: no include or library path into the source tree or the build.
    failures = []
    commands = (consumer / "compile_commands.json").read_text()
    links = "".join(p.read_text() for p in consumer.rglob("link.txt"))
    for tree in (source / "lib", build / "lib", build / "generated"):
        if str(tree) in commands or str(tree) in links:
            failures.append(f"the consumer's build reaches into {tree}")
    return consumer, failures


def check_npv_savings(source, build, prefix, consumer):
    env = {k: v for k, v in os.environ.items() if k != "PAYBACK_PRICING_DIR"}
    compare = [build / "bin/payback", "compare", "--json", source / "scenarios" / SCENARIO]
    reference = json.loads(run(compare, env))
    expected = [(v["rig"], v["cloud"], v["npv_savings"]) for v in reference["versus"]]
    installed_env = {**env, "PAYBACK_PRICING_DIR": str(prefix / "share/payback/pricing")}
    failures = []
    for program in ("npv_savings", "npv_savings_whole_archive"):
        scenario = prefix / "share/payback/scenarios" / SCENARIO
        lines = run([consumer / program, scenario], installed_env).splitlines()
        got = [(rig, cloud, float(savings)) for rig, cloud, savings in (line.split("\t") for line in lines)]
        pairs, expected_pairs = [g[:2] for g in got], [e[:2] for e in expected]
        if pairs != expected_pairs:
            failures.append(f"{program}: pairs {pairs}, compare --json has {expected_pairs}")
            continue
        for (rig, cloud, a), (_, _, b) in zip(got, expected):
            if not math.isclose(a, b, rel_tol=1e-12):
                failures.append(f"{program}: {rig} vs {cloud}: NPV savings {a!r}, compare --json {b!r}")
    return failures, len(expected)


def fail_on(failures):
    if failures:
        sys.exit("check_install: " + "\n  ".join(["the installed package is wrong:", *failures]))


def main():
    build, source = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve()
    work = build / "install-check"  # left there when a check fails, to look at
    shutil.rmtree(work, ignore_errors=True)
    prefix = work / "prefix"
    started = time.monotonic()
    run(["cmake", "--install", build, "--prefix", prefix])
    installed_at = time.monotonic()
    tree_failures, count = check_tree(source, build, prefix)
    fail_on(tree_failures)
    run([prefix / "bin/payback", "--version"])
    consumer, reach = build_consumer(source, build, work, prefix)
    built_at = time.monotonic()
    npv_failures, pairs = check_npv_savings(source, build, prefix, consumer)
    fail_on(reach + npv_failures)
    print(f"check_install: {count} files installed in {installed_at - started:.1f} s; the consumer built in "
          f"{built_at - installed_at:.1f} s and agrees with compare --json on {pairs} NPV savings")
    shutil.rmtree(work)
    return 0

if __name__ == "__main__":
    sys.exit(main())
