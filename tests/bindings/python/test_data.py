"""Catalogs, the benchmark and calibration profiles (bindings/python/payback/data.py)."""

from __future__ import annotations

import json
import subprocess

import pandas as pd
import pytest
from conftest import BINARY, ROOT

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
        ("models", ["name", "kind", "parameters", "active_parameters", "tied_embeddings", "flops_per_token", "as_of"]),
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
    # GeForce tensor cores accumulate FP32 at half rate (the GA102 whitepaper); an empty cell is missing
    assert row["tensor_fp32_accumulate"] == "half"
    assert pd.isna(gpus.loc["GTX 1080 Ti"]["tensor_fp32_accumulate"])


def test_the_api_price_catalog_has_together_llama_as_in_its_file():
    apis = payback.catalog("api-prices").set_index("api")
    text = (ROOT / "pricing" / "api-prices.csv").read_text()
    assert len(apis) == len(text.splitlines()) - 1
    # together,llama-3.1-8b,0.18,0.18,,131072,2026-12-01 and deepseek,deepseek-chat,0.28,0.42,0.028
    together = apis.loc["together:llama-3.1-8b"]
    assert (together["input"], together["output"], together["context"]) == (0.18, 0.18, 131072)
    assert together["cached_input"] is None or together["cached_input"] != together["cached_input"]  # None or NaN
    assert apis.loc["deepseek:deepseek-chat", "cached_input"] == 0.028


def test_the_model_catalog_is_models_csv_with_its_columns():
    models = payback.catalog("models").set_index("name")
    header = (ROOT / "pricing" / "models.csv").read_text().splitlines()[0].split(",")
    assert set(header) - {"name"} <= set(models.columns)
    # llama-3-8b,llm,8030261248,,32,4096,...,128256,,8192,,,15009849344: 2 FLOPs a weight a token reads,
    # the input embedding (128,256 x 4,096) left out
    llama = models.loc["llama-3-8b"]
    assert (llama["parameters"], llama["flops_per_token"]) == (8030261248, 15009849344)
    assert not llama["tied_embeddings"] and models.loc["gpt-small", "tied_embeddings"]
    assert models.loc["gpt-oss-20b", "active_parameters"] == 3.61e9


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


# A decoder small enough to time in well under a second: 2 layers, d_model 64 in 2 heads of 32 (even, for
# the rotary pairs), 1 KV head, FFN 128 and d_model both multiples of the quant blocks' 32.
TINY_LLM = "layers=2,d_model=64,heads=2,kv_heads=1,ffn=128,vocab=256"


def test_a_tiny_llm_decode_benchmark_gives_the_profile_fields_of_the_cli(tmp_path):
    out = tmp_path / "llm.json"
    profile = payback.bench(device="cpu", workload="llm-decode", batches=[1, 2], repeats=1, seconds=0.01, threads=1,
                            quant="q8_0", context=16, llm=TINY_LLM, out=out)
    rows = profile.results
    assert list(rows["workload"]) == ["llm-decode", "llm-decode"]
    assert list(rows["batch"]) == [1, 2]
    assert list(rows["quant"]) == ["q8_0", "q8_0"]
    assert list(rows["context"]) == [16, 16]
    # llm-decode counts tokens as its samples: its tokens per second are its samples per second.
    assert list(rows["tokens_per_second"]) == list(rows["samples_per_second"])
    assert (rows["tokens_per_second"] > 0).all()
    assert (rows["prefill_tokens_per_second"] > 0).all()
    assert json.loads(payback.read_profile(out).json) == json.loads(profile.json)


def test_a_one_step_gpt_small_benchmark_counts_256_tokens_a_sequence():
    # One warm-up and one timed step of one sequence, on one thread (two oversubscribe a loaded machine).
    profile = payback.bench(device="cpu", workload="gpt-small", batches=[1], repeats=1, seconds=0.001, threads=1)
    row = profile.results.iloc[0]
    assert (row["workload"], row["precision"], row["batch"], row["threads"]) == ("gpt-small", "fp32", 1, 1)
    assert row["samples_per_second"] > 0
    assert row["tokens_per_second"] == pytest.approx(256 * row["samples_per_second"], rel=1e-12)


@pytest.mark.parametrize(
    "arguments, cli, key",
    [
        (dict(workload="gpt-small", precision="bf16"), ["--workload", "gpt-small", "--precision", "bf16"],
         "--precision"),
        (dict(workload="mlp", precision="fp16"), ["--workload", "mlp", "--precision", "fp16"], "--precision"),
        (dict(workload="llm-decode", quant="q5_0"), ["--workload", "llm-decode", "--quant", "q5_0"], "quant"),
        (dict(workload="llm-decode", llm="layers=0"), ["--workload", "llm-decode", "--llm", "layers=0"],
         "llm.layers"),
        (dict(workload="llm-decode", context=0), ["--workload", "llm-decode", "--context", "0"], "--context"),
        (dict(batches=[0]), ["--batch", "0"], "--batch"),
        (dict(workload="resnet"), ["--workload", "resnet"], "workload"),
        (dict(device="tpu"), [], "--device"),
    ],
)
def test_bench_refuses_what_the_cli_refuses_with_its_message(arguments, cli, key):
    with pytest.raises(ValueError) as caught:
        payback.bench(**{"device": "cpu", **arguments})
    assert isinstance(caught.value, payback.InputError)
    assert key in (caught.value.file, caught.value.key)
    if not BINARY.exists():
        pytest.skip(f"no payback program at {BINARY}")
    device = str(arguments.get("device", "cpu"))
    done = subprocess.run([str(BINARY), "bench", "--device", device, *cli], capture_output=True, text=True)
    assert done.returncode == 2
    assert str(caught.value) in done.stderr


def test_a_bad_profile_names_its_key(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"date": "2026-01-01", "software": {}, "results": [{"device": "cpu"}]}')
    with pytest.raises(payback.InputError) as caught:
        payback.read_profile(bad)
    assert caught.value.file == str(bad)
    assert caught.value.key.startswith("results[0]")
