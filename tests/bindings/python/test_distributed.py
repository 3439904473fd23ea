"""Monte Carlo and sweeps split over a Dask cluster (bindings/python/payback/distributed.py) give
exactly a local run's numbers with the same seed."""

from __future__ import annotations

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def client():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=2, processes=False, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as c:
            yield c


def same_metrics(a: dict, b: dict) -> None:
    for name in a:
        if isinstance(a[name], list):
            for x, y in zip(a[name], b[name], strict=True):
                np.testing.assert_array_equal(x, y)  # NaN where payback is not reached, on both sides
        else:
            np.testing.assert_array_equal(a[name], b[name])


@pytest.mark.parametrize("lhs", [False, True])
def test_montecarlo_on_a_cluster_equals_local(client, venus_uncertain, lhs):
    local = venus_uncertain.montecarlo(samples=3001, seed=11, lhs=lhs)
    spread = venus_uncertain.montecarlo(samples=3001, seed=11, lhs=lhs, client=client)
    np.testing.assert_array_equal(spread.inputs, local.inputs)
    same_metrics(spread.metrics, local.metrics)
    assert spread.to_dict()["metrics"] == local.to_dict()["metrics"]
    assert spread.probability_build_wins == local.probability_build_wins
    assert spread.path == local.path


def test_montecarlo_in_more_parts_than_workers(client, venus_uncertain):
    from payback import distributed as spread_out

    raw = spread_out.montecarlo(venus_uncertain, 1000, 4, False, 30, client, parts=7)
    local = venus_uncertain.montecarlo(samples=1000, seed=4)
    same_metrics(raw["metrics"], local.metrics)


def test_sweep_on_a_cluster_equals_local(client, venus):
    axes = ["workload.gpu_hours_per_month=50:700:25", "electricity.price_per_kwh=0.05:0.6:0.05"]
    local = venus.sweep(*axes)
    spread = venus.sweep(*axes, client=client)
    same_metrics(spread.metrics, local.metrics)
    assert spread.contours.keys() == local.contours.keys()
    for cloud in local.contours:
        for a, b in zip(spread.contours[cloud], local.contours[cloud], strict=True):
            np.testing.assert_array_equal(a, b)
