#!/usr/bin/env python3
"""A program built here runs on older CPUs, each picking the variant of the hot paths it can run.

qemu's user-mode emulation runs the built `payback` as a Haswell (AVX2 and FMA, no AVX-512: the
x86-64-v3 variant) and as a Nehalem (x86-64-v2, the baseline). Any AVX-512 instruction reached there,
from the dispatched code or an inline function that leaked across variants, ends the program with
SIGILL. The Monte Carlo metrics must agree with this CPU's within 1e-9 relative, and a short CPU
benchmark must train. Exit 77 (skipped) without qemu-x86_64 (./dev test installs qemu-user).

Usage: isa_portability.py PAYBACK_BINARY SOURCE_DIR
"""
import json
import math
import shutil
import subprocess
import sys

CPUS = [("Haswell-v4", "x86-64-v3"), ("Nehalem-v2", "x86-64-v2")]


def run(command):
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)}: exit {done.returncode}\n{done.stderr}")
    return done.stdout


def numbers(node, path=""):
    """Every number in a JSON document, by its path."""
    if isinstance(node, dict):
        for key, value in node.items():
            yield from numbers(value, f"{path}.{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from numbers(value, f"{path}[{i}]")
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        yield path, float(node)


def main():
    payback, source = sys.argv[1], sys.argv[2]
    qemu = shutil.which("qemu-x86_64")
    if not qemu:
        print("no qemu-x86_64 (apt-get install qemu-user): skipped")
        return 77
    scenario = f"{source}/scenarios/venus-2019-uncertain.toml"
    montecarlo = ["montecarlo", scenario, "--samples", "3000", "--json"]
    here = json.loads(run([payback, *montecarlo]))
    failures = []
    for cpu, variant in CPUS:
        emulated = [qemu, "-cpu", cpu, payback]
        version = run([*emulated, "--version"])
        if f"hot paths: {variant}" not in version:
            failures.append(f"{cpu}: expected {variant}, --version says {version!r}")
        there = json.loads(run([*emulated, *montecarlo]))
        if there["isa"] != variant:
            failures.append(f"{cpu}: montecarlo --json says isa {there['isa']}")
        for (path, a), (_, b) in zip(numbers(here["metrics"]), numbers(there["metrics"])):
            if not math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9):
                failures.append(f"{cpu}: metrics{path} is {b}, here {a}")
        bench = json.loads(run([*emulated, "bench", "--device", "cpu", "--workload", "mlp", "--batch", "16",
                                "--threads", "1", "--repeats", "1", "--seconds", "0.05", "--json"]))
        isas = {r.get("isa") for r in bench.get("results", [])}
        if isas != {variant}:
            failures.append(f"{cpu}: the benchmark ran {isas}")
        print(f"{cpu}: {variant}; Monte Carlo agrees; benchmark: "
              f"{bench['results'][0]['samples_per_second']:.0f} samples/s emulated")
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
