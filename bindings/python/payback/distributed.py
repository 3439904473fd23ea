"""Scale-out over a Dask distributed cluster: a Monte Carlo run's samples, or a sweep's grid
points, split into parts evaluated on the workers, then joined and summarized here.

The client draws the whole plan (sample_plan.hpp): the rows and where the model is probed and
verified. Each part is evaluated by a model built and verified the same way, and a row's metrics
depend on that row alone, so the joined metrics, and every summary, equal a local run's with the
same seed, bit for bit. Worth it for millions of samples over many scenarios or a fleet of rigs; one
scenario's million samples take about a second locally (docs/python.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Protocol

from . import _core

if TYPE_CHECKING:
    from .results import MonteCarloRaw, SweepRaw
    from .scenario import Axis, Scenario


class DaskClient(Protocol):
    """What payback uses of a ``dask.distributed.Client`` (whose methods carry no annotations):
    its threads, scattering the scenario, submitting parts and gathering their metrics."""

    def nthreads(self) -> Mapping[str, int]: ...

    def scatter(self, data: list[Scenario], broadcast: bool = False) -> list[object]: ...

    def submit(self, func: Callable[..., _core.whatif.SampleMetrics], /, *args: object, pure: bool = True) -> object: ...

    def gather(self, futures: list[object]) -> list[_core.whatif.SampleMetrics]: ...


def _evaluate_part(scenario: Scenario, part: _core.whatif.SamplePlan) -> _core.whatif.SampleMetrics:
    # One part on a worker: a task has one of the worker's threads, so the engine gets one too.
    return part.model(scenario._core).evaluate(part, threads=1)


def _parts(client: DaskClient, rows: int, parts: int | None) -> list[tuple[int, int]]:
    if parts is None:
        parts = max(1, sum(client.nthreads().values()))
    parts = max(1, min(parts, rows))
    cuts = [rows * k // parts for k in range(parts + 1)]
    return [(cuts[k], cuts[k + 1] - cuts[k]) for k in range(parts)]


def _evaluate(scenario: Scenario, plan: _core.whatif.SamplePlan, client: DaskClient, parts: int | None) -> _core.whatif.SampleMetrics:
    [remote_scenario] = client.scatter([scenario], broadcast=True)
    futures = [
        client.submit(_evaluate_part, remote_scenario, plan.part(first, count), pure=False)
        for first, count in _parts(client, plan.rows, parts)
    ]
    return _core.whatif.SampleMetrics.join(client.gather(futures))


def montecarlo(scenario: Scenario, samples: int, seed: int, lhs: bool, bins: int, client: DaskClient,
               parts: int | None = None) -> MonteCarloRaw:
    """The raw result of a Monte Carlo run with its samples split over ``client``'s workers."""
    plan = _core.whatif.montecarlo_plan(scenario._core, samples, seed, lhs)
    model = plan.model(scenario._core)  # checks every row here, so errors are the local run's
    start = time.perf_counter()
    metrics = _evaluate(scenario, plan, client, parts)
    seconds = time.perf_counter() - start
    return _core.whatif.montecarlo_result(scenario._core, plan, model, metrics, bins, seconds)


def sweep(scenario: Scenario, axes: list[Axis], client: DaskClient, parts: int | None = None) -> SweepRaw:
    """The raw result of a sweep with its grid points split over ``client``'s workers."""
    plan = _core.whatif.sweep_plan(scenario._core, axes)
    model = plan.model(scenario._core)
    return _core.whatif.sweep_result(axes, model, _evaluate(scenario, plan, client, parts))
