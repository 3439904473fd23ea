"""payback.price_history(): the price history database as a DataFrame, the same rows as
``payback catalog history`` (bindings/python/payback/data.py)."""

from __future__ import annotations

import json
import os
import pickle
import subprocess

import pytest
from conftest import BINARY, ROOT

import payback

DEEPSEEK = ROOT / "tests" / "fixtures" / "market" / "import" / "llm-prices_simonw_deepseek.json"


def test_a_new_history_holds_the_shipped_spot_price(tmp_path):
    db = tmp_path / "prices.sqlite"
    frame = payback.price_history(instance="aws:p5.48xlarge", mode="spot", db=db)
    # pricing/cloud-instances.csv: aws,p5.48xlarge,us-east-1,...,55.04,17.63,...,2026-11-29
    assert list(frame[["as_of", "price", "region", "import"]].itertuples(index=False, name=None)) == [
        ("2026-11-29", 17.63, "us-east-1", "snapshot")
    ]
    assert db.exists()
    on_demand = payback.price_history(instance="aws:p5.48xlarge", mode="on_demand", db=db)
    assert sorted(on_demand["region"]) == ["ap-northeast-1", "eu-west-2", "us-east-1", "us-west-1"]


def test_an_imported_series_reads_back_as_the_cli_shows_it(tmp_path):
    db = tmp_path / "prices.sqlite"
    subprocess.run([str(BINARY), "catalog", "import", "--format", "llm-prices", "--as-of", "2026-08-05",
                    str(DEEPSEEK), "-o", str(tmp_path / "api.csv"), "--db", str(db)], check=True, capture_output=True)
    frame = payback.price_history(api="deepseek:deepseek-chat", mode="output", db=db)
    # deepseek.json: $0.28 until to_date 2025-02-08 (dated the day before), $1.10 from 2025-02-08;
    # then pricing/api-prices.csv's $0.42 as of 2026-12-01
    assert list(frame["as_of"]) == ["2025-02-07", "2025-02-08", "2026-12-01"]
    assert list(frame["price"]) == [0.28, 1.1, 0.42]
    assert list(frame["import"]) == ["llm-prices", "llm-prices", "snapshot"]
    shown = subprocess.run([str(BINARY), "catalog", "history", "--api", "deepseek:deepseek-chat", "--mode", "output",
                            "--json", "--db", str(db)], check=True, capture_output=True, text=True)
    assert [row["price"] for row in json.loads(shown.stdout)] == list(frame["price"])


def test_gpu_prices_and_bad_names(tmp_path):
    db = tmp_path / "prices.sqlite"
    used = payback.price_history(gpu="RTX 2080 Ti", mode="used", db=db)
    assert used.iloc[0]["as_of"] == "2021-10-15"  # pricing/used-gpu-prices.csv's first sale
    assert used.iloc[0]["price"] == 1097
    assert payback.price_history(gpu="No Such GPU", db=db).empty
    with pytest.raises(payback.InputError, match="expected PROVIDER:INSTANCE"):
        payback.price_history(instance="p5.48xlarge", db=db)
    with pytest.raises(payback.InputError, match="name one of instance, api or gpu"):
        payback.price_history(db=db)
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("not a database, only some words in a file long enough to be read\n")
    with pytest.raises(payback.InputError, match="not a SQLite database"):
        payback.price_history(gpu="RTX 3090", db=not_a_db)


# A history that prices aws:p3.2xlarge in us-east-1 at $2.50 from 2026-12-15 (the us-east-1 row of
# tests/fixtures/market/import/skypilot_v7_aws_vms_gpu_excerpt.csv with its price cut), over the shipped
# catalogs' $3.06 as of 2026-11-29; and a scenario of 100 hours a month for 12 months on that instance.
# The same case as tests/apps/history_prices_test.cpp, through payback.load(as_of=, db=).
SKYPILOT = ROOT / "tests" / "fixtures" / "market" / "import" / "skypilot_v7_aws_vms_gpu_excerpt.csv"
RIG = """[scenario]
name = "history test"
horizon_months = 12
[workload]
gpu_hours_per_month = 100
[rig]
name = "Rig"
[[rig.parts]]
kind = "gpu"
name = "card"
price = 1000
load_watts = 300
[electricity]
price_per_kwh = 0.2
[[cloud]]
instance = "aws:p3.2xlarge"
region = "us-east-1"
speedup = 1
"""


@pytest.fixture()
def history(tmp_path, monkeypatch):
    monkeypatch.delenv("PAYBACK_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))  # no default history
    monkeypatch.setenv("PAYBACK_TODAY", "2026-12-20")
    header = SKYPILOT.read_text().splitlines()[0]
    vms = tmp_path / "vms.csv"
    vms.write_text(header + "\np3.2xlarge,V100,1.0,8.0,61.0,\"{'Gpus': [{'Name': 'V100', 'Manufacturer': 'NVIDIA', "
                   "'Count': 1, 'MemoryInfo': {'SizeInMiB': 16384}}], 'TotalGpuMemoryInMiB': 16384}\","
                   "2.50,0.519700,us-east-1,use1-az1\n")
    db = tmp_path / "prices.sqlite"
    subprocess.run([str(BINARY), "catalog", "import", "--format", "skypilot", "--provider", "aws", "--as-of",
                    "2026-12-15", str(vms), "-o", str(tmp_path / "imported.csv"), "--db", str(db)],
                   check=True, capture_output=True, env={**os.environ})
    rig = tmp_path / "rig.toml"
    rig.write_text(RIG)
    return rig, db


def cloud_total(scenario: payback.Scenario) -> float:
    report = scenario.compare().report
    return next(o["total_cost"] for o in report["options"] if o["kind"] != "diy")


def test_load_reads_the_history_as_of_a_day(history):
    rig, db = history
    # 12 months × 100 h × $3.06 = $3,672 before the import's date; × $2.50 = $3,000 from it.
    assert cloud_total(payback.load(rig, as_of="2026-12-14", db=db)) == pytest.approx(3672.0, abs=1e-9)
    on_the_day = payback.load(rig, as_of="2026-12-15", db=db)
    assert cloud_total(on_the_day) == pytest.approx(3000.0, abs=1e-9)
    assert on_the_day.compare().report["prices_as_of"] == "2026-12-15"
    assert cloud_total(payback.load(rig, db=db)) == pytest.approx(3000.0, abs=1e-9)  # the newest
    assert cloud_total(payback.load(rig)) == pytest.approx(3672.0, abs=1e-9)  # no history named
    # A changed copy, and a pickled one, keep the day and the history.
    before = payback.load(rig, as_of="2026-12-14", db=db)
    assert cloud_total(before.with_overrides(workload__gpu_hours_per_month=50)) == pytest.approx(1836.0, abs=1e-9)
    assert cloud_total(pickle.loads(pickle.dumps(before))) == pytest.approx(3672.0, abs=1e-9)
    assert cloud_total(payback.loads(RIG, as_of="2026-12-15", db=db)) == pytest.approx(3000.0, abs=1e-9)


def test_load_refuses_a_missing_history_or_a_bad_day(history, tmp_path):
    rig, _ = history
    with pytest.raises(payback.InputError, match="no price history here"):
        payback.load(rig, db=tmp_path / "missing.sqlite")
    with pytest.raises(payback.InputError, match="--as-of"):
        payback.load(rig, as_of="2026-13-01")
