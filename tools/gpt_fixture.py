#!/usr/bin/env python3
"""Write a parity fixture for payback's gpt-small trainer (lib/bench/cpu/gpt_trainer.cpp): the same
decoder-only transformer in PyTorch (GPT-2's architecture: learned token and position embeddings,
pre-LayerNorm blocks of causal multi-head attention and a 4 x d_model GELU-tanh MLP, a final LayerNorm,
the output head tied to the token embedding), at a tiny size so the fixture stays small, trained for a
few steps of SGD with momentum on mean next-token cross-entropy. Parameters start as GPT-2 initializes
them (weights normal(0, 0.02), biases 0, LayerNorm weights 1) after torch.manual_seed(seed); tokens and
targets are uniform in the vocabulary from a torch.Generator seeded with seed. The JSON holds the
config, the initial parameters (in gpt_parameter_shapes() order), every step's batch and its loss
before the update, the last step's gradients and the final parameters. Single-threaded float32, so the
output is deterministic for a given torch version. Regenerate from the repository root with Debian's
PyTorch (python3-torch):
    /usr/bin/python3 tools/gpt_fixture.py --out tests/fixtures/bench/gpt_tiny_sgd.json
"""

import argparse
import json
import math
import os
import pathlib
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F


class Block(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.ln1 = nn.LayerNorm(d)
        self.qkv = nn.Linear(d, 3 * d)
        self.proj = nn.Linear(d, d)
        self.ln2 = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)

    def forward(self, x):
        b, s, d = x.shape
        hd = d // self.heads
        q, k, v = self.qkv(self.ln1(x)).split(d, dim=2)
        q, k, v = (t.view(b, s, self.heads, hd).transpose(1, 2) for t in (q, k, v))
        scores = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
        mask = torch.ones(s, s, dtype=torch.bool).triu(1)
        probs = F.softmax(scores.masked_fill(mask, float("-inf")), dim=-1)
        att = (probs @ v).transpose(1, 2).reshape(b, s, d)
        x = x + self.proj(att)
        return x + self.fc2(F.gelu(self.fc1(self.ln2(x)), approximate="tanh"))


class Gpt(nn.Module):
    def __init__(self, layers, d_model, heads, sequence, vocab):
        super().__init__()
        self.wte = nn.Parameter(torch.empty(vocab, d_model))
        self.wpe = nn.Parameter(torch.empty(sequence, d_model))
        self.blocks = nn.ModuleList(Block(d_model, heads) for _ in range(layers))
        self.lnf = nn.LayerNorm(d_model)  # weight 1, bias 0 already, as in every block
        for p in self.parameters():  # in gpt_parameter_shapes() order
            if p.dim() == 2:
                nn.init.normal_(p, 0.0, 0.02)
        for m in self.modules():
            if isinstance(m, nn.Linear):
                nn.init.zeros_(m.bias)

    def forward(self, tokens):
        x = self.wte[tokens] + self.wpe[: tokens.shape[1]]
        for block in self.blocks:
            x = block(x)
        return self.lnf(x) @ self.wte.t()


def floats(t, digits=9):
    """A float32 tensor as a flat list; 9 significant digits round-trip float32 exactly."""
    values = [float("%.*g" % (digits, v)) for v in t.detach().reshape(-1).tolist()]
    if digits >= 9:
        assert torch.equal(torch.tensor(values, dtype=torch.float32), t.detach().reshape(-1)), "no round trip"
    return values


def tensors(values, digits=9):
    return [{"shape": list(v.shape), "data": floats(v, digits)} for v in values]


def build(config, steps, batch, seed, lr, momentum):
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(seed)
    net = Gpt(**config)
    optimizer = torch.optim.SGD(net.parameters(), lr=lr, momentum=momentum)
    gen = torch.Generator().manual_seed(seed)
    fixture = {
        "generator": "tools/gpt_fixture.py (PyTorch %s on the CPU, one thread, float32)" % torch.__version__,
        "torch_version": torch.__version__,
        "workload": "gpt-small",
        "config": config,
        "learning_rate": lr,
        "momentum": momentum,
        "batch": batch,
        "seed": seed,
        "initial_parameters": tensors(net.parameters()),
        "steps": [],
    }
    for _ in range(steps):
        tokens = torch.randint(0, config["vocab"], (batch, config["sequence"]), generator=gen)
        targets = torch.randint(0, config["vocab"], (batch, config["sequence"]), generator=gen)
        optimizer.zero_grad()
        logits = net(tokens)
        loss = F.cross_entropy(logits.reshape(-1, config["vocab"]), targets.reshape(-1))
        loss.backward()
        fixture["steps"].append(
            {"tokens": tokens.reshape(-1).tolist(), "targets": targets.reshape(-1).tolist(), "loss": loss.item()}
        )
        last_gradients = [p.grad.clone() for p in net.parameters()]
        optimizer.step()
    # Compared to 1e-5 relative: 7 digits (rounding within 5e-7) are plenty and keep the file under 300 KB.
    fixture["last_gradients"] = tensors(last_gradients, 7)
    fixture["final_parameters"] = tensors(net.parameters(), 7)
    return fixture


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--batch", type=int, default=2)
    args = parser.parse_args()
    config = {"layers": 2, "d_model": 16, "heads": 4, "sequence": 16, "vocab": 48}
    fixture = build(config, args.steps, args.batch, args.seed, lr=0.1, momentum=0.9)
    out = pathlib.Path(args.out)
    # Atomic: a failed run leaves no half-written fixture.
    with tempfile.NamedTemporaryFile("w", dir=out.parent, delete=False, suffix=".tmp") as f:
        json.dump(fixture, f, separators=(",", ":"))
        f.write("\n")
    os.chmod(f.name, 0o644)
    os.replace(f.name, out)


if __name__ == "__main__":
    main()
