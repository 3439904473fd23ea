"""payback.price_history(): the price history database as a DataFrame, the same rows as
``payback catalog history`` (bindings/python/payback/data.py)."""

from __future__ import annotations

import json
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
