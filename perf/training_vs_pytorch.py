#!/usr/bin/env python3
"""Compare payback's CPU training throughput with PyTorch's, in one run, on this machine.

For each workload (the CIFAR-10 tutorial network, an MLP, and on request gpt-small, a transformer whose
samples are sequences of 256 tokens), batch size and thread count it measures the samples/s of a full training
step (forward, CrossEntropyLoss, zero_grad, backward, SGD lr 0.001 momentum 0.9)
on synthetic data already in memory, for three peers:
  - Debian's PyTorch (python3-torch 1.13, via /usr/bin/python3),
  - the current PyTorch from PyPI, in .venv-torch (make it with
      python3 -m venv .venv-torch && .venv-torch/bin/pip install -r tools/requirements-torch.txt),
  - `payback bench --device cpu ... --json`.
GFLOP/s are computed here for all three from the samples/s and the training FLOPs per sample.
Each PyTorch measurement runs perf/pytorch_training_step.py in its own process, with OPENBLAS_CORETYPE and
OPENBLAS_L2_SIZE removed from its environment and OPENBLAS_NUM_THREADS / OMP_NUM_THREADS set to the thread
count. Debian's torch uses whichever libblas.so.3 is installed (see the BLAS line under the table): the
reference BLAS makes its linear layers over 20x slower than libopenblas0-pthread does. A peer that cannot run is
reported as "unavailable: <why>".
gpt-small is timed with `--workloads gpt-small --batch 8 --threads 2` (its target: payback at least 1.5x
PyTorch); it is not in the default workloads, whose batch 256 would not fit in memory for it.
Run by hand from the repository root, on an otherwise idle machine; progress goes to stderr, the table (or
with --json the JSON) to stdout.
"""

import argparse
import json
import os
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
STEP_SCRIPT = pathlib.Path(__file__).resolve().parent / "pytorch_training_step.py"

# Training FLOPs per sample: 6 x forward MACs (forward 2, backward 4).
FLOPS_PER_SAMPLE = {
    "cifar10-tutorial": 6 * 651_720,
    "mlp": 6 * (3072 * 1024 + 1024 * 1024 + 1024 * 10),
    # pricing/models.csv's gpt-small row: 3 x (2 x matrix weights x 256 + 4 x layers x 256^2 x 512) + the tied head.
    "gpt-small": 37_849_399_296,
}
DEFAULT_WORKLOADS = ["cifar10-tutorial", "mlp"]
# FP32 FLOP a core can do a cycle: 2 FMA units x lanes x 2 FLOP (8 lanes with AVX2, 16 with AVX-512;
# some AVX-512 parts have one 512-bit FMA unit, and the estimate is then twice their peak). AMD's Zen 4
# (CPU family 25) runs a 512-bit FMA as two 256-bit halves on its two 256-bit units: 32, as with AVX2.
FP32_FLOP_PER_CYCLE = {"avx512f": 64, "avx2": 32}
ZEN4 = ("AuthenticAMD", "25")  # lscpu's Vendor ID and CPU family
PEERS = ("torch_debian", "torch_pypi", "payback")
BUSY_ELSEWHERE = 0.2  # cores used by other processes above which a measurement is flagged


def say(line):
    print(line, file=sys.stderr, flush=True)


def short_error(text):
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


def torch_env(threads=1):
    """The environment for a PyTorch process: no OpenBLAS tuning overrides, and an external BLAS (Debian's
    torch loads the system libblas.so.3) limited to the same thread count."""
    env = dict(os.environ)
    env.pop("OPENBLAS_CORETYPE", None)
    env.pop("OPENBLAS_L2_SIZE", None)
    env["OPENBLAS_NUM_THREADS"] = env["OMP_NUM_THREADS"] = str(threads)
    return env


def busy_seconds():
    """CPU seconds the whole machine has spent busy so far (/proc/stat, less idle and iowait)."""
    with open("/proc/stat") as stat:
        ticks = [int(x) for x in stat.readline().split()[1:]]
    return (sum(ticks[:8]) - ticks[3] - ticks[4]) / os.sysconf("SC_CLK_TCK")


def children_seconds():
    t = os.times()
    return t.children_user + t.children_system


def run_json(command, env=None):
    """Run a command that prints JSON; return (parsed, None) or (None, why it failed). The parsed object
    gains "other_processes_cores": the cores other processes kept busy on average while it ran."""
    busy, children, start = busy_seconds(), children_seconds(), time.perf_counter()
    try:
        done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=1800)
    except (OSError, subprocess.TimeoutExpired) as e:
        return None, str(e)
    others = ((busy_seconds() - busy) - (children_seconds() - children)) / (time.perf_counter() - start)
    if done.returncode != 0:
        return None, f"exit {done.returncode}: {short_error(done.stderr or done.stdout)}"
    try:
        result = json.loads(done.stdout)
    except json.JSONDecodeError:
        return None, f"output is not JSON: {short_error(done.stdout)}"
    result["other_processes_cores"] = max(0.0, others)
    return result, None


def torch_version(python):
    """The torch version `python` imports, or raise RuntimeError saying why it cannot."""
    if not pathlib.Path(python).exists():
        raise RuntimeError(f"{python} does not exist")
    done = subprocess.run([python, "-c", "import torch; print(torch.__version__)"], capture_output=True,
                          text=True, env=torch_env())
    if done.returncode != 0:
        raise RuntimeError(short_error(done.stderr))
    return done.stdout.strip()


def measure_torch(python, workload, batch, threads, args):
    result, error = run_json([python, str(STEP_SCRIPT), "--workload", workload, "--batch", str(batch),
                              "--threads", str(threads), "--seconds", str(args.seconds), "--runs", str(args.runs)],
                             env=torch_env(threads))
    return result if result else f"unavailable: {error}"


def measure_payback(workload, batch, threads, args):
    result, error = run_json([args.payback, "bench", "--device", "cpu", "--workload", workload, "--batch",
                              str(batch), "--threads", str(threads), "--repeats", str(args.runs), "--seconds",
                              str(args.seconds), "--json"])
    if not result:
        return f"unavailable: {error}"
    for r in result.get("results", []):
        if (r.get("device"), r.get("workload"), r.get("batch"), r.get("threads")) == ("cpu", workload, batch, threads):
            return {**r, "other_processes_cores": result["other_processes_cores"]}
    return "unavailable: payback bench printed no matching result"


def machine():
    """CPU model, cores, clock and the peak FP32 estimate from lscpu (falling back to /proc/cpuinfo)."""
    fields = {}
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, env={**os.environ, "LC_ALL": "C"}).stdout
        for line in out.splitlines():
            key, _, value = line.partition(":")
            fields[key.strip()] = value.strip()
    except OSError:
        pass
    cores = int(fields.get("Core(s) per socket", 0) or 0) * int(fields.get("Socket(s)", 0) or 0) or os.cpu_count()
    mhz, clock_source = None, None
    if fields.get("CPU max MHz"):
        mhz, clock_source = float(fields["CPU max MHz"]), "lscpu CPU max MHz"
    else:
        try:
            with open("/proc/cpuinfo") as cpuinfo:
                speeds = [float(line.split(":")[1]) for line in cpuinfo if line.startswith("cpu MHz")]
        except OSError:
            speeds = []
        if speeds:
            mhz, clock_source = max(speeds), "/proc/cpuinfo cpu MHz (lscpu gives no max MHz; likely a VM)"
    flags = set(fields.get("Flags", "").split())
    if not flags:
        try:
            with open("/proc/cpuinfo") as cpuinfo:
                flags = set(next((line.split(":")[1] for line in cpuinfo if line.startswith("flags")), "").split())
        except OSError:
            pass
    vector = next((name for name in FP32_FLOP_PER_CYCLE if name in flags), "avx2")
    per_cycle = FP32_FLOP_PER_CYCLE[vector]
    units = f"2 FMA units of {per_cycle // 4} lanes"
    if vector == "avx512f" and (fields.get("Vendor ID"), fields.get("CPU family")) == ZEN4:
        per_cycle, units = 32, "Zen 4: 2 FMA units of 8 lanes, a 512-bit FMA in two halves"
    peak = cores * per_cycle * mhz / 1000 if mhz else None
    return {
        "cpu": fields.get("Model name", "unknown"),
        "cores": cores,
        "clock_mhz": mhz,
        "clock_source": clock_source,
        "peak_gflops": peak,
        "flop_per_cycle": per_cycle,
        "peak_assumption": f"cores x {per_cycle} FP32 FLOP/cycle ({vector}: {units}) x clock",
        "load_average": os.getloadavg(),
    }


def rate(cell):
    return cell["samples_per_second"] if isinstance(cell, dict) else None


def compare(args):
    versions = {}
    pythons = {"torch_debian": args.debian_python, "torch_pypi": args.pypi_python}
    for peer, python in pythons.items():
        try:
            versions[peer] = torch_version(python)
            say(f"{peer}: torch {versions[peer]} ({python})")
        except (OSError, RuntimeError) as e:
            versions[peer] = f"unavailable: {e}"
            say(f"{peer}: {versions[peer]}")
    info = machine()
    if info["load_average"][0] > info["cores"] / 2:
        say(f"warning: load average {info['load_average'][0]:.1f} on {info['cores']} cores; "
            "other processes will distort the numbers")
    rows = []
    for workload in args.workloads:
        for batch in args.batch:
            for threads in args.threads:
                row = {"workload": workload, "batch": batch, "threads": threads,
                       "flops_per_sample": FLOPS_PER_SAMPLE[workload]}
                for peer, python in pythons.items():
                    say(f"{workload} batch {batch} threads {threads}: {peer}")
                    row[peer] = (versions[peer] if versions[peer].startswith("unavailable")
                                 else measure_torch(python, workload, batch, threads, args))
                say(f"{workload} batch {batch} threads {threads}: payback")
                row["payback"] = measure_payback(workload, batch, threads, args)
                for peer in PEERS:
                    if rate(row[peer]):
                        row[peer]["gflops"] = rate(row[peer]) * FLOPS_PER_SAMPLE[workload] / 1e9
                torch_rates = [rate(row[p]) for p in ("torch_debian", "torch_pypi") if rate(row[p])]
                row["payback_over_faster_torch"] = (rate(row["payback"]) / max(torch_rates)
                                                    if rate(row["payback"]) and torch_rates else None)
                rows.append(row)
    info["load_average_after"] = os.getloadavg()
    return {"machine": info, "torch_versions": versions, "payback": args.payback, "rows": rows}


def table(report):
    m, v = report["machine"], report["torch_versions"]
    peak = m["peak_gflops"]

    def speed(c):
        if not isinstance(c, dict):
            return "unavailable"
        mark = "*" if c["other_processes_cores"] > BUSY_ELSEWHERE else ""
        return (f"{c['samples_per_second']:.4g} ({c['samples_per_second_min']:.4g}-"
                f"{c['samples_per_second_max']:.4g}){mark}")

    def gflops(c, threads):
        if not isinstance(c, dict):
            return "-"
        if not peak:
            return f"{c['gflops']:.2f}"
        return f"{c['gflops']:.2f} ({100 * c['gflops'] / (peak * min(threads, m['cores']) / m['cores']):.1f}%)"

    heads = [f"torch {v[p]}" if not v[p].startswith("unavailable") else p for p in ("torch_debian", "torch_pypi")]
    head = f"{'workload':<17} {'batch':>5} {'thr':>3}  " + "  ".join(f"{h:>24}" for h in heads + ["payback"])
    lines = [f"samples/s: median of the timed runs (min-max); * other processes kept more than {BUSY_ELSEWHERE} "
             "cores busy meanwhile, so that number is unreliable", head + f"  {'payback/faster torch':>20}"]
    for r in report["rows"]:
        ratio = f"{r['payback_over_faster_torch']:.2f}" if r["payback_over_faster_torch"] else "-"
        lines.append(f"{r['workload']:<17} {r['batch']:>5} {r['threads']:>3}  "
                     + "  ".join(f"{speed(r[p]):>24}" for p in PEERS) + f"  {ratio:>20}")
    lines += ["", "GFLOP/s achieved (training FLOPs per sample: cifar10-tutorial 3.91 M, mlp 25.2 M, gpt-small 37.8 G)"
              + ("; in brackets the % of the peak for the threads used" if peak else ""), head]
    for r in report["rows"]:
        lines.append(f"{r['workload']:<17} {r['batch']:>5} {r['threads']:>3}  "
                     + "  ".join(f"{gflops(r[p], r['threads']):>24}" for p in PEERS))
    lines.append("")
    if peak:
        lines.append(f"peak estimate: {peak:.1f} GFLOP/s FP32 = {m['cores']} cores x {m['flop_per_cycle']} "
                     f"FLOP/cycle x {m['clock_mhz']:.0f} MHz ({m['clock_source']}); "
                     f"assumption: {m['peak_assumption']}")
    lines.append(f"cpu: {m['cpu']}; 1-minute load average before {m['load_average'][0]:.2f}, "
                 f"after {m['load_average_after'][0]:.2f}")
    for p in ("torch_debian", "torch_pypi"):
        blas = next((r[p]["blas"] for r in report["rows"] if isinstance(r[p], dict)), None)
        if blas:
            lines.append(f"{p}: torch {v[p]}, BLAS: {blas}")
    lines += sorted({f"{p}: {r[p]}" for r in report["rows"] for p in PEERS if not isinstance(r[p], dict)})
    return "\n".join(lines) + "\n"


def int_list(text):
    return [int(x) for x in text.split(",") if x]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--batch", type=int_list, default=[4, 256], help="batch sizes (default 4,256)")
    parser.add_argument("--threads", type=int_list, default=[2], help="thread counts (default 2)")
    parser.add_argument("--workloads", type=lambda s: s.split(","), default=DEFAULT_WORKLOADS,
                        help="comma-separated, from cifar10-tutorial,mlp,gpt-small (default the first two)")
    parser.add_argument("--payback", default=str(ROOT / "build" / "bin" / "payback"),
                        help="the payback binary (default build/bin/payback)")
    parser.add_argument("--debian-python", default="/usr/bin/python3", help="Python with Debian's torch")
    parser.add_argument("--pypi-python", default=str(ROOT / ".venv-torch" / "bin" / "python"),
                        help="Python with PyPI's torch (default .venv-torch/bin/python)")
    parser.add_argument("--seconds", type=float, default=0.5, help="minimum length of one timed run (default 0.5)")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per measurement (default 7)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of the table")
    args = parser.parse_args()
    unknown = set(args.workloads) - set(FLOPS_PER_SAMPLE)
    if unknown:
        parser.error(f"unknown workload(s): {', '.join(sorted(unknown))}")
    report = compare(args)
    sys.stdout.write(json.dumps(report, indent=2) + "\n" if args.json else table(report))


if __name__ == "__main__":
    main()
