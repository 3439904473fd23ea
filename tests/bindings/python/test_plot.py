"""Plot helpers (bindings/python/payback/plot.py): figures with the expected artists and labels."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pytest

import payback
from payback import plot


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_cumulative_curves_one_per_option_with_payback_marked(venus):
    c = venus.compare()
    fig = plot.cumulative(c)
    ax = fig.axes[0]
    labels = [line.get_label() for line in ax.get_lines() if not line.get_label().startswith("_")]
    assert labels[: len(c.option_names)] == c.option_names
    reached = [v for v in c.report["versus"] if v["payback_months"] is not None]
    notes = [t.get_text() for t in ax.texts]
    assert len(notes) == len(reached)
    for v in reached:
        assert f"payback vs {v['cloud']}: {v['payback_months']:.1f} mo" in notes
    rig_curve = ax.get_lines()[0]
    np.testing.assert_allclose(rig_curve.get_ydata(), -c.cashflow()["cumulative"].to_numpy())
    assert ax.get_xlabel() == "month"
    assert "USD" in ax.get_ylabel()


def test_breakdown_stacks_the_line_items(venus):
    c = venus.compare()
    fig = plot.breakdown(c)
    ax = fig.axes[0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "capex" in legend and "energy" in legend
    # The bars of each month add up to the month's costs (net, sign flipped).
    heights = np.zeros(venus.horizon_months)
    for container in ax.containers:
        heights += np.array([bar.get_height() for bar in container])
    np.testing.assert_allclose(heights, -c.cashflow()["net"].to_numpy(), atol=1e-6)


def test_breakeven_map_draws_the_grid_and_its_contour(venus):
    s = venus.sweep("workload.gpu_hours_per_month=50:700:50", "electricity.price_per_kwh=0.05:0.6:0.05")
    fig = plot.breakeven_map(s)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "workload.gpu_hours_per_month"
    assert ax.get_ylabel() == "electricity.price_per_kwh"
    assert len(ax.collections) == 1  # the mesh
    contour_lines = [line for line in ax.get_lines()]
    assert len(contour_lines) == len(s.contours[s.against])
    assert len(fig.axes) == 2  # and its colour bar


def test_tornado_bars_largest_on_top(venus_uncertain):
    t = venus_uncertain.tornado(samples=0)
    fig = plot.tornado(t)
    ax = fig.axes[0]
    ticks = [label.get_text() for label in ax.get_yticklabels()]
    assert ticks == list(t.bars["key"])[::-1]
    assert len(ax.patches) == 2 * len(t.bars)


def test_histogram_marks_p10_p50_p90(venus_uncertain):
    r = venus_uncertain.montecarlo(samples=2000)
    fig = plot.histogram(r, "npv_savings")
    ax = fig.axes[0]
    marks = sorted(line.get_xdata()[0] for line in ax.get_lines())
    p = r.percentiles("npv_savings")
    assert marks == sorted([p["p10"], p["p50"], p["p90"]])
    assert {t.get_text().split()[0] for t in ax.texts} == {"P10", "P50", "P90"}
    counts, _ = r.histogram("npv_savings")
    assert counts.sum() == 2000


def test_plots_draw_on_given_axes(venus):
    fig, (left, right) = plt.subplots(1, 2)
    c = venus.compare()
    assert plot.cumulative(c, ax=left) is fig
    assert plot.breakdown(c, ax=right) is fig


def test_package_exports_plot():
    assert payback.plot is plot
