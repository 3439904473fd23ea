"""Results of payback's answers: tables as pandas DataFrames, per-sample arrays as NumPy arrays,
and an HTML view for notebooks. Absent metrics (payback never reached) are None in dicts and
``<NA>`` (pandas' nullable Float64) in tables, never NaN; NumPy per-sample arrays use NaN, which
is what NumPy has."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal, NotRequired, TypeAlias, TypedDict, cast

import numpy as np
import numpy.typing as npt
import pandas as pd

from . import _core

if TYPE_CHECKING:
    from .scenario import Scenario

#: A per-sample (or per-month) array of float64, such as every metric of a Monte Carlo run.
FloatArray: TypeAlias = npt.NDArray[np.float64]

# ---- The shapes of what payback._core returns (its stubs, _core/*.pyi, return these) ----
# The JSON objects are the command-line program's (``payback compare --json`` and so on), as
# dicts, lists, str, int, float, bool and None (null); per-sample and per-month values are NumPy
# arrays. Metrics that may not exist are ``float | None``.


class CircuitReport(TypedDict):
    """The rig's wall circuit (``report["rig"]["circuit"]``)."""

    volts: float
    breaker_amps: float
    continuous_limit_watts: float
    load_fraction: float
    gpus_that_fit: int
    over: bool
    message: str


class DeferrableTraining(TypedDict):
    """Energy cost of the training as given and scheduled into cheap hours."""

    energy_cost_as_given: float
    energy_cost_scheduled: float
    saving: float


class RigReport(TypedDict):
    """The rig as hardware (``report["rig"]``): power, circuit, heat, hours, energy, carbon, scaling."""

    peak_wall_watts: float
    circuit: CircuitReport
    circuit_load_fraction: float
    #: By power state: training, rented, idle, off.
    heat_watts: dict[str, float]
    heat_btu_per_hour: dict[str, float]
    rig_hours_per_month: float
    work_hours_per_month: float
    rented_hours_per_month: float
    throughput_factor: float
    energy_kwh_per_month: float
    energy_kwh_by_month: list[float]
    co2_kg_total: float
    gpus: int
    scaling_efficiency: float
    effective_gpus: float
    deferrable_training: NotRequired[DeferrableTraining]


class OptionMetrics(TypedDict):
    """One option's metrics, as in ``compare --json``'s ``options[]``: the metric table's option rows
    (a test checks that these fields and their types are the table's)."""

    total_cost: float
    npv_cost: float
    npv: float
    cost_per_gpu_hour: float | None
    levelized_cost_per_gpu_hour: float | None
    energy_kwh: float
    energy_kwh_by_period: dict[str, float]
    co2_kg_total: float


class PairMetrics(TypedDict):
    """The rig against one cloud option, as in ``compare --json``'s ``versus[]``: the metric table's
    pair rows (checked against it by a test)."""

    payback_months: float | None
    payback_months_if_sold: float | None
    discounted_payback_months: float | None
    npv_savings: float
    roi: float | None
    irr: float | None
    irr_status: str
    irr_roots: list[float]
    optimal_sale_month: int
    optimal_sale_npv_savings: float
    breakeven_gpu_hours_per_month: float | None


class JobMetrics(TypedDict):
    """One option's run of the [workload] job, as in ``compare --json``'s ``options[].job``: the
    metric table's job rows (checked against it by a test)."""

    samples_per_second: float
    throughput_origin: str
    hours_per_run: float
    cost_per_run: float
    cost_per_epoch: float
    cost_per_million_samples: float
    kwh_per_run: float | None


#: An option's cost of the scenario's training job (with ``[workload.job]``).
JobReport: TypeAlias = JobMetrics


class TokenMetrics(TypedDict):
    """One option serving the [workload] tokens, as in ``compare --json``'s ``options[].tokens``:
    the metric table's tokens rows (checked against it by a test)."""

    tokens_per_second: float | None
    prefill_tokens_per_second: float | None
    tokens_per_second_origin: str
    serving_hours_per_month: float | None
    cost_per_million_tokens: float
    cost_per_million_input_tokens: float | None
    cost_per_million_output_tokens: float | None
    joules_per_token: float | None
    co2_g_per_million_tokens: float | None


class BillingReport(TypedDict):
    """A cloud option's billing (with billing increments or interruptions)."""

    instance_hours_per_month: float
    billed_hours_per_month: float
    spend_per_month: float
    effective_price_per_work_hour: float
    breakeven_interruptions_per_hour: float | None
    breakeven_utilization: float | None


class OptionReport(OptionMetrics):
    """One option's totals (``report["options"][i]``): its name and kind, and the metric table's
    option rows."""

    name: str
    kind: str
    monthly_net: list[float]
    job: NotRequired[JobReport]
    tokens: NotRequired[TokenMetrics]
    billing: NotRequired[BillingReport]
    # The rig's hardware figures, on the rig's row only.
    peak_wall_watts: NotRequired[float]
    circuit_load_fraction: NotRequired[float]
    energy_kwh_per_month: NotRequired[float]


class VersusReport(PairMetrics):
    """The rig against one cloud option (``report["versus"][i]``): the metric table's pair rows and
    the two options' names."""

    rig: str
    cloud: str


class ComparisonReport(TypedDict):
    """The object ``payback compare --json`` prints (:attr:`Comparison.report`)."""

    scenario: str
    source: str
    currency: str
    horizon_months: int
    discount_rate: float
    inflation: float
    perspective: str
    gpu_hours_per_month: float
    rig: RigReport
    options: list[OptionReport]
    versus: list[VersusReport]
    verdict: str
    prices_as_of: str | None  # the oldest as_of of the catalog prices used; None: all typed in
    stale: bool  # prices_as_of more than 90 days before today ($PAYBACK_TODAY when set)


class CashFlowTable(TypedDict):
    """One option's cash flows: each column (``month`` and :func:`payback._core.model.line_item_names`'
    line items, net, cumulative sums, kWh, ...) by month, and the capex column split by part."""

    option: str
    kind: str
    columns: dict[str, FloatArray]
    capex_by_part: dict[str, FloatArray]


class CompareRaw(TypedDict):
    """``_core.model.compare``'s answer."""

    report: ComparisonReport
    cashflows: list[CashFlowTable]


class BreakevenRaw(TypedDict):
    """``_core.whatif.breakeven``'s answer."""

    key: str
    value: float | None
    range: tuple[float, float]
    metric: str
    against: str
    current: float
    npv_savings_at_range: tuple[float, float]
    more_roots: bool
    message: str


class BreakevenJson(TypedDict):
    """:meth:`Breakeven.to_dict`: the fields of ``payback breakeven --json``."""

    key: str
    value: float | None
    range: list[float]
    metric: str
    against: str
    current: float
    npv_savings_at_range: list[float]
    more_roots: bool
    message: str


class SampleMetricArrays(TypedDict):
    """Per-row metrics of a Monte Carlo run or a sweep: the rig's as arrays, and per cloud option
    (lists in cloud order) the cloud's cost and the rig against it. NaN where a metric does not
    exist (payback not reached)."""

    rig_total_cost: FloatArray
    rig_npv_cost: FloatArray
    cloud_total_cost: list[FloatArray]
    npv_savings: list[FloatArray]
    payback_months: list[FloatArray]
    discounted_payback_months: list[FloatArray]


class HistogramRaw(TypedDict):
    """Bins of equal width: ``len(edges) == len(counts) + 1``."""

    edges: list[float]
    counts: list[int]


class MetricSummaryRaw(TypedDict):
    """One metric's summary for one option over a Monte Carlo run's samples."""

    metric: str
    option: str
    mean: float | None
    sd: float | None
    standard_error: float | None
    p10: float | None
    p50: float | None
    p90: float | None
    min: float | None
    max: float | None
    count: int
    share_defined: float
    histogram: HistogramRaw


class MonteCarloRaw(TypedDict):
    """``_core.whatif.montecarlo``'s answer."""

    keys: list[str]
    clouds: list[str]
    #: samples × keys
    inputs: FloatArray
    metrics: SampleMetricArrays
    summaries: list[MetricSummaryRaw]
    probability_build_wins: dict[str, float]
    path: str
    seconds: float


class MonteCarloJson(TypedDict):
    """:meth:`MonteCarlo.to_dict`: the object ``payback montecarlo --json`` prints."""

    keys: list[str]
    samples: int
    seed: int
    method: str
    path: str
    seconds: float
    metrics: list[MetricSummaryRaw]
    probability_build_wins: dict[str, float]


class SweepAxisRaw(TypedDict):
    """One axis of a sweep and its values."""

    key: str
    low: float
    high: float
    step: float
    values: FloatArray


class ContourRaw(TypedDict):
    """Where NPV savings against one cloud option cross zero: polylines, each an (n, 2) array."""

    cloud: str
    polylines: list[FloatArray]


class SweepRaw(TypedDict):
    """``_core.whatif.sweep``'s answer."""

    axes: list[SweepAxisRaw]
    clouds: list[str]
    metrics: SampleMetricArrays
    contours: list[ContourRaw]
    path: str


#: One input's bar of a tornado chart ("from" is a keyword, hence this form).
TornadoBarRaw = TypedDict(
    "TornadoBarRaw",
    {
        "key": str,
        "current": float,
        "low": float,
        "high": float,
        "npv_savings_at_low": float | None,
        "npv_savings_at_high": float | None,
        "swing": float | None,
        "from": str,
    },
)


class GlobalRankRaw(TypedDict):
    """One uncertain input's Spearman rank correlation with the NPV savings."""

    key: str
    rho: float | None


class TornadoGlobalRaw(TypedDict):
    """A tornado's global ranking over a Monte Carlo run."""

    method: str
    samples: int
    seed: int
    path: str
    ranking: list[GlobalRankRaw]


#: ``_core.whatif.tornado``'s answer ("global" is a keyword, hence this form).
TornadoRaw = TypedDict(
    "TornadoRaw",
    {
        "metric": str,
        "against": str,
        "base": float | None,
        "bars": list[TornadoBarRaw],
        "global": TornadoGlobalRaw | None,
        "path": str,
    },
)


#: The cash-flow columns that add up to ``net`` (signed: costs negative, income positive).
LINE_ITEMS: list[str] = list(_core.model.line_item_names())


class MetricRow(TypedDict):
    """One row of the metric table (lib/src/model/metric_table.cpp), which every output of
    ``compare`` takes its fields from: the JSON key and CSV column, the unit, whose metric it is
    (``option``: each option; ``pair``: the rig against each cloud option; ``job``: each option's
    run of the [workload] job), the value's type, one line of meaning, whether compare --csv has it,
    and its header and decimals in compare's text tables (empty header: not there)."""

    name: str
    unit: str
    scope: Literal["option", "pair", "job", "tokens"]
    type: Literal["number", "optional_number", "integer", "text", "numbers", "by_name"]
    description: str
    csv: bool
    header: str
    decimals: int


#: Every metric ``compare`` reports, in output order (``payback docs --metrics`` prints them).
METRICS: list[MetricRow] = _core.model.metric_table()


class VersusMetrics(VersusReport):
    """What :meth:`Comparison.metrics` returns: the pair's metrics, the two options' names and
    both options' ``total_cost``."""

    rig_total_cost: float
    cloud_total_cost: float


def _table_columns(scope: str) -> list[str]:
    """The metric table's rows of one scope that fit a table cell (not lists, not by name)."""
    return [m["name"] for m in METRICS if m["scope"] == scope and m["type"] not in ("numbers", "by_name")]


# Metrics that may not exist (payback not reached, no hours): nullable columns. The table's optional
# metrics, and the summaries' and tornado's.
_OPTIONAL = {m["name"] for m in METRICS if m["type"] == "optional_number"} | {
    "mean",
    "sd",
    "standard_error",
    "p10",
    "p50",
    "p90",
    "min",
    "max",
    "npv_savings_at_low",
    "npv_savings_at_high",
    "swing",
    "rho",
}


def _nullable(frame: pd.DataFrame) -> pd.DataFrame:
    for column in frame.columns:
        if column in _OPTIONAL or str(column).split(":")[0] in _OPTIONAL:
            frame[column] = frame[column].astype("Float64")
    return frame


def _cell(v: object) -> str:
    if v is None or v is pd.NA or (isinstance(v, float) and np.isnan(v)):
        return "–"
    if isinstance(v, (float, np.floating)):
        return f"{v:,.2f}" if abs(float(v)) < 1e15 else f"{v:.4g}"
    return html.escape(str(v))


def html_table(header: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A small HTML table (notebooks' cell output)."""
    head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{_cell(v)}</td>" for v in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _pick(row: Mapping[str, object], names: Sequence[str]) -> dict[str, object]:
    """The named fields of a JSON object (a table's row), in the order named."""
    return {c: row[c] for c in names}


def _per_sample(metrics: SampleMetricArrays, name: str) -> FloatArray | list[FloatArray]:
    """A per-sample metric by name (KeyError when there is none): an array for the rig's, a list of
    arrays (one per cloud option, in order) for the others."""
    return cast("Mapping[str, FloatArray | list[FloatArray]]", metrics)[name]


def _frame_html(frame: pd.DataFrame, index: bool = False) -> str:
    header = ([str(frame.index.name or "")] if index else []) + [str(c) for c in frame.columns]
    rows: list[list[object]] = [([i] if index else []) + list(r)
                                for i, r in zip(frame.index, frame.itertuples(index=False))]
    return html_table(header, rows)


class Comparison:
    """The answer of ``payback compare``: every option's cash flows and totals, the rig against
    each cloud option, and the verdict."""

    def __init__(self, scenario: Scenario, raw: CompareRaw) -> None:
        self.scenario = scenario
        #: The same object as ``payback compare --json`` prints (None where it has null).
        self.report: ComparisonReport = raw["report"]
        self._tables: dict[str, CashFlowTable] = {t["option"]: t for t in raw["cashflows"]}

    @property
    def verdict(self) -> str:
        """One sentence: build or rent, and by how much."""
        return self.report["verdict"]

    @property
    def option_names(self) -> list[str]:
        """The rig first (then the rig renting out, with a rental market), then each cloud option."""
        return [o["name"] for o in self.report["options"]]

    @property
    def options(self) -> pd.DataFrame:
        """One row per option: total and NPV cost, cost per GPU-hour, energy and CO2; with
        [workload] tokens, also the cost per million tokens, the rates and the J per token."""
        columns = ["name", "kind", *_table_columns("option")]
        options = self.report["options"]
        serves = bool(options) and "tokens" in options[0]
        token_columns = _table_columns("tokens") if serves else []
        rows = [{**_pick(o, columns), **_pick(cast("Mapping[str, object]", o.get("tokens", {})), token_columns)}
                for o in options]
        frame = pd.DataFrame(rows, columns=[*columns, *token_columns])
        return _nullable(frame).set_index("name")

    @property
    def versus(self) -> pd.DataFrame:
        """One row per cloud option: the rig against it (payback, NPV savings, ROI, IRR, ...)."""
        columns = ["cloud", "rig", *_table_columns("pair")]
        frame = pd.DataFrame([_pick(v, columns) for v in self.report["versus"]], columns=columns)
        return _nullable(frame).set_index("cloud")

    def metrics(self, against: str | None = None) -> VersusMetrics:
        """The rig against one cloud option (the first by default) as a dict, with both options'
        totals: payback_months (None when not within the horizon), npv_savings, roi, irr, ..."""
        versus = self.report["versus"]
        if not versus:
            raise ValueError("the scenario has no cloud options to compare the rig with")
        chosen = next((v for v in versus if against in (None, v["cloud"])), None)
        if chosen is None:
            raise KeyError(f"no cloud option named {against!r}; the cloud options are {[v['cloud'] for v in versus]}")
        by_name = {o["name"]: o for o in self.report["options"]}
        return {**chosen, "rig_total_cost": by_name[chosen["rig"]]["total_cost"],
                "cloud_total_cost": by_name[chosen["cloud"]]["total_cost"]}

    def cashflow(self, option: str | None = None) -> pd.DataFrame:
        """One option's cash flows by month (the rig by default): signed line items (costs
        negative), net, cumulative and discounted sums, kWh and the parts' value; one row per
        month, indexed by month (1 .. horizon)."""
        name = option if option is not None else self.option_names[0]
        if name not in self._tables:
            raise KeyError(f"no option named {name!r}; the options are {list(self._tables)}")
        columns = self._tables[name]["columns"]
        frame = pd.DataFrame({k: v for k, v in columns.items() if k != "month"},
                             index=pd.Index(columns["month"].astype(np.int64), name="month"))
        return frame

    def capex_by_part(self, option: str | None = None) -> pd.DataFrame:
        """The rig's capex column split by part (one column per part), indexed by month."""
        name = option if option is not None else self.option_names[0]
        table = self._tables[name]
        index = pd.Index(table["columns"]["month"].astype(np.int64), name="month")
        return pd.DataFrame(dict(table["capex_by_part"]), index=index)

    def _repr_html_(self) -> str:
        return (f"<p><b>{html.escape(self.scenario.name)}</b> ({html.escape(self.scenario.currency)}, "
                f"{self.scenario.horizon_months} months): {html.escape(self.verdict)}</p>"
                + _frame_html(self.options, index=True) + "<br>" + _frame_html(self.versus, index=True))

    def __repr__(self) -> str:
        return f"<payback.Comparison {self.scenario.name!r}: {self.verdict}>"


class Breakeven:
    """The value of a key at which building and renting cost the same (``payback breakeven``)."""

    def __init__(self, raw: BreakevenRaw) -> None:
        self.key: str = raw["key"]
        #: The break-even value; None when NPV savings do not cross zero in the range.
        self.value: float | None = raw["value"]
        self.current: float = raw["current"]
        self.range: tuple[float, float] = raw["range"]
        self.against: str = raw["against"]
        self.metric: str = raw["metric"]
        self.npv_savings_at_range: tuple[float, float] = raw["npv_savings_at_range"]
        self.more_roots: bool = raw["more_roots"]
        self.message: str = raw["message"]

    def to_dict(self) -> BreakevenJson:
        """The same fields as ``payback breakeven --json``."""
        return {"key": self.key, "value": self.value, "range": list(self.range), "metric": self.metric,
                "against": self.against, "current": self.current,
                "npv_savings_at_range": list(self.npv_savings_at_range), "more_roots": self.more_roots,
                "message": self.message}

    def _repr_html_(self) -> str:
        return f"<p>{html.escape(self.message)}</p>"

    def __repr__(self) -> str:
        return f"<payback.Breakeven {self.key} = {self.value} against {self.against!r}>"


def _metric_columns(metrics: SampleMetricArrays, clouds: Sequence[str]) -> dict[str, FloatArray]:
    columns = {"rig_total_cost": metrics["rig_total_cost"], "rig_npv_cost": metrics["rig_npv_cost"]}
    for c, cloud in enumerate(clouds):
        for name in ("total_cost", "npv_savings", "payback_months", "discounted_payback_months"):
            source = "cloud_total_cost" if name == "total_cost" else name
            per_cloud = _per_sample(metrics, source)
            assert isinstance(per_cloud, list)
            columns[f"{name}:{cloud}"] = per_cloud[c]
    return columns


class Sweep:
    """Metrics over a grid of one or two keys (``payback sweep``), and for two the break-even
    contour where NPV savings cross zero."""

    def __init__(self, scenario: Scenario, raw: SweepRaw, against: str | None) -> None:
        self.scenario = scenario
        self.keys: list[str] = [a["key"] for a in raw["axes"]]
        #: Each axis's values, as NumPy arrays.
        self.values: list[FloatArray] = [a["values"] for a in raw["axes"]]
        self.axes: list[SweepAxisRaw] = raw["axes"]
        self.clouds: list[str] = raw["clouds"]
        #: The cloud option the grid and contour views use by default (the closest to beating the rig).
        self.against: str | None = against
        #: Per-point metrics as NumPy arrays, row-major over the grid (the first axis slowest).
        self.metrics: SampleMetricArrays = raw["metrics"]
        #: Per cloud option: the zero contour's polylines, each an (n, 2) array of (x, y).
        self.contours: dict[str, list[FloatArray]] = {c["cloud"]: c["polylines"] for c in raw["contours"]}
        self.path: str = raw["path"]

    @property
    def frame(self) -> pd.DataFrame:
        """One row per grid point: the keys, then the metrics (as ``payback sweep --csv``)."""
        grid = np.meshgrid(*self.values, indexing="ij")
        columns = {k: g.ravel() for k, g in zip(self.keys, grid)}
        columns.update(_metric_columns(self.metrics, self.clouds))
        return _nullable(pd.DataFrame(columns))

    def grid(self, metric: str = "npv_savings", against: str | None = None) -> pd.DataFrame:
        """A 2-D sweep's metric as a table: the first key down, the second across."""
        if len(self.keys) != 2:
            raise ValueError("grid() needs a 2-D sweep")
        cloud = against or self.against
        if cloud is None:
            raise ValueError("the sweep's scenario has no cloud options")
        c = self.clouds.index(cloud)
        source = "cloud_total_cost" if metric == "total_cost" else metric
        per_sample = _per_sample(self.metrics, source)
        values = per_sample[c] if isinstance(per_sample, list) else per_sample
        return pd.DataFrame(values.reshape(len(self.values[0]), len(self.values[1])),
                            index=pd.Index(self.values[0], name=self.keys[0]),
                            columns=pd.Index(self.values[1], name=self.keys[1]))

    def _repr_html_(self) -> str:
        shape = " × ".join(str(len(v)) for v in self.values)
        head = (f"<p>Sweep of {html.escape(', '.join(self.keys))} ({shape} points) for "
                f"<b>{html.escape(self.scenario.name)}</b>; {html.escape(self.path)}</p>")
        frame = self.frame
        return head + _frame_html(frame.head(20)) + ("<p>…</p>" if len(frame) > 20 else "")


class MonteCarlo:
    """Monte Carlo over a scenario's [uncertainty] (``payback montecarlo``): summaries and
    histograms per metric, the chance that building wins, and every sample's inputs and metrics
    as NumPy arrays over the engine's memory (no copy)."""

    def __init__(self, scenario: Scenario, raw: MonteCarloRaw, samples: int, seed: int, lhs: bool) -> None:
        self.scenario = scenario
        self.samples = samples
        self.seed = seed
        self.method = "latin_hypercube" if lhs else "monte_carlo"
        self.keys: list[str] = raw["keys"]
        self.clouds: list[str] = raw["clouds"]
        #: The drawn inputs, samples × keys.
        self.inputs: FloatArray = raw["inputs"]
        #: Per-sample metrics: rig_total_cost, rig_npv_cost, and per cloud (lists in cloud order)
        #: cloud_total_cost, npv_savings, payback_months, discounted_payback_months (NaN: not reached).
        self.metrics: SampleMetricArrays = raw["metrics"]
        #: Per cloud option: the share of samples where building has positive NPV savings.
        self.probability_build_wins: dict[str, float] = raw["probability_build_wins"]
        self.path: str = raw["path"]
        self.seconds: float = raw["seconds"]
        self._summaries: list[MetricSummaryRaw] = raw["summaries"]

    def metric(self, name: str, option: str | None = None) -> FloatArray:
        """One metric's per-sample array: ``rig_total_cost``, ``rig_npv_cost``, or a per-cloud
        metric (``npv_savings``, ``payback_months``, ...) of ``option`` (the first cloud by default)."""
        values = _per_sample(self.metrics, name)
        if isinstance(values, list):
            return values[self.clouds.index(option) if option is not None else 0]
        return values

    @property
    def summary(self) -> pd.DataFrame:
        """Mean, sd, standard error, P10/P50/P90, min, max, count and share defined per metric
        and option."""
        columns = ["metric", "option", "mean", "sd", "standard_error", "p10", "p50", "p90", "min", "max", "count",
                   "share_defined"]
        return _nullable(pd.DataFrame([_pick(s, columns) for s in self._summaries], columns=columns))

    def percentiles(self, metric: str = "payback_months", option: str | None = None) -> dict[str, float | None]:
        """P10, P50 and P90 of a metric (None when no sample has it); option as in :meth:`summary`."""
        s = self._find(metric, option)
        return {"p10": s["p10"], "p50": s["p50"], "p90": s["p90"]}

    def histogram(
        self, metric: str = "payback_months", option: str | None = None
    ) -> tuple[npt.NDArray[np.int64], FloatArray]:
        """The histogram's (counts, edges), as ``payback montecarlo --json`` has it."""
        h = self._find(metric, option)["histogram"]
        return np.asarray(h["counts"]), np.asarray(h["edges"])

    def _find(self, metric: str, option: str | None) -> MetricSummaryRaw:
        default = self.scenario.rig_name if metric == "total_cost" and option is None else None
        wanted = option or default or (self.clouds[0] if self.clouds else None)
        for s in self._summaries:
            if s["metric"] == metric and s["option"] == wanted:
                return s
        raise KeyError(f"no summary of {metric!r} for {wanted!r}")

    def to_dict(self) -> MonteCarloJson:
        """The same object as ``payback montecarlo --json``."""
        return {"keys": self.keys, "samples": self.samples, "seed": self.seed, "method": self.method,
                "path": self.path, "seconds": self.seconds, "metrics": self._summaries,
                "probability_build_wins": self.probability_build_wins}

    def _repr_html_(self) -> str:
        wins = "; ".join(f"building beats {html.escape(c)} in {p:.1%} of samples"
                         for c, p in self.probability_build_wins.items())
        head = (f"<p><b>{html.escape(self.scenario.name)}</b>: {self.samples:,} {self.method.replace('_', ' ')} "
                f"samples of {len(self.keys)} inputs (seed {self.seed}); {wins}.</p>")
        return head + _frame_html(self.summary)


class Tornado:
    """Which inputs move the NPV savings most (``payback tornado``)."""

    def __init__(self, raw: TornadoRaw) -> None:
        self.metric: str = raw["metric"]
        self.against: str = raw["against"]
        #: The NPV savings at the scenario's values (None if it does not exist).
        self.base: float | None = raw["base"]
        self.path: str = raw["path"]
        self._raw = raw

    @property
    def bars(self) -> pd.DataFrame:
        """One row per input, largest swing first: current, low and high values, the savings at
        each, the swing, and where low and high came from."""
        columns = ["key", "current", "low", "high", "npv_savings_at_low", "npv_savings_at_high", "swing", "from"]
        return _nullable(pd.DataFrame(self._raw["bars"], columns=columns))

    @property
    def global_ranking(self) -> pd.DataFrame | None:
        """Each uncertain input's Spearman rank correlation with the savings over a Monte Carlo
        run, largest |rho| first; None without [uncertainty] or with samples=0."""
        g = self._raw["global"]
        return None if g is None else _nullable(pd.DataFrame(g["ranking"], columns=["key", "rho"]))

    def to_dict(self) -> TornadoRaw:
        """The same fields as ``payback tornado --json`` (less the scenario's name and currency)."""
        return self._raw.copy()

    def _repr_html_(self) -> str:
        base = "–" if self.base is None else f"{self.base:,.0f}"
        out = f"<p>NPV savings of building against {html.escape(self.against)}: {base} at the scenario's values.</p>"
        out += _frame_html(self.bars)
        ranking = self.global_ranking
        return out + ("" if ranking is None else "<br>" + _frame_html(ranking))
