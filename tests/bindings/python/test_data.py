"""Catalogs, the benchmark and calibration profiles (bindings/python/payback/data.py)."""

from __future__ import annotations

import json

import pytest
from conftest import ROOT

import payback


@pytest.mark.parametrize(
    "what, columns",
    [
        ("gpus", ["name", "launch_price_usd", "memory_bandwidth_gb_s", "as_of", "source"]),
        ("instances", ["instance", "region", "gpu", "on_demand_per_hour", "currency", "as_of"]),
        ("parts", ["kind", "name", "price_usd", "load_watts"]),
        ("rates", ["region", "price_per_kwh", "year"]),
        ("rental", ["market", "gpu", "host_price_per_hour", "occupancy"]),
    ],
)
def test_catalogs_are_frames_with_their_provenance(what, columns):
    frame = payback.catalog(what)
    assert len(frame) > 0
    assert set(columns) <= set(frame.columns)
    assert frame["source"].str.len().min() > 0


def test_the_gpu_catalog_has_the_rtx_3090_as_in_its_file():
    gpus = payback.catalog("gpus").set_index("name")
    row = gpus.loc["RTX 3090"]
    text = (ROOT / "pricing" / "gpus.csv").read_text()
    line = next(line for line in text.splitlines() if line.startswith("RTX 3090,"))
    assert f"{row['memory_gb']:g}" in line.split(",")


def test_an_unknown_catalog_is_an_input_error():
    with pytest.raises(payback.InputError):
        payback.catalog("boats")


def test_a_short_cpu_benchmark_and_its_profile_round_trip(tmp_path):
    out = tmp_path / "profile.json"
    profile = payback.bench(device="cpu", batches=[4], repeats=1, seconds=0.01, threads=1, out=out)
    results = profile.results
    assert list(results["device"]) == ["cpu"]
    assert list(results["batch"]) == [4]
    assert results["samples_per_second"].iloc[0] > 0
    again = payback.read_profile(out)
    assert json.loads(again.json) == json.loads(profile.json)
    assert again.samples_per_second("cpu") == results["samples_per_second"].iloc[0]


def test_a_bad_profile_names_its_key(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"date": "2026-01-01", "software": {}, "results": [{"device": "cpu"}]}')
    with pytest.raises(payback.InputError) as caught:
        payback.read_profile(bad)
    assert caught.value.file == str(bad)
    assert caught.value.key.startswith("results[0]")
