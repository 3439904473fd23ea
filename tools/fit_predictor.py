#!/usr/bin/env python3
"""Fits the predictor's achievable fractions (`payback predict`, lib/src/workload/predictor.cpp) to published
measurements, and prints the error on the measurements it held out.

Data: tests/fixtures/predictor/lambda-training.csv (Lambda's deeplearning-benchmark, training samples/s) and
tests/fixtures/predictor/llama-bench.csv (llama.cpp llama-bench tokens/s), against pricing/gpus.csv's specs
and pricing/models.csv's FLOPs.

The models, per architecture family (gpus.csv `architecture`):
  train    samples/s = fp32_tflops x 1e12 x a[family, precision] x t[family] x m[model] x h[half rate] x r^w
                       x s[dataset] / flops_per_sample
  prefill  tokens/s  = fp32_tflops x 1e12 x p[family] x k[quantized] x s[dataset] / (2 x weights)
  decode   s/token   = weight bytes / (bandwidth x e[family]) + [quantized] weights x c[family] / FP32 FLOP/s + o[family]
The weights (2 FLOPs a weight a token; the bytes a decode step reads) are all but the input embedding table
(vocabulary x d_model: a token looks up one row of it; every model measured has a separate output matrix, read
whole), as the predictor counts them (pricing/models.csv's tied_embeddings, ModelSpec::matrix_parameters).
a, t, m, h, w, s, p and k are fitted by least squares on the logarithms; e, c and o by least squares on the
relative error of the time per token. t (a transformer's training against ResNet-50's on the family's
GPUs) is 1 for resnet50, m (a transformer against bert-base) 1 for resnet50 and bert-base; s is 1 for
Lambda's 2025 file and for the 2024 llama-bench tables (the newest software, which the predictor predicts
for), k 1 for F16 weights. h is fitted for a transformer in mixed precision on a GPU whose tensor cores
accumulate FP32 at half their FP16-accumulate rate (gpus.csv tensor_fp32_accumulate = half: GeForce RTX
cards), 1 elsewhere. r is the device's board power per FP32 TFLOP against its family's median, at most 1
(1 where gpus.csv has no board power), and w its exponent: a card with a low power limit for its peak (the
250 W A100 40GB PCIe against the 400 W SXM4 module, the 140 W RTX A4000) cannot hold its boost clock
through training, while more power than the family's usual buys nothing beyond the peak (the GH200's
1,000 W feed its CPU too). c is the FP32 operations that unpacking a quantized weight costs, which a GPU
with little compute for its bandwidth (Apple's) pays visibly; a term that fits negative, or that the
family's points cannot separate from the others, is dropped. A device without fp32_tflops (Apple's M3 and
M4) gets its bandwidth times its family's median FLOPs per byte. Its prefill rows are not fitted on (p scales
FP32 peak); predicted at that stand-in, they give the error added to such a device's prefill prediction. The
board power's median is over the family's discrete cards where it has any: a unified-memory device's power
(the GB10's 240 W power supply) feeds its CPU and memory too.

The devices are split once: sorted by name, every third one of a phase's devices (the 2nd, 5th, ...) is
held out, unless that would leave its family without a device to fit on. The fit uses the others; the
held-out ones give the error printed (median and worst absolute, per phase) and the expected error the
program attaches to a prediction (the lowest and highest signed error).

Decode's overhead o is what 2023-24 llama.cpp paid a step. tests/fixtures/predictor/llama-bench-current.csv has
newer CUDA builds (2025) decoding one token at a time (a prompt in micro-batches of 1, which reads every matrix but
the output head, computed for the prompt's last token only): the overhead they leave, against their family's o, is
the factor r the program applies to NVIDIA devices, to predict for the llama.cpp people run now.

Decoding B sequences at once, llama.cpp evaluates a micro-batch of B tokens, as it does a prompt B tokens a step:
the weights are read once for all B, but each token's compute beyond the first adds to the step. Up to 8 tokens
llama.cpp multiplies them with vector kernels (CUDA's mmvq), far from a prompt's efficiency, and above that with
the matrix kernels a prompt uses:
  B tokens  s/step = max(bytes / (bandwidth x e), one token's FLOPs / (FP32 x p)) + unpacking + o
                     + (min(B, 8) - 1) x one token's FLOPs / (FP32 x b) + max(0, B - 8) x one token's FLOPs / (FP32 x p x k)
(one token's compute already sits in the fitted one-sequence tables). b is fitted to the RTX 3090's prompt in
micro-batches of 2 to 8 tokens in llama-bench-current.csv (least squares on the logarithm of the rate) and checked
on rows not fitted on: the GB10's llama-batched-bench (2 to 32 sequences at contexts of 528 to 8,208,
llama-bench-unfitted.csv, a family the fit never saw) and the RTX 4090's prompt in micro-batches of 16 to 512 on
the 2024 software the fractions were fitted to (llama-bench-microbatch-2024.csv). Their error is the one added to
a prediction with --batch > 1.
Apple's GPUs run llama.cpp's Metal kernels, whose products of 2 to 8 tokens pass over the weights once for each
token: there, each token beyond the first up to 8 costs one more read of its weights at the family's fraction e,
not compute (the M1 Pro's prompts of 2 to 4 tokens, llama-bench-metal-2024.csv, checked and not fitted on).

A device of a family with no measurement of a phase is predicted from the other families (for training, their
FLOPs per byte of memory bandwidth; for prefill and decode, their mean fractions). To give such a prediction an
error of its own, each measured family is left out of the fit in turn and predicted so ("family left out").

Usage: tools/fit_predictor.py [--write | --check | --leave-one-out]
  (none)   print the fit and the held-out errors
  --write  also write lib/src/workload/predictor_fit.cpp
  --check  exit 1 when lib/src/workload/predictor_fit.cpp differs from what the fit writes (a ctest)
  --leave-one-out  the training and decode models checked another way: each device predicted from a fit on
           all the others (where its family keeps a device); training with and without the half-rate and
           power-limit terms
Pure Python: no packages needed.
"""
from __future__ import annotations

import csv
import math
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "predictor"
GENERATED = ROOT / "lib" / "src" / "workload" / "predictor_fit.cpp"
BITS = {row["name"]: float(row["bits_per_weight"]) for row in csv.DictReader(open(ROOT / "pricing" / "quants.csv"))}


def rows(path: Path) -> list[dict[str, str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


GPUS = {row["name"]: row for row in rows(ROOT / "pricing" / "gpus.csv")}
MODELS = {row["name"]: row for row in rows(ROOT / "pricing" / "models.csv")}
Point = dict[str, object]
Predictor = Callable[[Point], "float | None"]


# The input embedding table of each model the llama-bench tables ran, vocabulary x d_model from its config.json:
# huggingface.co/meta-llama/Llama-2-7b-hf, /meta-llama/Meta-Llama-3-8B, /meta-llama/Llama-3.3-70B-Instruct,
# /huggyllama/llama-7b, /codellama/CodeLlama-7b-hf, /Qwen/Qwen2.5-7B and /meta-llama/Llama-2-13b-hf (vocab_size,
# hidden_size).
INPUT_EMBEDDING = {"llama-2-7b": 32000 * 4096, "llama-3-8b": 128256 * 4096, "llama-3.3-70b": 128256 * 8192,
                   "llama-7b": 32000 * 4096, "codellama-7b": 32016 * 4096, "qwen2.5-7b": 152064 * 3584,
                   "llama-2-13b": 32000 * 5120}


def spec(device: str, column: str) -> float | None:
    text = GPUS[device][column]
    return float(text) if text else None


def family(device: str) -> str:
    return GPUS[device]["architecture"]


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Least squares by the normal equations and Gauss-Jordan elimination (small, well-posed systems)."""
    n = len(a[0])
    m = [[sum(r[i] * r[j] for r in a) for j in range(n)] + [sum(r[i] * y for r, y in zip(a, b))] for i in range(n)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-12:
            raise ValueError(f"singular system at unknown {col}")
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col])]
    return [m[i][n] / m[i][i] for i in range(n)]


def split(points: list[dict[str, object]]) -> tuple[set[str], set[str]]:
    """The devices fitted on and the devices held out (see the module's docstring)."""
    devices = sorted({str(p["device"]) for p in points})
    held: set[str] = set()
    for i, device in enumerate(devices):
        others = [d for d in devices if d != device and d not in held and family(d) == family(device)]
        if i % 3 == 1 and others:
            held.add(device)
    return set(devices) - held, held


def log_linear(points: list[dict[str, object]]) -> dict[str, float]:
    """Fits log(y) = log(base) + the sum of value x log(factor) over the points' terms, a dict from each term to its
    value (1 for an indicator, the regressor for a continuous term); returns each term's factor."""
    unknowns = sorted({str(t) for p in points for t in p["terms"]})  # type: ignore[attr-defined]
    a = [[float(p["terms"].get(u, 0.0)) for u in unknowns] for p in points]  # type: ignore[attr-defined]
    b = [math.log(float(p["measured"]) / float(p["base"])) for p in points]  # type: ignore[arg-type]
    return {u: math.exp(x) for u, x in zip(unknowns, solve(a, b))}


def geometric_mean(values: list[float]) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values))


# --- training -------------------------------------------------------------------------------------
def training_points() -> list[dict[str, object]]:
    points = []
    for r in rows(FIXTURES / "lambda-training.csv"):
        fp32 = spec(r["device"], "fp32_tflops")
        assert fp32, r["device"]
        terms = {f"a:{family(r['device'])}:{r['precision']}": 1.0, "w:power": power_limit_log(r["device"])}
        if r["workload"] != "resnet50":  # a transformer: the family's factor, and bert-large's relative to bert-base
            terms[f"t:{family(r['device'])}"] = 1.0
            if r["precision"] != "fp32" and GPUS[r["device"]]["tensor_fp32_accumulate"] == "half":
                terms["h:half-rate"] = 1.0
        if r["workload"] not in ("resnet50", "bert-base"):
            terms[f"m:{r['workload']}"] = 1.0
        if r["dataset"] != "lambda-2025":
            terms[f"s:{r['dataset']}"] = 1.0
        points.append({"device": r["device"], "label": f"{r['workload']} {r['precision']} ({r['dataset']})",
                       "measured": float(r["samples_per_second"]),
                       "base": fp32 * 1e12 / float(MODELS[r["workload"]]["flops_per_sample"]), "terms": terms})
    return points


def predicted(point: dict[str, object], factors: dict[str, float]) -> float:
    return float(point["base"]) * math.prod(factors[t] ** v for t, v in point["terms"].items())  # type: ignore[attr-defined]


def predicted_if_fitted(point: dict[str, object], factors: dict[str, float]) -> float | None:
    """The point's prediction, or None where a term it needs (its table's software factor) was not fitted."""
    return predicted(point, factors) if all(t in factors for t in point["terms"]) else None  # type: ignore[attr-defined]


# --- llama-bench ----------------------------------------------------------------------------------
def bench_points(phase: str, without_fp32: bool = False) -> list[dict[str, object]]:
    """The table's rows of the phase. Prefill scales FP32 peak, so its fit takes the devices with a published
    figure; `without_fp32` gives the others instead (Apple's M3 chips), at the stand-in the program uses: their
    bandwidth times the family's FLOPs per byte."""
    points = []
    for r in rows(FIXTURES / "llama-bench.csv"):
        if r["phase"] != phase:
            continue
        matrices = float(r["parameters"]) - INPUT_EMBEDDING[r["model"]]
        point: dict[str, object] = {"device": r["device"], "label": f"{r['model']} {r['quant']} {r['dataset']}",
                                    "measured": float(r["tokens_per_second"]), "quant": r["quant"]}
        if phase == "prefill":
            if (spec(r["device"], "fp32_tflops") is None) != without_fp32:
                continue
            point["base"] = compute_tflops(r["device"]) * 1e12 / (2 * matrices)
            terms = {f"p:{family(r['device'])}": 1.0}
            if r["quant"] != "f16":
                terms["k:quantized"] = 1.0
            if r["dataset"] != "llama3-2024-05":
                terms[f"s:{r['dataset']}"] = 1.0
            point["terms"] = terms
        else:
            bandwidth = spec(r["device"], "memory_bandwidth_gb_s")
            assert bandwidth, r["device"]
            point["seconds_at_peak"] = matrices * BITS[r["quant"]] / 8 / (bandwidth * 1e9)
            point["weights_per_flop"] = matrices / (compute_tflops(r["device"]) * 1e12)
        points.append(point)
    return points


def family_median_ratio(fam: str, numerator: str, denominator: str, scale: float = 1.0,
                        devices: Callable[[str], bool] = lambda d: True) -> float | None:
    """The median of scale x numerator / denominator (gpus.csv columns) over the family's devices with both
    (of those `devices` accepts)."""
    ratios = [scale * spec(d, numerator) / spec(d, denominator)  # type: ignore[operator]
              for d in GPUS if family(d) == fam and devices(d) and spec(d, numerator) and spec(d, denominator)]
    return statistics.median(ratios) if ratios else None


def flops_per_byte(fam: str) -> float | None:
    """The family's median fp32_tflops / memory_bandwidth_gb_s, in FLOP per byte."""
    return family_median_ratio(fam, "fp32_tflops", "memory_bandwidth_gb_s", 1e3)


def watts_per_tflop(fam: str) -> float | None:
    """The family's median board_power_watts / fp32_tflops, over its discrete cards where it has any: a
    unified-memory device's power (the GB10's 240 W power supply) feeds a whole computer, CPU and memory too."""
    discrete = family_median_ratio(fam, "board_power_watts", "fp32_tflops", devices=lambda d: not GPUS[d]["unified_memory"])
    return discrete if discrete is not None else family_median_ratio(fam, "board_power_watts", "fp32_tflops")


def power_limit_log(device: str) -> float:
    """log of the device's watts per FP32 TFLOP against its family's median, at most 0 (0 where gpus.csv has no
    board power): below 0 for a card whose power limit is low for its peak."""
    watts, tflops, median = spec(device, "board_power_watts"), spec(device, "fp32_tflops"), watts_per_tflop(family(device))
    return min(0.0, math.log(watts / tflops / median)) if watts and tflops and median else 0.0


def compute_tflops(device: str) -> float:
    """FP32 TFLOP/s, or where gpus.csv has none (Apple publishes none for M3 and M4) the bandwidth times the
    family's FLOPs per byte."""
    fp32 = spec(device, "fp32_tflops")
    if fp32:
        return fp32
    return flops_per_byte(family(device)) * spec(device, "memory_bandwidth_gb_s") / 1e3  # type: ignore[operator]


def fit_decode(points: list[dict[str, object]]) -> dict[str, tuple[float, float, float]]:
    """Per family: the bandwidth fraction e, the overhead o in seconds a token and the FP32 operations c that
    unpacking costs a quantized weight, minimising the relative error of the time per token
        s/token = weight bytes / (bandwidth x e) + [quantized] weights x c / FP32 FLOP/s + o.
    A term whose fitted value is negative is dropped and the rest refitted (one kind of weights, or devices
    too alike to tell an overhead from unpacking)."""
    fits = {}
    for fam in sorted({family(str(p["device"])) for p in points}):
        mine = [p for p in points if family(str(p["device"])) == fam]
        columns = {"e": [float(p["seconds_at_peak"]) for p in mine], "o": [1.0] * len(mine),
                   "c": [float(p["weights_per_flop"]) if p["quant"] != "f16" else 0.0 for p in mine]}
        terms = ["e", "o", "c"] if len({p["quant"] for p in mine}) > 1 else ["e"]
        while True:
            a = [[columns[t][i] * float(p["measured"]) for t in terms] for i, p in enumerate(mine)]
            try:
                x = dict(zip(terms, solve(a, [1.0] * len(mine))))
            except ValueError:  # fewer kinds of points than terms: unpacking is the first to go
                terms.remove(terms[-1])
                continue
            negative = [t for t in terms if t != "e" and x[t] < 0]
            if not negative:
                break
            terms.remove(min(negative, key=lambda t: x[t]))
        fits[fam] = (1 / x["e"], x.get("o", 0.0), x.get("c", 0.0))
    return fits


# llama.cpp multiplies up to this many tokens a step by quantized weights with vector kernels (CUDA's mmvq,
# MMVQ_MAX_BATCH_SIZE; Metal's small-batch kernels), and more with the matrix kernels a prompt uses.
VECTOR_KERNEL_TOKENS = 8


def decode_prediction(point: dict[str, object], fit: tuple[float, float, float], batch_share: float = 0.0) -> float:
    """Tokens a second: `batch` tokens (1 unless given) a step of the bytes' time or, where it takes longer, one
    token's compute (`compute_seconds`, 0 unless given: the fitted tables are bound by their bytes), + unpacking + o,
    + for each further token up to VECTOR_KERNEL_TOKENS its compute (`sequence_seconds` at FP32 peak) at
    `batch_share` of FP32 (needed where batch > 1), or on Metal another pass over its weights (`pass_seconds`),
    and beyond, at a prompt's rate (`prompt_seconds` each)."""
    e, o, c = fit
    unpack = float(point["weights_per_flop"]) * c if point["quant"] != "f16" else 0.0
    batch: int = int(point.get("batch", 1))  # type: ignore[call-overload]
    step = max(float(point["seconds_at_peak"]) / e, float(point.get("compute_seconds", 0.0)))  # type: ignore[arg-type]
    if batch > 1:
        vector_token = (float(point["pass_seconds"]) if "pass_seconds" in point  # type: ignore[arg-type]
                        else float(point["sequence_seconds"]) / batch_share)  # type: ignore[arg-type]
        step += (min(batch, VECTOR_KERNEL_TOKENS) - 1) * vector_token
        step += max(0, batch - VECTOR_KERNEL_TOKENS) * float(point["prompt_seconds"])  # type: ignore[arg-type]
    return batch / (step + unpack + o)


# --- decode on current llama.cpp (CUDA) -------------------------------------------------------------
def current_points() -> list[dict[str, object]]:
    """Token-at-a-time rows of 2025 CUDA builds: a prompt of `prompt` tokens after `depth` in micro-batches of 1
    reads every matrix but the output head (vocabulary x d_model) each token, and the KV cache at the average
    context depth + prompt / 2."""
    points = []
    for r in rows(FIXTURES / "llama-bench-current.csv"):
        if r["ubatch"] != "1":  # several tokens a step: batched_errors()
            continue
        m = MODELS[r["model"]]
        head = float(m["vocabulary"]) * float(m["d_model"])
        matrices = float(m["parameters"]) - INPUT_EMBEDDING[r["model"]] - head
        context = float(r["depth"]) + float(r["prompt"]) / 2
        kv = 2 * float(m["layers"]) * float(m["kv_heads"]) * float(m["head_dim"]) * 2 * context  # F16 keys and values
        bandwidth = spec(r["device"], "memory_bandwidth_gb_s")
        points.append({"device": r["device"], "label": f"{r['model']} {r['quant']} ubatch 1 at depth {r['depth']}",
                       "measured": float(r["tokens_per_second"]), "quant": r["quant"],
                       "seconds_at_peak": (matrices * BITS[r["quant"]] / 8 + kv) / (bandwidth * 1e9),  # type: ignore[operator]
                       "weights_per_flop": matrices / (compute_tflops(r["device"]) * 1e12)})
    return points


def overhead_ratio(point: dict[str, object], fit: tuple[float, float, float]) -> float:
    """The overhead a step the point leaves after its bytes and unpacking, over its family's fitted o."""
    e, o, c = fit
    unpack = float(point["weights_per_flop"]) * c if point["quant"] != "f16" else 0.0  # type: ignore[arg-type]
    return (1 / float(point["measured"]) - float(point["seconds_at_peak"]) / e - unpack) / o  # type: ignore[arg-type]


def current_overhead(fits: dict[str, tuple[float, float, float]]) -> float:
    """r: the geometric mean of the current points' overhead ratios (printed with each, and each point predicted
    from the other points' r)."""
    points = current_points()
    ratios = [overhead_ratio(p, fits[family(str(p["device"]))]) for p in points]
    r = geometric_mean(ratios)
    print(f"decode overhead on current llama.cpp (CUDA): r = {r:.4f} of the 2023-24 overhead, from {len(points)} rows")
    for p, ratio in zip(points, ratios):
        others = geometric_mean([x for q, x in zip(points, ratios) if q is not p]) if len(points) > 1 else r
        e, o, c = fits[family(str(p["device"]))]
        predicted = decode_prediction(p, (e, o * others, c))
        print(f"  {str(p['device']):16} {str(p['label']):36} ratio {ratio:.3f}; from the others' r: "
              f"{100 * (predicted / float(p['measured']) - 1):+.1f} %")  # type: ignore[arg-type]
    return r


def batched_points(fits: dict[str, tuple[float, float, float]], prefill_factors: dict[str, float], r: float
                   ) -> list[Point]:
    """Rows with several tokens a step. A prompt evaluated k tokens a step (llama-bench-current.csv's RTX 3090,
    2025, `fitted`; llama-bench-microbatch-2024.csv's RTX 4090, June 2024) is one sequence: every matrix but the
    output head (computed for the prompt's last token only) and its one KV cache at the average context, read once a
    step. llama-batched-bench (llama-bench-unfitted.csv's GB10, 2025) decodes k sequences: the output head too, and
    k caches, as the program predicts decode at batch k; so are the M1 Pro's prompts of k tokens in one step
    (llama-bench-metal-2024.csv, November 2024: they read the output head once, not k times, 1.3 % of LLaMA 2 13B's
    weights a token). Each token's compute beyond the first up to VECTOR_KERNEL_TOKENS at the share b fitted here (on
    Apple's GPUs, Metal: another pass over its weights at the family's e), beyond that at the family's prompt share
    (quantized: x k); the first's at the family's prefill share of FP32 where it takes longer than the bytes;
    unpacking; the family's overhead (x r for NVIDIA's 2025 builds; a family the decode data has none of: the
    fallback, as the program)."""
    table = [(row, int(row["ubatch"]), float(row["prompt"]), "fit") for row in rows(FIXTURES / "llama-bench-current.csv")]
    table += [(row, int(row["ubatch"]), float(row["prompt"]), "2024")
              for row in rows(FIXTURES / "llama-bench-microbatch-2024.csv")]
    table += [(row, int(row["batch"]), float(row["tokens"]), "sequences")
              for row in rows(FIXTURES / "llama-bench-unfitted.csv") if row["phase"] == "decode"]
    table += [(row | {"depth": "0"}, int(row["tokens"]), float(row["tokens"]), "sequences")
              for row in rows(FIXTURES / "llama-bench-metal-2024.csv")]
    points: list[Point] = []
    for row, k, tokens, kind in table:
        if k == 1:
            continue
        m, device = MODELS[row["model"]], row["device"]
        e, o, c = fits.get(family(device)) or decode_fallback(fits)
        prefill_share = prefill_factors.get(f"p:{family(device)}") or prefill_fallback(prefill_factors)
        prompt_share = prefill_share * (prefill_factors["k:quantized"] if row["quant"] != "f16" else 1.0)
        layers, head_width = float(m["layers"]), float(m["heads"]) * float(m["head_dim"])
        head = 0.0 if kind == "sequences" else float(m["vocabulary"]) * float(m["d_model"])
        matrices = float(m["parameters"]) - INPUT_EMBEDDING[row["model"]] - head
        context = int(float(row["depth"]) + tokens / 2)  # the program's context is whole tokens
        kv = 2 * layers * float(m["kv_heads"]) * float(m["head_dim"]) * 2 * context * (k if kind == "sequences" else 1)
        flops = float(m["flops_per_token"]) - 2 * head + 4 * layers * context * head_width
        fp32 = compute_tflops(device) * 1e12
        bandwidth = spec(device, "memory_bandwidth_gb_s") * 1e9  # type: ignore[operator]
        current = GPUS[device]["vendor"] == "NVIDIA" and kind != "2024"  # the program's r: NVIDIA's current builds
        weight_bytes = matrices * BITS[row["quant"]] / 8
        metal = {"pass_seconds": weight_bytes / (bandwidth * e)} if GPUS[device]["vendor"] == "Apple" else {}
        points.append(metal | {
            "device": device, "label": f"{row['model']} {row['quant']} {k} tokens a step, context {context}", "fitted": kind == "fit",
            "measured": float(row["tokens_per_second"]), "quant": row["quant"], "batch": k,
            "fit": (e, o * (r if current else 1.0), c),
            "seconds_at_peak": (weight_bytes + kv) / bandwidth,
            "compute_seconds": flops / (fp32 * prefill_share), "sequence_seconds": flops / fp32,
            "prompt_seconds": flops / (fp32 * prompt_share), "weights_per_flop": matrices / fp32})
    return points


def batch_share(points: list[Point]) -> float:
    """b: the share of FP32 peak that minimises the squared log error of the fitted rows (a golden-section search
    on log b; the error is convex in it), printed with each row's error."""
    fitted = [p for p in points if p["fitted"]]

    def loss(log_b: float) -> float:
        logs = [math.log(decode_prediction(p, p["fit"], math.exp(log_b)) / float(p["measured"]))  # type: ignore[arg-type]
                for p in fitted]
        return sum(x * x for x in logs)

    low, high, ratio = math.log(1e-3), math.log(10.0), (math.sqrt(5) - 1) / 2
    while high - low > 1e-9:
        a, b = high - ratio * (high - low), low + ratio * (high - low)
        low, high = (low, b) if loss(a) < loss(b) else (a, high)
    share = math.exp((low + high) / 2)
    devices = len({p["device"] for p in fitted})
    print(f"decode of several sequences at once (current CUDA): the sequences beyond the first at b = {share:.4f} "
          f"of FP32 peak, from {len(fitted)} rows on {devices} device{'s' if devices > 1 else ''}")
    for p in fitted:
        error = decode_prediction(p, p["fit"], share) / float(p["measured"]) - 1  # type: ignore[arg-type]
        print(f"  {str(p['device']):16} {str(p['label']):36} {100 * error:+6.1f} %")
    return share


def batched_errors(points: list[Point], share: float) -> list[tuple[str, str, float]]:
    """The rows not fitted on, predicted with b."""
    return [(str(p["device"]), str(p["label"]),
             decode_prediction(p, p["fit"], share) / float(p["measured"]) - 1)  # type: ignore[arg-type]
            for p in points if not p["fitted"]]


# --- a family without data -----------------------------------------------------------------------
# The program predicts a device whose family has no measurement of a phase from the fitted families. Which way
# is chosen by predicting each measured family so (family_left_out): for training, per byte of memory bandwidth
# (the Ampere and Ada GeForce cards doubled their FP32 rate per clock, and a fraction of FP32 peak does not
# carry over between families); for prefill and decode, the families' mean fraction.
def training_fallback(factors: dict[str, float]) -> tuple[float, float, float]:
    """Achievable training FLOPs per byte of memory bandwidth in mixed precision and in FP32 (the geometric means over
    the fitted families of fraction x the family's median FP32 FLOPs per byte), and the transformer factor (the
    geometric mean of the families')."""
    def per_byte(precision: str) -> float:
        return geometric_mean([v * flops_per_byte(k.split(":")[1]) for k, v in factors.items()  # type: ignore[operator]
                               if k.startswith("a:") and k.endswith(f":{precision}")])
    return per_byte("fp16"), per_byte("fp32"), geometric_mean([v for k, v in factors.items() if k.startswith("t:")])


def prefill_fallback(factors: dict[str, float]) -> float:
    return geometric_mean([v for k, v in factors.items() if k.startswith("p:")])


def decode_fallback(fits: dict[str, tuple[float, float, float]]) -> tuple[float, float, float]:
    """The geometric mean of the bandwidth fractions, the median overhead and the median unpacking cost."""
    return (geometric_mean([e for e, _, _ in fits.values()]), statistics.median(o for _, o, _ in fits.values()),
            statistics.median(c for _, _, c in fits.values()))


def unfitted_training(points: list[dict[str, object]], fam: str) -> Callable[[dict[str, object]], float | None]:
    factors = log_linear(points)
    fp16, fp32, transformer = training_fallback(factors)

    def predict(p: dict[str, object]) -> float | None:
        device, own = str(p["device"]), dict(factors, **{f"t:{fam}": transformer})
        per_byte = fp16 if f"a:{fam}:fp16" in p["terms"] else fp32  # type: ignore[operator]
        # the fraction of FP32 peak that gives per_byte FLOPs a byte of this device's bandwidth
        own[f"a:{fam}:fp16"] = own[f"a:{fam}:fp32"] = per_byte / (1e3 * spec(device, "fp32_tflops")  # type: ignore[operator]
                                                                   / spec(device, "memory_bandwidth_gb_s"))
        return predicted_if_fitted(p, own)
    return predict


def unfitted_prefill(points: list[dict[str, object]], fam: str) -> Callable[[dict[str, object]], float | None]:
    factors = log_linear(points)
    factors[f"p:{fam}"] = prefill_fallback(factors)
    return lambda p: predicted_if_fitted(p, factors)


def unfitted_decode(points: list[dict[str, object]], fam: str) -> Callable[[dict[str, object]], float | None]:
    fallback = decode_fallback(fit_decode(points))
    return lambda p: decode_prediction(p, fallback)


def left_out(points: list[dict[str, object]], group_of: Callable[[dict[str, object]], str],
             fit_without: Callable[[list[dict[str, object]], str], Callable[[dict[str, object]], float | None]],
             groups: list[str] | None = None) -> list[tuple[str, str, float]]:
    """Signed error of every point of each group (default: every group) predicted from a fit on the points of the
    other groups, fit_without(those points, the group); a prediction of None is skipped."""
    out = []
    for group in groups if groups is not None else sorted({group_of(p) for p in points}):
        predict = fit_without([p for p in points if group_of(p) != group], group)
        for p in points:
            value = predict(p) if group_of(p) == group else None
            if value is not None:
                out.append((str(p["device"]), str(p["label"]), value / float(p["measured"]) - 1))  # type: ignore[arg-type]
    return out


def family_left_out(points: list[dict[str, object]],
                    fit_without: Callable[[list[dict[str, object]], str], Callable[[dict[str, object]], float | None]]
                    ) -> list[tuple[str, str, float]]:
    """Each family's measurements predicted as the program predicts a family it has no data for: from a fit on the
    other families' devices, with their mean in place of the family's own fractions (a point is skipped where a term
    it needs, such as its table's software factor, had only that family's devices)."""
    return left_out(points, lambda p: family(str(p["device"])), fit_without)


# --- report -----------------------------------------------------------------------------------------
def errors(points: list[dict[str, object]], predict) -> list[tuple[str, str, float]]:  # type: ignore[no-untyped-def]
    return [(str(p["device"]), str(p["label"]), predict(p) / float(p["measured"]) - 1) for p in points]


def summary(name: str, held: list[tuple[str, str, float]], shown: int | None = None, kind: str = "held-out"
            ) -> tuple[float, float, float, float]:
    """Prints the phase's error and its measurements, the worst first (`shown` of them where given)."""
    abs_errors = [abs(e) for _, _, e in held]
    low, high = min(e for _, _, e in held), max(e for _, _, e in held)
    median, worst = statistics.median(abs_errors), max(abs_errors)
    print(f"{name}: {len(held)} {kind} measurements on {len({d for d, _, _ in held})} devices: "
          f"median |error| {100 * median:.1f} %, worst {100 * worst:.1f} %, range {100 * low:+.1f} % to {100 * high:+.1f} %")
    for device, label, e in sorted(held, key=lambda x: -abs(x[2]))[:shown]:
        print(f"  {device:16} {label:36} {100 * e:+6.1f} %")
    return low, high, median, worst


def device_errors(points: list[Point], fit_and_predict: Callable[[list[Point]], Predictor]
                  ) -> tuple[list[float], dict[str, float]]:
    """|error| of each measurement predicted from a fit on every other device (where its family keeps one; a
    prediction of None is skipped), and each device's worst."""
    devices = sorted({str(p["device"]) for p in points})
    kept = [d for d in devices if any(family(o) == family(d) for o in devices if o != d)]
    errors: list[float] = []
    worst: dict[str, float] = {}
    by_device = left_out(points, lambda p: str(p["device"]), lambda others, _: fit_and_predict(others), kept)
    for device, _, signed in by_device:
        errors.append(abs(signed))
        worst[device] = max(worst.get(device, 0.0), abs(signed))
    return errors, worst


def print_device_errors(name: str, errors: list[float], worst: dict[str, float], devices: str) -> None:
    ranked = sorted(worst.items(), key=lambda x: -x[1])
    print(f"{name:17} {len(errors)} measurements on {len(worst)} {devices}: median |error| "
          f"{100 * statistics.median(errors):.1f} %, mean {100 * statistics.fmean(errors):.1f} %, "
          f"{sum(e > 0.25 for e in worst.values())} {devices} worse than 25 %: "
          + ", ".join(f"{d} {100 * e:.0f} %" for d, e in ranked[:4]))


def leave_one_out() -> None:
    """Prints, for the training model without each of its two device terms and with both, and for the decode model,
    the error of every device predicted by a fit on all the others (where its family keeps a device): median and
    mean |error| over the measurements, and the worst devices."""
    def training_fit(points: list[Point]) -> Predictor:
        factors = log_linear(points)
        return lambda p: predicted_if_fitted(p, factors)

    def decode_fit(points: list[Point]) -> Predictor:
        fits = fit_decode(points)
        return lambda p: decode_prediction(p, fits[family(str(p["device"]))])

    for name, dropped in (("neither term", ("h:half-rate", "w:power")), ("half rate only", ("w:power",)),
                          ("power limit only", ("h:half-rate",)), ("both (the model)", ())):
        points = training_points()
        for p in points:
            for term in dropped:
                p["terms"].pop(term, None)  # type: ignore[attr-defined]
        print_device_errors(name, *device_errors(points, training_fit), "GPUs")
    print_device_errors("decode", *device_errors(bench_points("decode"), decode_fit), "devices")


def cpp_optional(value: float | None) -> str:
    return "std::nullopt" if value is None else f"{value:.6g}"


def main() -> int:
    mode = sys.argv[1] if len(sys.argv) > 1 else ""
    if mode not in ("", "--write", "--check", "--leave-one-out"):
        print(__doc__, file=sys.stderr)
        return 2
    if mode == "--leave-one-out":
        leave_one_out()
        return 0

    train = training_points()
    train_fit_devices, train_held = split(train)
    t_factors = log_linear([p for p in train if p["device"] in train_fit_devices])
    prefill = bench_points("prefill")
    prefill_fit_devices, prefill_held = split(prefill)
    p_factors = log_linear([p for p in prefill if p["device"] in prefill_fit_devices])
    decode = bench_points("decode")
    decode_fit_devices, decode_held = split(decode)
    d_fits = fit_decode([p for p in decode if p["device"] in decode_fit_devices])

    print("Held out:", ", ".join(sorted(train_held)), "(train);", ", ".join(sorted(prefill_held)), "(prefill);",
          ", ".join(sorted(decode_held)), "(decode)")
    train_err = summary("train", errors([p for p in train if p["device"] in train_held],
                                        lambda p: predicted(p, t_factors)))
    prefill_err = summary("prefill", errors([p for p in prefill if p["device"] in prefill_held],
                                            lambda p: predicted(p, p_factors)))
    decode_err = summary("decode", errors([p for p in decode if p["device"] in decode_held],
                                          lambda p: decode_prediction(p, d_fits[family(str(p["device"]))])))
    current = current_overhead(d_fits)
    several = batched_points(d_fits, p_factors, current)
    share = batch_share(several)
    batched = summary("decode of several sequences at once, checked", batched_errors(several, share),
                      kind="unfitted")
    without_fp32 = summary("prefill of devices without an FP32 figure (bandwidth x the family's FLOPs per byte)",
                           errors([p for p in bench_points("prefill", without_fp32=True)
                                   if predicted_if_fitted(p, p_factors)], lambda p: predicted(p, p_factors)),
                           kind="unfitted")
    print("A family without data: each measured family predicted as one, from a fit on the other families")
    unfitted = [summary(f"{name}, family left out", family_left_out(points, fit_without), shown=6)
                for name, points, fit_without in (("train", train, unfitted_training),
                                                  ("prefill", prefill, unfitted_prefill),
                                                  ("decode", decode, unfitted_decode))]

    families = sorted({GPUS[d]["architecture"] for d in GPUS})
    fallback_train, fallback_decode = training_fallback(t_factors), decode_fallback(d_fits)
    ratios = {fam: flops_per_byte(fam) for fam in families}
    watts = {fam: watts_per_tflop(fam) for fam in families}
    lines = []
    for fam in families:
        fp16, fp32 = t_factors.get(f"a:{fam}:fp16"), t_factors.get(f"a:{fam}:fp32")
        p, d, t = p_factors.get(f"p:{fam}"), d_fits.get(fam), t_factors.get(f"t:{fam}")
        lines.append(f'            {{"{fam}", {cpp_optional(fp16)}, {cpp_optional(fp32)}, {cpp_optional(p)}, '
                     f"{cpp_optional(d[0] if d else None)}, {cpp_optional(d[1] if d else None)}, {cpp_optional(t)}, "
                     f"{cpp_optional(d[2] if d else None)}, {cpp_optional(ratios[fam])}, {cpp_optional(watts[fam])}}},")
    fallback = (f'{{"", std::nullopt, std::nullopt, {prefill_fallback(p_factors):.6g}, '
                f"{fallback_decode[0]:.6g}, {fallback_decode[1]:.6g}, {fallback_train[2]:.6g}, {fallback_decode[2]:.6g}, "
                f"{statistics.median(r for r in ratios.values() if r):.6g}, "
                f"{statistics.median(w for w in watts.values() if w):.6g}}}")
    models = ", ".join(f'{{"{k[2:]}", {v:.6g}}}' for k, v in sorted(t_factors.items()) if k.startswith("m:"))
    transformer = geometric_mean([1.0] + [v for k, v in t_factors.items() if k.startswith("m:")])

    def phase(e: tuple[float, float, float, float]) -> str:
        return f"{{{e[0]:.4f}, {e[1]:.4f}, {e[2]:.4f}, {e[3]:.4f}}}"

    text = f"""// Generated by tools/fit_predictor.py --write from tests/fixtures/predictor/*.csv, pricing/gpus.csv and
// pricing/models.csv; do not edit (the ctest predictor_fit fails when this differs from a fresh fit).
#include "workload/predictor_fit.hpp"

namespace payback::detail {{

const PredictorFit& predictor_fit() {{
    static const PredictorFit fit{{
        {{
{chr(10).join(lines)}
        }},
        {fallback},
        {{{models}}},
        {transformer:.6g},
        {p_factors["k:quantized"]:.6g},
        {t_factors["h:half-rate"]:.6g},
        {math.log(t_factors["w:power"]):.6g},
        {fallback_train[0]:.6g},
        {fallback_train[1]:.6g},
        {current:.6g},
        {share:.6g},
        {phase(train_err)},
        {phase(prefill_err)},
        {phase(decode_err)},
        {phase(unfitted[0])},
        {phase(unfitted[1])},
        {phase(unfitted[2])},
        {phase(without_fp32)},
        {phase(batched)},
    }};
    return fit;
}}

}}  // namespace payback::detail
"""
    if mode == "--write":
        GENERATED.write_text(text, encoding="utf-8")
        print(f"wrote {GENERATED.relative_to(ROOT)}")
    if mode == "--check" and (not GENERATED.exists() or GENERATED.read_text(encoding="utf-8") != text):
        print(f"{GENERATED.relative_to(ROOT)} is not what the fit gives: run tools/fit_predictor.py --write")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
