"""The metric table (payback._core.model.metric_table(), payback.results.METRICS): the typed fields that
payback/results.py declares, its DataFrames' columns, compare's JSON and CSV all follow it."""

from __future__ import annotations

import csv
import io
import subprocess
import typing

import pytest
from conftest import BINARY, HAND, LLM, VENUS

import payback
from payback import _core
from payback.results import METRICS, JobMetrics, OptionMetrics, PairMetrics, TokenMetrics, VersusMetrics

# What each type of the table is in Python.
PYTHON_TYPES: dict[str, object] = {
    "number": float,
    "optional_number": float | None,
    "integer": int,
    "text": str,
    "numbers": list[float],
    "by_name": dict[str, float],
}

TYPED: dict[str, type] = {"option": OptionMetrics, "pair": PairMetrics, "job": JobMetrics, "tokens": TokenMetrics}


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


@pytest.mark.parametrize("scope", ["option", "pair", "job", "tokens"])
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
    # The tokens' columns only for a scenario that serves tokens.
    text = run_cli_text("compare", str(VENUS), "--format", "csv")
    header = next(csv.reader(io.StringIO(text)))
    assert header == ["name", "kind", *(m["name"] for m in METRICS if m["csv"] and m["scope"] != "tokens")]
    text = run_cli_text("compare", str(LLM), "--format", "csv")
    header = next(csv.reader(io.StringIO(text)))
    assert header == ["name", "kind", *(m["name"] for m in METRICS if m["csv"])]


# The hand scenario serving tokens (tests/support/scenario_text.hpp, token_scenario()): 36e6 input
# tokens a month (half cached) and 7.2e6 output; the rig at 2000 / 100 tokens/s, the cloud at
# 4000 / 200, an API at $0.2 / $0.1 cached / $6 per million with a sixth off.
TOKENS = (
    HAND.replace("gpu_hours_per_month = 100",
                 'tokens = { model = "llama-3.1-8b", quant = "q4_0", input_tokens_per_month = 36e6, '
                 "output_tokens_per_month = 7.2e6, cached_input_share = 0.5 }")
    .replace("psu_efficiency = 0.8", "psu_efficiency = 0.8\ntokens_per_second = { prefill = 2000, decode = 100 }")
    .replace("speedup = 2.0", "speedup = 2.0\ntokens_per_second = { prefill = 4000, decode = 200 }")
    + """
[[api]]
name = "api"
price_per_million_input = 0.2
price_per_million_output = 6.0
price_per_million_cached_input = 0.1
off_peak = { schedule = "daily 16-24", discount = 0.5 }
"""
)


def test_token_metrics_under_each_option_and_in_the_options_frame():
    c = payback.loads(TOKENS, "tokens.toml").compare()
    for option in c.report["options"]:
        assert set(option["tokens"]) == set(names("tokens"))
    assert [o["kind"] for o in c.report["options"]] == ["diy", "cloud", "api"]
    frame = c.options
    assert list(frame.columns) == ["kind", *(n for n in names("option") if n != "energy_kwh_by_period"),
                                   *names("tokens")]
    # Rig: 1500 + 24 × 11.3125 = 1771.5 over 43.2e6 × 24 = 1036.8 M tokens; 25 h at 500 W a month.
    assert frame.loc["rig", "cost_per_million_tokens"] == pytest.approx(1771.5 / 1036.8)
    assert frame.loc["rig", "joules_per_token"] == pytest.approx(500 * 25 * 3600 / 43.2e6)
    # Cloud: 12.5 h × $2 × 24 = $600. API: $48.60 × 5/6 = $40.50 a month, $972, $0.9375 per M.
    assert frame.loc["cloud", "cost_per_million_tokens"] == pytest.approx(600 / 1036.8)
    assert frame.loc["api", "cost_per_million_tokens"] == pytest.approx(0.9375)
    assert frame.loc["api", "cost_per_million_output_tokens"] == pytest.approx(5.0)
    assert frame["tokens_per_second"].isna().tolist() == [False, False, True]
    assert c.versus.loc["api", "npv_savings"] == pytest.approx(972 - 1771.5)


def test_predicted_rates_and_their_origin_in_the_options_frame():
    # The L4 instance gives no tokens_per_second: the predictor's, for its one L4 at the workload's
    # model, quant, context and concurrency; the rig's are typed in.
    frame = payback.load(str(LLM)).compare().options
    l4 = "AWS g6.xlarge (L4) on demand"
    predicted = payback.predict("L4", "llama-3.1-8b", quant="q4_k_m", context=4096, batch=1)
    assert frame.loc[l4, "tokens_per_second"] == pytest.approx(predicted["tokens_per_second"], rel=1e-12)
    low, high = predicted["expected_error"]["low"], predicted["expected_error"]["high"]
    assert frame.loc[l4, "tokens_per_second_origin"] == (
        f"predicted for L4 from its specs (roofline), expected error {low * 100:+.0f} %/{high * 100:+.0f} %")
    assert frame.loc["RTX 4090 server", "tokens_per_second_origin"] == "measured (given by hand)"
    assert frame.loc["RTX 4090 server", "tokens_per_second"] == 119.44
    assert frame.loc["together:llama-3.1-8b", "tokens_per_second_origin"] == ""  # an API has no rates


def test_breakeven_over_the_output_volume():
    # By hand (docs/inference.md): 1621.5 / (120 - 24 × 0.0875 / 0.36) million output tokens a month.
    s = payback.loads(TOKENS, "tokens.toml")
    b = s.breakeven("workload.tokens.output_tokens_per_month", against="api")
    assert b.value == pytest.approx(1621.5 / (120 - 24 * 0.0875 / 0.36) * 1e6, rel=1e-6)


def test_montecarlo_over_token_volume_and_api_price_decline():
    text = TOKENS + """
[uncertainty]
"workload.tokens.output_tokens_per_month" = { dist = "uniform", low = 3.6e6, high = 14.4e6 }
"api[0].escalation" = { dist = "uniform", low = -0.5, high = 0.0 }
"""
    mc = payback.loads(text, "mc.toml").montecarlo(samples=400, seed=3)
    savings = mc.metric("npv_savings", "api")
    volumes = mc.inputs[:, mc.keys.index("workload.tokens.output_tokens_per_month")]
    # Each sample as the exact model gives it: the two samples at the ends of the volume range.
    for i in (int(volumes.argmin()), int(volumes.argmax())):
        exact = payback.loads(text, "mc.toml").with_overrides({
            "workload.tokens.output_tokens_per_month": float(volumes[i]),
            "api[0].escalation": float(mc.inputs[i, mc.keys.index("api[0].escalation")]),
        }).compare()
        assert savings[i] == pytest.approx(exact.versus.loc["api", "npv_savings"], rel=1e-9, abs=1e-6)


def test_docs_metrics_lists_every_metric_with_its_unit():
    text = run_cli_text("docs", "--metrics")
    for m in METRICS:
        assert f"| `{m['name']}` | {m['unit'] or 'text'} |" in text

