"""payback: build a GPU rig or rent the cloud?

The C++ model of ``payback`` (the command-line program) as a Python library::

    import payback
    s = payback.load("scenarios/venus-2019.toml", electricity__price_per_kwh=0.3)
    c = s.compare()                 # c.verdict, c.options, c.versus, c.metrics()
    c.cashflow()                    # the rig's month-by-month cash flows, a DataFrame
    s.breakeven("electricity.price_per_kwh").value
    s.sweep("workload.gpu_hours_per_month=50:700:50", "electricity.price_per_kwh=0.1:0.5:0.05")
    payback.load("scenarios/venus-2019-uncertain.toml").montecarlo(samples=100_000)

Every result has an HTML view for notebooks; :mod:`payback.plot` draws them. Bad input raises
:class:`InputError` with the file, line and key. Monte Carlo and sweeps take a Dask
``client=`` to spread their samples over a cluster with the same result.
"""

from importlib.resources import files as _files

from . import _core, plot
from .data import (
    Prediction,
    Profile,
    bench,
    catalog,
    catalog_directory,
    predict,
    predict_devices,
    price_history,
    read_profile,
    workloads,
)
from .errors import InputError
from .results import Breakeven, Comparison, MonteCarlo, Sweep, Tornado
from .scenario import Scenario, keys, load, loads, metrics, scenario

# The package's own data (share/payback/pricing and scenarios), the place the library looks after
# $PAYBACK_PRICING_DIR and beside the running program (payback/base/data_directory.hpp).
_core.set_package_data_directory(str(_files(__name__) / "share" / "payback"))

__version__ = _core.version()  # the CMake project's version, as `payback --version` and the wheel

__all__ = [
    "Breakeven",
    "Comparison",
    "InputError",
    "MonteCarlo",
    "Prediction",
    "Profile",
    "Scenario",
    "Sweep",
    "Tornado",
    "bench",
    "catalog",
    "catalog_directory",
    "keys",
    "load",
    "loads",
    "metrics",
    "plot",
    "predict",
    "predict_devices",
    "price_history",
    "read_profile",
    "scenario",
    "workloads",
]
