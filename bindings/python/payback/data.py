"""The pricing catalogs, the training benchmark and calibration profiles."""

from __future__ import annotations

import html
import json
import os
import platform
import tempfile
from collections.abc import Sequence
from typing import NotRequired, TypeAlias, TypedDict, cast

import pandas as pd

from . import _core
from .errors import InputError
from .results import _frame_html

#: One catalog row (``_core.market.catalog``): the CSV file's columns by name, None where a cell is empty.
CatalogValue: TypeAlias = str | int | float | bool | None
CatalogRow: TypeAlias = dict[str, CatalogValue]


class CudaStatus(TypedDict):
    """``_core.workload.cuda_status()``: whether the benchmark can use a CUDA device, and why not."""

    available: bool
    reason: str
    device_name: str


class BenchResult(TypedDict):
    """One (device, workload, batch) of a calibration profile."""

    device: str
    device_name: str
    workload: str
    batch: int
    threads: int
    samples_per_second: float
    samples_per_second_min: float
    samples_per_second_max: float
    repeats: int
    gflops: float
    joules_per_sample: float | None
    energy_source: str
    isa: str
    precision: str
    tokens_per_second: NotRequired[float | None]
    quant: NotRequired[str]
    context: NotRequired[int]
    prefill_tokens_per_second: NotRequired[float | None]


class ProfileJson(TypedDict):
    """A calibration profile as ``payback bench --out`` writes it."""

    date: str
    software: dict[str, str]
    results: list[BenchResult]


def catalog(what: str, directory: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """One pricing catalog as a DataFrame (``payback catalog``): ``"gpus"``, ``"instances"``,
    ``"parts"``, ``"rates"`` (electricity), ``"rental"`` (rental markets), ``"api-prices"`` (per-token
    APIs: ``api`` as ``[[api]] api = "..."`` names it, and dollars per million input, output and
    cached-input tokens) or ``"models"`` (what :func:`predict` takes as ``workload``, with
    models.csv's columns). Every row keeps its
    ``as_of`` and ``source``. ``directory`` reads another pricing/ directory."""
    path = os.fspath(directory) if directory is not None else ""
    rows = _core.workload.models(path) if what == "models" else _core.market.catalog(what, path)
    return pd.DataFrame(rows)


_HISTORY_COLUMNS = ["as_of", "price", "currency", "kind", "provider", "item", "region", "mode", "import", "source"]


def price_history(instance: str | None = None, api: str | None = None, gpu: str | None = None,
                  mode: str | None = None, region: str | None = None,
                  db: str | os.PathLike[str] | None = None) -> pd.DataFrame:
    """The dated prices in the price history (``payback catalog history``) of one cloud instance
    (``instance="aws:p5.48xlarge"``), per-token API model (``api="openai:gpt-4o"``) or GPU
    (``gpu="RTX 3090"``: its used and rental prices), oldest first within each price, ``mode`` and
    ``region`` narrowing it. Columns: as_of, price, currency, kind, provider, item, region, mode,
    import (``"snapshot"`` or the import's format) and source; no rows when the history has none.
    ``db`` is the SQLite file (default ``$PAYBACK_DB``, else ``~/.local/share/payback/prices.sqlite``),
    created with the shipped catalogs when absent."""
    named = [(kind, value) for kind, value in (("instance", instance), ("api", api), ("gpu", gpu)) if value]
    if len(named) != 1:
        raise InputError("price_history: name one of instance, api or gpu", "price_history",
                         message="name one of instance, api or gpu")
    kind, value = named[0]
    path = os.fspath(db) if db is not None else ""
    if kind == "gpu":
        rows = [row for k in ("used", "rental")
                for row in _core.market.price_history(k, "", value, region or "", mode or "", path)]
    else:
        provider, colon, item = value.partition(":")
        if not colon or not provider or not item:
            expected = f"expected PROVIDER:{'INSTANCE' if kind == 'instance' else 'MODEL'}, got \"{value}\""
            raise InputError(f"{kind}: {expected}", kind, message=expected)
        rows = _core.market.price_history(kind, provider, item, region or "", mode or "", path)
    return pd.DataFrame(rows, columns=_HISTORY_COLUMNS)


def catalog_directory() -> tuple[str, str]:
    """The pricing catalogs' directory in use and why that one (``payback catalog --where``):
    ``$PAYBACK_PRICING_DIR``, beside the program or module, or this package's own data."""
    return _core.data_directory("pricing")


class Profile:
    """A calibration profile: what ``payback bench`` measured (samples per second per device,
    workload and batch, and joules per sample where a counter could be read)."""

    def __init__(self, text: str, skipped: list[dict[str, str]] | None = None) -> None:
        #: The profile as ``payback bench --out`` writes it (JSON text).
        self.json: str = text
        self._data: ProfileJson = json.loads(text)
        #: Devices asked for but not measured, and why (a CUDA device on a machine without one).
        self.skipped: list[dict[str, str]] = skipped or []

    @property
    def date(self) -> str:
        """When it was measured, ISO 8601 in UTC."""
        return self._data["date"]

    @property
    def software(self) -> dict[str, str]:
        """Versions of what measured it."""
        return dict(self._data["software"])

    @property
    def results(self) -> pd.DataFrame:
        """One row per (device, workload, batch): samples per second (median, min, max), GFLOP/s
        and joules per sample (NaN where no counter could be read)."""
        frame = pd.DataFrame(self._data["results"])
        if "joules_per_sample" in frame:
            frame["joules_per_sample"] = frame["joules_per_sample"].astype("Float64")
        return frame

    def samples_per_second(self, device: str = "cpu", workload: str = "cifar10-tutorial",
                           batch: int | None = None) -> float:
        """The measured median throughput of one (device, workload, batch); the largest batch by default."""
        rows = [r for r in self._data["results"] if r["device"] == device and r["workload"] == workload
                and (batch is None or r["batch"] == batch)]
        if not rows:
            raise KeyError(f"the profile has no {device} measurement of {workload}"
                           + (f" at batch {batch}" if batch is not None else ""))
        return max(rows, key=lambda r: r["batch"])["samples_per_second"]

    def save(self, path: str | os.PathLike[str]) -> None:
        """Writes the profile atomically (a temporary file beside it, then a rename)."""
        path = os.fspath(path)
        directory = os.path.dirname(os.path.abspath(path))
        fd, temporary = tempfile.mkstemp(dir=directory, prefix=".profile-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(self.json)
            os.replace(temporary, path)
        except BaseException:
            os.unlink(temporary)
            raise

    def _repr_html_(self) -> str:
        columns = ["device", "device_name", "workload", "batch", "threads", "samples_per_second", "gflops",
                   "joules_per_sample"]
        return f"<p>Calibration profile of {html.escape(self.date)}</p>" + _frame_html(self.results[columns])


def bench(
    device: str = "cpu",
    workload: str = "cifar10-tutorial",
    batches: Sequence[int] | None = None,
    threads: int = 0,
    repeats: int = 7,
    seconds: float = 0.5,
    data: str | os.PathLike[str] | None = None,
    out: str | os.PathLike[str] | None = None,
    *,
    precision: str = "fp32",
    quant: str = "q4_0",
    context: int = 512,
    llm: str = "",
) -> Profile:
    """Measures this machine (``payback bench``) and returns the profile.

    ``device`` is ``"cpu"``, ``"cuda"`` or ``"all"`` (CUDA is skipped, with the reason in
    ``skipped``, without a GPU); ``workload`` a benchmark network, ``"all"`` (the networks),
    ``"gpt-small"`` (a transformer training step; ``precision`` fp32 on the CPU, bf16 or fp16 on
    CUDA) or ``"llm-decode"`` (token-by-token generation: ``quant`` f16, q8_0 or q4_0, ``context``
    cached positions, ``llm`` the model's shape over the default, e.g.
    ``"layers=2,d_model=256,heads=8,kv_heads=2,ffn=512,vocab=1024"``). ``batches`` defaults to the
    workload's own (4 and 256; gpt-small 8 sequences; llm-decode 1 and 8 sequences). Each (device,
    workload, batch) is timed ``repeats`` times for about ``seconds`` each after a warm-up, and the
    median kept; gpt-small and llm-decode results carry ``tokens_per_second`` and their
    ``precision``, ``quant`` and ``context``. ``threads`` 0 uses every hardware thread. ``out`` also
    writes the profile. Options ``payback bench`` refuses raise :class:`InputError` (a ValueError)
    with its message."""
    request = _core.workload.BenchRequest()
    request.device = device
    request.workload = workload
    request.batches = list(batches) if batches is not None else []
    request.threads = threads
    request.repeats = repeats
    request.seconds = seconds
    request.data_file = os.fspath(data) if data is not None else ""
    request.precision = precision
    request.quant = quant
    request.context = context
    request.llm = llm
    cuda = _core.workload.cuda_status()
    software = [("payback", _core.version()), ("python", platform.python_version())]
    if cuda["available"]:
        software.append(("cuda_device", cuda["device_name"]))
    text, skipped = _core.workload.bench(request, software)
    profile = Profile(text, skipped)
    if out is not None:
        profile.save(out)
    return profile


def read_profile(path: str | os.PathLike[str]) -> Profile:
    """Reads a calibration profile with the checks every input gets (InputError naming the key)."""
    return Profile(_core.workload.read_profile(os.fspath(path)))


class ExpectedError(TypedDict):
    """The relative error a prediction is expected within, from the fit's held-out measurements."""

    low: float
    high: float


class Prediction(TypedDict):
    """``payback.predict()``: the fields of ``payback predict --json``. A training workload has
    ``samples_per_second``, an LLM ``tokens_per_second``."""

    device: str
    workload: str
    precision: str
    quant: str | None
    phase: str
    batch: int
    samples_per_second: NotRequired[float]
    tokens_per_second: NotRequired[float]
    expected_error: ExpectedError
    basis: str
    family_fitted: bool
    fits_memory: bool
    memory_gb_needed: float
    memory_gb: float
    gpus: int
    split_seconds_per_step: float


def predict(
    device: str,
    workload: str,
    *,
    precision: str | None = None,
    quant: str | None = None,
    phase: str | None = None,
    batch: int = 1,
    context: int | None = None,
    profile: str | os.PathLike[str] | None = None,
    gpus: int = 1,
) -> Prediction:
    """How fast ``workload`` (a pricing/models.csv name) runs on ``device`` (a pricing/gpus.csv name),
    as ``payback predict``: a roofline fitted to published measurements, or with ``profile`` (a
    ``payback bench`` profile) its measurement or the nearest measured GPU's, scaled. Also whether the
    model fits the device's memory; with ``gpus`` above 1, an LLM's layers split over that many of the
    device, with their memory and the hops between them. InputError naming the argument on bad input."""
    text = _core.workload.predict(device, workload, precision or "", quant or "", phase or "", batch, context,
                                  os.fspath(profile) if profile is not None else "", gpus)
    return cast(Prediction, json.loads(text))


def predict_devices(
    workload: str,
    devices: Sequence[str] | None = None,
    *,
    precision: str | None = None,
    quant: str | None = None,
    phase: str | None = None,
    batch: int = 1,
    context: int | None = None,
    profile: str | os.PathLike[str] | None = None,
    gpus: int = 1,
) -> pd.DataFrame:
    """``workload`` predicted on each of ``devices`` (a name or names; None, empty or ``"all"``:
    every pricing/gpus.csv device), as ``payback predict --device all`` ranks them: a row a device,
    those the model fits first, each group fastest first. Columns: ``device``, ``tokens_per_second``
    (an LLM) or ``samples_per_second``, ``error_low`` and ``error_high`` (the expected error),
    ``family_fitted`` (False: no device of its family was measured for the phase, and the error is
    wider), ``basis``, ``fits_memory``, ``memory_gb_needed``, ``memory_gb``, ``launch_price_usd``
    (× ``gpus``) and ``usd_per_rate`` (that price over the rate; both ``<NA>`` where the catalog has no
    price). With every device, those the catalog lacks a figure for are left out and listed in
    ``attrs["skipped"]`` (device to reason); a named one is an InputError, as with :func:`predict`."""
    # "all" as the program takes it; one name is a list of one, not its characters
    names = ([] if devices == "all" else [devices]) if isinstance(devices, str) else list(devices or [])
    text = _core.workload.compare_devices(names, workload, precision or "", quant or "", phase or "",
                                          batch, context, os.fspath(profile) if profile is not None else "", gpus)
    result = json.loads(text)
    rows = []
    for p in result["predictions"]:
        rate_name = "tokens_per_second" if "tokens_per_second" in p else "samples_per_second"
        launch = p["launch_price_usd"]  # gpus.csv's price × gpus, or None
        rows.append({"device": p["device"], rate_name: p[rate_name], "error_low": p["expected_error"]["low"],
                     "error_high": p["expected_error"]["high"], "family_fitted": p["family_fitted"],
                     "basis": p["basis"], "fits_memory": p["fits_memory"], "memory_gb_needed": p["memory_gb_needed"],
                     "memory_gb": p["memory_gb"], "launch_price_usd": launch,
                     "usd_per_rate": launch / p[rate_name] if launch is not None else None})
    frame = pd.DataFrame(rows)
    for column in ("launch_price_usd", "usd_per_rate"):  # <NA>, not NaN, where the catalog has no price
        frame[column] = frame[column].astype("Float64")
    frame.attrs["skipped"] = {s["device"]: s["reason"] for s in result["skipped"]}
    return frame


def workloads() -> list[str]:
    """The benchmark's networks, which scenarios' ``workload.job.model`` names."""
    return list(_core.workload.workload_names())


