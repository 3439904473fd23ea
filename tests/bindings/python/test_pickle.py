"""The classes of payback._core that pickle (a Monte Carlo run's or a sweep's plan and metrics,
which Dask sends to and from its workers) live in the submodule payback._core.whatif: they pickle
by that name, and come back whole in this process and in a new one that imported nothing."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys

import pytest

from payback import _core, distributed

# What a Dask worker does with a pickled task: load it, run it, send back the pickled result. It
# imports nothing itself: unpickling imports payback._core.whatif by the classes' __module__.
WORKER = "import pickle, sys; task, *args = pickle.load(sys.stdin.buffer); pickle.dump(task(*args), sys.stdout.buffer)"


def in_new_process(task: object, *args: object) -> object:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    sent = pickle.dumps((task, *args))
    done = subprocess.run([sys.executable, "-c", WORKER], input=sent, capture_output=True, check=True, env=env)
    return pickle.loads(done.stdout)


@pytest.fixture(scope="module")
def plan_and_metrics(venus_uncertain):
    plan = _core.whatif.montecarlo_plan(venus_uncertain._core, 500, 7, False)
    return plan, plan.model(venus_uncertain._core).evaluate(plan, threads=1)


def picklable_classes() -> list[type]:
    """Every class of every submodule that defines its own pickling."""
    return [value for module in (_core.scenario, _core.model, _core.whatif, _core.market, _core.workload)
            for value in vars(module).values() if isinstance(value, type) and "__getstate__" in vars(value)]


def test_the_picklable_classes_are_the_plan_and_the_metrics():
    assert [c.__qualname__ for c in picklable_classes()] == ["SampleMetrics", "SamplePlan"]
    for c in picklable_classes():
        assert c.__module__ == "payback._core.whatif"


def test_a_plan_pickles_whole(plan_and_metrics, venus_uncertain):
    plan, metrics = plan_and_metrics
    again = pickle.loads(pickle.dumps(plan))
    assert type(again) is _core.whatif.SamplePlan
    assert (again.keys, again.probes, again.checks, again.rows) == (plan.keys, plan.probes, plan.checks, 500)
    # The same rows give the same metrics, to the bit (the pickled state is the vectors' bytes).
    evaluated = again.model(venus_uncertain._core).evaluate(again, threads=1)
    assert pickle.dumps(evaluated) == pickle.dumps(metrics)


def test_metrics_pickle_whole(plan_and_metrics):
    _, metrics = plan_and_metrics
    again = pickle.loads(pickle.dumps(metrics))
    assert type(again) is _core.whatif.SampleMetrics
    assert again.rows == metrics.rows == 500
    assert pickle.dumps(again) == pickle.dumps(metrics)


def test_a_part_evaluated_in_a_new_process_equals_the_same_part_here(plan_and_metrics, venus_uncertain):
    plan, _ = plan_and_metrics
    part = plan.part(100, 250)
    # distributed._evaluate_part is what payback.distributed hands Dask for each part.
    there = in_new_process(distributed._evaluate_part, venus_uncertain, part)
    here = distributed._evaluate_part(venus_uncertain, part)
    assert type(there) is _core.whatif.SampleMetrics
    assert there.rows == 250
    assert pickle.dumps(there) == pickle.dumps(here)
