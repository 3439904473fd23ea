"""Plots of payback's results with matplotlib. Each function draws on ``ax`` (a new figure's
axes when None) and returns the figure that holds it (a ``SubFigure`` when ``ax`` is in one)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

import numpy as np

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure, SubFigure

    from .results import Comparison, MonteCarlo, Sweep, Tornado


def _axes(ax: Axes | None) -> Axes:
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, ax = plt.subplots(figsize=(8, 4.5))
    return ax


def cumulative(comparison: Comparison, ax: Axes | None = None, discounted: bool = False) -> Figure | SubFigure:
    """Each option's cumulative cost by month (costs up), with the month each cloud option's
    spending overtakes the rig's marked: the simple payback month (or discounted payback)."""
    ax = _axes(ax)
    column = "cumulative_discounted" if discounted else "cumulative"
    currency = comparison.scenario.currency
    for name in comparison.option_names:
        table = comparison.cashflow(name)
        ax.plot(table.index, -table[column], label=name)
    metric: Literal["payback_months", "discounted_payback_months"] = (
        "discounted_payback_months" if discounted else "payback_months")
    rig = comparison.cashflow()
    for versus in comparison.report["versus"]:
        month = versus[metric]
        if month is None:
            continue
        cost = float(np.interp(month, rig.index, -rig[column]))
        ax.axvline(month, color="grey", linestyle=":", linewidth=1)
        ax.plot([month], [cost], marker="o", color="black")
        ax.annotate(f"payback vs {versus['cloud']}: {month:.1f} mo", (month, cost), textcoords="offset points",
                    xytext=(6, -12))
    ax.set_xlabel("month")
    ax.set_ylabel(f"cumulative {'discounted ' if discounted else ''}cost ({currency})")
    ax.set_title(f"{comparison.scenario.name}: build or rent")
    ax.legend()
    return ax.figure


def breakdown(comparison: Comparison, option: str | None = None, ax: Axes | None = None) -> Figure | SubFigure:
    """One option's monthly cash flows as stacked bars by line item: costs up, income (resale,
    rental income, tax savings) down."""
    from .results import LINE_ITEMS

    ax = _axes(ax)
    table = comparison.cashflow(option)
    months = table.index.to_numpy()
    up = np.zeros(len(months))
    down = np.zeros(len(months))
    for item in LINE_ITEMS:
        values = -table[item].to_numpy()  # costs positive
        if not np.any(values):
            continue
        positive, negative = np.clip(values, 0, None), np.clip(values, None, 0)
        if np.any(positive):
            ax.bar(months, positive, bottom=up, label=item)
            up += positive
        if np.any(negative):
            ax.bar(months, negative, bottom=down, label=f"{item} (income)")
            down += negative
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set_xlabel("month")
    ax.set_ylabel(f"cost per month ({comparison.scenario.currency})")
    ax.set_title(f"{option or comparison.option_names[0]}: monthly costs")
    ax.legend(fontsize="small")
    return ax.figure


def breakeven_map(sweep: Sweep, against: str | None = None, ax: Axes | None = None) -> Figure | SubFigure:
    """A 2-D sweep's NPV savings of building (against one cloud option) as a heat map, with the
    break-even contour where they cross zero: building wins on the warm side."""
    ax = _axes(ax)
    cloud = against or sweep.against
    grid = sweep.grid("npv_savings", cloud).to_numpy(dtype=float)
    assert cloud is not None  # grid() has raised ValueError otherwise
    x, y = sweep.values
    limit = float(np.nanmax(np.abs(grid))) or 1.0
    mesh = ax.pcolormesh(x, y, grid.T, cmap="RdBu_r", vmin=-limit, vmax=limit, shading="nearest")
    ax.figure.colorbar(mesh, ax=ax, label=f"NPV savings of building ({sweep.scenario.currency})")
    for k, line in enumerate(sweep.contours.get(cloud, [])):
        ax.plot(line[:, 0], line[:, 1], color="black", linewidth=2, label="break-even" if k == 0 else None)
    ax.set_xlabel(sweep.keys[0])
    ax.set_ylabel(sweep.keys[1])
    ax.set_title(f"build vs {cloud}")
    if sweep.contours.get(cloud):
        ax.legend()
    return ax.figure


def tornado(result: Tornado, ax: Axes | None = None) -> Figure | SubFigure:
    """The tornado chart: each input's NPV savings at its low and high value around the base,
    the largest swing on top."""
    ax = _axes(ax)
    bars = result.bars.iloc[::-1]
    base = result.base or 0.0
    positions = np.arange(len(bars))
    low = bars["npv_savings_at_low"].astype(float).to_numpy() - base
    high = bars["npv_savings_at_high"].astype(float).to_numpy() - base
    ax.barh(positions, low, left=base, color="tab:blue", label="at low value")
    ax.barh(positions, high, left=base, color="tab:orange", label="at high value")
    ax.axvline(base, color="black", linewidth=1)
    ax.set_yticks(positions, bars["key"].tolist())
    ax.set_xlabel(f"NPV savings of building vs {result.against}")
    ax.set_title("what moves the answer")
    ax.legend()
    return ax.figure


def histogram(result: MonteCarlo, metric: str = "payback_months", option: str | None = None,
              ax: Axes | None = None) -> Figure | SubFigure:
    """A Monte Carlo metric's histogram (the engine's bins) with its P10, P50 and P90 marked."""
    ax = _axes(ax)
    counts, edges = result.histogram(metric, option)
    ax.stairs(counts, edges, fill=True, alpha=0.6, label=metric)
    for name, value in result.percentiles(metric, option).items():
        if value is not None:
            ax.axvline(value, linestyle="--", color="black", linewidth=1)
            ax.annotate(f"{name.upper()} {value:,.1f}", (value, counts.max() if len(counts) else 0),
                        rotation=90, va="top", ha="right", fontsize="small")
    ax.set_xlabel(metric.replace("_", " "))
    ax.set_ylabel("samples")
    ax.set_title(f"{result.scenario.name}: {metric.replace('_', ' ')} over {result.samples:,} samples")
    return ax.figure
