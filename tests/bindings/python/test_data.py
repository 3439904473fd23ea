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
        ("api-prices", ["api", "provider", "model", "input", "output", "cached_input", "context", "as_of"]),
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


def test_the_api_price_catalog_has_together_llama_as_in_its_file():
    apis = payback.catalog("api-prices").set_index("api")
    text = (ROOT / "pricing" / "api-prices.csv").read_text()
    assert len(apis) == len(text.splitlines()) - 1
    # together,llama-3.1-8b,0.18,0.18,,131072,2026-12-01 and deepseek,deepseek-chat,0.28,0.42,0.028
    together = apis.loc["together:llama-3.1-8b"]
    assert (together["input"], together["output"], together["context"]) == (0.18, 0.18, 131072)
    assert together["cached_input"] is None or together["cached_input"] != together["cached_input"]  # None or NaN
    assert apis.loc["deepseek:deepseek-chat", "cached_input"] == 0.028


def copy_of_the_catalogs(directory, file, old, new):
    """Every shipped CSV in a new `directory`, `file` with `old` replaced by `new`."""
    directory.mkdir()
    for csv in (ROOT / "pricing").glob("*.csv"):
        text = csv.read_text()
        if csv.name == file:
            assert old in text
            text = text.replace(old, new, 1)
        (directory / csv.name).write_text(text)
    return directory


@pytest.mark.parametrize(
    "file, old, new, line, key",
    [
        # DE on line 17, AWS us-east-1 on line 28, the RTX 3090 of October 2021 on line 73.
        ("grid-carbon.csv", "DE,Germany,0.34414,", "DE,Germany,344.14,", 17, "kg_co2_per_kwh"),
        ("cloud-regions.csv", "aws,us-east-1,US-VA,0.243512,1.15,", "aws,us-east-1,US-VA,0.243512,0.9,", 28, "pue"),
        ("used-gpu-prices.csv", "2021-10-15,RTX 3090,2737,", "2021-10-15,RTX 3090,-1,", 73, "price"),
    ],
)
def test_a_catalog_directory_is_read_whole_grid_regions_and_used_prices_too(tmp_path, file, old, new, line, key):
    good = copy_of_the_catalogs(tmp_path / "good", file, old, old)
    assert len(payback.catalog("gpus", good)) == len(payback.catalog("gpus"))
    bad = copy_of_the_catalogs(tmp_path / "bad", file, old, new)
    with pytest.raises(payback.InputError) as error:
        payback.catalog("gpus", bad)
    assert (error.value.file, error.value.line, error.value.key) == (str(bad / file), line, key)


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
