#!/usr/bin/env python3
"""The hot paths' speed on each instruction set this CPU runs, and a -march=native build's, in one run.

For each variant (PAYBACK_ISA): the Monte Carlo evaluation of a million samples (superposed, the
two metrics bench/montecarlo_vs_numpy.py compares), lanes of the whole model (200,000 samples), and
the CPU trainer on the tutorial network at batch 256 on 2 threads. Prints a Markdown table. Run by
hand from the repository root after ./dev build; a native build for the last row:

    cmake -B build/native -DCMAKE_BUILD_TYPE=Release -DPAYBACK_NATIVE=ON -DPAYBACK_BUILD_TESTS=OFF \\
          -DPAYBACK_PYTHON=OFF -DPAYBACK_CUDA=OFF && cmake --build build/native -j2 --target payback montecarlo_throughput
    python3 bench/isa_variants.py [--native build/native] [--repeats 5]
"""
import argparse
import json
import os
import subprocess

SCENARIO = "bench/montecarlo-bench.toml"


def run_json(command, isa):
    env = dict(os.environ)
    env.pop("PAYBACK_ISA", None)
    if isa:
        env["PAYBACK_ISA"] = isa
    done = subprocess.run(command, capture_output=True, text=True, env=env)
    if done.returncode != 0:
        return None
    return json.loads(done.stdout)


def measure(build, isa, repeats):
    mc = [f"{build}/bin/montecarlo_throughput", SCENARIO]
    superposed = run_json([*mc, "1000000", "1", "--metrics", "npv_savings,payback_months", "--repeats", str(repeats)], isa)
    if superposed is None:
        return None
    lanes = run_json([*mc, "200000", "1", "--lanes", "--repeats", str(repeats)], isa)
    bench = run_json([f"{build}/bin/payback", "bench", "--device", "cpu", "--workload", "cifar10-tutorial",
                      "--batch", "256", "--threads", "2", "--repeats", str(repeats), "--seconds", "0.5", "--json"], isa)
    trainer = bench["results"][0]
    return {"isa": superposed["isa"], "superposed_s": superposed["evaluation_seconds"],
            "lanes_s": lanes["evaluation_seconds"], "trainer": trainer["samples_per_second"],
            "gflops": trainer["gflops"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--native", help="a PAYBACK_NATIVE=ON build directory, for the last row")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rows = []
    for isa in ["x86-64-v2", "x86-64-v3", "x86-64-v4"]:
        row = measure(args.build, isa, args.repeats)
        if row:
            rows.append((f"dispatched, {isa}", row))
    if args.native:
        rows.append(("-march=native build", measure(args.native, None, args.repeats)))
    best = rows[len(rows) - 2 if args.native else -1][1]
    print("| build, variant | Monte Carlo 1e6 × 60 superposed, 1 thread | lanes 2e5, 1 thread "
          "| trainer, cifar10 b256, 2 threads | ÷ best dispatched (MC, lanes, trainer) |")
    print("|---|---|---|---|---|")
    for name, r in rows:
        ratio = (f"{best['superposed_s'] / r['superposed_s']:.2f}, {best['lanes_s'] / r['lanes_s']:.2f}, "
                 f"{r['trainer'] / best['trainer']:.2f}")
        print(f"| {name} | {r['superposed_s']:.4f} s | {r['lanes_s']:.4f} s | {r['trainer']:,.0f} samples/s "
              f"({r['gflops']:.1f} GFLOP/s) | {ratio} |")


if __name__ == "__main__":
    main()
