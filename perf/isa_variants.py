#!/usr/bin/env python3
"""The hot paths' speed on each instruction set this CPU runs, and a -march=native build's, in one run.

For each variant (PAYBACK_ISA): the Monte Carlo evaluation of a million samples (superposed, the
two metrics perf/montecarlo_vs_numpy.py compares; in brackets the whole call with the draw and the
summaries), lanes of the whole model (200,000 samples), and
the CPU trainer on the tutorial network at batch 256 on 2 threads. The builds and variants take turns
for --rounds rounds, and each cell keeps its best round (a shared machine's noise only slows a run
down). Prints a Markdown table. Run by
hand from the repository root after ./dev build; a native build for the last row:

    cmake -B build/native -DCMAKE_BUILD_TYPE=Release -DPAYBACK_NATIVE=ON -DPAYBACK_BUILD_TESTS=OFF \\
          -DPAYBACK_PYTHON=OFF -DPAYBACK_CUDA=OFF && cmake --build build/native -j2 --target payback montecarlo_throughput
    python3 perf/isa_variants.py [--native build/native] [--repeats 5] [--rounds 3]
"""
import argparse
import json
import os
import subprocess

SCENARIO = "perf/montecarlo-bench.toml"


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
            "whole_s": superposed["total_seconds"],
            "lanes_s": lanes["evaluation_seconds"], "trainer": trainer["samples_per_second"],
            "gflops": trainer["gflops"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--native", help="a PAYBACK_NATIVE=ON build directory, for the last row")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    runs = [(f"dispatched, {isa}", args.build, isa) for isa in ["x86-64-v2", "x86-64-v3", "x86-64-v4"]]
    if args.native:
        runs.append(("-march=native build", args.native, None))
    best_of = {}
    for _ in range(args.rounds):
        for name, build, isa in runs:
            r = measure(build, isa, args.repeats)
            if r is None:  # a variant this CPU cannot run
                continue
            kept = best_of.setdefault(name, r)
            for key in ("superposed_s", "whole_s", "lanes_s"):
                kept[key] = min(kept[key], r[key])
            if r["trainer"] > kept["trainer"]:
                kept["trainer"], kept["gflops"] = r["trainer"], r["gflops"]
    rows = [(name, best_of[name]) for name, _, _ in runs if name in best_of]
    best = rows[len(rows) - 2 if args.native else -1][1]
    print("| build, variant | Monte Carlo 1e6 × 60 superposed, 1 thread (whole call) | lanes 2e5, 1 thread "
          "| trainer, cifar10 b256, 2 threads | speed ÷ best dispatched (MC, lanes, trainer) |")
    print("|---|---|---|---|---|")
    for name, r in rows:
        ratio = (f"{best['superposed_s'] / r['superposed_s']:.2f}, {best['lanes_s'] / r['lanes_s']:.2f}, "
                 f"{r['trainer'] / best['trainer']:.2f}")
        print(f"| {name} | {r['superposed_s']:.4f} s ({r['whole_s']:.3f} s) | {r['lanes_s']:.4f} s | {r['trainer']:,.0f} samples/s "
              f"({r['gflops']:.1f} GFLOP/s) | {ratio} |")


if __name__ == "__main__":
    main()
