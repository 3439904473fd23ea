#!/usr/bin/env python3
"""Write tests/fixtures/bench/llm_decode_logits.json: the logits of the llm-decode workload's model
(lib/bench/cpu/llm_decoder.cpp) on a tiny config, computed in NumPy, which
tests/lib/bench/llm_decoder_test.cpp checks the C++ decoder against.

Run it from the repository root with the pinned NumPy (tools/requirements-fixtures.txt):
    .venv/bin/python tools/llm_decode_reference.py

The model is built here from the same generator (splitmix64's finalizer over seed, tensor and index),
and quantized as ggml's reference quantizers do (ggml/src/ggml-quants.c in
https://github.com/ggml-org/llama.cpp: quantize_row_q8_0_ref, quantize_row_q4_0_ref), in float32 as C
computes them, so that the quantized weights are bit for bit the decoder's. Activations entering a
Q8_0 or Q4_0 product are quantized to Q8_0 (d = max|x| / 127, q rounded to nearest even), and the
products are integer sums scaled by the two fp16 scales, as the decoder's kernels do. Everything else
(RMSNorm, rotary positions, attention, SwiGLU) is float64 here and float32 there.
"""

import json
import pathlib

import numpy as np

ROOT = pathlib.Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "bench" / "llm_decode_logits.json"

CONFIG = {"layers": 2, "d_model": 64, "heads": 4, "kv_heads": 2, "ffn": 128, "vocab": 96}
SEED = 7
TOKENS = [5, 17, 42, 3, 88, 60, 0, 95]
ROPE_THETA = 10000.0
NORM_EPS = 1e-5
BLOCK = 32
M64 = np.uint64(0xFFFFFFFFFFFFFFFF)


def uniform(seed, tensor, count):
    """llm_uniform(seed, tensor, index) for index 0..count-1: floats in [-1, 1) with 24 random bits."""
    with np.errstate(over="ignore"):
        z = (np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(tensor) * np.uint64(0xD1B54A32D192ED03)
             + np.arange(count, dtype=np.uint64))
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z = z ^ (z >> np.uint64(31))
    return (z >> np.uint64(40)).astype(np.float32) * np.float32(1.0 / 8388608.0) - np.float32(1.0)


def layer_tensor(layer, index):
    return 16 + 16 * layer + index


def round_half_away(v):
    """C's roundf, exactly (v + 0.5 in float32 could round up)."""
    v = v.astype(np.float64)
    return np.sign(v) * np.floor(np.abs(v) + 0.5)


def quantize_q8_0(x):
    """ggml's quantize_row_q8_0_ref on rows of x (float32): (d as fp16, q int8) per block."""
    b = x.reshape(-1, BLOCK)
    amax = np.abs(b).max(axis=1)
    d = (amax / np.float32(127)).astype(np.float32)
    inv = np.where(d != 0, np.float32(1) / np.where(d != 0, d, np.float32(1)), np.float32(0)).astype(np.float32)
    q = round_half_away((b * inv[:, None]).astype(np.float32)).astype(np.int8)
    return d.astype(np.float16), q


def quantize_q4_0(x):
    """ggml's quantize_row_q4_0_ref: (d as fp16, q in 0..15 in element order) per block."""
    b = x.reshape(-1, BLOCK)
    first_largest = np.abs(b).argmax(axis=1)  # the first of equal magnitudes, as its strict < keeps
    m = b[np.arange(b.shape[0]), first_largest]
    d = (m / np.float32(-8)).astype(np.float32)
    inv = np.where(d != 0, np.float32(1) / np.where(d != 0, d, np.float32(1)), np.float32(0)).astype(np.float32)
    shifted = ((b * inv[:, None]).astype(np.float32) + np.float32(8.5)).astype(np.float32)
    q = np.minimum(15, np.trunc(shifted).astype(np.int64))
    return d.astype(np.float16), q


def q4_0_bytes(d, q):
    """GGUF's block_q4_0: fp16 d little-endian, then byte j = q[j] | q[j + 16] << 4."""
    out = bytearray()
    for scale, row in zip(d, q):
        out += scale.tobytes()
        out += bytes(int(row[j]) | (int(row[j + 16]) << 4) for j in range(16))
    return out.hex()


def q8_0_bytes(d, q):
    out = bytearray()
    for scale, row in zip(d, q):
        out += scale.tobytes() + row.astype(np.int8).tobytes()
    return out.hex()


class Matrix:
    """rows x cols weights in one format, with the product the decoder's kernels compute."""

    def __init__(self, quant, seed, tensor, rows, cols, scale):
        self.quant, self.rows, self.cols = quant, rows, cols
        w = (np.float32(scale) * uniform(seed, tensor, rows * cols)).reshape(rows, cols)
        self.first_row = w[0]
        if quant == "f16":
            self.dense = w.astype(np.float16).astype(np.float64)
        elif quant == "q8_0":
            self.d, self.q = quantize_q8_0(w)
            self.dense = (self.q.astype(np.float64) * self.d.astype(np.float64)[:, None]).reshape(rows, cols)
        else:
            self.d, self.q = quantize_q4_0(w)
            self.q = self.q - 8
            self.dense = (self.q.astype(np.float64) * self.d.astype(np.float64)[:, None]).reshape(rows, cols)

    def times(self, x):
        if self.quant == "f16":
            return self.dense @ x
        x32 = x.astype(np.float32)
        b = x32.reshape(-1, BLOCK)
        amax = np.abs(b).max(axis=1)
        dx = (amax / np.float32(127)).astype(np.float32)
        inv = np.where(dx != 0, np.float32(1) / np.where(dx != 0, dx, np.float32(1)), np.float32(0)).astype(np.float32)
        qx = np.rint((b * inv[:, None]).astype(np.float32)).astype(np.int64)
        dx16 = dx.astype(np.float16).astype(np.float64)
        qw = self.q.reshape(self.rows, -1, BLOCK).astype(np.int64)
        sums = np.einsum("rbj,bj->rb", qw, qx)  # exact integers
        dw = self.d.astype(np.float64).reshape(self.rows, -1)
        return (sums * dw * dx16[None, :]).sum(axis=1)


def build(quant):
    c = CONFIG
    d, f = c["d_model"], c["ffn"]
    kv = d // c["heads"] * c["kv_heads"]
    over_d = np.float32(1) / np.sqrt(np.float32(d))
    model = {
        "embedding": Matrix(quant, SEED, 0, c["vocab"], d, np.float32(1)),
        "output": Matrix(quant, SEED, 2, c["vocab"], d, over_d),
        "output_norm": np.float32(1) + np.float32(0.25) * uniform(SEED, 1, d),
        "layers": [],
    }
    for layer in range(c["layers"]):
        t = lambda i: layer_tensor(layer, i)  # noqa: E731
        model["layers"].append({
            "attn_norm": np.float32(1) + np.float32(0.25) * uniform(SEED, t(0), d),
            "wq": Matrix(quant, SEED, t(1), d, d, over_d),
            "wk": Matrix(quant, SEED, t(2), kv, d, over_d),
            "wv": Matrix(quant, SEED, t(3), kv, d, over_d),
            "wo": Matrix(quant, SEED, t(4), d, d, over_d),
            "ffn_norm": np.float32(1) + np.float32(0.25) * uniform(SEED, t(5), d),
            "gate": Matrix(quant, SEED, t(6), f, d, over_d),
            "up": Matrix(quant, SEED, t(7), f, d, over_d),
            "down": Matrix(quant, SEED, t(8), d, f, np.float32(1) / np.sqrt(np.float32(f))),
        })
    return model


def rms_norm(x, gain):
    return x / np.sqrt(np.mean(x * x) + NORM_EPS) * gain.astype(np.float64)


def rotate(x, heads, position, head_dim):
    pairs = np.arange(head_dim // 2)
    angle = position * ROPE_THETA ** (-2.0 * pairs / head_dim)
    c, s = np.cos(angle), np.sin(angle)
    x = x.reshape(heads, head_dim // 2, 2).copy()
    a, b = x[..., 0].copy(), x[..., 1].copy()
    x[..., 0], x[..., 1] = a * c - b * s, a * s + b * c
    return x.reshape(-1)


def decode(model):
    """The logits after each of TOKENS, decoded one at a time from an empty cache."""
    c = CONFIG
    hd = c["d_model"] // c["heads"]
    group = c["heads"] // c["kv_heads"]
    keys = [[] for _ in model["layers"]]
    values = [[] for _ in model["layers"]]
    all_logits = []
    for position, token in enumerate(TOKENS):
        x = model["embedding"].dense[token].copy()
        for li, layer in enumerate(model["layers"]):
            h = rms_norm(x, layer["attn_norm"])
            q = rotate(layer["wq"].times(h), c["heads"], position, hd)
            k = rotate(layer["wk"].times(h), c["kv_heads"], position, hd)
            keys[li].append(k.astype(np.float32).astype(np.float64))  # the cache holds float32
            values[li].append(layer["wv"].times(h).astype(np.float32).astype(np.float64))
            K, V = np.array(keys[li]), np.array(values[li])
            out = np.zeros(c["d_model"])
            for head in range(c["heads"]):
                kh = head // group
                scores = K[:, kh * hd:(kh + 1) * hd] @ q[head * hd:(head + 1) * hd] / np.sqrt(hd)
                p = np.exp(scores - scores.max())
                out[head * hd:(head + 1) * hd] = (p / p.sum()) @ V[:, kh * hd:(kh + 1) * hd]
            x = x + layer["wo"].times(out)
            h = rms_norm(x, layer["ffn_norm"])
            g, u = layer["gate"].times(h), layer["up"].times(h)
            x = x + layer["down"].times(g / (1 + np.exp(-g)) * u)
        all_logits.append(model["output"].times(rms_norm(x, model["output_norm"])))
    return all_logits


def main():
    results = {}
    for quant in ("f16", "q8_0", "q4_0"):
        model = build(quant)
        entry = {"logits": [[float(f"{v:.9g}") for v in row] for row in decode(model)]}
        wq = model["layers"][0]["wq"]
        if quant == "q8_0":
            entry["wq0_row0_blocks"] = q8_0_bytes(*quantize_q8_0(wq.first_row))
        if quant == "q4_0":
            entry["wq0_row0_blocks"] = q4_0_bytes(*quantize_q4_0(wq.first_row))
        results[quant] = entry
    OUT.parent.mkdir(parents=True, exist_ok=True)
    document = {
        "generator": "tools/llm_decode_reference.py (NumPy " + np.__version__ + ")",
        "config": CONFIG, "seed": SEED, "tokens": TOKENS, "rope_theta": ROPE_THETA, "norm_eps": NORM_EPS,
        "results": results,
    }
    OUT.write_text(json.dumps(document, indent=1) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
