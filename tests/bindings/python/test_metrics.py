"""The metric table (payback._core.model.metric_table(), payback.results.METRICS): the typed fields that
payback/results.py declares, its DataFrames' columns, compare's JSON and CSV all follow it."""

from __future__ import annotations

import csv
import io
import subprocess
import typing

import pytest
from conftest import BINARY, HAND, VENUS

import payback
from payback import _core
from payback.results import METRICS, JobMetrics, OptionMetrics, PairMetrics, VersusMetrics

# What each type of the table is in Python.
PYTHON_TYPES: dict[str, object] = {
    "number": float,
    "optional_number": float | None,
    "integer": int,
    "text": str,
    "numbers": list[float],
    "by_name": dict[str, float],
}

TYPED: dict[str, type] = {"option": OptionMetrics, "pair": PairMetrics, "job": JobMetrics}


def run_cli_text(*args: str) -> str:
    return subprocess.run([str(BINARY), *args], check=True, capture_output=True, text=True).stdout


def names(scope: str) -> list[str]:
    return [m["name"] for m in METRICS if m["scope"] == scope]


def test_the_table_has_every_field_of_each_row():
    assert METRICS == _core.model.metric_table()
    assert [m["name"] for m in METRICS][:3] == ["total_cost", "npv_cost", "npv"]
    for m in METRICS:
        assert set(m) == set(typing.get_type_hints(payback.results.MetricRow)), m["name"]
        assert m["scope"] in TYPED
        assert m["type"] in PYTHON_TYPES
        assert m["description"]
    assert len({m["name"] for m in METRICS}) == len(METRICS)


@pytest.mark.parametrize("scope", ["option", "pair", "job"])
def test_the_typed_dicts_declare_the_tables_metrics_with_their_types(scope):
    hints = typing.get_type_hints(TYPED[scope])
    assert list(hints) == names(scope)
    for m in METRICS:
        if m["scope"] == scope:
            assert hints[m["name"]] == PYTHON_TYPES[m["type"]], m["name"]


def test_versus_metrics_are_the_pairs_with_names_and_totals():
    hints = typing.get_type_hints(VersusMetrics)
    assert list(hints) == [*names("pair"), "rig", "cloud", "rig_total_cost", "cloud_total_cost"]


def test_frames_have_the_tables_scalar_metrics_in_its_order(venus):
    c = venus.compare()
    # Lists (irr_roots) and numbers by name (energy_kwh_by_period) are no column of a frame.
    assert list(c.options.columns) == ["kind", *(n for n in names("option") if n != "energy_kwh_by_period")]
    assert list(c.versus.columns) == ["rig", *(n for n in names("pair") if n != "irr_roots")]
    optional = {m["name"] for m in METRICS if m["type"] == "optional_number"}
    for column in c.versus.columns:
        if column in optional:
            assert str(c.versus[column].dtype) == "Float64", column


def test_compare_json_has_the_tables_metrics_with_the_frames_values(venus):
    c = venus.compare()
    for option in c.report["options"]:
        assert set(names("option")) <= set(option)
        assert option["total_cost"] == c.options.loc[option["name"], "total_cost"]
    for pair in c.report["versus"]:
        assert set(names("pair")) <= set(pair)
    m = c.metrics()
    assert set(m) == set(typing.get_type_hints(VersusMetrics))
    assert isinstance(m["optimal_sale_month"], int)
    assert isinstance(m["irr_roots"], list)


def test_job_metrics_under_each_option():
    text = HAND.replace("gpu_hours_per_month = 100",
                        'job = { model = "cifar10-tutorial", samples_per_epoch = 50000, epochs = 2, '
                        "runs_per_month = 36, samples_per_second = 100 }")
    c = payback.loads(text, "job.toml").compare()
    for option in c.report["options"]:
        assert set(option["job"]) == set(names("job"))
    # The typed-in cloud at speedup 2: 200 samples/s, $10 / 36 a run, no draw given.
    cloud = c.report["options"][1]["job"]
    assert cloud["samples_per_second"] == pytest.approx(200.0)
    assert cloud["cost_per_run"] == pytest.approx(10.0 / 36.0)
    assert cloud["kwh_per_run"] is None


def test_compare_csv_columns_are_the_tables_csv_metrics():
    text = run_cli_text("compare", str(VENUS), "--format", "csv")
    header = next(csv.reader(io.StringIO(text)))
    assert header == ["name", "kind", *(m["name"] for m in METRICS if m["csv"])]


def test_docs_metrics_lists_every_metric_with_its_unit():
    text = run_cli_text("docs", "--metrics")
    for m in METRICS:
        assert f"| `{m['name']}` | {m['unit'] or 'text'} |" in text

