"""Type stubs of payback._core, the private C++ module (use the package ``payback``).

One submodule per layer of the library it binds, as bindings/python/src has a file each: scenario,
model, whatif, market and workload, each with its stub beside this one; the module itself holds
the package's set-up (where its data is, its version). ``./dev typecheck`` checks the stubs
against the built module: ``python -m mypy.stubtest payback._core`` (every submodule: names,
classes, properties, methods) and tests/bindings/python/test_stubs.py (each function's parameters,
defaults and types against the signature pybind11 writes into its docstring). The dicts it returns
are typed in :mod:`payback.results`, :mod:`payback.scenario` and :mod:`payback.data` (TypedDicts),
each field as the C++ writes it.
"""

from typing import type_check_only

from . import market, model, scenario, whatif, workload

@type_check_only
class _pybind11_type(type):
    """pybind11_builtins.pybind11_type: the metaclass of every class pybind11 binds."""

def set_package_data_directory(directory: str) -> None: ...
def data_directory(which: str) -> tuple[str, str]: ...
def version() -> str: ...
