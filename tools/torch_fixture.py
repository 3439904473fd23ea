#!/usr/bin/env python3
"""Write a parity fixture for payback's C++ trainer: the PyTorch CIFAR-10 tutorial network (default init
after torch.manual_seed(seed)), trained for a few SGD steps (lr 0.001, momentum 0.9, CrossEntropyLoss) on
random batches (images uniform in [-1, 1], labels 0..9, from a torch.Generator seeded with seed). The JSON
holds the initial parameters, every step's batch and its loss before the update, and the final parameters,
all float32 values written exactly. Single-threaded float32, so the output is deterministic for a given
torch version. Regenerate from the repository root with Debian's PyTorch (python3-torch):
    /usr/bin/python3 tools/torch_fixture.py --out tests/fixtures/bench/cifar10_tutorial_sgd.json
"""

import argparse
import json
import os
import pathlib
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim


class Net(nn.Module):
    """The tutorial's network, verbatim."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def floats(t):
    """A float32 tensor as a flat list of floats with 9 significant digits, which round-trip float32."""
    t = t.detach().reshape(-1)
    values = [float("%.9g" % v) for v in t.tolist()]
    assert torch.equal(torch.tensor(values, dtype=torch.float32), t), "float32 values did not round-trip"
    return values


def parameters(net):
    return [{"shape": list(p.shape), "data": floats(p)} for p in net.parameters()]


def build(steps, batch, seed):
    """Train and return the fixture as a dict."""
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    torch.manual_seed(seed)
    net = Net()
    criterion = nn.CrossEntropyLoss()
    optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)
    gen = torch.Generator().manual_seed(seed)
    fixture = {
        "torch_version": torch.__version__,
        "workload": "cifar10-tutorial",
        "learning_rate": 0.001,
        "momentum": 0.9,
        "batch": batch,
        "seed": seed,
        "initial_parameters": parameters(net),
        "steps": [],
    }
    for _ in range(steps):
        images = torch.rand(batch, 3, 32, 32, generator=gen, dtype=torch.float32) * 2 - 1
        labels = torch.randint(0, 10, (batch,), generator=gen)
        optimizer.zero_grad()
        loss = criterion(net(images), labels)
        fixture["steps"].append({"images": floats(images), "labels": labels.tolist(), "loss": loss.item()})
        loss.backward()
        optimizer.step()
    fixture["final_parameters"] = parameters(net)
    return fixture


def write_atomically(path, text):
    """Write via a temporary file in the same directory, with the usual umask-derived mode."""
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", required=True, help="output JSON path")
    parser.add_argument("--steps", type=int, default=5, help="SGD steps (default 5)")
    parser.add_argument("--batch", type=int, default=8, help="batch size (default 8)")
    parser.add_argument("--seed", type=int, default=0, help="seed for init and data (default 0)")
    args = parser.parse_args()
    fixture = build(args.steps, args.batch, args.seed)
    write_atomically(args.out, json.dumps(fixture, separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
