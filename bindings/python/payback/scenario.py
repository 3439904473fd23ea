"""Scenarios: loaded from a TOML file or text, or built from a dict, with overrides."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, TypeAlias, TypedDict, cast

from . import _core, _toml
from .results import Breakeven, Comparison, MetricRow, MonteCarlo, Sweep, Tornado

if TYPE_CHECKING:
    import pandas as pd

    from .distributed import DaskClient

#: Overrides by key path; the values are any TOML value (numbers, strings, booleans, lists, dicts).
Overrides: TypeAlias = Mapping[str, object]
#: A sweep's axis: (key, low, high, step).
Axis: TypeAlias = tuple[str, float, float, float]


class KeyRow(TypedDict):
    """One row of the key table (``_core.scenario.scenario_keys()``, :func:`keys`), in words as
    docs/keys.md prints it."""

    key: str
    type: str
    unit: str
    range: str
    default: str
    applies_to: str
    help: str


def _override_pairs(overrides: Overrides | None, keywords: Mapping[str, object]) -> list[tuple[str, str]]:
    pairs = [(str(k), _toml.value(v)) for k, v in (overrides or {}).items()]
    pairs += [(_toml.key_path(k), _toml.value(v)) for k, v in keywords.items()]
    return pairs


class Scenario:
    """One validated scenario: the rig, the workload, the tariff and the cloud alternatives.

    Make one with :func:`payback.load` (a file), :func:`payback.loads` (TOML text) or
    :func:`payback.scenario` (a dict). It is immutable: :meth:`with_overrides` gives a changed copy.
    It pickles (as its text and overrides), so it travels to Dask workers.
    """

    def __init__(self, core: _core.scenario.Scenario, text: str, source: str, overrides: list[tuple[str, str]],
                 prices: tuple[str, str] = ("", "")) -> None:
        self._core = core
        self._text = text
        self._source = source
        self._overrides = overrides
        self._prices = prices  # (as_of, db) as load took them, "" for none: what a pickled copy reads again

    # ---- what it is ----
    @property
    def name(self) -> str:
        """The scenario's name ([scenario] name)."""
        return self._core.name

    @property
    def source(self) -> str:
        """The file it came from (or the name given to its text), as errors name it."""
        return self._core.source

    @property
    def currency(self) -> str:
        """The currency every amount is in."""
        return self._core.currency

    @property
    def horizon_months(self) -> int:
        """Months modelled."""
        return self._core.horizon_months

    @property
    def discount_rate(self) -> float:
        """Annual nominal discount rate, as a fraction."""
        return self._core.discount_rate

    @property
    def perspective(self) -> str:
        """``"hobbyist"`` or ``"business"`` (taxes)."""
        return self._core.perspective

    @property
    def gpu_hours_per_month(self) -> float:
        """The owner's training, in hours a month on the rig."""
        return self._core.gpu_hours_per_month

    @property
    def rig_name(self) -> str:
        """The rig's name."""
        return self._core.rig_name

    @property
    def cloud_names(self) -> list[str]:
        """The cloud options, in the scenario's order."""
        return self._core.cloud_names

    @property
    def uncertain_keys(self) -> list[str]:
        """The keys with a distribution in [uncertainty] (what Monte Carlo samples)."""
        return self._core.uncertain_keys

    @property
    def overrides(self) -> dict[str, str]:
        """The overrides applied, key path to TOML value, in order."""
        return dict(self._overrides)

    def to_toml(self) -> str:
        """The scenario as TOML with every default filled in (``payback check``)."""
        return self._core.to_toml()

    def with_overrides(self, overrides: Overrides | None = None, /, **keywords: object) -> Scenario:
        """A copy with more overrides, as :func:`payback.load` takes them."""
        pairs = self._overrides + _override_pairs(overrides, keywords)
        core = _core.scenario.reparse_scenario(self._core, self._text, self._source, pairs)
        return Scenario(core, self._text, self._source, pairs, self._prices)

    # ---- answers ----
    def compare(self) -> Comparison:
        """Every option's cash flows and totals, the rig against each cloud option, the verdict
        (``payback compare``)."""
        return Comparison(self, _core.model.compare(self._core))

    def cashflow(self, option: str | None = None) -> pd.DataFrame:
        """One option's month-by-month cash flows (the rig by default); see :meth:`Comparison.cashflow`."""
        return self.compare().cashflow(option)

    def breakeven(
        self, key: str, range: tuple[float, float] | None = None, against: str | None = None
    ) -> Breakeven:
        """The value of a numeric key at which building and renting cost the same in present value
        (``payback breakeven --for KEY``); ``value`` is None when there is none in the range."""
        return Breakeven(_core.whatif.breakeven(self._core, _toml.key_path(key), range, against))

    def sweep(
        self,
        *axes: str | Axis,
        against: str | None = None,
        threads: int = 0,
        client: DaskClient | None = None,
        **ranges: tuple[float, float, float],
    ) -> Sweep:
        """Metrics over a 1-D or 2-D grid of numeric keys (``payback sweep``).

        Each axis is ``"KEY=LO:HI:STEP"``, a tuple ``(key, lo, hi, step)`` or a keyword
        ``key__path=(lo, hi, step)``. With a Dask ``client`` the grid points are split over its
        workers; the result is the same as a local run.
        """
        # A tuple of the wrong length goes on as it is, for the module to reject (TypeError).
        parsed = [
            _core.whatif.parse_axis(a) if isinstance(a, str) else cast(Axis, (_toml.key_path(a[0]), *map(float, a[1:])))
            for a in axes
        ]
        parsed += [cast(Axis, (_toml.key_path(k), *map(float, v))) for k, v in ranges.items()]
        against_name = self.cloud_names[_core.whatif.against_index(self._core, against)] if self.cloud_names else None
        if client is not None:
            from . import distributed

            raw = distributed.sweep(self, parsed, client)
        else:
            raw = _core.whatif.sweep(self._core, parsed, threads)
        return Sweep(self, raw, against_name)

    def montecarlo(
        self,
        samples: int = 10000,
        seed: int = 1,
        lhs: bool = False,
        bins: int = 30,
        threads: int = 0,
        client: DaskClient | None = None,
    ) -> MonteCarlo:
        """Monte Carlo over the scenario's [uncertainty] (``payback montecarlo``).

        ``lhs`` draws a Latin hypercube. The same seed gives the same numbers whatever the
        thread count, and with a Dask ``client`` (the samples split over its workers) the same as
        a local run. Per-sample arrays are NumPy arrays over the engine's own memory.
        """
        if client is not None:
            from . import distributed

            raw = distributed.montecarlo(self, samples, seed, lhs, bins, client)
        else:
            raw = _core.whatif.montecarlo(self._core, samples, seed, lhs, bins, threads)
        return MonteCarlo(self, raw, samples=samples, seed=seed, lhs=lhs)

    def tornado(
        self,
        inputs: Sequence[str | tuple[str, float, float]] | None = None,
        against: str | None = None,
        swing: float = 0.2,
        samples: int = 2000,
        seed: int = 1,
    ) -> Tornado:
        """Which inputs move the NPV savings most (``payback tornado``): each input from its low
        to its high value, the others as they are, and with [uncertainty] a global rank-correlation
        ranking over ``samples`` Monte Carlo samples. Inputs are keys, ``"KEY=LO:HI"`` or
        ``(key, lo, hi)``; by default [uncertainty]'s keys, else the scenario's main figures."""
        texts = [
            i if isinstance(i, str) else f"{_toml.key_path(i[0])}={float(i[1])!r}:{float(i[2])!r}"
            for i in (inputs or [])
        ]
        return Tornado(_core.whatif.tornado(self._core, texts, against, swing, samples, seed))

    # ---- Python's protocols ----
    def __reduce__(self) -> tuple[Callable[[str, str, list[tuple[str, str]], tuple[str, str]], Scenario],
                                  tuple[str, str, list[tuple[str, str]], tuple[str, str]]]:
        return (_rebuild, (self._text, self._source, self._overrides, self._prices))

    def __repr__(self) -> str:
        return f"<payback.Scenario {self.name!r} from {self.source!r}, {len(self._overrides)} overrides>"

    def _repr_html_(self) -> str:
        from .results import html_table

        rows = [
            ("source", self.source),
            ("horizon", f"{self.horizon_months} months"),
            ("training", f"{self.gpu_hours_per_month:g} h a month"),
            ("discount rate", f"{self.discount_rate:.2%}"),
            ("rig", self.rig_name),
            ("cloud options", ", ".join(self.cloud_names)),
        ]
        rows += [(k, v) for k, v in self._overrides]
        return f"<b>{_esc(self.name)}</b>" + html_table(["", ""], rows)


def _esc(text: str) -> str:
    import html

    return html.escape(text)


def _rebuild(text: str, source: str, overrides: list[tuple[str, str]], prices: tuple[str, str] = ("", "")) -> Scenario:
    return Scenario(_core.scenario.parse_scenario(text, source, overrides, *prices), text, source, overrides, prices)


def _prices(as_of: str | None, db: str | os.PathLike[str] | None) -> tuple[str, str]:
    return (as_of or "", os.fspath(db) if db is not None else "")


def load(path: str | os.PathLike[str], overrides: Overrides | None = None, /, *, as_of: str | None = None,
         db: str | os.PathLike[str] | None = None, **keywords: object) -> Scenario:
    """Loads and validates a scenario file, applying overrides first (as ``--set`` does).

    Overrides are a dict of key paths (``{"cloud[0].price_per_hour": 2.5}``) or keywords with
    ``__`` for dots and for indices (``electricity__price_per_kwh=0.3``,
    ``cloud__0__price_per_hour=2.5``); values are numbers, strings, booleans, lists or dicts.

    ``as_of`` (``"YYYY-MM-DD"``) reads the catalog prices in effect that day, and ``db`` a price
    history (SQLite, as ``payback catalog import --db`` writes it) before the catalogs, as ``--as-of``
    and ``--db`` do; without ``db``, ``$PAYBACK_DB``'s history is read when set, and with ``as_of``
    the default one when it exists (docs/markets.md).
    Raises :class:`payback.InputError` naming the file, line and key.
    """
    path = os.fspath(path)
    pairs = _override_pairs(overrides, keywords)
    prices = _prices(as_of, db)
    core = _core.scenario.load_scenario(path, pairs, *prices)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return Scenario(core, text, path, pairs, prices)


def loads(text: str, source: str = "<text>", overrides: Overrides | None = None, /, *, as_of: str | None = None,
          db: str | os.PathLike[str] | None = None, **keywords: object) -> Scenario:
    """A scenario from TOML text; ``source`` names it in errors (and relative file names in it
    are read from the current directory). ``as_of`` and ``db`` as :func:`load` takes them."""
    pairs = _override_pairs(overrides, keywords)
    prices = _prices(as_of, db)
    return Scenario(_core.scenario.parse_scenario(text, source, pairs, *prices), text, source, pairs, prices)


def scenario(tables: Mapping[str, object], source: str = "<dict>", /, *, as_of: str | None = None,
             db: str | os.PathLike[str] | None = None, **keywords: object) -> Scenario:
    """A scenario built in Python: ``tables`` is the TOML file as nested dicts (``{"scenario":
    {...}, "rig": {"parts": [{...}, ...]}, "cloud": [{...}]}``), checked exactly as a file is.
    ``as_of`` and ``db`` as :func:`load` takes them."""
    return loads(_toml.document(tables), source, None, as_of=as_of, db=db, **keywords)


def keys() -> pd.DataFrame:
    """Every key a scenario may hold, one row each (``payback docs --keys``, docs/keys.md): ``key``
    (``[]`` marks an array of tables), ``type``, ``unit``, ``range``, ``default``, ``applies_to`` (rig,
    rental, cloud or all) and ``help``. The same table validates every scenario as it is read."""
    import pandas as pd

    return pd.DataFrame(_core.scenario.scenario_keys(), columns=list(KeyRow.__annotations__))


def metrics() -> pd.DataFrame:
    """Every figure ``compare`` reports, one row each (``payback docs --metrics``, the list in
    docs/model.md): ``name`` (the JSON key and CSV column), ``unit``, ``scope`` (``option``, ``pair``
    or ``job``), ``type``, ``description``, ``csv``, and its ``header`` and ``decimals`` in the text
    tables. :class:`Comparison`'s frames and typed fields take their columns from the same table."""
    import pandas as pd

    return pd.DataFrame(_core.model.metric_table(), columns=list(MetricRow.__annotations__))
