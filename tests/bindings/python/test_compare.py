"""compare, cash flows and metrics (bindings/python/src/scenario.cpp, payback/results.py): the same
values as the command line's JSON for the same scenario."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from conftest import HAND, SCENARIOS, VENUS, run_cli

import payback


@pytest.mark.parametrize("name", ["venus-2019.toml", "rtx3080-rental.toml", "dettmers-3090.toml"])
def test_compare_equals_the_cli_json(name):
    path = SCENARIOS / name
    assert payback.load(path).compare().report == run_cli("compare", str(path))


def test_compare_with_overrides_equals_the_cli_json():
    s = payback.load(VENUS, electricity__price_per_kwh=0.35, workload__gpu_hours_per_month=420)
    cli = run_cli("compare", str(VENUS), "--set", "electricity.price_per_kwh=0.35",
                  "--set", "workload.gpu_hours_per_month=420")
    assert s.compare().report == cli


def test_cashflow_frames_equal_the_cli_json(venus):
    c = venus.compare()
    for option in c.option_names:
        cli = run_cli("cashflow", str(VENUS), "--option", option)
        frame = c.cashflow(option)
        assert list(frame.index) == [row["month"] for row in cli["months"]]
        for column in frame.columns:
            assert frame[column].tolist() == [row[column] for row in cli["months"]], column


def test_cashflow_columns_and_dtypes(venus):
    frame = venus.cashflow()
    assert frame.index.name == "month"
    assert frame.index.dtype == np.int64
    assert list(frame.index) == list(range(1, venus.horizon_months + 1))
    for column in ["capex", "energy", "resale", "net", "cumulative", "discounted", "cumulative_discounted",
                   "energy_kwh", "asset_value"]:
        assert frame[column].dtype == np.float64, column
    # net is the sum of the line items, cumulative its running sum.
    assert np.allclose(frame[payback.results.LINE_ITEMS].sum(axis=1), frame["net"], rtol=0, atol=1e-9)
    assert np.allclose(frame["net"].cumsum(), frame["cumulative"], rtol=0, atol=1e-6)


def test_capex_by_part_adds_up_to_capex(venus):
    c = venus.compare()
    parts = c.capex_by_part()
    assert np.allclose(parts.sum(axis=1), c.cashflow()["capex"], rtol=0, atol=1e-9)


def test_options_and_versus_tables(venus):
    c = venus.compare()
    assert list(c.options.index) == c.option_names
    assert c.options["total_cost"].dtype == np.float64
    assert c.versus["payback_months"].dtype == pd.Float64Dtype()
    assert list(c.versus.index) == venus.cloud_names


def test_metrics_is_a_dict_of_one_comparison(venus):
    c = venus.compare()
    m = c.metrics()
    versus = c.report["versus"][0]
    assert m["cloud"] == versus["cloud"]
    assert m["npv_savings"] == versus["npv_savings"]
    assert m["cloud_total_cost"] == c.options.loc[m["cloud"], "total_cost"]
    with pytest.raises(KeyError):
        c.metrics("no such cloud")


def test_no_payback_within_the_horizon_is_none():
    # A cloud hour at 1 cent never costs more than the rig: the rig never pays back.
    c = payback.loads(HAND, "hand.toml", cloud__0__price_per_hour=0.01).compare()
    m = c.metrics()
    assert m["payback_months"] is None
    assert m["discounted_payback_months"] is None
    assert c.versus["payback_months"].isna().all()
    assert not any(isinstance(v, float) and np.isnan(v) for v in m.values())


def test_html_view_has_the_verdict_and_the_tables(venus):
    c = venus.compare()
    page = c._repr_html_()
    assert c.verdict.split()[0] in page
    assert page.count("<table>") == 2
