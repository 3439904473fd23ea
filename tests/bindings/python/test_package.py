"""The package as a unit: one version number everywhere, the data it finds and why, and the
command-line program it carries (``python -m payback``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import payback

from conftest import BINARY, ROOT


def cmake_version() -> str:
    match = re.search(r"project\(payback VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text())
    assert match is not None
    return match.group(1)


def test_one_version_everywhere() -> None:
    version = cmake_version()
    assert payback.__version__ == version
    first_line = subprocess.run([BINARY, "--version"], capture_output=True, text=True, check=True).stdout.splitlines()[0]
    assert first_line == f"payback {version}"
    # The wheel takes its version from the same line of CMakeLists.txt (tools/check_wheel.py checks
    # the built wheel's metadata too).
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    regex = project["tool"]["scikit-build"]["metadata"]["version"]
    assert regex["input"] == "CMakeLists.txt"
    value = re.search(regex["regex"], (ROOT / "CMakeLists.txt").read_text())
    assert value is not None and value.group("value") == version


def catalog_directory_in_new_interpreter(env: dict[str, str]) -> list[str]:
    """payback.catalog_directory() of a fresh interpreter: the lookup runs once per process."""
    code = "import payback; print(*payback.catalog_directory(), sep='\\n')"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout.splitlines()


def test_the_package_finds_its_own_data_and_says_so() -> None:
    env = {k: v for k, v in os.environ.items() if k != "PAYBACK_PRICING_DIR"}
    # The catalogs are found through the package (the module sits in the build tree's
    # python/payback/, which has no ../share beside it), at its share/payback/pricing.
    directory, reason = catalog_directory_in_new_interpreter(env)
    assert reason == "the Python package's data"
    assert Path(directory) == Path(payback.__file__).parent / "share" / "payback" / "pricing"
    assert Path(directory).resolve() == (ROOT / "pricing").resolve()


def test_pricing_variable_comes_first() -> None:
    env = dict(os.environ, PAYBACK_PRICING_DIR=str(ROOT / "tests" / "fixtures"))
    assert catalog_directory_in_new_interpreter(env) == [str(ROOT / "tests" / "fixtures"), "$PAYBACK_PRICING_DIR"]


def test_python_m_payback_runs_the_program() -> None:
    scenario = str(ROOT / "scenarios" / "venus-2019.toml")
    via_python = subprocess.run([sys.executable, "-m", "payback", "compare", scenario, "--json"], capture_output=True, text=True)
    direct = subprocess.run([BINARY, "compare", scenario, "--json"], capture_output=True, text=True)
    assert via_python.returncode == 0
    assert via_python.stdout == direct.stdout
    # Bad input keeps the program's exit code and its one line.
    bad = subprocess.run([sys.executable, "-m", "payback", "compare", "missing.toml"], capture_output=True, text=True)
    assert bad.returncode == 2
    assert bad.stderr.count("\n") == 1 and bad.stderr.startswith("payback: ")
