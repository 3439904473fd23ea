"""The notebooks (notebooks/) run top to bottom in the project's environment, with few samples,
and are stored without outputs."""

from __future__ import annotations

import os

import nbformat
import pytest
from conftest import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_there_are_the_six_notebooks():
    assert [p.name for p in NOTEBOOKS] == [
        "1-build-or-rent.ipynb",
        "2-what-if.ipynb",
        "3-renting-out-idle-gpus.ipynb",
        "4-how-sure-are-we.ipynb",
        "5-calibrate.ipynb",
        "6-local-llm-or-api.ipynb",
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_stored_without_outputs(path):
    book = nbformat.read(path, as_version=4)
    for cell in book.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{path.name}: strip its outputs"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_runs_top_to_bottom(path, monkeypatch):
    from nbclient import NotebookClient

    # The kernel inherits the environment: the package's path, few samples, a short benchmark.
    monkeypatch.setenv("PAYBACK_NOTEBOOK_SAMPLES", "2000")
    monkeypatch.setenv("PAYBACK_NOTEBOOK_BENCH_SECONDS", "0.02")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    import payback

    package_dir = os.path.dirname(os.path.dirname(payback.__file__))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [package_dir, os.environ.get("PYTHONPATH")])))
    book = nbformat.read(path, as_version=4)
    NotebookClient(book, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    errors = [o for cell in book.cells for o in cell.get("outputs", []) if o.output_type == "error"]
    assert errors == []
