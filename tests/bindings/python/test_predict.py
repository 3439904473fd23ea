"""payback.predict(): the same fields and figures as `payback predict --json`, and bad input as an
InputError naming the argument (the program: exit 2, one line naming it)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import payback

from conftest import BINARY, ROOT, run_cli

FIELDS = {"device", "workload", "precision", "quant", "phase", "batch", "expected_error", "basis", "family_fitted",
          "fits_memory", "memory_gb_needed", "memory_gb", "gpus", "split_seconds_per_step"}


def test_an_llm_gets_tokens_per_second_and_the_program_prints_the_same() -> None:
    p = payback.predict("RTX 3060 12GB", "llama-3.1-8b", quant="q4_0", context=8192, batch=4)
    assert set(p) == FIELDS | {"tokens_per_second"}
    assert (p["device"], p["workload"], p["quant"], p["phase"], p["batch"]) == (
        "RTX 3060 12GB", "llama-3.1-8b", "q4_0", "decode", 4)
    assert p["basis"] == "predicted"
    # 4.2068 GB of weights + 4 × 1 GB of KV cache + 4 × 0.0016 GB of activations = 8.2133 GB of 12
    assert p["memory_gb_needed"] == pytest.approx(8.2133, rel=1e-4)
    assert p["memory_gb"] == 12 and p["fits_memory"]
    assert p["expected_error"]["low"] < 0 < p["expected_error"]["high"]
    cli = run_cli("predict", "--device", "RTX 3060 12GB", "--workload", "llama-3.1-8b", "--quant", "q4_0",
                  "--context", "8192", "--batch", "4")
    assert cli == p


def test_gpt_oss_in_its_own_format_as_the_program_predicts_it() -> None:
    # mxfp4: the experts in MXFP4 (4.25 bits), the rest in Q8_0 (8.5): gpt-oss-20b's weights are 12,066,058,788 B,
    # 11.237 GiB (ggml-org's file: 11.27 GiB); on the GB10, 78.9 tokens/s at context 16 (llama.cpp published 84.10)
    p = payback.predict("GB10 DGX Spark", "gpt-oss-20b", quant="mxfp4", context=16)
    assert p["quant"] == "mxfp4"
    assert p["tokens_per_second"] == pytest.approx(78.9, rel=1e-3)
    assert p["memory_gb_needed"] == pytest.approx(12066058788 / 2**30, rel=1e-3)  # the cache and buffers: small
    cli = run_cli("predict", "--device", "GB10 DGX Spark", "--workload", "gpt-oss-20b", "--quant", "mxfp4",
                  "--context", "16")
    assert cli == p


def test_an_llm_split_over_two_cards_gets_their_memory_and_pays_a_hop() -> None:
    # Llama 3 70B at Q4_K_M fits no 24 GB card; two RTX 3090s hold 48 GB. Each further card adds
    # 0.1834 ms a token (the median hop of Dai's multi-GPU llama-bench rows; predictor_test.cpp).
    one = payback.predict("RTX 3090", "llama-3-70b", quant="q4_k_m", context=256)
    two = payback.predict("RTX 3090", "llama-3-70b", quant="q4_k_m", context=256, gpus=2)
    assert (one["gpus"], one["split_seconds_per_step"], one["fits_memory"]) == (1, 0, False)
    assert (two["gpus"], two["memory_gb"], two["fits_memory"]) == (2, 48, True)
    assert two["split_seconds_per_step"] == pytest.approx(0.0001834)
    assert 1 / two["tokens_per_second"] == pytest.approx(1 / one["tokens_per_second"] + 0.0001834, rel=1e-9)
    cli = run_cli("predict", "--device", "RTX 3090", "--workload", "llama-3-70b", "--quant", "q4_k_m", "--context",
                  "256", "--gpus", "2")
    assert cli == two


def test_a_training_workload_gets_samples_per_second_and_no_quant() -> None:
    p = payback.predict("H100 SXM", "resnet50", precision="bf16", batch=256)
    assert set(p) == FIELDS | {"samples_per_second"}
    assert p["quant"] is None and p["phase"] == "train" and p["precision"] == "bf16"
    # bf16 and fp16 are the same mixed-precision fraction; fp32 is slower
    assert p["samples_per_second"] == payback.predict("H100 SXM", "resnet50", batch=256)["samples_per_second"]
    assert payback.predict("H100 SXM", "resnet50", precision="fp32", batch=256)["samples_per_second"] < p[
        "samples_per_second"]


@pytest.mark.parametrize(
    ("arguments", "key"),
    [
        ({"device": "RTX 409", "workload": "llama-3-8b"}, "device"),
        ({"device": "RTX 4090", "workload": "llama-3-8", "quant": "q4_0"}, "workload"),
        ({"device": "RTX 4090", "workload": "resnet50", "quant": "q4_0"}, "quant"),
        ({"device": "RTX 4090", "workload": "llama-3-8b", "batch": 0}, "batch"),
        ({"device": "RTX 4090", "workload": "llama-3-8b", "gpus": 0}, "gpus"),
        ({"device": "RTX 4090", "workload": "resnet50", "gpus": 2}, "gpus"),
    ],
)
def test_bad_input_names_the_argument(arguments: dict[str, object], key: str) -> None:
    device, workload = str(arguments.pop("device")), str(arguments.pop("workload"))
    with pytest.raises(payback.InputError) as caught:
        payback.predict(device, workload, **arguments)  # type: ignore[arg-type]
    assert caught.value.key == key
    if not BINARY.exists():
        pytest.skip(f"no payback program at {BINARY}")
    flags = ["--device", device, "--workload", workload] + [
        part for name, value in arguments.items() for part in (f"--{name}", str(value))]
    done = subprocess.run([str(BINARY), "predict", *flags], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1 and f": {key}: " in done.stderr


def test_predict_devices_ranks_every_device_as_the_program_does() -> None:
    frame = payback.predict_devices("llama-3.1-70b", quant="q4_k_m")
    assert frame.equals(payback.predict_devices("llama-3.1-70b", "all", quant="q4_k_m"))  # as --device all
    gpus = payback.catalog("gpus")
    # decode needs only the bandwidth, which every device has: one row each, nothing skipped
    assert len(frame) == len(gpus) and frame.attrs["skipped"] == {}
    # those the model fits first, each group fastest first; the program's --json list in the same order
    fits = list(frame["fits_memory"])
    assert fits == sorted(fits, reverse=True)
    for group in (frame[frame["fits_memory"]], frame[~frame["fits_memory"]]):
        assert list(group["tokens_per_second"]) == sorted(group["tokens_per_second"], reverse=True)
    cli = run_cli("predict", "--device", "all", "--workload", "llama-3.1-70b", "--quant", "q4_k_m")
    assert [p["device"] for p in cli] == list(frame["device"])
    # each row is the device's own prediction; the RTX 4090's launch price over its rate: 1,599 USD per token/s
    row = frame.set_index("device").loc["RTX 4090"]
    alone = payback.predict("RTX 4090", "llama-3.1-70b", quant="q4_k_m")
    assert row["tokens_per_second"] == alone["tokens_per_second"]
    assert (row["error_low"], row["error_high"]) == (alone["expected_error"]["low"], alone["expected_error"]["high"])
    assert row["launch_price_usd"] == 1599 and row["usd_per_rate"] == pytest.approx(1599 / alone["tokens_per_second"])
    # no Blackwell card is in the llama-bench tables: the RTX 5090's error is the wider one of families left out
    blackwell = frame.set_index("device").loc["RTX 5090"]
    assert not blackwell["family_fitted"] and row["family_fitted"]
    assert blackwell["error_high"] > row["error_high"]


# A gpus.csv row as a user may add one, without a memory bandwidth: nothing can be predicted for it (shared with the
# C++ tests, tests/support/shipped_catalogs.hpp), under gpus.csv's header.
NO_BANDWIDTH_CSV = ROOT / "tests" / "fixtures" / "predictor" / "gpu-without-bandwidth.csv"

SKIPPED_IN_NEW_INTERPRETER = """
import json, payback
frame = payback.predict_devices("llama-3.1-8b", phase="prefill")
try:
    payback.predict_devices("llama-3.1-8b", ["RTX 4090", "Mystery Card"], phase="prefill")
    refused = None
except payback.InputError as e:
    refused = e.key
print(json.dumps({"devices": list(frame["device"]), "skipped": frame.attrs["skipped"], "refused": refused}))
"""


def test_predict_devices_skips_what_the_catalog_cannot_predict_only_when_comparing_every_device(
        tmp_path: Path) -> None:
    # Every shipped device has what each phase needs; a user's own catalogs may not. The catalogs are read once a
    # process, so a fresh interpreter reads the copy.
    pricing = tmp_path / "pricing"
    pricing.mkdir()
    for csv in (ROOT / "pricing").glob("*.csv"):
        shutil.copy(csv, pricing / csv.name)
    header, row = NO_BANDWIDTH_CSV.read_text(encoding="utf-8").splitlines(keepends=True)
    assert header == (pricing / "gpus.csv").read_text(encoding="utf-8").splitlines(keepends=True)[0]
    with (pricing / "gpus.csv").open("a", encoding="utf-8") as gpus:
        gpus.write(row)
    env = dict(os.environ, PAYBACK_PRICING_DIR=str(pricing))
    done = subprocess.run([sys.executable, "-c", SKIPPED_IN_NEW_INTERPRETER], capture_output=True, text=True,
                          check=True, env=env)
    result = json.loads(done.stdout)
    assert "Mystery Card" not in result["devices"] and "Apple M3 Max" in result["devices"]
    assert result["skipped"] == {
        "Mystery Card": "Mystery Card has no memory_bandwidth_gb_s in gpus.csv, which the prefill prediction needs"}
    assert result["refused"] == "device"
    # and with the shipped catalogs, nothing is skipped
    assert payback.predict_devices("llama-3.1-8b", phase="prefill").attrs["skipped"] == {}
    named = payback.predict_devices("llama-3.1-8b", ["RTX 4090", "RTX 3090"], phase="prefill", gpus=2)
    assert list(named["device"]) == ["RTX 4090", "RTX 3090"]
    assert list(named["launch_price_usd"]) == [2 * 1599, 2 * 1499]


def test_predict_devices_has_no_nan_where_the_catalog_has_no_price() -> None:
    frame = payback.predict_devices("llama-3.1-8b", ["B200", "RTX 4090"], quant="q4_0")
    assert list(payback.predict_devices("llama-3.1-8b", "B200", quant="q4_0")["device"]) == ["B200"]  # one name
    b200 = frame.set_index("device").loc["B200"]  # gpus.csv gives the B200 no launch price
    assert b200["launch_price_usd"] is pd.NA and b200["usd_per_rate"] is pd.NA
    assert str(frame["usd_per_rate"].dtype) == "Float64"


def test_predict_devices_ranks_training_in_samples_per_second() -> None:
    frame = payback.predict_devices("resnet50", ["RTX 4090", "RTX 5090", "Apple M3 Max"], batch=64)
    assert "samples_per_second" in frame and "tokens_per_second" not in frame
    assert list(frame["samples_per_second"]) == sorted(frame["samples_per_second"], reverse=True)
    by_device = frame.set_index("device")
    for device in ("RTX 4090", "RTX 5090", "Apple M3 Max"):
        assert by_device.loc[device, "samples_per_second"] == payback.predict(device, "resnet50", batch=64)[
            "samples_per_second"]
    # no Blackwell card or Apple GPU is in Lambda's training tables: both per byte of bandwidth, with the wider error
    assert by_device.loc["RTX 4090", "family_fitted"]
    assert not by_device.loc["RTX 5090", "family_fitted"] and not by_device.loc["Apple M3 Max", "family_fitted"]
