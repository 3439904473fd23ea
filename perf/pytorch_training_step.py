#!/usr/bin/env python3
"""Time PyTorch training steps on the CPU or a CUDA GPU and print one JSON object: the samples/s of a full step
(forward, CrossEntropyLoss, zero_grad, backward, SGD lr 0.001 momentum 0.9) on synthetic float32 data
already in memory. gpt-small's samples are sequences of 256 random tokens, its loss the mean next-token
cross-entropy, its model tools/gpt_fixture.py's (the one the C++ trainer's parity fixture is made with). Warm-up first, then --runs timed runs of at least --seconds each; reports the median
and the min/max over the runs. Run by perf/training_vs_pytorch.py, one process per measurement, with
whichever Python has the torch under test.
"""

import argparse
import json
import os
import re
import statistics
import sys
import time

import torch
import torch.nn as nn
import torch.optim as optim

# The tutorial network is defined once, in the parity fixture's script.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tools"))
from torch_fixture import Net as TutorialNet  # noqa: E402
from gpt_fixture import Gpt  # noqa: E402


def mlp():
    return nn.Sequential(nn.Flatten(), nn.Linear(3072, 1024), nn.ReLU(), nn.Linear(1024, 1024), nn.ReLU(),
                         nn.Linear(1024, 10))


GPT_SMALL = {"layers": 6, "d_model": 512, "heads": 8, "sequence": 256, "vocab": 8192}
WORKLOADS = {"cifar10-tutorial": TutorialNet, "mlp": mlp, "gpt-small": lambda: Gpt(**GPT_SMALL)}


def blas():
    """The BLAS torch was built with (BLAS_INFO); for "generic" (Debian's build), also the libblas.so.3 it
    loaded, which is whatever alternative is installed: the reference BLAS, OpenBLAS, ..."""
    info = re.search(r"BLAS_INFO=(\w+)", torch.__config__.show())
    info = info.group(1) if info else "unknown"
    if info != "generic":
        return info
    with open("/proc/self/maps") as maps:
        paths = {os.path.realpath(line.split()[-1]) for line in maps
                 if line.rsplit("/", 1)[-1].startswith(("libblas.so", "libopenblas"))}
    return ", ".join(["generic"] + sorted(paths))


def measure(workload, batch, threads, seconds, runs, warmup_seconds, device="cpu", precision="fp32", conv_tf32=True):
    torch.set_num_threads(threads)
    if device == "cuda":
        torch.backends.cuda.matmul.allow_tf32 = False  # FP32 products in full FP32, as payback's cuBLAS calls
    # PyTorch lets cuDNN's convolutions use TF32 tensor cores by default (10-bit mantissas, on Ampere and
    # later); payback's CUDA trainer keeps FP32 throughout. --conv-tf32 off measures PyTorch like for like.
    torch.backends.cudnn.allow_tf32 = conv_tf32
    # bf16 and fp16: autocast's BF16 or FP16 products with FP32 master weights and optimizer, payback's
    # mixed precision; fp16 with GradScaler's dynamic loss scaling, as payback's LossScaler
    dtype = torch.float16 if precision == "fp16" else torch.bfloat16
    autocast = torch.autocast(device_type=device, dtype=dtype, enabled=precision in ("bf16", "fp16"))
    scaler = None
    if precision == "fp16":  # torch.amp.GradScaler from PyTorch 2.3, torch.cuda.amp's before
        scaler = torch.amp.GradScaler(device) if hasattr(torch.amp, "GradScaler") else torch.cuda.amp.GradScaler()
    torch.manual_seed(0)
    net = WORKLOADS[workload]().to(device)
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
    if workload == "gpt-small":
        vocab = GPT_SMALL["vocab"]
        images = torch.randint(0, vocab, (batch, GPT_SMALL["sequence"])).to(device)  # the tokens
        labels = torch.randint(0, vocab, (batch * GPT_SMALL["sequence"],)).to(device)  # the next tokens

        def forward(tokens):
            return net(tokens).reshape(-1, vocab)
    else:
        images = (torch.rand(batch, 3, 32, 32) * 2 - 1).to(device)
        labels = torch.randint(0, 10, (batch,)).to(device)
        forward = net
    # A GPU step returns before its kernels finish: wait for them before reading the clock, and read it
    # every 20 steps only, so that the steps queue up as they do in payback's CUDA timing.
    synchronize = torch.cuda.synchronize if device == "cuda" else (lambda: None)
    steps_between_clock_reads = 20 if device == "cuda" else 1

    def step():
        with autocast:
            loss = criterion(forward(images), labels)
        optimizer.zero_grad(set_to_none=True)
        if scaler is None:
            loss.backward()
            optimizer.step()
            return
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()

    def timed(min_seconds, min_steps=1):
        synchronize()
        steps, start = 0, time.perf_counter()
        while True:
            step()
            steps += 1
            if steps % steps_between_clock_reads:
                continue
            synchronize()
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds and steps >= min_steps:
                return steps, elapsed

    timed(warmup_seconds, min_steps=3)
    rates = []
    for _ in range(runs):
        steps, elapsed = timed(seconds)
        rates.append(steps * batch / elapsed)
    return {
        "torch_version": torch.__version__,
        "blas": blas(),
        "device": torch.cuda.get_device_name() if device == "cuda" else "cpu",
        "workload": workload,
        "precision": precision,
        "batch": batch,
        "threads": threads,
        "cudnn_allow_tf32": conv_tf32,
        "samples_per_second": statistics.median(rates),
        "samples_per_second_min": min(rates),
        "samples_per_second_max": max(rates),
        "runs": rates,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workload", required=True, choices=sorted(WORKLOADS))
    parser.add_argument("--batch", type=int, required=True)
    parser.add_argument("--threads", type=int, required=True, help="torch.set_num_threads")
    parser.add_argument("--seconds", type=float, default=0.5, help="minimum length of one timed run (default 0.5)")
    parser.add_argument("--runs", type=int, default=7, help="timed runs (default 7)")
    parser.add_argument("--warmup", type=float, default=1.0,
                        help="warm-up seconds, and at least 3 steps (default 1)")
    parser.add_argument("--device", choices=("cpu", "cuda"), default="cpu",
                        help="where the network and the data live (default cpu)")
    parser.add_argument("--precision", choices=("fp32", "bf16", "fp16"), default="fp32",
                        help="bf16 or fp16: autocast's BF16 or FP16 matrix products, fp16 with GradScaler "
                             "(gpt-small on cuda; default fp32)")
    parser.add_argument("--conv-tf32", choices=("on", "off"), default="on",
                        help="torch.backends.cudnn.allow_tf32 (default on, PyTorch's default)")
    args = parser.parse_args()
    print(json.dumps(measure(args.workload, args.batch, args.threads, args.seconds, args.runs, args.warmup,
                             args.device, args.precision, args.conv_tf32 == "on")))


if __name__ == "__main__":
    main()
