"""Shared fixtures: the repository's scenarios, and the command-line program for comparing the
package's values with the CLI's JSON."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")

ROOT = Path(__file__).resolve().parents[3]
SCENARIOS = ROOT / "scenarios"
VENUS = SCENARIOS / "venus-2019.toml"
VENUS_UNCERTAIN = SCENARIOS / "venus-2019-uncertain.toml"
LLM = SCENARIOS / "llm-4090-vs-api.toml"
BINARY = Path(os.environ.get("PAYBACK_BINARY", ROOT / "build" / "bin" / "payback"))

# The hand scenario of tests/support/scenario_text.hpp: one GPU and one CPU, a flat tariff, one cloud.
HAND = """
[scenario]
name = "hand"
horizon_months = 24
discount_rate = 0.0

[workload]
gpu_hours_per_month = 100

[rig]
when_not_training = "idle"
psu_efficiency = 0.8

[[rig.parts]]
kind = "gpu"
name = "GPU"
price = 1000
idle_watts = 20
load_watts = 300

[[rig.parts]]
kind = "cpu"
name = "CPU"
price = 500
idle_watts = 30
load_watts = 100

[electricity]
price_per_kwh = 0.2

[[cloud]]
name = "cloud"
price_per_hour = 2.0
speedup = 2.0
"""


def run_cli(*args: str) -> dict:
    """`payback ARGS... --json`, parsed."""
    if not BINARY.exists():
        pytest.skip(f"no payback program at {BINARY} (build it, or set PAYBACK_BINARY)")
    done = subprocess.run([str(BINARY), *args, "--json"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


@pytest.fixture(scope="session")
def venus():
    import payback

    return payback.load(VENUS)


@pytest.fixture(scope="session")
def venus_uncertain():
    import payback

    return payback.load(VENUS_UNCERTAIN)
