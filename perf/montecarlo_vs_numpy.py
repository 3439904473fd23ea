#!/usr/bin/env python3
"""Time payback's Monte Carlo batch engine against the same model written in NumPy and in plain Python.

The model is the scenario perf/montecarlo-bench.toml with its four uncertain inputs: training hours a month h,
electricity price p ($/kWh), cloud price c ($/h) and the GPU's resale rate r (declining balance, a year).
Month m = 1..H, discounting a flow at the end of month m by 1.07^(-m/12):
  - the rig: capex 1600 + 1400 at time 0; at each month's end energy at the wall
    (h (350 + 150) + (730 - h)(20 + 60)) W-h / 0.9 / 1000 kWh at p; at the horizon's end the parts sold for
    1600 (1 - r)^(H/12) and 1400 (1 - 0.9 min(H / 60, 1));
  - the cloud: h / 1.2 instance hours at c at each month's end (no job_hours, so no billing rounding);
  - npv_savings = NPV(rig) - NPV(cloud), signed flows; payback_months = the first time the cumulative operating
    gap (rig capex + energy so far - cloud spend so far) reaches 0, interpolated within the month; NaN if never.
Three peers evaluate it month by month over the samples:
  - payback: build/bin/montecarlo_throughput SCENARIO SAMPLES [THREADS] --metrics npv_savings,payback_months (its
    own draw; the time is its evaluation_seconds, the draw excluded; peak memory is its whole process). These
    are the two metrics the other peers compute; rows marked "all metrics" time what `payback montecarlo`
    computes (also the discounted payback and each option's total costs),
  - NumPy: a month loop over arrays of samples (--numpy-chunk at a time), single-threaded, in a child process
    that reports its peak RSS (resource.getrusage) and times the draw and the evaluation separately,
  - plain Python: a loop over samples and months on --python-samples samples, scaled per sample-month.
A fourth line, "NumPy closed form", sums the constant monthly flows in closed form (O(samples), not
O(samples x months)): what this particular scenario allows, not the month-by-month model the others run.

At start-up every implementation is checked against `payback compare --set ... --json` at fixed inputs
(npv_savings and payback_months to 1e-9 relative); the script stops if any disagrees. Because payback draws its
own samples, its mean npv_savings is compared with NumPy's (and with the exact expectation) in standard errors.
Run by hand from the repository root on an otherwise idle machine, with the project's .venv
(numpy pinned in tools/requirements-bench.txt); progress goes to stderr, the table (or with --json the JSON
summary) to stdout.
"""

import argparse
import json
import math
import os
import pathlib
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "bench" / "montecarlo-bench.toml"
THROUGHPUT = ROOT / "build" / "bin" / "montecarlo_throughput"
PAYBACK = ROOT / "build" / "bin" / "payback"

# The scenario's numbers (perf/montecarlo-bench.toml); check_scenario() checks them against the file.
HOURS_PER_MONTH = 730.0
DISCOUNT_RATE = 0.07
GPU_PRICE, REST_PRICE = 1600.0, 1400.0
LOAD_WATTS = 350.0 + 150.0  # GPU + the rest, training
IDLE_WATTS = 20.0 + 60.0    # when_not_training = "idle"
PSU_EFFICIENCY = 0.9
REST_LIFE_YEARS, REST_SALVAGE = 5.0, 0.1
SPEEDUP = 1.2
# The uncertain inputs, in the order of INPUT_KEYS.
INPUT_KEYS = ("workload.gpu_hours_per_month", "electricity.price_per_kwh", "cloud[0].price_per_hour",
              "rig.parts[0].resale.annual_rate")
DISTRIBUTIONS = {
    "workload.gpu_hours_per_month": ("triangular", 40.0, 200.0, 500.0),
    "electricity.price_per_kwh": ("uniform", 0.10, None, 0.40),
    "cloud[0].price_per_hour": ("triangular", 1.2, 2.0, 3.0),
    "rig.parts[0].resale.annual_rate": ("pert", 0.15, 0.25, 0.40),
}
# Fixed inputs (h, p, c, r) checked against `payback compare`: the modes, an odd point, never paid back, the
# fastest payback, and a late one (about month 33: none at H = 12).
CHECK_POINTS = [(200.0, 0.20, 2.0, 0.25), (317.5, 0.137, 2.73, 0.31), (40.0, 0.40, 1.2, 0.15),
                (500.0, 0.10, 3.0, 0.40), (40.0, 0.10, 3.0, 0.2)]
TOLERANCE = 1e-9


def say(line):
    print(line, file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------------------
# The model, three ways.

def resale_value(r, horizon, power=None):
    """What the parts fetch at the horizon's end; `power(base, exponent)` (np.power) for arrays of r."""
    years = horizon / 12.0
    gpu = GPU_PRICE * ((1.0 - r) ** years if power is None else power(1.0 - r, years))
    return gpu + REST_PRICE * (1.0 - (1.0 - REST_SALVAGE) * min(years / REST_LIFE_YEARS, 1.0))


def model_python(h, p, c, r, horizon):
    """One sample, month by month, in plain Python floats: (npv_savings, payback_months)."""
    capex = -(GPU_PRICE + REST_PRICE)
    kwh = (h * LOAD_WATTS + (HOURS_PER_MONTH - h) * IDLE_WATTS) / PSU_EFFICIENCY / 1000.0
    energy = -(kwh * p)
    cloud = -(h / SPEEDUP * c)
    resale = resale_value(r, horizon)
    rig_pv = cloud_pv = operating = 0.0
    payback = math.nan
    found = False
    for m in range(1, horizon + 1):
        discount_start = (1.0 + DISCOUNT_RATE) ** (-(m - 1.0) / 12.0)
        discount_end = (1.0 + DISCOUNT_RATE) ** (-m / 12.0)
        at_start = capex if m == 1 else 0.0
        rig_end = energy + resale if m == horizon else energy
        rig_pv += at_start * discount_start + rig_end * discount_end
        cloud_pv += cloud * discount_end
        # The operating gap (rig outlay - cloud spend): no resale.
        operating_end = energy - cloud
        gap_start = -(operating + at_start)
        gap_end = gap_start - operating_end
        operating += at_start + operating_end
        if not found and gap_end <= 0.0:
            payback = (m - 1.0) + (0.0 if gap_start <= 0.0 else gap_start / (gap_start - gap_end))
            found = True
    return rig_pv - cloud_pv, payback


def model_numpy(np, h, p, c, r, horizon):
    """Every sample at once, month by month over arrays of samples: (npv_savings, payback_months)."""
    n = h.shape[0]
    capex = -(GPU_PRICE + REST_PRICE)
    energy = -((h * LOAD_WATTS + (HOURS_PER_MONTH - h) * IDLE_WATTS) / PSU_EFFICIENCY / 1000.0 * p)
    cloud = -(h / SPEEDUP * c)
    operating_end = energy - cloud  # rig - cloud operating flow at each month's end
    resale = resale_value(r, horizon, np.power)
    rig_pv = np.zeros(n)
    cloud_pv = np.zeros(n)
    operating = np.zeros(n)
    payback = np.full(n, np.nan)
    found = np.zeros(n, dtype=bool)
    gap_start = np.empty(n)
    gap_end = np.empty(n)
    crosses = np.empty(n, dtype=bool)
    for m in range(1, horizon + 1):
        discount_end = (1.0 + DISCOUNT_RATE) ** (-m / 12.0)
        at_start = capex if m == 1 else 0.0
        rig_pv += at_start + energy * discount_end  # capex only in month 1, at time 0 (factor 1)
        if m == horizon:
            rig_pv += resale * discount_end
        cloud_pv += cloud * discount_end
        np.add(operating, at_start, out=gap_start)
        np.negative(gap_start, out=gap_start)
        np.subtract(gap_start, operating_end, out=gap_end)
        operating += at_start
        operating += operating_end
        np.less_equal(gap_end, 0.0, out=crosses)
        crosses &= ~found
        if crosses.any():
            g0 = gap_start[crosses]
            ahead = g0 <= 0.0  # already ahead at the month's start: its start (guard the division anyway)
            payback[crosses] = (m - 1.0) + np.where(ahead, 0.0, g0 / np.where(ahead, 1.0, g0 - gap_end[crosses]))
            found |= crosses
    return rig_pv - cloud_pv, payback


def model_numpy_chunked(np, h, p, c, r, horizon, chunk):
    """model_numpy over `chunk` samples at a time (0: all at once), so its arrays stay in cache."""
    if chunk <= 0 or chunk >= h.shape[0]:
        return model_numpy(np, h, p, c, r, horizon)
    parts = [model_numpy(np, h[i:i + chunk], p[i:i + chunk], c[i:i + chunk], r[i:i + chunk], horizon)
             for i in range(0, h.shape[0], chunk)]
    return np.concatenate([part[0] for part in parts]), np.concatenate([part[1] for part in parts])


def model_numpy_closed_form(np, h, p, c, r, horizon):
    """The same results from closed-form sums: every month's flows are the same here."""
    capex = GPU_PRICE + REST_PRICE
    months = np.arange(1, horizon + 1, dtype=float)
    annuity = float(np.sum((1.0 + DISCOUNT_RATE) ** (-months / 12.0)))
    last = (1.0 + DISCOUNT_RATE) ** (-horizon / 12.0)
    energy = (h * LOAD_WATTS + (HOURS_PER_MONTH - h) * IDLE_WATTS) / PSU_EFFICIENCY / 1000.0 * p
    cloud = h / SPEEDUP * c
    npv = -capex + (cloud - energy) * annuity + resale_value(r, horizon, np.power) * last
    saving = cloud - energy
    with np.errstate(divide="ignore", invalid="ignore"):
        t = capex / saving
    payback = np.where((saving > 0) & (t <= horizon), t, np.nan)
    return npv, payback


# ---------------------------------------------------------------------------------------------------------
# Sampling and the exact expectation.

def draw_numpy(np, n, seed):
    """The inputs as (h, p, c, r) arrays, from numpy's Generator: triangular, uniform and PERT via beta."""
    rng = np.random.default_rng(seed)
    out = []
    for key in INPUT_KEYS:
        kind, low, mode, high = DISTRIBUTIONS[key]
        if kind == "triangular":
            out.append(rng.triangular(low, mode, high, n))
        elif kind == "uniform":
            out.append(rng.uniform(low, high, n))
        else:  # PERT, lambda 4
            a = 1.0 + 4.0 * (mode - low) / (high - low)
            b = 1.0 + 4.0 * (high - mode) / (high - low)
            out.append(low + (high - low) * rng.beta(a, b, n))
    return out


def distribution_mean(kind, low, mode, high):
    if kind == "triangular":
        return (low + mode + high) / 3.0
    if kind == "uniform":
        return (low + high) / 2.0
    return (low + 4.0 * mode + high) / 6.0


def expected_npv_savings(np, horizon):
    """E[npv_savings], exactly: npv_savings is linear in h, p, c, h·p, h·c and (1 - r)^(H/12), and the inputs
    are independent, so it is the model at the inputs' means with r set so that (1 - r)^(H/12) equals
    E[(1 - r)^(H/12)] under the PERT (Gauss-Legendre quadrature of the beta density, 200 nodes)."""
    kind, low, mode, high = DISTRIBUTIONS["rig.parts[0].resale.annual_rate"]
    a = 1.0 + 4.0 * (mode - low) / (high - low)
    b = 1.0 + 4.0 * (high - mode) / (high - low)
    x, w = np.polynomial.legendre.leggauss(200)
    x = (x + 1.0) / 2.0
    w = w / 2.0
    log_beta = math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    density = np.exp((a - 1.0) * np.log(x) + (b - 1.0) * np.log1p(-x) - log_beta)
    kept = float(np.sum(w * density * (1.0 - (low + (high - low) * x)) ** (horizon / 12.0)))
    r_equivalent = 1.0 - kept ** (12.0 / horizon)
    h, p, c = (distribution_mean(*DISTRIBUTIONS[k]) for k in INPUT_KEYS[:3])
    return model_python(h, p, c, r_equivalent, horizon)[0]


# ---------------------------------------------------------------------------------------------------------
# The worker: one NumPy or plain-Python measurement in its own process, for its peak RSS.

def worker(args):
    import numpy as np

    rss_after_import = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    start = time.perf_counter()
    h, p, c, r = draw_numpy(np, args.samples, args.seed)
    draw_seconds = time.perf_counter() - start
    result = {"peer": args.worker, "samples": args.samples, "months": args.horizon, "draw_seconds": draw_seconds,
              "rss_after_import_mb": rss_after_import}
    if args.worker == "python":
        rows = list(zip(h.tolist(), p.tolist(), c.tolist(), r.tolist()))
        start = time.perf_counter()
        npv = [model_python(*row, args.horizon)[0] for row in rows]
        result["evaluation_seconds"] = time.perf_counter() - start
        result["mean_npv_savings"] = statistics.fmean(npv)
        # The same samples through NumPy, to show the loop computes what NumPy does (not timed).
        npv_np, _ = model_numpy(np, h, p, c, r, args.horizon)
        result["max_relative_difference_from_numpy"] = float(
            np.max(np.abs(np.array(npv) - npv_np) / np.maximum(np.abs(npv_np), 1.0)))
    else:
        start = time.perf_counter()
        if args.worker == "numpy":
            npv, payback = model_numpy_chunked(np, h, p, c, r, args.horizon, args.numpy_chunk)
        else:
            npv, payback = model_numpy_closed_form(np, h, p, c, r, args.horizon)
        result["evaluation_seconds"] = time.perf_counter() - start
        result["mean_npv_savings"] = float(np.mean(npv))
        result["sd_npv_savings"] = float(np.std(npv, ddof=1))
        result["standard_error"] = result["sd_npv_savings"] / math.sqrt(args.samples)
        result["share_paid_back"] = float(np.mean(~np.isnan(payback)))
    result["sample_months_per_second"] = args.samples * args.horizon / result["evaluation_seconds"]
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    print(json.dumps(result))


# ---------------------------------------------------------------------------------------------------------
# Running the peers.

def short_error(text):
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else "no output"


def children_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_json(command):
    """Runs a command that prints JSON and returns it parsed, with "process_cpu_share": the child's CPU seconds
    over its wall seconds (for a 1-thread run, well under 1 means other processes took the CPU)."""
    cpu, start = children_seconds(), time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, timeout=3600)
    cpu, wall = children_seconds() - cpu, time.perf_counter() - start
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, command))}: exit {done.returncode}: "
                           f"{short_error(done.stderr or done.stdout)}")
    try:
        parsed = json.loads(done.stdout)
    except json.JSONDecodeError:  # a JSON line after other output
        parsed = json.loads(done.stdout.strip().splitlines()[-1])
    parsed["process_cpu_share"] = cpu / wall if wall > 0 else math.nan
    return parsed


def best_of(runs):
    """The run with the shortest evaluation, with the median of all runs' times beside it."""
    best = min(runs, key=lambda run: run["evaluation_seconds"])
    best = dict(best)
    best["runs"] = len(runs)
    best["median_evaluation_seconds"] = statistics.median(run["evaluation_seconds"] for run in runs)
    best["peak_rss_mb"] = max(run["peak_rss_mb"] for run in runs)
    return best


PEER_METRICS = "npv_savings,payback_months"  # what the NumPy and Python peers compute


def run_payback(args, scenario, samples, threads, repeats=None, metrics=PEER_METRICS):
    """payback's best run; metrics=None: every metric `payback montecarlo` reports."""
    command = [str(args.throughput), str(scenario), str(samples), str(threads)]
    if metrics:
        command += ["--metrics", metrics]
    runs = []
    for _ in range(repeats or args.repeats):
        runs.append(run_json(command))
    return best_of(runs)


def run_worker(args, peer, samples, horizon, repeats=None):
    runs = []
    for _ in range(repeats or args.repeats):
        runs.append(run_json([sys.executable, str(pathlib.Path(__file__).resolve()), "--worker", peer,
                              "--samples", str(samples), "--horizon", str(horizon), "--seed", str(args.seed),
                              "--numpy-chunk", str(args.numpy_chunk)]))
    return best_of(runs)


# ---------------------------------------------------------------------------------------------------------
# Scenario files and the check against `payback compare`.

def check_scenario(text):
    """Stops when the scenario no longer says what this script's constants assume."""
    expect = {"horizon_months": "60", "discount_rate": "0.07", "gpu_hours_per_month": "200", "psu_efficiency": "0.9",
              "price_per_kwh": "0.20", "price_per_hour": "2.0", "speedup": "1.2"}
    for key, value in expect.items():
        found = re.search(rf"^{key}\s*=\s*(\S+)", text, re.M)
        if not found or found.group(1) != value:
            sys.exit(f"montecarlo_vs_numpy: {SCENARIO.name}: expected {key} = {value}; update the script's model")
    if 'when_not_training = "idle"' not in text or text.count("[[rig.parts]]") != 2 or text.count("[[cloud]]") != 1:
        sys.exit(f"montecarlo_vs_numpy: {SCENARIO.name}: the rig or the cloud changed; update the script's model")


def with_horizon(text, horizon, directory):
    path = pathlib.Path(directory) / f"montecarlo-bench-{horizon}.toml"
    path.write_text(re.sub(r"^horizon_months\s*=.*$", f"horizon_months = {horizon}", text, count=1, flags=re.M))
    return path


def payback_compare(args, scenario, point):
    command = [str(args.payback), "compare", str(scenario)]
    for key, value in zip(INPUT_KEYS, point):
        command += ["--set", f"{key}={value!r}"]
    versus = run_json(command + ["--json"])["versus"][0]
    pb = versus["payback_months"]
    return versus["npv_savings"], math.nan if pb is None else pb


def relative_difference(a, b):
    """|a - b| over the larger magnitude (at least 1); 0 when both are NaN, inf when only one is."""
    if math.isnan(a) or math.isnan(b):
        return 0.0 if math.isnan(a) and math.isnan(b) else math.inf
    return abs(a - b) / max(abs(a), abs(b), 1.0)


def validate(args, np, scenarios):
    """Each implementation against `payback compare` at the fixed points; exits on a disagreement."""
    checks = []
    for horizon, scenario in scenarios.items():
        points = CHECK_POINTS if horizon == 60 else [CHECK_POINTS[0], CHECK_POINTS[1], CHECK_POINTS[4]]
        arrays = [np.array(column) for column in zip(*points)]
        vectorized = model_numpy_chunked(np, *arrays, horizon, 2)  # in chunks, to check the chunking too
        closed = model_numpy_closed_form(np, *arrays, horizon)
        for i, point in enumerate(points):
            reference = payback_compare(args, scenario, point)
            ours = {"python": model_python(*point, horizon),
                    "numpy": (float(vectorized[0][i]), float(vectorized[1][i])),
                    "numpy_closed_form": (float(closed[0][i]), float(closed[1][i]))}
            check = {"horizon_months": horizon, "inputs": dict(zip(INPUT_KEYS, point)),
                     "payback": {"npv_savings": reference[0], "payback_months": reference[1]}}
            worst = 0.0
            for name, (npv, months) in ours.items():
                difference = max(relative_difference(npv, reference[0]), relative_difference(months, reference[1]))
                worst = max(worst, difference)
                if difference > TOLERANCE:
                    sys.exit(f"montecarlo_vs_numpy: {name} disagrees with payback at H={horizon}, "
                             f"(h, p, c, r) = {point}: npv_savings {npv!r} vs {reference[0]!r}, "
                             f"payback_months {months!r} vs {reference[1]!r}")
                check[name] = {"npv_savings": npv, "payback_months": months, "relative_difference": difference}
            checks.append(check)
            say(f"  H={horizon:3d} (h, p, c, r) = {point}: npv_savings {reference[0]:.6f}, payback_months "
                f"{reference[1]:.6f}; Python, NumPy, closed form within {worst:.1e} relative")
    return checks


def check_programs(args):
    for program in (args.throughput, args.payback):
        if not program.exists():
            sys.exit(f"montecarlo_vs_numpy: {program} not found; build it with\n  cmake --preset release && "
                     "cmake --build --preset release --target montecarlo_throughput payback")


# ---------------------------------------------------------------------------------------------------------

def fmt_rate(x):
    return f"{x:.3g}"


def print_table(summary):
    out = []
    s = summary
    out.append(f"Monte Carlo throughput, {SCENARIO.name} (4 uncertain inputs, 1 cloud option), "
               f"{s['cpu_count']} CPUs, best of {s['repeats']} runs")
    out.append("")
    out.append(f"{'peer':<34} {'samples':>9} {'months':>6} {'eval s':>9} {'sample-months/s':>16} "
               f"{'payback/peer':>12} {'peak RSS MB':>11} {'CPU share':>9}")
    for row in s["throughput"]:
        ratio = "" if row["ratio_payback_1_thread"] is None else f"{row['ratio_payback_1_thread']:.3g}x"
        out.append(f"{row['peer']:<34} {row['samples']:>9} {row['months']:>6} {row['evaluation_seconds']:>9.4f} "
                   f"{fmt_rate(row['sample_months_per_second']):>16} {ratio:>12} {row['peak_rss_mb']:>11.1f} "
                   f"{row['process_cpu_share']:>9.2f}")
    out.append(f"(payback: the peers' two metrics, {PEER_METRICS}; \"all metrics\": what `payback montecarlo` "
               "computes. payback/peer: payback at 1 thread, peers' metrics, over the peer, in sample-months per "
               "second; NumPy's draw is not timed, nor is payback's. CPU share: the best run's CPU seconds over its "
               "wall seconds, whole process; under about 0.9 for a 1-thread peer, other processes took the CPU)")
    r = s["ratios"]
    out.append(f"payback over NumPy: {r['payback_over_numpy']:.1f}x at 1 thread, {r['payback_all_threads_over_numpy']:.1f}x "
               f"at all threads (all metrics: {r['payback_all_metrics_over_numpy']:.1f}x, "
               f"{r['payback_all_metrics_all_threads_over_numpy']:.1f}x); over plain Python: "
               f"{r['payback_over_python']:.0f}x, {r['payback_all_threads_over_python']:.0f}x; over NumPy's closed "
               f"form: {r['payback_over_numpy_closed_form']:.2f}x, {r['payback_all_threads_over_numpy_closed_form']:.2f}x")
    out.append(f"load average at start {s['load_average_at_start'][0]:.2f}, at end {s['load_average_at_end'][0]:.2f}")
    w = s["wall_1m_60"]
    out.append("")
    out.append(f"{w['samples']:,} samples x 60 months: payback evaluation "
               f"{w['payback_1_thread']['evaluation_seconds']:.3f} s at 1 thread, "
               f"{w['payback_all_threads']['evaluation_seconds']:.3f} s at all threads "
               f"(with its draw and summaries {w['payback_all_threads']['total_seconds']:.3f} s; all metrics "
               f"{w['payback_all_metrics_all_threads']['total_seconds']:.3f} s), peak RSS "
               f"{w['payback_all_threads']['peak_rss_mb']:.1f} MB; NumPy {w['numpy']['evaluation_seconds']:.3f} s "
               f"(+ draw {w['numpy']['draw_seconds']:.3f} s), peak RSS {w['numpy']['peak_rss_mb']:.1f} MB "
               f"({w['numpy']['rss_after_import_mb']:.1f} MB after importing numpy)")
    m = s["means"]
    out.append("")
    out.append(f"mean npv_savings, {m['samples']:,} samples, H=60: payback {m['payback']:.2f}, NumPy {m['numpy']:.2f} "
               f"± {m['standard_error']:.2f} (standard error of one run); exact expectation {m['exact']:.2f}")
    out.append(f"  payback - NumPy = {m['payback'] - m['numpy']:+.2f} = {m['difference_in_standard_errors']:+.2f} "
               f"standard errors of the difference; payback - exact = {m['payback'] - m['exact']:+.2f} = "
               f"{m['payback_vs_exact_in_standard_errors']:+.2f} SE; NumPy - exact = "
               f"{m['numpy'] - m['exact']:+.2f} = {m['numpy_vs_exact_in_standard_errors']:+.2f} SE")
    out.append("")
    out.append(f"scaling, 1 thread (best of {s['scaling_repeats']} runs; the 1e6 x 60 row is the one above)")
    out.append(f"{'samples':>9} {'months':>6} {'threads':>7} {'eval s':>9} {'sample-months/s':>16} {'peak RSS MB':>11} "
               f"{'NumPy eval s':>12} {'NumPy s-m/s':>12} {'NumPy RSS MB':>12}")
    for row in s["scaling"]:
        np_row = row.get("numpy")
        tail = (f"{np_row['evaluation_seconds']:>12.4f} {fmt_rate(np_row['sample_months_per_second']):>12} "
                f"{np_row['peak_rss_mb']:>12.1f}") if np_row else ""
        p = row["payback"]
        out.append(f"{row['samples']:>9} {row['months']:>6} {row['threads']:>7} {p['evaluation_seconds']:>9.4f} "
                   f"{fmt_rate(p['sample_months_per_second']):>16} {p['peak_rss_mb']:>11.1f} {tail}")
    print("\n".join(out))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--samples", type=int, default=1_000_000,
                        help="samples for payback and NumPy (default 1,000,000)")
    parser.add_argument("--python-samples", type=int, default=2000,
                        help="samples for the plain-Python loop (default 2,000)")
    parser.add_argument("--repeats", type=int, default=3, help="timed runs per measurement, best kept (default 3)")
    parser.add_argument("--seed", type=int, default=1, help="NumPy's seed (default 1)")
    parser.add_argument("--numpy-chunk", type=int, default=32768,
                        help="samples NumPy's month loop takes at a time, 0 for all (default 32768: faster than "
                             "whole arrays of 1e6, which leave the cache every month)")
    parser.add_argument("--threads", type=int, default=0,
                        help="payback's threads for the all-threads rows (default 0: every hardware thread)")
    parser.add_argument("--scaling-samples", type=lambda s: [int(x) for x in s.split(",")],
                        default=[10_000, 100_000, 1_000_000], help="samples of the scaling rows (default 1e4,1e5,1e6)")
    parser.add_argument("--scaling-months", type=lambda s: [int(x) for x in s.split(",")], default=[12, 60, 240],
                        help="horizons of the scaling rows (default 12,60,240), at the largest sample count")
    parser.add_argument("--scaling-repeats", type=int, default=1,
                        help="timed runs per scaling row (default 1; 1e6 x 240 months takes minutes)")
    parser.add_argument("--no-numpy-scaling", action="store_true", help="time only payback in the scaling rows")
    parser.add_argument("--throughput", type=pathlib.Path, default=THROUGHPUT, help="the montecarlo_throughput program")
    parser.add_argument("--payback", type=pathlib.Path, default=PAYBACK, help="the payback program (for the check)")
    parser.add_argument("--json", action="store_true", help="print a JSON summary instead of the table")
    parser.add_argument("--worker", choices=["numpy", "numpy_closed_form", "python"], help=argparse.SUPPRESS)
    parser.add_argument("--horizon", type=int, default=60, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args)

    import numpy as np

    text = SCENARIO.read_text()
    check_scenario(text)
    check_programs(args)
    horizons = sorted({60, *args.scaling_months})
    with tempfile.TemporaryDirectory(prefix="montecarlo_vs_numpy.") as directory:
        scenarios = {h: (SCENARIO if h == 60 else with_horizon(text, h, directory)) for h in horizons}
        say(f"checking NumPy, plain Python and the closed form against `payback compare` "
            f"(npv_savings and payback_months to {TOLERANCE:g} relative) ...")
        checks = validate(args, np, scenarios)
        summary = {"scenario": str(SCENARIO.relative_to(ROOT)), "numpy_version": np.__version__,
                   "python_version": sys.version.split()[0], "cpu_count": os.cpu_count(), "repeats": args.repeats,
                   "load_average_at_start": os.getloadavg(), "checks": checks}

        n = args.samples
        say(f"payback ({PEER_METRICS}), {n:,} samples x 60 months, 1 thread ...")
        payback_1 = run_payback(args, SCENARIO, n, 1)
        say(f"  {payback_1['evaluation_seconds']:.3f} s, {fmt_rate(payback_1['sample_months_per_second'])} "
            f"sample-months/s ({payback_1['path']})")
        say(f"payback ({PEER_METRICS}), {n:,} samples x 60 months, threads={args.threads} ...")
        payback_all = run_payback(args, SCENARIO, n, args.threads)
        say(f"  {payback_all['evaluation_seconds']:.3f} s, {fmt_rate(payback_all['sample_months_per_second'])} "
            f"sample-months/s")
        say(f"payback (all metrics), {n:,} samples x 60 months, 1 thread and threads={args.threads} ...")
        every_1 = run_payback(args, SCENARIO, n, 1, metrics=None)
        every_all = run_payback(args, SCENARIO, n, args.threads, metrics=None)
        say(f"  {every_1['evaluation_seconds']:.3f} s and {every_all['evaluation_seconds']:.3f} s")
        say(f"NumPy, {n:,} samples x 60 months ...")
        numpy_row = run_worker(args, "numpy", n, 60)
        say(f"  {numpy_row['evaluation_seconds']:.3f} s, {fmt_rate(numpy_row['sample_months_per_second'])} "
            f"sample-months/s")
        say(f"NumPy closed form, {n:,} samples ...")
        closed_row = run_worker(args, "numpy_closed_form", n, 60)
        say(f"  {closed_row['evaluation_seconds']:.4f} s")
        say(f"plain Python, {args.python_samples:,} samples x 60 months ...")
        python_row = run_worker(args, "python", args.python_samples, 60)
        say(f"  {python_row['evaluation_seconds']:.3f} s, {fmt_rate(python_row['sample_months_per_second'])} "
            f"sample-months/s (max relative difference from NumPy on the same samples "
            f"{python_row['max_relative_difference_from_numpy']:.1e})")

        rate_1 = payback_1["sample_months_per_second"]
        rate_all = payback_all["sample_months_per_second"]
        rows = []
        for name, row, kind in (("payback, 1 thread", payback_1, "payback"),
                                (f"payback, threads={args.threads}", payback_all, "payback"),
                                ("payback all metrics, 1 thread", every_1, "payback_all_metrics"),
                                (f"payback all metrics, threads={args.threads}", every_all, "payback_all_metrics"),
                                ("NumPy (month loop)", numpy_row, "numpy"),
                                ("NumPy closed form (not per month)", closed_row, "numpy_closed_form"),
                                ("plain Python", python_row, "python")):
            rows.append({"peer": name, "kind": kind, "samples": row["samples"], "months": row["months"],
                         "evaluation_seconds": row["evaluation_seconds"],
                         "median_evaluation_seconds": row["median_evaluation_seconds"],
                         "sample_months_per_second": row["sample_months_per_second"],
                         "ratio_payback_1_thread": None if row is payback_1
                         else rate_1 / row["sample_months_per_second"],
                         "ratio_payback_all_threads": None if row is payback_all
                         else rate_all / row["sample_months_per_second"],
                         "peak_rss_mb": row["peak_rss_mb"], "process_cpu_share": row["process_cpu_share"]})
        summary["throughput"] = rows
        summary["ratios"] = {
            "payback_over_numpy": rate_1 / numpy_row["sample_months_per_second"],
            "payback_over_python": rate_1 / python_row["sample_months_per_second"],
            "payback_all_threads_over_numpy": rate_all / numpy_row["sample_months_per_second"],
            "payback_all_threads_over_python": rate_all / python_row["sample_months_per_second"],
            "payback_over_numpy_closed_form": rate_1 / closed_row["sample_months_per_second"],
            "payback_all_threads_over_numpy_closed_form": rate_all / closed_row["sample_months_per_second"],
            "payback_all_metrics_over_numpy": every_1["sample_months_per_second"] / numpy_row["sample_months_per_second"],
            "payback_all_metrics_all_threads_over_numpy":
                every_all["sample_months_per_second"] / numpy_row["sample_months_per_second"],
        }
        summary["wall_1m_60"] = {"samples": n, "payback_1_thread": payback_1, "payback_all_threads": payback_all,
                                 "payback_all_metrics_all_threads": every_all,
                                 "numpy": numpy_row}

        exact = expected_npv_savings(np, 60)
        se = numpy_row["standard_error"]
        summary["means"] = {
            "samples": n, "payback": payback_all["mean_npv_savings"], "numpy": numpy_row["mean_npv_savings"],
            "standard_error": se, "exact": exact,
            # Two independent draws of n: the difference has sqrt(2) standard errors.
            "difference_in_standard_errors": (payback_all["mean_npv_savings"] - numpy_row["mean_npv_savings"])
            / (math.sqrt(2.0) * se),
            "payback_vs_exact_in_standard_errors": (payback_all["mean_npv_savings"] - exact) / se,
            "numpy_vs_exact_in_standard_errors": (numpy_row["mean_npv_savings"] - exact) / se,
        }
        say(f"mean npv_savings: payback {payback_all['mean_npv_savings']:.3f}, "
            f"NumPy {numpy_row['mean_npv_savings']:.3f} ± {se:.3f}, exact {exact:.3f}")

        scaling = []
        largest = max(args.scaling_samples)
        grid = [(s, 60) for s in args.scaling_samples] + [(largest, h) for h in args.scaling_months if h != 60]
        for samples, horizon in grid:
            say(f"scaling: {samples:,} samples x {horizon} months ...")
            if samples == n and horizon == 60:
                row = {"samples": samples, "months": horizon, "threads": 1, "payback": payback_1, "numpy": numpy_row}
            else:
                row = {"samples": samples, "months": horizon, "threads": 1,
                       "payback": run_payback(args, scenarios[horizon], samples, 1, args.scaling_repeats)}
                if not args.no_numpy_scaling:
                    row["numpy"] = run_worker(args, "numpy", samples, horizon, args.scaling_repeats)
            scaling.append(row)
            say(f"  payback {row['payback']['evaluation_seconds']:.4f} s"
                + (f", NumPy {row['numpy']['evaluation_seconds']:.4f} s" if "numpy" in row else ""))
        summary["scaling"] = scaling
        summary["scaling_repeats"] = args.scaling_repeats
        summary["load_average_at_end"] = os.getloadavg()

    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print_table(summary)


if __name__ == "__main__":
    main()
